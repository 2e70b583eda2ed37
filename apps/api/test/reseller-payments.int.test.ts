import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebCart } from '@tourdesk/contracts';
import { booking, onlineCheckout, partnership } from '../src/db/schema';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { createTestApp, type TestApp, until } from './harness';
import { Browser } from './http-client';
import { startMailSink, type MailSink } from './mail-sink';
import { day, resaleWorld } from './resale-fixtures';

/**
 * A partner's offer paid online in a reseller's store: when the contract says the supplier
 * collects, the customer pays on the supplier's Stripe account (the cart is in its books), and the
 * order made when Stripe says it is paid is the reseller's resale with its commission. When the
 * reseller collects, online payment is not offered for those offers (the money would go to an
 * account that is not the seller's). Through the official SDK against the local fake of Stripe.
 */
const SECRET = 'whsec_test_tourdesk';
let fake: FakeStripe;
let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let contract: typeof partnership.$inferSelect;
let supplierAccount: string;
let guest: Browser;
const base = '/api/web-stores/agency';

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: SECRET });
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, STRIPE_SECRET_KEY: 'sk_test_tourdesk', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhook(`${address}/api/stripe/webhook/`, SECRET);
  w = await resaleWorld(t, sink, 'rpy');
  contract = await w.contract({ commission_bp: 1500, payment_collector: 'supplier' });
  // The supplier takes payments online; the agency has no Stripe account of its own.
  expect((await w.supplier.post('/api/payment-providers/connect/')).statusCode).toBe(200);
  supplierAccount = (await w.supplier.get('/api/payment-providers/oauth/')).json().account as string;
  await fake.completeOnboarding(supplierAccount);
  await until('the supplier’s account to take charges', async () => ((await t.database.db.execute(sql`select charges_enabled from payment_account where external_id = ${supplierAccount}`)) as unknown as { rows: { charges_enabled: boolean }[] }).rows[0]?.charges_enabled);
  const shop = await w.reseller.post('/api/stores/', { name: 'Agency shop', slug: 'agency' });
  expect(shop.statusCode, shop.body).toBe(201);
  expect((await w.reseller.post(`/api/stores/${shop.json().id}/add-experience/`, { experiences: [w.exp.id] })).statusCode).toBe(204);
  // Its store may offer online payment: its partner's offers are paid to the supplier.
  const online = await w.reseller.patch(`/api/stores/${shop.json().id}/`, { payment_options: ['pay_on_site', 'online'] });
  expect(online.statusCode, online.body).toBe(200);
  guest = new Browser(t.app, 'rpy-res.localhost');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await sink?.close();
});

async function heldCart(n: number, seats = 2) {
  const { id, token } = (await guest.post(`${base}/carts/`)).json();
  const slotId = (await guest.get(`${base}/experiences/${w.exp.id}/day/?date=${day(n)}`)).json().slots[0].id as string;
  const held = await guest.post(`${base}/carts/${id}/lines/`, { slot: slotId, quantities: { [w.exp.category]: seats } }, { 'x-cart-token': token });
  expect(held.statusCode, held.body).toBe(201);
  return { cart: ZWebCart.parse(held.json()), token: token as string };
}
const customer = { email: 'olga.online@example.com', first_name: 'Olga', last_name: 'Online' };

describe('a partner’s offer paid online in a reseller’s store', () => {
  it('is paid to the supplier’s account when the supplier collects, and the order is the reseller’s resale', async () => {
    const { cart, token } = await heldCart(40);
    expect(cart).toMatchObject({ sold_by: expect.any(String), payable_online: true });
    const started = await guest.post(`${base}/payments/`, { cart: cart.id, customer, accept_terms: true, payment_option: 'online' }, { 'x-cart-token': token });
    expect(started.statusCode, started.body).toBe(201);
    const { checkout, token: secret } = started.json() as { checkout: string; token: string };
    const [row] = await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout));
    expect(row).toMatchObject({ account_id: w.ids.supplier, partnership_id: contract.id, connected_account: supplierAccount, amount: cart.total });
    expect(fake.state.owners.get(row!.session_id!)).toBe(supplierAccount);

    await fake.payCheckoutSession(row!.session_id!, { card: '4242424242424242' });
    const paid = await until('the order', async () => {
      const p = (await guest.get(`${base}/payments/${checkout}/`, { 'x-order-token': secret })).json();
      return p.status === 'paid' ? p : null;
    });
    expect(paid.order).toMatchObject({ total: cart.total, paid: cart.total, payment_status: 'Fully paid' });
    expect(paid.order.manage_url).toMatch(/^http:\/\/rpy-res\.localhost:3000\/s\/agency\/booking\//);
    const [line] = await t.database.db.select().from(booking).where(eq(booking.order_id, (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout)))[0]!.order_id!));
    expect(line).toMatchObject({ partnership_id: contract.id, reseller_account_id: w.ids.reseller, commission: Math.floor(cart.total * 0.15) });
    const resales = (await w.reseller.get('/api/resales/?side=reseller')).json().results;
    expect(resales.map((r: { order_reference: string }) => r.order_reference)).toContain(paid.order.reference);
    await sink.latest('olga.online@example.com', /Your booking/);
  });

  it('is not offered when the reseller collects: the cart says so and the payment is refused', async () => {
    await t.database.db.update(partnership).set({ payment_collector: 'reseller' }).where(eq(partnership.id, contract.id));
    const { cart, token } = await heldCart(41, 1);
    expect(cart.payable_online).toBe(false);
    const refused = await guest.post(`${base}/payments/`, { cart: cart.id, customer, accept_terms: true, payment_option: 'online' }, { 'x-cart-token': token });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({ attr: 'payment_option', detail: expect.stringMatching(/^Pay on site: .+ takes the payment for its offers sold here\.$/) });
    // Paying on site still books it.
    const onSite = await guest.post(`${base}/orders/`, { cart: cart.id, customer, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
    expect(onSite.statusCode, onSite.body).toBe(201);
    await t.database.db.update(partnership).set({ payment_collector: 'supplier' }).where(eq(partnership.id, contract.id));
  });

  it('refunds a payment that arrives once the contract is suspended, and books nothing', async () => {
    const { cart, token } = await heldCart(42, 1);
    const started = await guest.post(`${base}/payments/`, { cart: cart.id, customer, accept_terms: true, payment_option: 'online' }, { 'x-cart-token': token });
    expect(started.statusCode, started.body).toBe(201);
    const { checkout, token: secret } = started.json() as { checkout: string; token: string };
    await t.database.db.update(partnership).set({ status: 'Suspended' }).where(eq(partnership.id, contract.id));
    const [row] = await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout));
    await fake.payCheckoutSession(row!.session_id!, { card: '4242424242424242' });
    const done = await until('the refund', async () => {
      const [r] = await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout));
      return r!.status === 'refunded' ? r : null;
    });
    expect(done.order_id).toBeNull();
    expect((await guest.get(`${base}/payments/${checkout}/`, { 'x-order-token': secret })).json()).toMatchObject({ status: 'refunded', order: null });
    await t.database.db.update(partnership).set({ status: 'Active' }).where(eq(partnership.id, contract.id));
  });
});
