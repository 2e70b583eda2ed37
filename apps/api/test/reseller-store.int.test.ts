import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebCart, ZWebOrder } from '@tourdesk/contracts';
import { booking, partnership, partnershipExperience } from '../src/db/schema';
import { sellableExperience } from './catalog-fixtures';
import { seedDemo } from '../src/seed/demo';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { startMailSink, type MailSink } from './mail-sink';
import { day, resaleWorld } from './resale-fixtures';

/**
 * A reseller sells its supplier's shared offer in its own web store: the Global catalog offers it,
 * the public store shows it, and the customer's hold, order and booking page are the supplier's
 * (its one pool of seats), named as the reseller's resale with the contract's commission.
 */
let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let contractId: string;
let storeId: string;
let guest: Browser;
const base = '/api/web-stores/agency';

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'rst');
  contractId = (await w.contract({ commission_bp: 1500, payment_collector: 'supplier' })).id;
  const made = await w.reseller.post('/api/stores/', { name: 'Agency shop', slug: 'agency' });
  expect(made.statusCode, made.body).toBe(201);
  storeId = made.json().id;
  guest = new Browser(t.app, 'rst-res.localhost');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const seatsLeft = async (n: number) => {
  const res = await w.supplier.get(`/api/bookings/check-availability/?experience=${w.exp.id}&date=${day(n)}`);
  return res.json()[0].remaining as number;
};

