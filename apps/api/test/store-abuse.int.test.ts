import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { baseAccount, order, subscriptionTier } from '../src/db/schema';
import { endOwnTrials } from '../src/modules/plans/service';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, testConfig, type TestApp } from './harness';
import { Browser, solvedChallenge } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Issue 29, anonymous visitors of the web store: one script without an account can no longer hold
 * every seat, book them all "pay on site", or use up the month's booking quota. The limits are the
 * defaults an operator gets (config.ts); the attacker is a script that never solves a challenge.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let tour: { id: string; category: string; rule: string };
let accountId: string;
let other: Awaited<ReturnType<typeof buildApp>> | undefined;
const ZONE = 'Europe/Zurich';
const day = () => addDays(todayIn(ZONE), 5);
const HOST = 'floodshop.localhost';
const base = '/api/web-stores/flood';
const ATTACKER = '198.51.100.7';

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'floodshop', currency: 'CHF', time_zone: ZONE });
  accountId = (await owner.get('/api/users/me/')).json().base_account.id;
  tour = await sellableExperience(owner, 'Big boat');
  const rule = { experience: tour.id, valid_from: new Date().toISOString().slice(0, 10), start_times: ['10:00'], capacity: 200 };
  expect((await owner.put(`/api/schedule-rules/${tour.rule}/`, rule)).statusCode).toBe(200);
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  const made = await owner.post('/api/stores/', { name: 'Flood shop', slug: 'flood' });
  await owner.post(`/api/stores/${made.json().id}/add-experience/`, { experiences: [tour.id] });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
  await sink?.close();
});

/** A script's call: no challenge solved, from one address. */
const raw = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}, remoteAddress = ATTACKER) =>
  t.app.inject({ method, url, headers: { host: HOST, origin: `http://${HOST}`, ...headers }, remoteAddress, ...(payload ? { payload } : {}) });
const slotId = async () => (await raw('GET', `${base}/experiences/${tour.id}/day/?date=${day()}`)).json().slots[0].id as string;
const seatsLeft = async () => (await raw('GET', `${base}/experiences/${tour.id}/day/?date=${day()}`, undefined, { 'cache-control': 'no-cache' })).json().slots[0].seats_left as number;
const customer = (n: number) => ({ email: `guest${n}@example.com`, first_name: 'Gus', last_name: `Guest ${n}` });

