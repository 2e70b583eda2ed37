import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, subscriptionTier } from '../src/db/schema';
import { forgetPartnerKeys } from '../src/modules/octo/auth';
import { publicStores } from '../src/modules/web-store/scope';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { startMailSink, type MailSink } from './mail-sink';
import { newKeySecret, partnerClient } from './octo-fixtures';
import { day, resaleWorld } from './resale-fixtures';

/**
 * Issue 29, "after a plan loses the partners feature, existing partnerships keep selling": a
 * partner sale needs the `partners` feature in the supplier's plan and in the reseller's, checked
 * where the sale is made (sharedOffer) and where partners' offers are listed, on every channel: the
 * reseller's counter, its web store, OCTO and the public booking API.
 */
let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let api: ReturnType<typeof partnerClient>;
let guest: Browser;
const base = '/api/web-stores/plshop';

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'ppl');
  const contract = await w.contract({ commission_bp: 1000, payment_collector: 'supplier' });
  const store = await w.reseller.post('/api/stores/', { name: 'Plan shop', slug: 'plshop' });
  expect(store.statusCode, store.body).toBe(201);
  expect((await w.reseller.post(`/api/stores/${store.json().id}/add-experience/`, { experiences: [w.exp.id] })).statusCode).toBe(204);
  const key = newKeySecret();
  await t.database.asOwner((tx) => tx.execute(sql`insert into api_key (account_id, partnership_id, name, prefix, secret_hash) values (${w.ids.supplier}, ${contract.id}, 'plan key', ${key.prefix}, ${key.hash})`));
  api = partnerClient(t.app, key.secret);
  guest = new Browser(t.app, 'ppl-res.localhost');
  // A plan with resales (the counter's own feature) but without partners.
  await t.database.asOwner((tx) => tx.insert(subscriptionTier).values({ id: 'test-no-partners', name: 'No partners', kind: 'affiliate', features: ['bookings', 'orders', 'customers', 'stores', 'team', 'resales', 'qr_codes'] }));
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const forget = () => {
  forgetPartnerKeys();
  publicStores.clear();
};
const tierOf = async (id: string) => (await t.database.db.select({ tier: baseAccount.subscription_tier_id }).from(baseAccount).where(eq(baseAccount.id, id)))[0]!.tier;
const setTier = async (id: string, tier: string | null) => {
  await t.database.db.update(baseAccount).set({ subscription_tier_id: tier }).where(eq(baseAccount.id, id));
  forget();
};
const counterSale = async (n: number) => w.reseller.post('/api/resales/counter/', { experience: w.exp.id, slot: await w.slotOn(n), quantities: { [w.exp.category]: 1 }, customer: { email: 'pia@example.com', first_name: 'Pia', last_name: 'Plan' } });
const storeIds = async () => ((await guest.get(`${base}/experiences/`)).json().results as { id: string }[]).map((o) => o.id);

/** A cart of the store holding a seat of the partner's offer (made while the plans allow it). */
async function heldCart(n: number) {
  const { id, token } = (await guest.post(`${base}/carts/`)).json();
  const slot = (await guest.get(`${base}/experiences/${w.exp.id}/day/?date=${day(n)}`)).json().slots[0].id;
  const held = await guest.post(`${base}/carts/${id}/lines/`, { slot, quantities: { [w.exp.category]: 1 } }, { 'x-cart-token': token });
  expect(held.statusCode, held.body).toBe(201);
  return { cart: held.json().id as string, token: token as string, slot: slot as string };
}
const placeOrder = (c: { cart: string; token: string }) =>
  guest.post(`${base}/orders/`, { cart: c.cart, customer: { email: 'pia@example.com', first_name: 'Pia', last_name: 'Plan' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': c.token });

async function expectEveryChannelRefuses(side: 'supplier' | 'reseller', held: { cart: string; token: string; slot: string }) {
  const counter = await counterSale(12);
  expect(counter.statusCode, counter.body).toBe(403);
  expect(counter.json().errors[0]).toMatchObject({ code: 'plan_required', detail: expect.stringContaining(`${side}’s plan`) });
  expect((await w.reseller.get('/api/resales/counter/offers/')).json().count).toBe(0);

  expect(await storeIds()).toEqual([]);
  const order = await placeOrder(held);
  expect(order.statusCode, order.body).toBe(403);
  expect(order.json().errors[0]).toMatchObject({ code: 'plan_required', detail: expect.stringContaining(`${side}’s plan`) });

  const products = await api.get('/octo/v1/products');
  expect(products.statusCode, products.body).toBe(403);
  expect(products.body).toContain(`${side}’s plan`);
  const reserve = await api.post('/api/public/reserve/', { uuid: randomUUID(), product: w.exp.id, availability: held.slot, quantities: { [w.exp.category]: 1 } });
  expect(reserve.statusCode, reserve.body).toBe(403);
}

describe('after a plan loses the partners feature, existing partnerships stop selling', () => {
  it('sells on every channel while both plans have partners', async () => {
    expect((await counterSale(10)).statusCode).toBe(201);
    expect(await storeIds()).toEqual([w.exp.id]);
    expect((await placeOrder(await heldCart(10))).statusCode).toBe(201);
    expect((await api.get('/octo/v1/products')).statusCode).toBe(200);
  });

  it('the supplier’s plan without partners: the counter, the store, OCTO and the public API refuse, the store and counter stop listing', async () => {
    const held = await heldCart(11);
    const tier = await tierOf(w.ids.supplier);
    await setTier(w.ids.supplier, 'supplier-starter');
    await expectEveryChannelRefuses('supplier', held);
    await setTier(w.ids.supplier, tier);
    expect((await placeOrder(held)).statusCode).toBe(201);
  });

  it('the reseller’s plan without partners: the same', async () => {
    const held = await heldCart(13);
    const tier = await tierOf(w.ids.reseller);
    await setTier(w.ids.reseller, 'test-no-partners');
    await expectEveryChannelRefuses('reseller', held);
    await setTier(w.ids.reseller, tier);
    expect((await placeOrder(held)).statusCode).toBe(201);
    expect((await counterSale(14)).statusCode).toBe(201);
  });
});
