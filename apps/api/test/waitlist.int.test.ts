import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWaitlist } from '@tourdesk/contracts';
import { addDays, todayIn } from '../src/lib/local-time';
import { sweepExpiredHolds } from '../src/modules/availability/holds';
import { offerDueSeats } from '../src/modules/waitlist/service';
import { publicStores } from '../src/modules/web-store/scope';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * A departure's waiting list (issue 32): a customer joins a sold-out time in the web store; seats
 * freed (a cancellation, a capacity raised, an offer run out) go to the first entry whose seats
 * fit, held for it in a guest cart (the one pool: nobody else can take them) and e-mailed as a link
 * that opens that cart; booking it marks the entry booked. Staff see and manage the list.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let stranger: Browser;
let guest: Browser;
let tour: { id: string; category: string };
const ZONE = 'Europe/Zurich';
const day = (n = 5) => addDays(todayIn(ZONE), n);
const base = '/api/web-stores/wait';
const customer = { email: 'counter@example.com', first_name: 'Cora', last_name: 'Counter' };
const onServer = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  sink = await startMailSink();
  // Each join here is sent twice (refused without a challenge, then with one): room for the test's joins.
  t = await createTestApp({ env: { SMTP_URL: sink.url, STORE_ORDERS_PER_ADDRESS: '100' } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'waitshop', currency: 'CHF', time_zone: ZONE });
  stranger = await createOrganisation(t.app, sink, { subdomain: 'othershop', currency: 'CHF', time_zone: ZONE });
  expect((await owner.patch('/api/product-configuration/', { languages: ['en', 'de', 'fr'] })).statusCode).toBe(200);
  tour = await sellableExperience(owner, 'Glacier walk');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  const store = (await owner.post('/api/stores/', { name: 'Wait shop', slug: 'wait' })).json().id;
  await owner.post(`/api/stores/${store}/add-experience/`, { experiences: [tour.id] });
  guest = new Browser(t.app, 'waitshop.localhost');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** The slot of the tour on a day, its capacity set by hand. */
