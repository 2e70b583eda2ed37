import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysBefore, depositOf } from '@tourdesk/contracts';
import { onlineCheckout, order } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { queueBalanceReminders } from '../src/modules/payments/reminders';
import { publicStores } from '../src/modules/web-store/scope';
import { sellableExperience } from './catalog-fixtures';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { createTestApp, type TestApp, until } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Deposits and promo codes paid online (issue 32), through the official SDK against the local fake
 * of Stripe: Stripe is charged onlineAmount() (payments/amount.ts) — the order's total less a promo
 * code, or the deposit its offer or its store asks for — and the order is written with its full
 * total, Partially paid, its balance due date fixed at sale; the confirmation carries a link to pay
 * the rest, a job reminds once before the due date, the rest paid by the link makes it Fully paid,
 * and a deposit is refunded through Stripe as every online payment is.
 */
const SECRET = 'whsec_test_deposits';
const ZONE = 'Europe/Zurich';
let fake: FakeStripe;
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guest: Browser;
let tour: { id: string; category: string };
let storeId: string;
const base = '/api/web-stores/deposits';
const day = (n = 10) => addDays(todayIn(ZONE), n);

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: SECRET });
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, STRIPE_SECRET_KEY: 'sk_test_tourdesk', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url, STORE_ORDERS_PER_ADDRESS: '100' } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhook(`${address}/api/stripe/webhook/`, SECRET);
  owner = await createOrganisation(t.app, sink, { subdomain: 'deposits', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Canyon tour');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  storeId = (await owner.post('/api/stores/', { name: 'Canyon shop', slug: 'deposits' })).json().id;
  await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [tour.id] });
  expect((await owner.post('/api/payment-providers/connect/')).statusCode).toBe(200);
  await fake.completeOnboarding((await owner.get('/api/payment-providers/oauth/')).json().account);
  await until('charges enabled', async () => (await owner.get('/api/payment-providers/oauth/')).json().charges_enabled);
  expect((await owner.patch(`/api/stores/${storeId}/`, { payment_options: ['pay_on_site', 'online'] })).statusCode).toBe(200);
  guest = new Browser(t.app, 'deposits.localhost');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await sink?.close();
});

