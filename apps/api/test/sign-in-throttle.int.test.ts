import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimit } from '../src/db/schema';
import { createTestApp, type TestApp } from './harness';
import { BASE } from './http-client';
import { createOrganisation, PASSWORD } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Issue 29, "Accounts and plans": the sign-in limit per e-mail was check-then-act (a burst from
 * many addresses passed it) and eight bad passwords locked anyone's account for 15 minutes. Each
 * attempt is now counted atomically before the password is checked, a success resets the count,
 * and past a few failures each attempt waits a delay that doubles (capped) instead of a lock-out.
 */
let t: TestApp;
let sink: MailSink;
const FREE = 4;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, LOGIN_LIMIT_PER_EMAIL: String(FREE), LOGIN_LIMIT_PER_IP: '1000', LOGIN_DELAY_MAX_SECONDS: '2' } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const signInFrom = (email: string, password: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/jwt/create/', headers: { host: BASE, origin: `http://${BASE}`, 'content-type': 'application/json' }, remoteAddress, payload: { email, password } });
const failuresOf = async (email: string) => (await t.database.db.select({ count: rateLimit.count }).from(rateLimit).where(eq(rateLimit.key, `login:email:${email}`)))[0]?.count ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the sign-in limit per e-mail counts atomically and slows down instead of locking the owner out', () => {
  it('counts a burst of concurrent wrong passwords from many addresses exactly: only the free attempts reach the password check', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'burst' });
    const burst = await Promise.all(Array.from({ length: 24 }, (_, i) => signInFrom('owner@burst.test', `wrong ${i}`, `10.0.${i}.1`)));
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(24 - FREE);
    for (const refused of burst.filter((r) => r.statusCode === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.json()).toMatchObject({ errors: [{ code: 'throttled' }] });
    }
    expect(await failuresOf('owner@burst.test')).toBe(FREE);
  });

  it('lets the owner in with the right password once a short, growing delay has passed (no 15-minute lock-out), and a success resets the count', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'owner-waits' });
    const email = 'owner@owner-waits.test';
    for (let i = 0; i < FREE; i++) expect((await signInFrom(email, 'wrong')).statusCode).toBe(401);
    const first = await signInFrom(email, PASSWORD);
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe('1');

    await sleep(1100);
    expect((await signInFrom(email, 'wrong')).statusCode).toBe(401);
    const second = await signInFrom(email, PASSWORD);
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('2'); // doubled

    await sleep(2100);
    expect((await signInFrom(email, 'wrong')).statusCode).toBe(401);
    const capped = await signInFrom(email, PASSWORD);
    expect(capped.statusCode).toBe(429);
    expect(capped.headers['retry-after']).toBe('2'); // LOGIN_DELAY_MAX_SECONDS

    await sleep(2100);
    const ok = await signInFrom(email, PASSWORD);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await failuresOf(email)).toBe(0);
    // Counted afresh: a slip of the finger after signing in is not met with a wait.
    expect((await signInFrom(email, 'wrong')).statusCode).toBe(401);
    expect((await signInFrom(email, PASSWORD)).statusCode).toBe(200);
  });
});