describe('anonymous visitors of the web store', () => {
  it('stops a flood of carts, lines and orders from one address (challenge, then 429 with Retry-After), caps the seats it holds, and a second address still books', async () => {
    const slot = await slotId();
    // Carts: five freely, then each asks for a solved challenge, then 429 past the limit.
    const carts = [];
    for (let i = 0; i < 35; i++) carts.push(await raw('POST', `${base}/carts/`));
    expect(carts.slice(0, 5).map((r) => r.statusCode)).toEqual(Array(5).fill(201));
    expect(new Set(carts.slice(5, 30).map((r) => r.statusCode))).toEqual(new Set([403]));
    expect(carts[5]!.json()).toMatchObject({ type: 'client_error', errors: [{ code: 'challenge_required', attr: 'x-altcha' }] });
    const throttled = carts[30]!;
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ type: 'client_error', errors: [{ code: 'throttled' }] });
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(new Set(carts.slice(30).map((r) => r.statusCode))).toEqual(new Set([429]));

    // Seats: at most 30 in a cart and 60 from one address at once; a hold past a cap is given back.
    const own = carts.slice(0, 5).map((r) => r.json() as { id: string; token: string });
    const hold = (c: { id: string; token: string }, n: number) => raw('POST', `${base}/carts/${c.id}/lines/`, { slot, quantities: { [tour.category]: n } }, { 'x-cart-token': c.token });
    expect((await hold(own[0]!, 25)).statusCode).toBe(201);
    const pastCart = await hold(own[0]!, 10);
    expect(pastCart.statusCode).toBe(409);
    expect(pastCart.json().errors[0].detail).toMatch(/at most 30 seats/);
    expect((await hold(own[1]!, 25)).statusCode).toBe(201);
    const pastAddress = await hold(own[2]!, 25);
    expect(pastAddress.statusCode).toBe(409);
    expect(pastAddress.json().errors[0].detail).toMatch(/At most 60 seats/);
    expect(await seatsLeft()).toBe(150);
    // Lines one seat at a time: the address's cap holds, then the challenge, then 429.
    const lines = [];
    for (let i = 0; i < 60; i++) lines.push((await hold(own[3]!, 1)).statusCode);
    expect(lines.filter((s) => s === 201).length).toBeLessThanOrEqual(10);
    expect(lines).toContain(403);
    expect(lines.at(-1)).toBe(429);
    expect(await seatsLeft()).toBeGreaterThanOrEqual(140);

    // A pay-on-site order without a solved challenge is refused; a solved one books; a solution is good once.
    const booking = { cart: own[0]!.id, customer: customer(1), accept_terms: true, payment_option: 'pay_on_site' };
    const bare = await raw('POST', `${base}/orders/`, booking, { 'x-cart-token': own[0]!.token });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ type: 'client_error', errors: [{ code: 'challenge_required' }] });
    const forged = await raw('POST', `${base}/orders/`, booking, { 'x-cart-token': own[0]!.token, 'x-altcha': Buffer.from('{"challenge":{}}').toString('base64') });
    expect(forged.statusCode).toBe(403);
    const solution = await solvedChallenge(t.app, HOST, 'flood', ATTACKER);
    const booked = await raw('POST', `${base}/orders/`, booking, { 'x-cart-token': own[0]!.token, 'x-altcha': solution });
    expect(booked.statusCode, booked.body).toBe(201);
    const again = await raw('POST', `${base}/orders/`, { ...booking, cart: own[1]!.id }, { 'x-cart-token': own[1]!.token, 'x-altcha': solution });
    expect(again.json().errors[0].code).toBe('challenge_required');

    // Another address is not slowed by the first one's flood.
    const neighbour = new Browser(t.app, HOST).from('203.0.113.9');
    const c = await neighbour.post(`${base}/carts/`);
    expect(c.statusCode).toBe(201);
    const held = await neighbour.post(`${base}/carts/${c.json().id}/lines/`, { slot, quantities: { [tour.category]: 2 } }, { 'x-cart-token': c.json().token });
    expect(held.statusCode, held.body).toBe(201);
    const placed = await neighbour.post(`${base}/orders/`, { cart: c.json().id, customer: customer(2), accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': c.json().token });
    expect(placed.statusCode, placed.body).toBe(201);
  });

  it('keeps its counts in the shared store: another instance of the API on the same database sees them', async () => {
    const [row] = ((await t.database.db.execute(sql`select count from rate_limit where key like 'rl:store:cart:address:%' order by count desc limit 1`)) as unknown as { rows: { count: number }[] }).rows;
    expect(Number(row!.count)).toBeGreaterThanOrEqual(35);
    // Closed with the test's own app, after every test (as oversell.int.test.ts does with its second instance).
    other = await buildApp({ config: testConfig({ SMTP_URL: sink.url }), database: t.database });
    const res = await other.inject({ method: 'POST', url: `${base}/carts/`, headers: { host: HOST, origin: `http://${HOST}` }, remoteAddress: ATTACKER });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('counts bookings that stand in the monthly quota: a cancelled one gives its place back', async () => {
    await t.database.db.update(baseAccount).set({ trial_ends_at: sql`now() - interval '1 minute'` }).where(eq(baseAccount.id, accountId));
    await endOwnTrials(t.database.db);
    const [tier] = await t.database.db.select().from(subscriptionTier).where(eq(subscriptionTier.id, 'supplier-starter'));
    const [{ n }] = ((await t.database.db.execute(sql`select count(*)::int as n from booking where account_id = ${accountId} and status <> 'Canceled'`)) as unknown as { rows: { n: number }[] }).rows as [{ n: number }];
    // The plan allows one booking more this month than stand now (the tiers are the owner's table).
    await t.database.asOwner((tx) => tx.update(subscriptionTier).set({ limits: { ...tier!.limits, bookings_per_month: Number(n) + 1 } }).where(eq(subscriptionTier.id, 'supplier-starter')));
    const shopper = new Browser(t.app, HOST).from('203.0.113.20');
    const slot = await slotId();
    const book = async (i: number) => {
      const c = (await shopper.post(`${base}/carts/`)).json();
      expect((await shopper.post(`${base}/carts/${c.id}/lines/`, { slot, quantities: { [tour.category]: 1 } }, { 'x-cart-token': c.token })).statusCode).toBe(201);
      return shopper.post(`${base}/orders/`, { cart: c.id, customer: customer(i), accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': c.token });
    };
    const first = await book(10);
    expect(first.statusCode, first.body).toBe(201);
    const full = await book(11);
    expect(full.statusCode).toBe(403);
    expect(full.json().errors[0].code).toBe('plan_limit');
    const [made] = await t.database.db.select({ id: order.id }).from(order).where(eq(order.reference, first.json().reference));
    expect((await owner.post(`/api/orders/${made!.id}/cancel/`, {})).statusCode).toBeLessThan(300);
    const after = await book(12);
    expect(after.statusCode, after.body).toBe(201);
  });
});