/** A guest cart holding `seats` adults (49.00 each) on the day `n` days from today. */
async function heldCart(seats = 2, n = 10) {
  const { id, token } = (await guest.post(`${base}/carts/`)).json();
  const slotId = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${day(n)}`)).json().slots[0].id as string;
  const held = await guest.post(`${base}/carts/${id}/lines/`, { slot: slotId, quantities: { [tour.category]: seats } }, { 'x-cart-token': token });
  expect(held.statusCode, held.body).toBe(201);
  return { cart: id as string, token: token as string, slotId };
}
const customer = (n: string) => ({ email: `${n}@example.com`, first_name: n, last_name: 'Payer' });
const amountOf = (c: { cart: string; token: string }, promo?: string) => guest.post(`${base}/carts/${c.cart}/online-amount/`, promo ? { promo_code: promo } : {}, { 'x-cart-token': c.token });
async function startPaying(c: { cart: string; token: string }, who: string, promo?: string) {
  const res = await guest.post(`${base}/payments/`, { cart: c.cart, customer: customer(who), accept_terms: true, payment_option: 'online', ...(promo ? { promo_code: promo } : {}) }, { 'x-cart-token': c.token });
  expect(res.statusCode, res.body).toBe(201);
  const started = res.json() as { checkout: string; token: string };
  const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, started.checkout)))[0]!;
  return { ...started, session: row.session_id!, row };
}
const paymentOf = (checkout: string, token: string) => guest.get(`${base}/payments/${checkout}/`, { 'x-order-token': token });
async function paid(p: { checkout: string; token: string }) {
  return until('finished', async () => {
    const r = (await paymentOf(p.checkout, p.token)).json();
    return r.status === 'paid' || r.status === 'refunded' ? r : null;
  });
}
const orderIdOf = async (checkout: string) => (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout)))[0]!.order_id!;
const setStoreDeposit = async (deposit: unknown) => expect((await owner.patch(`/api/stores/${storeId}/`, { deposit })).statusCode).toBe(200);
const setOfferDeposit = async (deposit: unknown) => {
  const res = await owner.patch(`/api/experiences/${tour.id}/`, { deposit });
  expect(res.statusCode, res.body).toBe(200);
};

describe('the deposit rule (contracts)', () => {
  it('takes a percentage rounded half up, a fixed amount per booking, never more than the line', () => {
    expect(depositOf(9800, { kind: 'percent', value: 2000, balance_due_days: null })).toBe(1960);
    // 33.33 % of 49.00 = 16.33167 → 16.33; of 0.05 = 0.0166… → 0.02 (half up from 1.6665 minor units).
    expect(depositOf(4900, { kind: 'percent', value: 3333, balance_due_days: null })).toBe(1633);
    expect(depositOf(5, { kind: 'percent', value: 3333, balance_due_days: null })).toBe(2);
    expect(depositOf(3, { kind: 'percent', value: 5000, balance_due_days: null })).toBe(2);
    expect(depositOf(4900, { kind: 'amount', value: 1000, balance_due_days: 3 })).toBe(1000);
    expect(depositOf(800, { kind: 'amount', value: 1000, balance_due_days: 3 })).toBe(800);
    expect(depositOf(4900, null)).toBe(4900);
    expect(daysBefore('2026-03-02', 3)).toBe('2026-02-27');
  });
});

describe('a promo code paid online', () => {
  it('charges Stripe the discounted total, writes the order with the code, and books it Fully paid', async () => {
    expect((await owner.post('/api/promo-codes/', { code: 'CANYON10', kind: 'percent', percent_bp: 1000 })).statusCode).toBe(201);
    const c = await heldCart(2);
    expect((await amountOf(c, 'canyon10')).json()).toEqual({ total: 8820, voucher: 0, pay_now: 8820, rest: 0, due_on: null, currency: 'CHF' });
    const paying = await startPaying(c, 'pia', 'canyon10');
    expect(paying.row).toMatchObject({ amount: 8820, order_total: 8820, promo_code: 'CANYON10' });
    expect(fake.state.checkoutSessions.get(paying.session)!.amount_total).toBe(8820);
    await fake.payCheckoutSession(paying.session);
    const done = await paid(paying);
    expect(done.order).toMatchObject({ total: 8820, paid: 8820, payment_status: 'Fully paid', balance_due_on: null, discount: { code: 'CANYON10', amount: 980 } });
    const uses = (await t.database.db.execute(sql`select uses from promo_code where code = 'CANYON10'`)) as unknown as { rows: { uses: number }[] };
    expect(uses.rows[0]!.uses).toBe(1);
  });

  it('makes a new session when the code changes after a first start (never the old amount without the code)', async () => {
    const c = await heldCart(1, 9);
    const first = await startPaying(c, 'ola');
    expect(first.row).toMatchObject({ amount: 4900, promo_code: null });
    // Started again with the same lines and no code: the same session.
    expect((await startPaying(c, 'ola')).checkout).toBe(first.checkout);
    // With a code now: a new session for the discounted total; the first is expired at Stripe.
    const second = await startPaying(c, 'ola', 'CANYON10');
    expect(second.checkout).not.toBe(first.checkout);
    expect(second.row).toMatchObject({ amount: 4410, promo_code: 'CANYON10' });
    expect(fake.state.checkoutSessions.get(first.session)!.status).toBe('expired');
  });

  it('refuses an unknown code before the customer pays, and refunds a payment whose code was used up meanwhile', async () => {
    const c = await heldCart(1);
    const unknown = await guest.post(`${base}/payments/`, { cart: c.cart, customer: customer('quin'), accept_terms: true, payment_option: 'online', promo_code: 'NOPE' }, { 'x-cart-token': c.token });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({ code: 'promo_unknown', attr: 'promo_code' });
    expect((await owner.post('/api/promo-codes/', { code: 'LASTONE', kind: 'amount', amount: 500, max_uses: 1 })).statusCode).toBe(201);
    const paying = await startPaying(c, 'quin', 'LASTONE');
    expect(paying.row).toMatchObject({ amount: 4400, order_total: 4400 });
    // Its last use taken at the counter while the customer pays.
    const slot = (await owner.get(`/api/bookings/check-availability/?experience=${tour.id}&date=${day(12)}`)).json()[0].id;
    const counter = await owner.post('/api/orders/', { customer: customer('rex'), promo_code: 'LASTONE', lines: [{ slot, quantities: { [tour.category]: 1 } }] });
    expect(counter.statusCode, counter.body).toBe(201);
    await fake.payCheckoutSession(paying.session);
    expect((await paid(paying)).status).toBe('refunded');
    const pi = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, paying.checkout)))[0]!.payment_intent;
    expect([...fake.state.refunds.values()].some((r) => r.payment_intent === pi && r.amount === 4400)).toBe(true);
  });
});

describe('deposits', () => {
  it('asks the offer’s rule before the store’s, per line, charged in full when the balance would be due already', async () => {
    await setStoreDeposit({ kind: 'percent', value: 2000, balance_due_days: 3 });
    const c = await heldCart(2, 10);
    expect((await amountOf(c)).json()).toEqual({ total: 9800, voucher: 0, pay_now: 1960, rest: 7840, due_on: daysBefore(day(10), 3), currency: 'CHF' });
    // The offer's rule wins: a fixed amount per booking, the rest on site.
    await setOfferDeposit({ kind: 'amount', value: 1500, balance_due_days: null });
    expect((await amountOf(c)).json()).toEqual({ total: 9800, voucher: 0, pay_now: 1500, rest: 8300, due_on: null, currency: 'CHF' });
    // A promo code first, then the deposit of the discounted line (33.33 % of 88.20 = 29.397 → 29.40).
    await setOfferDeposit({ kind: 'percent', value: 3333, balance_due_days: 2 });
    expect((await amountOf(c, 'CANYON10')).json()).toEqual({ total: 8820, voucher: 0, pay_now: 2940, rest: 5880, due_on: daysBefore(day(10), 2), currency: 'CHF' });
    // Due 12 days before a departure 10 days away: already due, so paid in full now.
    await setOfferDeposit({ kind: 'percent', value: 2000, balance_due_days: 12 });
    expect((await amountOf(c)).json()).toMatchObject({ pay_now: 9800, rest: 0, due_on: null });
    // The offer's setting read back; removed, the store's rule applies again.
    expect((await owner.get(`/api/experiences/${tour.id}/`)).json().deposit).toEqual({ kind: 'percent', value: 2000, balance_due_days: 12 });
    await setOfferDeposit(null);
    expect((await amountOf(c)).json()).toMatchObject({ pay_now: 1960 });
    // A deposit below Stripe's minimum charge (0.5 % of 98.00 = 0.49 < 0.50) is no deposit: the whole is charged.
    await setStoreDeposit({ kind: 'percent', value: 50, balance_due_days: 3 });
    expect((await amountOf(c)).json()).toMatchObject({ pay_now: 9800, rest: 0, due_on: null });
    await setStoreDeposit({ kind: 'percent', value: 2000, balance_due_days: 3 });
    // A rule that makes no sense is refused.
    expect((await owner.patch(`/api/stores/${storeId}/`, { deposit: { kind: 'percent', value: 10_000, balance_due_days: null } })).statusCode).toBe(400);
  });

  it('asks no date for a rest of which a part was promised on site (another offer’s rule): the whole rest is due on site', async () => {
    const river = await sellableExperience(owner, 'River tour');
    expect((await owner.patch(`/api/experiences/${river.id}/`, { status: 'Active', deposit: { kind: 'amount', value: 1000, balance_due_days: null } })).statusCode).toBe(200);
    await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [river.id] });
    publicStores.clear();
    await setStoreDeposit({ kind: 'percent', value: 2000, balance_due_days: 3 });
    const c = await heldCart(1, 18);
    const slot = (await guest.get(`${base}/experiences/${river.id}/day/?date=${day(18)}`)).json().slots[0].id as string;
    expect((await guest.post(`${base}/carts/${c.cart}/lines/`, { slot, quantities: { [river.category]: 1 } }, { 'x-cart-token': c.token })).statusCode).toBe(201);
    // 20 % of the canyon's 49.00 (its rest due 3 days before) and 10.00 of the river's (its rest on site).
    expect((await amountOf(c)).json()).toEqual({ total: 9800, voucher: 0, pay_now: 980 + 1000, rest: 9800 - 1980, due_on: null, currency: 'CHF' });
    for (const line of (await guest.get(`${base}/carts/${c.cart}/`, { 'x-cart-token': c.token })).json().lines) await guest.delete(`${base}/carts/${c.cart}/lines/${line.id}/`, { 'x-cart-token': c.token });
  });

  it('takes a gift voucher first, then the deposit of what it leaves: the order spends the voucher when written, the card pays the deposit', async () => {
    await setStoreDeposit({ kind: 'percent', value: 2000, balance_due_days: 3 });
    const voucher = (await owner.post('/api/gift-vouchers/', { value: 3000, reason: 'A gift', recipient_name: 'Vic' })).json() as { id: string; code: string };
    const c = await heldCart(2, 16);
    // 98.00 less 10 % = 88.20; the voucher pays 20.00 of its 30.00; 20 % of the 68.20 left is 13.64 now; 54.56 by the date.
    const asked = await guest.post(`${base}/carts/${c.cart}/online-amount/`, { promo_code: 'CANYON10', voucher_code: voucher.code.toLowerCase(), voucher_amount: 2000 }, { 'x-cart-token': c.token });
    expect(asked.json()).toEqual({ total: 8820, voucher: 2000, pay_now: 1364, rest: 5456, due_on: daysBefore(day(16), 3), currency: 'CHF' });
    // More than it holds: refused with why.
    const tooMuch = await guest.post(`${base}/carts/${c.cart}/online-amount/`, { voucher_code: voucher.code, voucher_amount: 3001 }, { 'x-cart-token': c.token });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().errors[0].attr).toBe('voucher_amount');
    const res = await guest.post(`${base}/payments/`, { cart: c.cart, customer: customer('vic'), accept_terms: true, payment_option: 'online', promo_code: 'CANYON10', voucher_code: voucher.code, voucher_amount: 2000 }, { 'x-cart-token': c.token });
    expect(res.statusCode, res.body).toBe(201);
    const started = res.json() as { checkout: string; token: string };
    const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, started.checkout)))[0]!;
    expect(row).toMatchObject({ amount: 1364, order_total: 8820, voucher_amount: 2000 });
    expect(fake.state.checkoutSessions.get(row.session_id!)!.amount_total).toBe(1364);
    // Nothing is taken from the voucher until the order is written.
    expect((await owner.get(`/api/gift-vouchers/${voucher.id}/`)).json().balance).toBe(3000);
    await fake.payCheckoutSession(row.session_id!);
    expect((await paid(started)).status).toBe('paid');
    const orderId = await orderIdOf(started.checkout);
    const o = (await owner.get(`/api/orders/${orderId}/`)).json();
    expect(o).toMatchObject({ total: 8820, paid: 2000 + 1364, payment_status: 'Partially paid', balance_due_on: daysBefore(day(16), 3) });
    const methods = ((await owner.get(`/api/orders/${orderId}/payments/`)).json() as { method: string; amount: number }[]).map((p) => [p.method, p.amount]).sort();
    expect(methods).toEqual([
      ['online', 1364],
      ['voucher', 2000],
    ]);
    expect((await owner.get(`/api/gift-vouchers/${voucher.id}/`)).json().balance).toBe(1000);
  });

  it('refunds the card when the voucher was spent elsewhere while the customer paid, and books nothing', async () => {
    await setStoreDeposit(null);
    const voucher = (await owner.post('/api/gift-vouchers/', { value: 1000, reason: 'A gift', recipient_name: 'Wes' })).json() as { id: string; code: string };
    const c = await heldCart(1, 17);
    const res = await guest.post(`${base}/payments/`, { cart: c.cart, customer: customer('wes'), accept_terms: true, payment_option: 'online', voucher_code: voucher.code }, { 'x-cart-token': c.token });
    expect(res.statusCode, res.body).toBe(201);
    const started = res.json() as { checkout: string; token: string };
    const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, started.checkout)))[0]!;
    expect(row.amount).toBe(4900 - 1000);
    // Spent at the counter meanwhile.
    const other = (await owner.post('/api/orders/', { customer: customer('wes2'), lines: [{ slot: c.slotId, quantities: { [tour.category]: 1 } }] })).json();
    expect((await owner.post(`/api/orders/${other.id}/payments/`, { amount: 1000, currency: 'CHF', method: 'voucher', voucher_code: voucher.code })).statusCode).toBe(201);
    await fake.payCheckoutSession(row.session_id!);
    expect((await paid(started)).status).toBe('refunded');
    const pi = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, started.checkout)))[0]!.payment_intent;
    expect([...fake.state.refunds.values()].filter((r) => r.payment_intent === pi).map((r) => r.amount)).toEqual([3900]);
    expect((await owner.get(`/api/gift-vouchers/${voucher.id}/`)).json().balance).toBe(0);
  });

  let depositOrder: string;
  let payPath: string;
  it('charges the deposit only, writes the order in full, Partially paid, with its due date; the confirmation carries a link to pay the rest', async () => {
    await setStoreDeposit({ kind: 'percent', value: 2000, balance_due_days: 3 });
    const c = await heldCart(2, 10);
    const paying = await startPaying(c, 'dora');
    expect(paying.row).toMatchObject({ amount: 1960, order_total: 9800, balance_due_on: daysBefore(day(10), 3) });
    expect(fake.state.checkoutSessions.get(paying.session)!.amount_total).toBe(1960);
    await fake.payCheckoutSession(paying.session);
    const done = await paid(paying);
    expect(done.order).toMatchObject({ total: 9800, paid: 1960, payment_status: 'Partially paid', balance_due_on: daysBefore(day(10), 3) });
    depositOrder = await orderIdOf(paying.checkout);
    expect((await owner.get(`/api/orders/${depositOrder}/`)).json()).toMatchObject({ balance: 7840, payment_status: 'Partially paid', balance_due_on: daysBefore(day(10), 3) });
    const mail = await sink.latest('dora@example.com', /Your booking/);
    expect(mail.text).toMatch(/the rest, CHF\s?78\.40, is due by/);
    const link = mail.text.match(/Pay the rest online by card: (\S+)/)![1]!;
    payPath = new URL(link).pathname;
    expect(payPath).toMatch(/^\/pay\/[\w-]{20,}$/);
    // The manifest shows the balance the guide collects.
    const manifest = await owner.get(`/api/manifests/${c.slotId}/`);
    expect(manifest.statusCode, manifest.body).toBe(200);
    expect((manifest.json().bookings as { order_reference: string; balance_due: number | null }[]).find((b) => b.order_reference === done.order.reference)?.balance_due).toBe(7840);
    expect((await owner.get(`/api/manifests/${c.slotId}/export.csv`)).body).toContain('78.40');
    // The dashboard counts it among the balances due.
    const dash = (await owner.get('/api/dashboard/')).json();
    expect(dash.balances_due.orders).toBeGreaterThanOrEqual(1);
    expect(dash.balances_due.next).toContainEqual(expect.objectContaining({ order: depositOrder, balance: 7840, due_on: daysBefore(day(10), 3) }));
  });

  it('reminds once, within the store’s days before the due date, and skips an order paid in full or cancelled', async () => {
    // Due in 7 days: not within the 3 days yet.
    expect(await queueBalanceReminders(t.database.db, t.app.config, t.app.jobs)).toBe(0);
    await owner.patch(`/api/stores/${storeId}/`, { balance_reminder_days: 8 });
    // Two more deposits: one paid in full at the desk, one cancelled.
    const others: string[] = [];
    for (const who of ['ed', 'flo']) {
      const c = await heldCart(1, 11);
      const p = await startPaying(c, who);
      await fake.payCheckoutSession(p.session);
      await paid(p);
      others.push(await orderIdOf(p.checkout));
    }
    const ed = (await owner.get(`/api/orders/${others[0]}/`)).json();
    expect((await owner.post(`/api/orders/${others[0]}/payments/`, { amount: ed.balance, currency: 'CHF', method: 'cash', reference: '' })).statusCode).toBe(201);
    expect((await owner.post(`/api/orders/${others[1]}/cancel/`)).statusCode).toBe(200);

    // Not on the heels of the confirmation (it carries the link): a day after the booking at the earliest.
    expect(await queueBalanceReminders(t.database.db, t.app.config, t.app.jobs)).toBe(0);
    await t.database.db.execute(sql`update orders set created_at = created_at - interval '2 days' where id in (${sql.join([depositOrder, ...others].map((id) => sql`${id}::uuid`), sql`, `)})`);
    expect(await queueBalanceReminders(t.database.db, t.app.config, t.app.jobs)).toBe(1);
    const mail = await sink.latest('dora@example.com', /is due on/);
    expect(mail.text).toMatch(/CHF\s?78\.40 is left to pay/);
    expect(mail.text).toMatch(/\/pay\/[\w-]{20,}/);
    // Once: a second run sends nothing.
    expect(await queueBalanceReminders(t.database.db, t.app.config, t.app.jobs)).toBe(0);
    const marks = await t.database.db.select({ id: order.id, sent: order.balance_reminder_sent_at }).from(order).where(sql`${order.id} in (${sql.join([depositOrder, ...others].map((id) => sql`${id}::uuid`), sql`, `)})`);
    expect(marks.find((m) => m.id === depositOrder)!.sent).not.toBeNull();
    expect(marks.filter((m) => m.id !== depositOrder).every((m) => m.sent === null)).toBe(true);
  });

  it('takes the rest through the link from the confirmation: the order is Fully paid', async () => {
    const customerBrowser = new Browser(t.app, 'deposits.localhost');
    const page = await customerBrowser.get(payPath);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('78.40');
    const go = await customerBrowser.get(`${payPath}/checkout`);
    expect(go.statusCode, go.body).toBe(303);
    const sessionId = new URL(go.headers.location as string).pathname.split('/').at(-1)!;
    expect(fake.state.checkoutSessions.get(sessionId)!.amount_total).toBe(7840);
    await fake.payCheckoutSession(sessionId);
    await until('fully paid', async () => (await owner.get(`/api/orders/${depositOrder}/`)).json().payment_status === 'Fully paid');
    expect((await owner.get(`/api/orders/${depositOrder}/`)).json()).toMatchObject({ paid: 9800, balance: 0 });
    // Nothing due any more: off the dashboard's balances.
    expect((await owner.get('/api/dashboard/')).json().balances_due.next.some((n: { order: string }) => n.order === depositOrder)).toBe(false);
  });

  it('gives a "Pay the rest" link to the customer’s booking page, and refunds a cancelled deposit through Stripe', async () => {
    const c = await heldCart(2, 13);
    const paying = await startPaying(c, 'gus');
    await fake.payCheckoutSession(paying.session);
    const done = await paid(paying);
    const orderId = await orderIdOf(paying.checkout);
    // The booking page's secret is the one of the confirmation's link.
    const manage = (await sink.latest('gus@example.com', /Your booking/)).text.match(/#([\w-]+)/)![1]!;
    const rest = await guest.post(`${base}/orders/${done.order.reference}/payment-link/`, undefined, { 'x-order-token': manage });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(new URL(rest.json().url).pathname).toMatch(/^\/pay\/[\w-]{20,}$/);
    // Without the secret: nothing.
    expect((await guest.post(`${base}/orders/${done.order.reference}/payment-link/`, undefined, { 'x-order-token': 'wrong' })).statusCode).toBe(404);
    // Only where the store takes card payments.
    expect((await owner.patch(`/api/stores/${storeId}/`, { payment_options: ['pay_on_site'] })).statusCode).toBe(200);
    publicStores.clear();
    const refused = await guest.post(`${base}/orders/${done.order.reference}/payment-link/`, undefined, { 'x-order-token': manage });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors[0].detail).toMatch(/takes no payments online/);
    expect((await owner.patch(`/api/stores/${storeId}/`, { payment_options: ['pay_on_site', 'online'] })).statusCode).toBe(200);
    publicStores.clear();

    // Cancelled by staff: the deposit is due back and goes back to the card.
    expect((await owner.post(`/api/orders/${orderId}/cancel/`)).statusCode).toBe(200);
    const proposal = (await owner.get(`/api/orders/${orderId}/refund-proposal/`)).json();
    expect(proposal.amount).toBe(1960);
    const deposit = (await owner.get(`/api/orders/${orderId}/payments/`)).json()[0];
    const refund = await owner.post(`/api/orders/${orderId}/payments/`, { amount: -1960, currency: 'CHF', method: 'online', refund_of: deposit.id, reason: 'Cancelled' });
    expect(refund.statusCode, refund.body).toBe(201);
    const pi = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, paying.checkout)))[0]!.payment_intent;
    expect([...fake.state.refunds.values()].filter((r) => r.payment_intent === pi).map((r) => r.amount)).toEqual([1960]);
    // Paid back in full: no "Pay the rest" for a cancelled order.
    expect((await guest.post(`${base}/orders/${done.order.reference}/payment-link/`, undefined, { 'x-order-token': manage })).statusCode).toBe(400);
  }, 90_000);
});
