import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