async function slotWithCapacity(n: number, capacity: number, offer = tour.id) {
  const id = (await guest.get(`${base}/experiences/${offer}/day/?date=${day(n)}`)).json().slots[0].id as string;
  expect((await owner.patch(`/api/start-times/${id}/`, { capacity })).statusCode).toBe(200);
  return id;
}
/** A counter sale of `seats` seats: the order and its one booking. */
async function sell(slot: string, seats: number, category = tour.category) {
  const held = await owner.post('/api/cart/lines/', { slot, quantities: { [category]: seats } });
  expect(held.statusCode, held.body).toBe(201);
  const order = await owner.post('/api/cart/checkout/', { customer });
  expect(order.statusCode, order.body).toBe(201);
  return { id: order.json().id as string, booking: order.json().bookings[0].id as string };
}
const join = (slot: string, email: string, seats: number, language?: string) => guest.post(`${base}/waitlist/`, { slot, email, name: email.split('@')[0], seats, ...(language ? { language } : {}) });
const list = async (slot: string) => ZWaitlist.parse((await owner.get(`/api/start-times/${slot}/waitlist/`)).json());
const statusOf = async (slot: string) => Object.fromEntries((await list(slot)).results.map((e) => [e.email, e.status]));
const seatsLeft = async (slot: string, n = 5) => (await guest.get(`${base}/experiences/${tour.id}/day/?date=${day(n)}`, { 'cache-control': 'no-cache' })).json().slots[0].seats_left as number;
/** The cart and secret of an offer's link (…/checkout#waitlist=<cart>.<secret>). */
function offerLink(text: string) {
  const m = text.match(/https?:\/\/\S+#waitlist=([0-9a-f-]{36})\.([A-Za-z0-9_-]+)/);
  if (!m) throw new Error(`no offer link in: ${text}`);
  return { url: m[0], cart: m[1]!, token: m[2]! };
}
/** Lets an offer's hold run out (as time would). */
async function runOut(slot: string, email: string) {
  await t.database.db.execute(sql`update cart_line set expires_at = now() - interval '1 second' where cart_id = (select cart_id from waitlist_entry where slot_id = ${slot}::uuid and email = ${email})`);
  await t.database.db.execute(sql`update waitlist_entry set offered_until = now() - interval '1 second' where slot_id = ${slot}::uuid and email = ${email}`);
}

describe('a departure’s waiting list', () => {
  let slot: string;
  let first: { id: string; booking: string };

  it('is joined only when the seats asked for are not free, once per e-mail, in order', async () => {
    slot = await slotWithCapacity(5, 2);
    const early = await join(slot, 'ann@example.com', 1);
    expect(early.statusCode).toBe(409);
    expect(early.json().errors[0]).toMatchObject({ code: 'conflict', attr: 'seats' });
    first = await sell(slot, 1);
    await sell(slot, 1);
    const a = await join(slot, 'ann@example.com', 1);
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({ position: 1, seats: 1 });
    expect((await join(slot, 'ben@example.com', 2, 'de')).json()).toMatchObject({ position: 2, seats: 2 });
    expect((await join(slot, 'cleo@example.com', 1, 'fr')).json()).toMatchObject({ position: 3 });
    // Like a pay-on-site order, a join always carries a solved challenge.
    const unsolved = await guest.post(`${base}/waitlist/`, { slot, email: 'bot@example.com', name: 'Bot', seats: 1 }, { 'x-altcha': 'not-solved' });
    expect(unsolved.statusCode).toBe(403);
    expect(unsolved.json().errors[0].code).toBe('challenge_required');
    const twice = await join(slot, 'ANN@example.com', 2);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().errors[0]).toMatchObject({ code: 'conflict', attr: 'email', detail: 'You are already on the waiting list of this time with this e-mail address.' });
    const l = await list(slot);
    expect(l.seats_left).toBe(0);
    expect(l.hold_minutes).toBe(720);
    expect(l.results.map((e) => [e.email, e.seats, e.status, e.position, e.language])).toEqual([
      ['ann@example.com', 1, 'waiting', 1, 'en'],
      ['ben@example.com', 2, 'waiting', 2, 'de'],
      ['cleo@example.com', 1, 'waiting', 3, 'fr'],
    ]);
  });

  it('is another organisation’s 404, and another host’s store does not take it', async () => {
    expect((await stranger.get(`/api/start-times/${slot}/waitlist/`)).statusCode).toBe(404);
    const entry = (await list(slot)).results[0]!.id;
    expect((await stranger.delete(`/api/start-times/${slot}/waitlist/${entry}/`)).statusCode).toBe(404);
    expect((await stranger.post(`/api/start-times/${slot}/waitlist/${entry}/offer/`)).statusCode).toBe(404);
    // The other organisation's store of the same address does not sell this time.
    expect((await stranger.post('/api/stores/', { name: 'Other wait', slug: 'wait' })).statusCode).toBe(201);
    const elsewhere = await new Browser(t.app, 'othershop.localhost').post(`${base}/waitlist/`, { slot, email: 'x@example.com', name: 'X', seats: 1 });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().errors[0]).toMatchObject({ attr: 'slot', detail: 'This time is not sold in this store.' });
    expect((await list(slot)).results).toHaveLength(3);
  });

  it('offers a cancelled seat to the first entry whose seats fit, held for it alone, by e-mail', async () => {
    expect((await owner.post(`/api/bookings/${first.booking}/cancel/`)).statusCode).toBe(200);
    // One seat free: Ann (1) gets it; Ben (2) would not fit.
    const l = await list(slot);
    expect(l.results.map((e) => e.status)).toEqual(['offered', 'waiting', 'waiting']);
    const offered = l.results[0]!;
    const hours = (Date.parse(offered.offered_until!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    // Held: the store sells it to nobody else.
    expect(await seatsLeft(slot)).toBe(0);
    const cart = (await guest.post(`${base}/carts/`, {})).json();
    const other = await guest.post(`${base}/carts/${cart.id}/lines/`, { slot, quantities: { [tour.category]: 1 } }, { 'x-cart-token': cart.token });
    expect(other.statusCode).toBe(409);
    expect(other.json().errors[0].code).toBe('sold_out');
    const mail = await sink.latest('ann@example.com', /Seats for you: Glacier walk/);
    expect(mail.text).toContain('Hello ann,');
    expect(mail.text).toContain('1 seat of Glacier walk on');
    const link = offerLink(mail.text);
    expect(link.url).toMatch(/^http:\/\/waitshop\.localhost:3000\/s\/wait\/checkout#waitlist=/);
    // The link opens a cart holding the seat.
    const held = await guest.get(`${base}/carts/${link.cart}/`, { 'x-cart-token': link.token });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json().lines).toMatchObject([{ seats: 1, total: 4900 }]);
  });

  it('offers the next entry when an offer runs out unused', async () => {
    await runOut(slot, 'ann@example.com');
    expect(await offerDueSeats(t.database.db, t.app.jobs)).toBe(1);
    // Ben's two seats still do not fit: Cléo (1) is next.
    expect(await statusOf(slot)).toEqual({ 'ann@example.com': 'expired', 'ben@example.com': 'waiting', 'cleo@example.com': 'offered' });
    const mail = await sink.latest('cleo@example.com', /Des places pour vous/);
    expect(mail.text).toContain('1 place pour Glacier walk');
    expect(offerLink(mail.text).url).toMatch(/\/s\/wait\/fr\/checkout#waitlist=/);
    // Nothing more to do: a second run offers nothing.
    expect(await offerDueSeats(t.database.db, t.app.jobs)).toBe(0);
  });

  it('keeps an offer whose customer is paying online past its time (the payment extends the line’s hold)', async () => {
    // As holdLinesUntil() (payments/online.ts) does when Stripe Checkout opens near the end of the offer.
    await t.database.db.execute(sql`update cart_line set expires_at = now() + interval '30 minutes' where cart_id = (select cart_id from waitlist_entry where slot_id = ${slot}::uuid and email = 'cleo@example.com')`);
    await t.database.db.execute(sql`update waitlist_entry set offered_until = now() - interval '1 second' where slot_id = ${slot}::uuid and email = 'cleo@example.com'`);
    await offerDueSeats(t.database.db, t.app.jobs);
    expect((await statusOf(slot))['cleo@example.com']).toBe('offered');
  });

  it('marks the entry booked when its cart is booked', async () => {
    const { cart, token } = offerLink((await sink.latest('cleo@example.com', /Des places pour vous/)).text);
    const placed = await guest.post(`${base}/orders/`, { cart, customer: { email: 'cleo@example.com', first_name: 'Cléo', last_name: 'Waits' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
    expect(placed.statusCode, placed.body).toBe(201);
    const cleo = (await list(slot)).results.find((e) => e.email === 'cleo@example.com')!;
    expect(cleo).toMatchObject({ status: 'booked', order_reference: placed.json().reference, position: 0 });
  });

  it('offers a raised capacity, lets staff remove an entry (its seats go to the next) and offer by hand', async () => {
    // The store holds offered seats 90 minutes from now on (its setting; 15 minutes at least).
    const storeId = (await owner.get('/api/stores/')).json().results.find((x: { slug: string }) => x.slug === 'wait').id;
    expect((await owner.patch(`/api/stores/${storeId}/`, { waitlist_hold_minutes: 5 })).statusCode).toBe(400);
    const set = await owner.patch(`/api/stores/${storeId}/`, { waitlist_hold_minutes: 90 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().waitlist_hold_minutes).toBe(90);
    // Two more seats: Ben's two fit.
    expect((await owner.patch(`/api/start-times/${slot}/`, { capacity: 4 })).statusCode).toBe(200);
    expect((await statusOf(slot))['ben@example.com']).toBe('offered');
    const held = (await list(slot)).results.find((e) => e.email === 'ben@example.com')!;
    expect((Date.parse(held.offered_until!) - Date.now()) / 60_000).toBeGreaterThan(89);
    expect((Date.parse(held.offered_until!) - Date.now()) / 60_000).toBeLessThanOrEqual(90);
    expect((await sink.latest('ben@example.com', /Plätze für Sie/)).text).toContain('2 Plätze für Glacier walk');
    const ben = (await list(slot)).results.find((e) => e.email === 'ben@example.com')!;
    // A guide may read the list; removing needs Manage orders (declared like the orders' routes).
    const removed = await owner.delete(`/api/start-times/${slot}/waitlist/${ben.id}/`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(ZWaitlist.parse(removed.json()).seats_left).toBe(2);
    expect((await statusOf(slot))['ben@example.com']).toBe('removed');
    // Ann's offer had run out: staff offer her seat again by hand.
    const ann = (await list(slot)).results.find((e) => e.email === 'ann@example.com')!;
    const again = await owner.post(`/api/start-times/${slot}/waitlist/${ann.id}/offer/`);
    expect(again.statusCode, again.body).toBe(200);
    expect(ZWaitlist.parse(again.json())).toMatchObject({ seats_left: 1 });
    expect((await statusOf(slot))['ann@example.com']).toBe('offered');
    // Offered twice is refused; an entry whose seats are not free too.
    expect((await owner.post(`/api/start-times/${slot}/waitlist/${ann.id}/offer/`)).statusCode).toBe(409);
    expect((await owner.delete(`/api/start-times/${slot}/waitlist/${ann.id}/`)).statusCode).toBe(200);
    expect(await seatsLeft(slot)).toBe(2);
  });

  it('offers two seats freed at once by two cancellations to two entries, each once', async () => {
    const s = await slotWithCapacity(6, 2);
    const a = await sell(s, 1);
    const b = await sell(s, 1);
    for (const email of ['dora@example.com', 'eli@example.com', 'fay@example.com']) expect((await join(s, email, 1)).statusCode).toBe(201);
    const cancels = await Promise.all([a, b].map((o) => owner.post(`/api/bookings/${o.booking}/cancel/`)));
    expect(cancels.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await statusOf(s)).toEqual({ 'dora@example.com': 'offered', 'eli@example.com': 'offered', 'fay@example.com': 'waiting' });
    const held = await t.database.db.execute(sql`select held, booked, (select count(*)::int from cart_line where slot_id = ${s}::uuid) as lines from slot where id = ${s}::uuid`);
    expect((held as unknown as { rows: unknown[] }).rows[0]).toEqual({ held: 2, booked: 0, lines: 2 });
  });

  it('offers a family the seats of its categories at their prices, not the full ticket for each', async () => {
    const child = (await owner.post('/api/pricing-categories/', { type: 'Child', label: 'Child' })).json().id as string;
    expect((await owner.post('/api/pricing-rates/', { experience: tour.id, pricing_category: child, retail_price: 2000 })).statusCode).toBe(201);
    const s = await slotWithCapacity(9, 2);
    const sold = await sell(s, 2);
    const family = { [tour.category]: 1, [child]: 1 };
    const joined = await guest.post(`${base}/waitlist/`, { slot: s, email: 'kim@example.com', name: 'Kim', seats: 5, quantities: family });
    expect(joined.statusCode, joined.body).toBe(201);
    // The seats are what the categories take, whatever `seats` said.
    expect(joined.json().seats).toBe(2);
    // A category the offer does not sell is refused with why.
    const stray = await guest.post(`${base}/waitlist/`, { slot: s, email: 'lou@example.com', name: 'Lou', seats: 1, quantities: { [randomUUID()]: 1 } });
    expect(stray.statusCode, stray.body).toBe(400);
    expect((await owner.post(`/api/bookings/${sold.booking}/cancel/`)).statusCode).toBe(200);
    expect(await statusOf(s)).toEqual({ 'kim@example.com': 'offered' });
    const { cart, token } = offerLink((await sink.latest('kim@example.com', /Seats for you/)).text);
    const held = (await guest.get(`${base}/carts/${cart}/`, { 'x-cart-token': token })).json();
    // An adult's and a child's price, not two full tickets (2 × 49.00).
    expect(held.lines).toMatchObject([{ seats: 2, total: 4900 + 2000 }]);
  });

  it('leaves an entry the offer’s rules refuse waiting, and the cancellation that freed the seats commits', async () => {
    const group = await sellableExperience(owner, 'Group canyoning');
    expect((await owner.patch(`/api/experiences/${group.id}/`, { status: 'Active', min_participants: 2 })).statusCode).toBe(200);
    const storeId = (await owner.get('/api/stores/')).json().results.find((x: { slug: string }) => x.slug === 'wait').id;
    await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [group.id] });
    // An offer added shows in the store within two seconds (each process keeps the store's offers
    // that long: web-store/scope.ts); the test does not wait them out.
    publicStores.clear();
    const s = await slotWithCapacity(5, 2, group.id);
    const sold = await sell(s, 2, group.category);
    expect((await join(s, 'ivy@example.com', 1)).statusCode).toBe(201);
    const cancelled = await owner.post(`/api/bookings/${sold.booking}/cancel/`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await statusOf(s)).toEqual({ 'ivy@example.com': 'waiting' });
    expect((await list(s)).seats_left).toBe(2);
  });

  // Two seats freed at once by two holds running out (swept by their own job), and two runs of the
  // offer at once (the job on two processes, or the job beside a staff action): under the slot's
  // lock the second sees the first's hold. Without the lock (tried once: lockSlot removed from
  // offerFreedSeats) both runs offered Gil the same seat: two carts, two e-mails, and held 2.
  it.runIf(onServer)('two runs at once after two holds ran out offer the first entry once', async () => {
    const s = await slotWithCapacity(7, 2);
    for (const n of [1, 2]) {
      const c = (await guest.post(`${base}/carts/`, {})).json();
      expect((await guest.post(`${base}/carts/${c.id}/lines/`, { slot: s, quantities: { [tour.category]: 1 } }, { 'x-cart-token': c.token })).statusCode, `hold ${n}`).toBe(201);
    }
    // Gil wants one seat, Hana three: only Gil's fit once two are free.
    expect((await join(s, 'gil@example.com', 1)).statusCode).toBe(201);
    expect((await join(s, 'hana@example.com', 3)).statusCode).toBe(201);
    await t.database.db.execute(sql`update cart_line set expires_at = now() - interval '1 second' where slot_id = ${s}::uuid`);
    // The expiry sweep takes the two lines (its own job): two seats are free, nobody is offered them yet.
    expect(await sweepExpiredHolds(t.database.db)).toBeGreaterThanOrEqual(2);
    expect(await seatsLeft(s, 7)).toBe(2);
    const runs = await Promise.all([offerDueSeats(t.database.db, t.app.jobs), offerDueSeats(t.database.db, t.app.jobs)]);
    expect(runs.reduce((n, r) => n + r, 0)).toBe(1);
    expect(await statusOf(s)).toEqual({ 'gil@example.com': 'offered', 'hana@example.com': 'waiting' });
    const rows = (await t.database.db.execute(sql`select held, (select count(*)::int from cart_line where slot_id = ${s}::uuid) as lines from slot where id = ${s}::uuid`)) as unknown as { rows: unknown[] };
    expect(rows.rows[0]).toEqual({ held: 1, lines: 1 });
    expect(await seatsLeft(s, 7)).toBe(1);
  });
});

describe('cancellations outside the back office', () => {
  it('a customer’s cancel on their booking page gives the seat to the list in that cancel, before any job runs', async () => {
    const policy = (await owner.post('/api/cancellation-policies/', { name: 'Flexible', rules: [{ hours_before: 24, refund_percent: 100 }, { hours_before: 0, refund_percent: 0 }] })).json().id;
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { cancellation_policy: policy })).statusCode).toBe(200);
    const s = await slotWithCapacity(8, 1);
    const { id: cart, token } = (await guest.post(`${base}/carts/`)).json();
    const held = await guest.post(`${base}/carts/${cart}/lines/`, { slot: s, quantities: { [tour.category]: 1 } }, { 'x-cart-token': token });
    expect(held.statusCode, held.body).toBe(201);
    const placed = await guest.post(`${base}/orders/`, { cart, lines: [held.json().lines[0].id], customer: { email: 'walker@example.com', first_name: 'Wal', last_name: 'Ker' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
    expect(placed.statusCode, placed.body).toBe(201);
    expect((await join(s, 'dana@example.com', 1)).statusCode).toBe(201);
    const secret = placed.json().manage_url.split('#')[1];
    const cancelled = await guest.post(`${base}/orders/${placed.json().reference}/cancel/`, {}, { 'x-order-token': secret });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await statusOf(s)).toEqual({ 'dana@example.com': 'offered' });
    expect(await seatsLeft(s, 8)).toBe(0);
  });

  it('holds nothing for a store switched off (its pages could not take the booking): its entries wait until it is on again', async () => {
    const shop = (await owner.get('/api/stores/?search=wait')).json().results[0].id as string;
    const s = await slotWithCapacity(10, 1);
    const sold = await sell(s, 1);
    expect((await join(s, 'eve@example.com', 1)).statusCode).toBe(201);
    expect((await owner.patch(`/api/stores/${shop}/`, { active: false })).statusCode).toBe(200);
    expect((await owner.post(`/api/bookings/${sold.booking}/cancel/`)).statusCode).toBe(200);
    expect(await statusOf(s)).toEqual({ 'eve@example.com': 'waiting' });
    expect((await owner.patch(`/api/stores/${shop}/`, { active: true })).statusCode).toBe(200);
    await offerDueSeats(t.database.db, t.app.jobs);
    expect(await statusOf(s)).toEqual({ 'eve@example.com': 'offered' });
  });
});
