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
  t = await createTestApp({ env: { SMTP_URL: sink.url, LOG_LEVEL: 'debug' }, logStream: { write: (line) => void lines.push(line) } });
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

