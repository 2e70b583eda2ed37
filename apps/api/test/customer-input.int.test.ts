import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer } from '../src/db/schema';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { startMailSink, type MailSink } from './mail-sink';
import { newKeySecret, partnerClient } from './octo-fixtures';
import { day, resaleWorld } from './resale-fixtures';

/**
 * Issue 29, "anonymous and partner input overwrites an existing customer's name, phone and country
 * when the e-mail matches, and a reseller reads back the supplier customer's stored last name":
 * each order keeps the details given with it; only a team member's own sale updates the customer.
 */
let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let api: ReturnType<typeof partnerClient>;
let guest: Browser;
let customerId: string;
const base = '/api/web-stores/vicshop';
const EMAIL = 'vic@example.com';
const original = { first_name: 'Victoria', last_name: 'Original', phone: '+41 79 000 00 00', country: 'CH' };

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'cin');
  const contract = await w.contract({ commission_bp: 1000, payment_collector: 'supplier' });
  const store = await w.supplier.post('/api/stores/', { name: 'Vic shop', slug: 'vicshop' });
  expect(store.statusCode, store.body).toBe(201);
  expect((await w.supplier.post(`/api/stores/${store.json().id}/add-experience/`, { experiences: [w.exp.id] })).statusCode).toBe(204);
  const key = newKeySecret();
  await t.database.asOwner((tx) => tx.execute(sql`insert into api_key (account_id, partnership_id, name, prefix, secret_hash) values (${w.ids.supplier}, ${contract.id}, 'cin key', ${key.prefix}, ${key.hash})`));
  api = partnerClient(t.app, key.secret);
  guest = new Browser(t.app, 'cin-sup.localhost');
  const made = await w.supplier.post('/api/customers/', { email: EMAIL, ...original });
  expect(made.statusCode, made.body).toBe(201);
  customerId = made.json().id;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const stored = async () => (await t.database.db.select().from(customer).where(eq(customer.id, customerId)))[0]!;
const expectUnchanged = async () => expect(await stored()).toMatchObject({ email: EMAIL, ...original });

describe('anonymous and partner input never overwrites an existing customer; each order keeps the details given with it', () => {
  it('a web store order with a known e-mail leaves the customer as it was; the order and its page show what was given', async () => {
    const { id, token } = (await guest.post(`${base}/carts/`)).json();
    const slot = (await guest.get(`${base}/experiences/${w.exp.id}/day/?date=${day(5)}`)).json().slots[0].id;
    const held = await guest.post(`${base}/carts/${id}/lines/`, { slot, quantities: { [w.exp.category]: 1 } }, { 'x-cart-token': token });
    expect(held.statusCode, held.body).toBe(201);
    const placed = await guest.post(
      `${base}/orders/`,
      { cart: held.json().id, customer: { email: 'VIC@example.com', first_name: 'Eve', last_name: 'Attacker', phone: '+1 555 0100', country: 'US' }, accept_terms: true, payment_option: 'pay_on_site' },
      { 'x-cart-token': token },
    );
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().customer).toMatchObject({ first_name: 'Eve', last_name: 'Attacker', email: EMAIL });
    await expectUnchanged();
    // The back office's order is the known customer's, with the name it was booked under.
    const [row] = (await w.supplier.get(`/api/orders/?search=${placed.json().reference}`)).json().results;
    expect(row.customer).toMatchObject({ id: customerId, first_name: 'Eve', last_name: 'Attacker' });
    // The door, the manifest and the bookings list call the guest by the name booked under, too.
    const ticket = (await w.supplier.get(`/api/check-in/tickets/?slots=${slot}`)).json().results.find((x: { order_reference: string }) => x.order_reference === placed.json().reference);
    expect(ticket).toMatchObject({ name: 'Eve Attacker' });
    expect(JSON.stringify((await w.supplier.get(`/api/manifests/${slot}/`)).json())).toContain('Attacker');
    const listed = (await w.supplier.get(`/api/bookings/?search=Attacker`)).json().results;
    expect(listed.map((b: { customer: { first_name: string } }) => b.customer.first_name)).toContain('Eve');
  });

  it('a reseller’s counter sale leaves the customer as it was, and the reseller reads the name it sold to, not the stored last name', async () => {
    const res = await w.reseller.post('/api/resales/counter/', { experience: w.exp.id, slot: await w.slotOn(6), quantities: { [w.exp.category]: 1 }, customer: { email: EMAIL, first_name: 'Cora', phone: '+44 20 0000 0000', country: 'GB' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().customer).toEqual({ name: 'Cora', email: null, phone: null });
    expect((await w.reseller.get(`/api/resales/${res.json().id}/`)).json().customer.name).toBe('Cora');
    await expectUnchanged();
  });

  it('a partner’s booking through the public API leaves the customer as it was', async () => {
    const uuid = randomUUID();
    const slot = await w.slotOn(7);
    expect((await api.post('/api/public/reserve/', { uuid, product: w.exp.id, availability: slot, quantities: { [w.exp.category]: 1 } })).statusCode).toBe(201);
    const booked = await api.post('/api/public/book/', { uuid, customer: { email: EMAIL, first_name: 'Pat', last_name: 'Partner', phone: '+33 1 00 00 00 00', country: 'FR' } });
    expect(booked.statusCode, booked.body).toBe(200);
    await expectUnchanged();
  });

  it('a team member’s own sale still updates the customer', async () => {
    const res = await w.supplier.post('/api/orders/', { customer: { email: EMAIL, first_name: 'Victoria', last_name: 'Renamed', phone: '+41 79 111 11 11', country: 'CH' }, lines: [{ slot: await w.slotOn(8), quantities: { [w.exp.category]: 1 } }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(await stored()).toMatchObject({ first_name: 'Victoria', last_name: 'Renamed', phone: '+41 79 111 11 11' });
  });
});
