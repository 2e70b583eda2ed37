import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation, PASSWORD } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/** Every log line of a full sign-up, sign-in, refresh and sign-out, read back at debug level. */
let t: TestApp;
let sink: MailSink;
const lines: string[] = [];

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({
    env: { SMTP_URL: sink.url, LOG_LEVEL: 'debug' },
    logStream: { write: (line) => void lines.push(line) },
    // A route that fails with its secret in the path: the error's log line is read too.
    configure: (app) => app.get('/api/failing/:token/', { config: { access: { public: true, reason: 'test' } } }, async () => {
      throw new Error('broken on purpose');
    }),
  });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('logs', () => {
  it('never contain a password, a token or a cookie', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'logs' });
    const secrets = [PASSWORD, owner.cookie('access_token')!, owner.cookie('refresh_token')!];
    expect((await owner.post('/api/jwt/refresh/')).statusCode).toBe(200);
    secrets.push(owner.cookie('access_token')!, owner.cookie('refresh_token')!);
    await new Browser(t.app).post('/api/jwt/create/', { email: 'owner@logs.test', password: 'wrong-password-123' });
    await owner.post('/api/logout/');
    secrets.push('wrong-password-123');

    expect(lines.length).toBeGreaterThan(10);
    const all = lines.join('\n');
    expect(all).toContain('/api/jwt/create/'); // requests are logged…
    for (const secret of secrets) expect(all).not.toContain(secret); // …their secrets are not
    expect(all).not.toMatch(/refresh_token=|access_token=/);
  });
});

describe('request logs never carry a token', () => {
  it('redacts the secrets of e-mailed links, sign-in hand-offs and invitation paths, in every log line of the request', async () => {
    const secret = (n: number) => `Sekret${n}x${randomBytes(12).toString('hex')}`;
    const s = Array.from({ length: 17 }, (_, i) => secret(i));
    const uid = randomUUID();
    const tenant = new Browser(t.app, 'logs.localhost');
    const bare = new Browser(t.app, 'localhost');
    // The links the platform e-mails (client routes of the web app) and what the sign-in sends.
    const addresses: [Browser, string, string][] = [
      [bare, 'GET', `/auth/activate/${uid}/${s[0]}`],
      [bare, 'GET', `/auth/reset-password/${uid}/${s[1]}`],
      [tenant, 'GET', `/auth/invite/${uid}/${s[2]}`],
      [bare, 'GET', `/auth/reset-email/${uid}/${s[3]}`],
      [bare, 'GET', `/auth/confirm-email/${uid}/${s[16]}`],
      [tenant, 'GET', `/auth/handoff?code=${s[4]}`],
      [tenant, 'GET', `/auth/oidc/callback?code=${s[5]}&state=${s[6]}`],
      [tenant, 'GET', `/sales/partners/invitation/${s[7]}`],
      [bare, 'GET', `/auth/login?next=${encodeURIComponent(`/sales/partners/invitation/${s[8]}`)}`],
      // The API's own routes whose path names a secret.
      [tenant, 'GET', `/api/partner-invitations/${s[9]}/`],
      [tenant, 'POST', `/api/partner-invitations/${s[10]}/accept/`],
      [tenant, 'POST', `/api/partner-invitations/${s[11]}/decline/`],
      [bare, 'GET', `/q/${s[12]}`],
      [tenant, 'GET', `/api/failing/${s[13]}/`],
      // Over the router's length limit (414) and with a secret in an unknown route's query.
      [tenant, 'GET', `/api/partner-invitations/${s[14]}${'y'.repeat(120)}/`],
      [tenant, 'GET', `/api/nowhere/?token=${s[15]}`],
    ];
    const before = lines.length;
    for (const [browser, method, url] of addresses) {
      const res = await browser.request(method, url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, url).toBeLessThan(600);
    }
    const logged = lines.slice(before).join('\n');
    expect(logged).toContain('incoming request');
    expect(logged).toContain('request completed');
    expect(logged).toContain('broken on purpose'); // the error's own line
    expect(logged).toContain('/auth/reset-password/'); // the paths are logged…
    expect(logged).toContain('/auth/confirm-email/');
    for (const token of s) expect(logged).not.toContain(token.slice(0, 12)); // …never their secrets
    expect(logged).not.toContain(uid);
  });
});

describe('in production', () => {
  let prod: TestApp;
  const prodLines: string[] = [];
  beforeAll(async () => {
    prod = await createTestApp({ env: { NODE_ENV: 'production', LOG_LEVEL: 'debug' }, logStream: { write: (line) => void prodLines.push(line) } });
  });
  afterAll(async () => {
    await prod?.close();
  });

  it('without SMTP, logs whom an e-mail was for but never its one-time link', async () => {
    const res = await new Browser(prod.app).post('/api/users/register/', { email: 'quiet@prod.test', password: PASSWORD, organisation_name: 'Quiet prod', kind: 'supplier', subdomain: 'quietprod' });
    expect(res.statusCode).toBe(201);
    // The e-mail worker delivers (here: logs) it just after the sign-up commits.
    await expect.poll(() => prodLines.join('\n'), { timeout: 10_000 }).toContain('e-mail to quiet@prod.test');
    const all = prodLines.join('\n');
    expect(all).not.toMatch(/token=|\/auth\/activate|uid=/);
  });

  it('marks session cookies Secure, on localhost too', async () => {
    const b = new Browser(prod.app, 'localhost');
    await b.post('/api/users/register/', { email: 'secure@prod.test', password: PASSWORD, organisation_name: 'Secure prod', kind: 'supplier', subdomain: 'secureprod' });
    await prod.database.db.update(users).set({ is_active: true }).where(eq(users.email, 'secure@prod.test'));
    const login = await b.post('/api/jwt/create/', { email: 'secure@prod.test', password: PASSWORD });
    expect(login.statusCode).toBe(200);
    const cookies = login.cookies as { name: string; secure?: boolean }[];
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) expect(c.secure, c.name).toBe(true);
  });
});

