import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
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

/** What the back office's sign-in page does when told a challenge would let it through: fetch one, solve it, send X-Altcha. */
async function solvedSignInChallenge(remoteAddress = '127.0.0.1') {
  const res = await t.app.inject({ method: 'GET', url: '/api/jwt/challenge/', headers: { host: BASE }, remoteAddress });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  const challenge = res.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
const signInWith = (email: string, password: string, altcha: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/jwt/create/',
    headers: { host: BASE, origin: `http://${BASE}`, 'content-type': 'application/json', 'x-altcha': altcha },
    remoteAddress,
    payload: { email, password },
  });

/** Fails an e-mail's sign-in until its wait is at LOGIN_DELAY_MAX_SECONDS (2 s here: FREE failures, one more after 1 s). */
async function failUntilMaxDelay(email: string) {
  for (let i = 0; i < FREE; i++) expect((await signInFrom(email, 'wrong')).statusCode).toBe(401);
  await sleep(1100);
  expect((await signInFrom(email, 'wrong')).statusCode).toBe(401);
  expect(await failuresOf(email)).toBe(FREE + 1);
}

describe('past the longest wait, a solved challenge lets a sign-in through at once (a script firing as each wait ends cannot keep the owner out)', () => {
  it('answers 429 challenge_required without a solution, signs the owner in at once with one, and still counts a wrong password', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'challenged' });
    const email = 'owner@challenged.test';
    await failUntilMaxDelay(email);

    const bare = await signInFrom(email, PASSWORD);
    expect(bare.statusCode).toBe(429);
    expect(bare.headers['retry-after']).toBe('2');
    expect(bare.json()).toMatchObject({ type: 'client_error', errors: [{ code: 'challenge_required', attr: 'x-altcha' }] });

    // Let through without waiting, still counted; a wrong password still fails.
    const wrong = await signInWith(email, 'wrong', await solvedSignInChallenge());
    expect(wrong.statusCode, wrong.body).toBe(401);
    expect(await failuresOf(email)).toBe(FREE + 2);

    const ok = await signInWith(email, PASSWORD, await solvedSignInChallenge());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ subdomain: 'challenged' });
    expect(await failuresOf(email)).toBe(0);
  });

  it('refuses a solution used before and a forged one, and a script without solutions stays slowed while the owner signs in', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'scripted' });
    const email = 'owner@scripted.test';
    // Solved before the waits start, so that what follows runs well within the 2 s wait.
    const [solution, another, owners] = [await solvedSignInChallenge(), await solvedSignInChallenge(), await solvedSignInChallenge()];
    await failUntilMaxDelay(email);

    expect((await signInWith(email, 'wrong', solution)).statusCode).toBe(401);
    const reused = await signInWith(email, PASSWORD, solution);
    expect(reused.statusCode).toBe(429);
    expect(reused.json().errors[0].code).toBe('challenge_required');

    const { challenge } = JSON.parse(Buffer.from(another, 'base64').toString('utf8'));
    const forgedSolution = Buffer.from(JSON.stringify({ challenge, solution: { counter: 1, derivedKey: '000abc' } })).toString('base64');
    const tampered = Buffer.from(JSON.stringify({ challenge: { ...challenge, parameters: { ...challenge.parameters, keyPrefix: '' } }, solution: { counter: 0, derivedKey: 'ff' } })).toString('base64');
    for (const forged of [forgedSolution, tampered, Buffer.from('{"challenge":{}}').toString('base64'), 'not base64 at all']) {
      const res = await signInWith(email, PASSWORD, forged);
      expect(res.statusCode, forged).toBe(429);
      expect(res.json().errors[0].code).toBe('challenge_required');
    }

    // The script: a wrong password fired again and again, never a solution: each refused, nothing counted.
    const counted = await failuresOf(email);
    const script = await Promise.all(Array.from({ length: 10 }, (_, i) => signInFrom(email, `guess ${i}`, `10.9.${i}.1`)));
    expect(script.map((r) => r.statusCode)).toEqual(Array(10).fill(429));
    expect(await failuresOf(email)).toBe(counted);

    const owner = await signInWith(email, PASSWORD, owners);
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('asks for no challenge before the wait is at its longest: the first waits answer 429 throttled', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'early' });
    const email = 'owner@early.test';
    const solution = await solvedSignInChallenge(); // solved first: the first wait is only 1 s
    for (let i = 0; i < FREE; i++) expect((await signInFrom(email, 'wrong')).statusCode).toBe(401);
    const early = await signInWith(email, PASSWORD, solution);
    expect(early.statusCode).toBe(429);
    expect(early.json().errors[0].code).toBe('throttled');
  });
});