describe('a reseller’s own store', () => {
  it('offers its suppliers’ shared offers in the Global catalog, and adds one to the store', async () => {
    const eligible = await w.reseller.get(`/api/stores/${storeId}/eligible-experiences/`);
    expect(eligible.statusCode, eligible.body).toBe(200);
    expect(eligible.json().results).toEqual([expect.objectContaining({ experience: w.exp.id, title: 'rst kayak', supplier: expect.any(String) })]);
    // A third organisation, without a contract, cannot add it to a store of its own.
    const theirs = (await w.third.post('/api/stores/', { name: 'Other', slug: 'other' })).json().id;
    expect((await w.third.post(`/api/stores/${theirs}/add-experience/`, { experiences: [w.exp.id] })).statusCode).toBe(400);
    expect((await w.reseller.post(`/api/stores/${storeId}/add-experience/`, { experiences: [w.exp.id] })).statusCode).toBe(204);
    const listed = (await w.reseller.get(`/api/stores/${storeId}/experiences/`)).json();
    expect(listed.results).toEqual([expect.objectContaining({ experience: w.exp.id, supplier: expect.any(String), position: 0 })]);
    expect((await w.reseller.get(`/api/stores/${storeId}/eligible-experiences/`)).json().count).toBe(0);
  });

  it('shows the partner’s offer to customers, with its times from the supplier’s seats', async () => {
    const list = (await guest.get(`${base}/experiences/`)).json();
    expect(list.results).toEqual([expect.objectContaining({ id: w.exp.id, operated_by: expect.any(String), currency: 'CHF' })]);
    const offer = await guest.get(`${base}/experiences/${w.exp.id}/`);
    expect(offer.statusCode, offer.body).toBe(200);
    expect(offer.json().categories.length).toBeGreaterThan(0);
    const d = (await guest.get(`${base}/experiences/${w.exp.id}/day/?date=${day(21)}`)).json();
    expect(d.slots[0]).toMatchObject({ local_time: '10:00', seats_left: await seatsLeft(21) });
    const page = await guest.get(`/s/agency/offers/${w.exp.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('rst kayak');
    // The supplier's own host has no store of that address.
    expect((await new Browser(t.app, 'rst-sup.localhost').get(`${base}/experiences/`)).statusCode).toBe(404);
  });

  it('books it in the supplier’s books: the seats drop, the order is the reseller’s resale with its commission', async () => {
    const before = await seatsLeft(22);
    const { id: made, token } = (await guest.post(`${base}/carts/`)).json();
    const slotId = (await guest.get(`${base}/experiences/${w.exp.id}/day/?date=${day(22)}`)).json().slots[0].id;
    const held = await guest.post(`${base}/carts/${made}/lines/`, { slot: slotId, quantities: { [w.exp.category]: 3 } }, { 'x-cart-token': token });
    expect(held.statusCode, held.body).toBe(201);
    const c = ZWebCart.parse(held.json());
    // The empty cart moved to the supplier's books (a new id, the same secret).
    expect(c.id).not.toBe(made);
    expect(c.sold_by).toEqual(expect.any(String));
    expect(await seatsLeft(22)).toBe(before - 3);
    expect((await guest.get(`${base}/carts/${c.id}/`, { 'x-cart-token': token })).json().lines).toHaveLength(1);
    expect((await guest.get(`${base}/carts/${c.id}/`, { 'x-cart-token': 'not-it' })).statusCode).toBe(404);

    const placed = await guest.post(
      `${base}/orders/`,
      { cart: c.id, customer: { email: 'ria@example.com', first_name: 'Ria', last_name: 'Resold' }, accept_terms: true, payment_option: 'pay_on_site' },
      { 'x-cart-token': token },
    );
    expect(placed.statusCode, placed.body).toBe(201);
    const o = ZWebOrder.parse(placed.json());
    expect(o.manage_url).toMatch(/^http:\/\/rst-res\.localhost:3000\/s\/agency\/booking\//);
    await sink.latest('ria@example.com', /Your booking/);

    // The supplier's order, named as resold; the line's commission is 15 % of its gross.
    const mine = (await w.supplier.get(`/api/orders/?search=${o.reference}`)).json().results;
    expect(mine).toHaveLength(1);
    const [line] = await t.database.db.select().from(booking).where(eq(booking.order_id, mine[0].id));
    expect(line).toMatchObject({ partnership_id: contractId, reseller_account_id: w.ids.reseller, commission: Math.floor(o.total * 0.15) });
    // Both sides see the resale, with the reseller's store.
    const theirs = (await w.reseller.get('/api/resales/?side=reseller')).json();
    expect(theirs.results).toEqual(expect.arrayContaining([expect.objectContaining({ order_reference: o.reference, store: { id: storeId, name: 'Agency shop' } })]));
    // The store's figures count the cart and the order, though both are in the supplier's books.
    const figures = await w.reseller.get(`/api/stores/${storeId}/analytics/?from=${day(0)}&to=${day(0)}`);
    expect(figures.statusCode, figures.body).toBe(200);
    expect(figures.json().totals).toMatchObject({ carts: 1, orders: 1, seats: 3, revenue: o.total });
    // Another organisation asking for this store's figures learns nothing.
    expect((await w.third.get(`/api/stores/${storeId}/analytics/?from=${day(0)}&to=${day(0)}`)).statusCode).toBe(404);

    // The customer's page and tickets work on the reseller's host; cancelling under the policy too.
    const secret = o.manage_url.split('#')[1]!;
    const own = await guest.get(`${base}/orders/${o.reference}/`, { 'x-order-token': secret });
    expect(own.statusCode, own.body).toBe(200);
    expect((await guest.get(`${base}/orders/${o.reference}/tickets.pdf`, { 'x-order-token': secret })).statusCode).toBe(200);
    expect((await guest.get(`${base}/orders/${o.reference}/`, { 'x-order-token': 'wrong' })).statusCode).toBe(404);
  });

  it('keeps one seller per cart, and sells nothing once the contract is suspended', async () => {
    const { id: made, token } = (await guest.post(`${base}/carts/`)).json();
    const slotId = (await guest.get(`${base}/experiences/${w.exp.id}/day/?date=${day(23)}`)).json().slots[0].id;
    const cart = (await guest.post(`${base}/carts/${made}/lines/`, { slot: slotId, quantities: { [w.exp.category]: 1 } }, { 'x-cart-token': token })).json().id as string;
    // A second supplier's offer in the same store: a cart holding the first one's seats cannot take it too.
    const own = await sellableExperience(w.third, 'rst city walk');
    expect((await w.third.patch(`/api/experiences/${own.id}/`, { status: 'Active' })).statusCode).toBe(200);
    const [second] = await t.database.db
      .insert(partnership)
      .values({ supplier_account_id: w.ids.third, reseller_account_id: w.ids.reseller, invited_by_account_id: w.ids.third, status: 'Active', pricing: 'commission', commission_bp: 1000, payment_collector: 'supplier', currency: 'CHF' })
      .returning();
    await t.database.db.insert(partnershipExperience).values({ partnership_id: second!.id, account_id: w.ids.third, experience_id: own.id, net_rates: {} });
    expect((await w.reseller.post(`/api/stores/${storeId}/add-experience/`, { experiences: [own.id] })).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 2100));
    const ownSlot = (await guest.get(`${base}/experiences/${own.id}/day/?date=${day(23)}`)).json().slots[0].id;
    const mixed = await guest.post(`${base}/carts/${cart}/lines/`, { slot: ownSlot, quantities: { [own.category]: 1 } }, { 'x-cart-token': token });
    expect(mixed.statusCode, mixed.body).toBe(409);
    expect(mixed.json().errors[0].detail).toMatch(/^Your cart holds offers of .+: book them first, or remove them/);

    await t.database.db.update(partnership).set({ status: 'Suspended' }).where(eq(partnership.id, contractId));
    // The hold already made cannot become an order: the contract is read again at the sale.
    const refused = await guest.post(`${base}/orders/`, { cart, customer: { email: 'sam@example.com', first_name: 'Sam', last_name: 'S' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().errors[0].detail).toMatch(/suspended/);
    // And the store stops showing it (after its two-second cache).
    await new Promise((r) => setTimeout(r, 2100));
    expect((await guest.get(`${base}/experiences/`)).json().results.map((o: { id: string }) => o.id)).toEqual([own.id]);
    expect((await guest.get(`${base}/experiences/${w.exp.id}/day/?date=${day(23)}`)).statusCode).toBe(404);
    expect((await guest.post(`${base}/carts/${cart}/lines/`, { slot: slotId, quantities: { [w.exp.category]: 1 } }, { 'x-cart-token': token })).statusCode).toBe(400);
    await t.database.db.update(partnership).set({ status: 'Active' }).where(eq(partnership.id, contractId));
  });
});

describe('a supplier’s QR code that leads to its partner’s store', () => {
  it('points at a store of a reseller that sells its offers, counts the scan, and records the order of its offer sold there', async () => {
    await new Promise((r) => setTimeout(r, 2100)); // the store's two-second cache, after the suspension above
    const stores = await w.supplier.get('/api/qr-codes/partner-stores/');
    expect(stores.statusCode, stores.body).toBe(200);
    expect(stores.json()).toEqual([{ id: storeId, name: 'Agency shop', partner: expect.any(String), partnership: contractId, url: 'http://rst-res.localhost:3000/s/agency/' }]);
    // Each supplier sees the store under its own contract only (the third organisation supplies it
    // too, above); the reseller, no supplier, sees none and cannot aim a code at it as a partner's.
    expect((await w.third.get('/api/qr-codes/partner-stores/')).json().map((x: { partnership: string }) => x.partnership)).not.toContain(contractId);
    expect((await w.reseller.get('/api/qr-codes/partner-stores/')).json()).toEqual([]);
    const notTheirs = await w.reseller.post('/api/qr-codes/', { name: 'Hotel lobby', target: 'partner_store', store: storeId });
    expect(notTheirs.statusCode).toBe(400);
    expect(notTheirs.json().errors[0]).toMatchObject({ attr: 'store', detail: 'Choose a store of a partner that sells your offers.' });
    expect((await w.supplier.post('/api/qr-codes/', { name: 'Wrong', target: 'store', store: storeId })).statusCode).toBe(400);

    const made = await w.supplier.post('/api/qr-codes/', { name: 'Hotel lobby', campaign: 'Winter', target: 'partner_store', store: storeId });
    expect(made.statusCode, made.body).toBe(201);
    const code = made.json();
    expect(code).toMatchObject({ target: 'partner_store', store: storeId, store_name: 'Agency shop', partner_name: expect.any(String), target_url: 'http://rst-res.localhost:3000/s/agency/', url: `http://rst-sup.localhost:3000/q/${code.code}` });

    // The scan on the supplier's host counts for the supplier and leads to the partner's host.
    const scanned = await new Browser(t.app, 'rst-sup.localhost').get(`/q/${code.code}`);
    expect(scanned.statusCode).toBe(302);
    expect(scanned.headers.location).toBe(`http://rst-res.localhost:3000/s/agency/?qr=${code.code}`);

    // The customer books the supplier's kayak there, the store sending the code as it does.
    const qr = { 'x-qr-code': code.code };
    const { id: made2, token } = (await guest.post(`${base}/carts/`, {}, qr)).json();
    const slotId = (await guest.get(`${base}/experiences/${w.exp.id}/day/?date=${day(24)}`)).json().slots[0].id;
    const held = await guest.post(`${base}/carts/${made2}/lines/`, { slot: slotId, quantities: { [w.exp.category]: 2 } }, { 'x-cart-token': token, ...qr });
    expect(held.statusCode, held.body).toBe(201);
    const placed = await guest.post(`${base}/orders/`, { cart: held.json().id, customer: { email: 'quinn@example.com', first_name: 'Quinn', last_name: 'QR' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
    expect(placed.statusCode, placed.body).toBe(201);
    const listed = (await w.supplier.get('/api/qr-codes/')).json().results.find((c: { id: string }) => c.id === code.id);
    expect(listed).toMatchObject({ scans: 1, orders: 1, revenue: placed.json().total });

    // Once the partnership is not Active, the code leads nowhere (and says so), and the list shows no target.
    await t.database.db.update(partnership).set({ status: 'Suspended' }).where(eq(partnership.id, contractId));
    expect((await new Browser(t.app, 'rst-sup.localhost').get(`/q/${code.code}`)).statusCode).toBe(404);
    expect((await w.supplier.get(`/api/qr-codes/${code.id}/`)).json()).toMatchObject({ target_url: null, store_name: null });
    await t.database.db.update(partnership).set({ status: 'Active' }).where(eq(partnership.id, contractId));
  });
});

describe('the demo', () => {
  // Seeding the whole demo on PGlite takes tens of seconds on a busy two-core machine.
  it('has the agency’s own store selling the demo supplier’s kayak', { timeout: 120_000 }, async () => {
    expect(await seedDemo(t.database.db)).toBe(true);
    const visitor = new Browser(t.app, 'alpine-agency.localhost');
    const list = (await visitor.get('/api/web-stores/tours/experiences/')).json() as { results: { title: string; operated_by: string | null }[] };
    expect(list.results.map((o) => o.title)).toContain('Sunrise Kayak on Lake Lucerne');
    expect(list.results.every((o) => o.operated_by === 'Alpine Trails & Tours')).toBe(true);
  });
});
