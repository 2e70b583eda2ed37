import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * One source for the currency (issue 28). Changing the organisation's currency rescaled its prices
 * but left its stores and partnerships on the old code, so the web store, OCTO and the counter sold
 * in different currencies (EUR → JPY: a ¥49 price sold as €0.49 in the store). Now the stores move
 * with the organisation in the same transaction; a live partnership (its contract is in the
 * supplier's currency) refuses the change, naming it; and a checkout refuses a line priced in
 * another currency than its order's, whoever wrote the store or contract.
 */
let t: TestApp;
let sink: MailSink;
const ZONE = 'Europe/Berlin';
const day = () => addDays(todayIn(ZONE), 4);
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** An organisation in EUR selling one offer at 49.00, Active. */
async function supplier(subdomain: string) {
  const owner = await createOrganisation(t.app, sink, { subdomain, currency: 'EUR', time_zone: ZONE });
  const exp = await sellableExperience(owner, `Tour of ${subdomain}`);
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
  return { owner, exp };
}

async function counterSale(owner: Browser, exp: { id: string; category: string }) {
  const [slot] = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${day()}`)).json();
  const res = await owner.post('/api/orders/', { customer: { email: 'desk@buyer.test', first_name: 'Desk' }, lines: [{ slot: slot.id, quantities: { [exp.category]: 1 } }] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; total: number; currency: string };
}

/** A guest's web-store sale of one seat: the cart's and the order's currency and total. */
async function webSale(subdomain: string, slug: string, exp: { id: string; category: string }) {
  const guest = new Browser(t.app, `${subdomain}.localhost`);
  const base = `/api/web-stores/${slug}`;
  const { id: cart, token } = (await guest.post(`${base}/carts/`)).json();
  const slotId = (await guest.get(`${base}/experiences/${exp.id}/day/?date=${day()}`)).json().slots[0].id;
  const held = await guest.post(`${base}/carts/${cart}/lines/`, { slot: slotId, quantities: { [exp.category]: 1 } }, { 'x-cart-token': token });
  expect(held.statusCode, held.body).toBe(201);
  const placed = await guest.post(`${base}/orders/`, { cart, lines: [held.json().lines[0].id], customer: { email: 'web@buyer.test', first_name: 'Web', last_name: 'Buyer' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
  return { cart: held.json() as { total: number; currency: string }, placed };
}

describe('the organisation’s stores move with its currency', () => {
  it('EUR → JPY: the store, its cart and its order sell in yen as the counter does, at the price shown', async () => {
    const { owner, exp } = await supplier('eurstore');
    const made = await owner.post('/api/stores/', { name: 'Shop', slug: 'shop' });
    expect(made.statusCode, made.body).toBe(201);
    const storeId = made.json().id as string;
    await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [exp.id] });
    const second = (await owner.post('/api/stores/', { name: 'Kiosk', slug: 'kiosk' })).json().id as string;

    const changed = await owner.patch('/api/account/', { currency: 'JPY' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await owner.get(`/api/pricing-rates/${exp.rate}/`)).json()).toMatchObject({ retail_price: 49, currency: 'JPY' });
    for (const id of [storeId, second]) expect((await owner.get(`/api/stores/${id}/`)).json().currency).toBe('JPY');
    expect((await new Browser(t.app, 'eurstore.localhost').get('/api/web-stores/shop/')).json().currency).toBe('JPY');

    const web = await webSale('eurstore', 'shop', exp);
    expect(web.cart).toMatchObject({ total: 49, currency: 'JPY' });
    expect(web.placed.statusCode, web.placed.body).toBe(201);
    const webOrder = (await owner.get(`/api/orders/?search=${web.placed.json().reference}`)).json().results[0];
    const desk = await counterSale(owner, exp);
    expect({ web: [webOrder.total, webOrder.currency], desk: [desk.total, desk.currency] }).toEqual({ web: [49, 'JPY'], desk: [49, 'JPY'] });
  });
});

describe('a live partnership keeps the currency of its contract', () => {
  it('refuses the change (409 naming the partnership), so OCTO and the counter keep selling in one currency', async () => {
    const { owner, exp } = await supplier('eursupply');
    await createOrganisation(t.app, sink, { subdomain: 'euragency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
    const partner = await makePartnership(t.database, { supplier: 'eursupply', reseller: 'euragency', offers: [exp.id], commissionBp: 1000 });
    await owner.post('/api/stores/', { name: 'Shop', slug: 'shop' });

    const changed = await owner.patch('/api/account/', { currency: 'JPY' });
    // Whatever the rule, OCTO and the counter sell in one currency, at the price the owner reads.
    const octo = partnerClient(t.app, partner.key);
    const [slot] = (await octo.post('/octo/v1/availability', { productId: exp.id, optionId: 'DEFAULT', localDateStart: day(), localDateEnd: day() })).json();
    const uuid = randomUUID();
    const held = await octo.post('/octo/v1/bookings', { uuid, productId: exp.id, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId: exp.category }] });
    expect(held.statusCode, held.body).toBe(200);
    const confirmed = await octo.post(`/octo/v1/bookings/${uuid}/confirm`, { contact: { fullName: 'Ada Lovelace', emailAddress: 'ada@example.com' } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const octoOrder = (await owner.get(`/api/orders/?search=${confirmed.json().supplierReference}`)).json().results[0];
    const desk = await counterSale(owner, exp);
    expect({ octo: [octoOrder.total, octoOrder.currency], desk: [desk.total, desk.currency] }).toEqual({ octo: [4900, 'EUR'], desk: [4900, 'EUR'] });

    expect(changed.statusCode).toBe(409);
    expect(err(changed)).toMatchObject({ code: 'conflict', attr: 'currency', detail: expect.stringMatching(/partnership/) });
    expect(err(changed).detail).toContain('euragency');
    expect((await owner.get('/api/account/')).json().currency).toBe('EUR');
    expect((await owner.get(`/api/pricing-rates/${exp.rate}/`)).json()).toMatchObject({ retail_price: 4900, currency: 'EUR' });
  });

  it('an organisation with no sale yet: a live partnership refuses, an ended one lets the change through', async () => {
    const { owner, exp } = await supplier('quietsupply');
    const agency = await createOrganisation(t.app, sink, { subdomain: 'quietagency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
    const partner = await makePartnership(t.database, { supplier: 'quietsupply', reseller: 'quietagency', offers: [exp.id], status: 'Suspended' });
    const refused = await owner.patch('/api/account/', { currency: 'JPY', name: 'Quiet tours' });
    expect(refused.statusCode).toBe(409);
    expect(err(refused)).toMatchObject({ code: 'conflict', attr: 'currency' });
    expect(err(refused).detail).toMatch(/1 partnership sells in EUR: quietagency tours \(Suspended, you supply its offers\)/);
    // All or nothing: the name did not change either.
    expect((await owner.get('/api/account/')).json()).toMatchObject({ currency: 'EUR', name: 'quietsupply tours' });
    // The reseller's side: its stores resell the supplier's offers in the contract's currency, so the same holds.
    const resold = await agency.patch('/api/account/', { currency: 'JPY' });
    expect(resold.statusCode).toBe(409);
    expect(err(resold).detail).toMatch(/quietsupply tours \(Suspended, you resell its offers in EUR\)/);
    await t.database.asOwner((tx) => tx.execute(sql`update partnership set status = 'Ended' where id = ${partner.partnershipId}`));
    const changed = await owner.patch('/api/account/', { currency: 'JPY' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().currency).toBe('JPY');
  });
});

describe('a checkout refuses a line priced in another currency than its order', () => {
  it('a store left on an old code cannot sell: 409, nothing booked', async () => {
    const { owner, exp } = await supplier('stalestore');
    const storeId = (await owner.post('/api/stores/', { name: 'Shop', slug: 'shop' })).json().id as string;
    await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [exp.id] });
    // A store written before stores followed the organisation (or by hand): it still reads USD.
    await t.database.asOwner((tx) => tx.execute(sql`update store set currency = 'USD' where id = ${storeId}`));
    const web = await webSale('stalestore', 'shop', exp);
    expect(web.placed.statusCode, web.placed.body).toBe(409);
    expect(err(web.placed)).toMatchObject({ code: 'conflict', detail: expect.stringMatching(/EUR.*USD|USD.*EUR/) });
    expect((await owner.get('/api/orders/')).json().count).toBe(0);
  });
});
