import { and, eq, sql } from 'drizzle-orm';
import { ZGiftVoucherDetail, ZVoucherPreview, type TGiftVoucherDetail } from '@tourdesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvent, giftVoucher, giftVoucherEntry, onlineCheckout, orderPayment } from '../src/db/schema';
import { QUEUES } from '../src/lib/jobs';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { createTestApp, type TestApp, until } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Gift vouchers (issue 32), through the real routes, the real Stripe client against the local fake
 * of Stripe and the mail sink: bought in the web store (paid online, issued once Stripe says it is
 * paid, e-mailed with its PDF on the chosen day, the buyer's receipt at once), issued by staff,
 * spent in part or whole across orders as a payment (method `voucher`) at the counter, in the store
 * and on an order's payments, its balance a ledger under the voucher's row lock; expired, cancelled
 * and extended with a reason; a refund of a voucher payment goes back on the voucher; another
 * organisation sees none of it; the accounting export shows the sale (no VAT) and the redemptions.
 */
const SECRET = 'whsec_test_vouchers';
const ZONE = 'Europe/Zurich';
const base = '/api/web-stores/gifts';
let fake: FakeStripe;
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
let guest: Browser;
let tour: { id: string; category: string; rule: string };
let storeId: string;
let slotId: string;
const today = () => todayIn(ZONE);
type Item = { code: string; detail: string; attr: string | null };
const err = (res: { json(): unknown }) => (res.json() as { errors: Item[] }).errors[0]!;
let n = 0;

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: SECRET });
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, STRIPE_SECRET_KEY: 'sk_test_tourdesk', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url, STORE_ORDERS_PER_ADDRESS: '100', STORE_CHALLENGE_AFTER_ORDERS: '100' } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhook(`${address}/api/stripe/webhook/`, SECRET);
  owner = await createOrganisation(t.app, sink, { subdomain: 'gifts', currency: 'CHF', time_zone: ZONE });
  other = await createOrganisation(t.app, sink, { subdomain: 'elsewhere', currency: 'CHF', time_zone: ZONE, email: 'owner@elsewhere.test' });
  expect((await owner.patch('/api/account/', { legal_name: 'Gift Tours AG', billing_address: 'See 1\nZürich', vat_number: 'CHE-1', vat_rate_bp: 810 })).statusCode).toBe(200);
  tour = await sellableExperience(owner, 'Lake cruise');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  // Room for every sale of the file in one departure.
  await owner.delete(`/api/schedule-rules/${tour.rule}/`);
  expect((await owner.post('/api/schedule-rules/', { experience: tour.id, valid_from: today(), start_times: ['10:00'], capacity: 500 })).statusCode).toBe(201);
  slotId = (await owner.get(`/api/bookings/check-availability/?experience=${tour.id}&date=${addDays(today(), 5)}`)).json()[0].id;
  storeId = (await owner.post('/api/stores/', { name: 'Gift shop', slug: 'gifts' })).json().id;
  await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [tour.id] });
  expect((await owner.post('/api/payment-providers/connect/')).statusCode).toBe(200);
  const state = (await owner.get('/api/payment-providers/oauth/')).json();
  await fake.completeOnboarding(state.account);
  await until('charges enabled', async () => (await owner.get('/api/payment-providers/oauth/')).json().charges_enabled);
  const sells = await owner.patch(`/api/stores/${storeId}/`, { payment_options: ['pay_on_site', 'online'], sells_vouchers: true, voucher_amounts: [5000, 10000], voucher_min: 2000, voucher_max: 30000 });
  expect(sells.statusCode, sells.body).toBe(200);
  guest = new Browser(t.app, 'gifts.localhost');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await sink?.close();
});

/** Staff issue a voucher of `value` (no payment). */
async function staffVoucher(value: number, by: Browser = owner) {
  const res = await by.post('/api/gift-vouchers/', { value, reason: 'Compensation for a cancelled trip', recipient_name: 'Vera' });
  expect(res.statusCode, res.body).toBe(201);
  return ZGiftVoucherDetail.parse(res.json());
}
const detail = async (id: string) => ZGiftVoucherDetail.parse((await owner.get(`/api/gift-vouchers/${id}/`)).json());
/** A counter sale of `seats` adults (49.00 each), optionally paid in part with a voucher. */
async function counterSale(seats: number, voucher?: { code: string; amount?: number }, by: Browser = owner) {
  const held = await by.post('/api/cart/lines/', { slot: slotId, quantities: { [tour.category]: seats } });
  expect(held.statusCode, held.body).toBe(201);
  return by.post('/api/cart/checkout/', { lines: [held.json().id], customer: { email: `counter${++n}@example.com`, first_name: 'Counter', last_name: `Guest${n}` }, ...(voucher ? { voucher_code: voucher.code, ...(voucher.amount ? { voucher_amount: voucher.amount } : {}) } : {}) });
}
/** A CSV row's cells (quoted cells may hold commas; "" is a quote). */
const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => (m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!));
const ledgerSum = (v: TGiftVoucherDetail) => v.ledger.reduce((s, e) => s + e.amount, 0);

/** Starts buying a voucher in the store; answers the checkout and its Stripe session. */
async function startPurchase(body: Record<string, unknown>) {
  const res = await guest.post(`${base}/vouchers/`, { accept_terms: true, buyer_name: 'Bea Buyer', buyer_email: 'bea@example.com', ...body });
  expect(res.statusCode, res.body).toBe(201);
  const { checkout } = res.json() as { checkout: string; payment_url: string };
  const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout)))[0]!;
  return { checkout, session: row.session_id! };
}
const voucherOfCheckout = async (checkout: string) => (await t.database.db.select().from(giftVoucher).where(eq(giftVoucher.checkout_id, checkout)))[0];

describe('buying a gift voucher in the web store', () => {
  it('offers the store’s amounts, refuses another, and issues the voucher only when Stripe says it is paid: receipt now, the voucher with its PDF to the recipient', async () => {
    // The store says it sells them (its header links to the voucher page).
    expect((await guest.get(`${base}/`)).json()).toMatchObject({ sells_vouchers: true });
    const offer = (await guest.get(`${base}/vouchers/`)).json();
    expect(offer).toMatchObject({ currency: 'CHF', amounts: [5000, 10000], min: 2000, max: 30000, validity_months: 36, online: true });
    const odd = await guest.post(`${base}/vouchers/`, { accept_terms: true, buyer_name: 'Bea', buyer_email: 'bea@example.com', amount: 40000 });
    expect(odd.statusCode).toBe(400);
    expect(err(odd).attr).toBe('amount');
    // A store that sells none has no voucher page.
    const plain = (await owner.post('/api/stores/', { name: 'Plain shop', slug: 'plain' })).json().id;
    expect((await guest.get('/api/web-stores/plain/vouchers/')).statusCode).toBe(404);
    expect((await guest.get('/api/web-stores/plain/')).json()).toMatchObject({ sells_vouchers: false });
    expect(plain).toBeTruthy();

    const { checkout, session } = await startPurchase({ amount: 7500, recipient_name: 'Rita Recipient', recipient_email: 'rita@example.com', message: 'Happy birthday, Rita!' });
    expect(fake.state.checkoutSessions.get(session)!.amount_total).toBe(7500);
    // Not paid: no voucher, whatever the page says.
    expect(await voucherOfCheckout(checkout)).toBeUndefined();
    expect((await guest.get(`${base}/vouchers/${checkout}/?session_id=${session}`)).json()).toMatchObject({ status: 'open', code_sent_to: null });
    expect((await guest.get(`${base}/vouchers/${checkout}/?session_id=cs_not_this_one`)).statusCode).toBe(404);

    await fake.payCheckoutSession(session);
    const v = await until('the voucher', () => voucherOfCheckout(checkout));
    expect(v).toMatchObject({ value: 7500, balance: 7500, currency: 'CHF', source: 'store', status: 'active', recipient_email: 'rita@example.com', deliver_on: today() });
    expect(v.code).toMatch(/^[2-9A-HJKMNP-Z]{16}$/);
    // Valid for the organisation's 36 months, to the end of that local day.
    const until36 = new Date(v.expires_at.getTime() - 1000).toLocaleDateString('sv-SE', { timeZone: ZONE });
    expect(until36).toBe(addDays(today(), 0).replace(/^(\d{4})/, (y) => String(Number(y) + 3)));
    // The platform's fee on the direct charge (1.5 % of 75.00), as for the store's online payments.
    const pi = fake.state.paymentIntents.get([...fake.state.paymentIntents.keys()].at(-1)!)!;
    expect(pi.application_fee_amount).toBe(113);
    expect((await guest.get(`${base}/vouchers/${checkout}/?session_id=${session}`)).json()).toMatchObject({ status: 'paid', code_sent_to: 'rita@example.com' });

    const receipt = await sink.latest('bea@example.com', /gift voucher purchase/);
    expect(receipt.text).toContain('rita@example.com');
    expect(receipt.text).not.toContain(v.code.slice(0, 4) + '-');
    const mail = await sink.latest('rita@example.com', /gift voucher/);
    const shown = v.code.replace(/(.{4})(?=.)/g, '$1-');
    expect(mail.text).toContain(shown);
    expect(mail.text).toContain('Bea Buyer sends you a gift voucher of CHF');
    expect(mail.text).toContain('Happy birthday, Rita!');
    const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf')!;
    expect(pdf.filename).toBe(`gift-voucher-${shown}.pdf`);
    expect(pdf.content.subarray(0, 5).toString()).toBe('%PDF-');
    await until('marked delivered', async () => (await voucherOfCheckout(checkout))!.delivered_at);
    // One voucher for one payment, however many events and returns.
    expect((await t.database.db.select().from(giftVoucher).where(eq(giftVoucher.checkout_id, checkout))).length).toBe(1);
  });

  it('e-mails a voucher for a later day on that day (a job that waits), the receipt at once', async () => {
    const later = addDays(today(), 10);
    const { checkout, session } = await startPurchase({ amount: 5000, recipient_name: 'Lou', recipient_email: 'lou@example.com', deliver_on: later });
    await fake.payCheckoutSession(session);
    const v = await until('the voucher', () => voucherOfCheckout(checkout));
    expect(v.deliver_on).toBe(later);
    await sink.latest('bea@example.com', /gift voucher purchase/);
    // Its job waits for the organisation's midnight of that day.
    const jobs = (await t.database.db.execute(sql`select id, start_after from pgboss.job where name = ${QUEUES.voucherMail.name} and data->>'voucher' = ${v.id} and data->>'kind' = 'voucher'`)) as unknown as { rows: { id: string; start_after: Date }[] };
    expect(jobs.rows).toHaveLength(1);
    expect(new Date(jobs.rows[0]!.start_after).toISOString()).toBe(new Date(`${later}T00:00:00+01:00`).toISOString());
    expect(sink.messages.filter((m) => m.to.includes('lou@example.com'))).toHaveLength(0);
    // The day comes.
    await t.database.db.execute(sql`update pgboss.job set start_after = now() where id = ${jobs.rows[0]!.id}::uuid`);
    t.app.jobs.wake(QUEUES.voucherMail);
    const mail = await sink.latest('lou@example.com', /gift voucher/);
    expect(mail.attachments.some((a) => a.contentType === 'application/pdf')).toBe(true);
  });
});

describe('spending a voucher', () => {
  it('pays part of a counter sale, then the rest of its balance on another order’s payments; the lines keep their price and VAT', async () => {
    const v = await staffVoucher(10000);
    expect(v).toMatchObject({ source: 'staff', balance: 10000, status: 'active' });
    expect(v.ledger).toEqual([expect.objectContaining({ kind: 'issue', amount: 10000, balance_after: 10000, reason: 'Compensation for a cancelled trip' })]);
    const plain = (await counterSale(2)).json();
    const sale = await counterSale(2, { code: v.code.toLowerCase(), amount: 3000 });
    expect(sale.statusCode, sale.body).toBe(201);
    const o = sale.json();
    expect(o).toMatchObject({ total: 9800, paid: 3000, payment_status: 'Partially paid' });
    // The voucher is a payment: the sale's VAT is what it is without it.
    expect(o.tax_total).toBe(plain.tax_total);
    expect(o.tax_total).toBeGreaterThan(0);
    const pays = (await owner.get(`/api/orders/${o.id}/payments/`)).json();
    expect(pays).toEqual([expect.objectContaining({ method: 'voucher', amount: 3000, reference: `Gift voucher …${v.code.slice(-4)}` })]);
    expect((await detail(v.id)).balance).toBe(7000);

    // The order's Payments tab: method voucher with its code, the rest of the balance (70.00 of 98.00 due).
    const second = (await counterSale(2)).json();
    const noCode = await owner.post(`/api/orders/${second.id}/payments/`, { amount: 1000, currency: 'CHF', method: 'voucher' });
    expect(noCode.statusCode).toBe(400);
    const tooMuch = await owner.post(`/api/orders/${second.id}/payments/`, { amount: 8000, currency: 'CHF', method: 'voucher', voucher_code: v.code });
    expect(err(tooMuch).attr).toBe('voucher_amount');
    const rest = await owner.post(`/api/orders/${second.id}/payments/`, { amount: 7000, currency: 'CHF', method: 'voucher', voucher_code: v.code.replace(/-/g, ' ') });
    expect(rest.statusCode, rest.body).toBe(201);
    expect((await owner.get(`/api/orders/${second.id}/`)).json()).toMatchObject({ paid: 7000, balance: 2800 });
    const used = await detail(v.id);
    expect(used).toMatchObject({ balance: 0, status: 'used' });
    expect(used.ledger.map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
      ['issue', 10000, 10000],
      ['redemption', -3000, 7000],
      ['redemption', -7000, 0],
    ]);
    expect(used.ledger[1]!.order_reference).toBe(o.reference);
    const again = await counterSale(1, { code: v.code });
    expect(again.statusCode).toBe(409);
    expect(err(again)).toMatchObject({ code: 'voucher_used_up', attr: 'voucher_code' });
    // A staff-only payment method: recording "voucher" by hand without the voucher's code is refused (above), and nothing was sold by the refused checkout.
    expect(again.json().errors[0].detail).toContain(v.code);
  });

  it('previews a voucher on the store’s cart and pays part of a pay-on-site order; the rest is due on site', async () => {
    const v = await staffVoucher(5000);
    const { id: cart, token } = (await guest.post(`${base}/carts/`)).json();
    const h = { 'x-cart-token': token };
    const slot = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${addDays(today(), 5)}`)).json().slots[0].id;
    expect((await guest.post(`${base}/carts/${cart}/lines/`, { slot, quantities: { [tour.category]: 2 } }, h)).statusCode).toBe(201);
    expect((await guest.post(`${base}/carts/${cart}/voucher/`, { code: v.code }, { 'x-cart-token': 'stolen' })).statusCode).toBe(404);
    expect(err(await guest.post(`${base}/carts/${cart}/voucher/`, { code: 'NOPE-NOPE-NOPE-NOPE' }, h)).code).toBe('voucher_unknown');
    const preview = ZVoucherPreview.parse((await guest.post(`${base}/carts/${cart}/voucher/`, { code: v.code }, h)).json());
    expect(preview).toMatchObject({ code: v.code, balance: 5000, due: 9800, covers: 5000 });
    // (With the online card payment: deposits.int.test.ts, the voucher first, then the card.)
    // The preview takes nothing.
    expect((await detail(v.id)).balance).toBe(5000);
    const placed = await guest.post(`${base}/orders/`, { cart, customer: { email: 'shopper@example.com', first_name: 'Sho', last_name: 'Pper' }, accept_terms: true, payment_option: 'pay_on_site', voucher_code: v.code }, h);
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json()).toMatchObject({ total: 9800, paid: 5000 });
    expect((await detail(v.id)).balance).toBe(0);
  });

  it('puts a refund of a voucher payment back on the voucher, never in cash', async () => {
    const v = await staffVoucher(6000);
    const o = (await counterSale(1, { code: v.code })).json();
    expect(o.paid).toBe(4900);
    const paid = (await owner.get(`/api/orders/${o.id}/payments/`)).json()[0];
    const inCash = await owner.post(`/api/orders/${o.id}/payments/`, { amount: -2000, currency: 'CHF', method: 'cash', refund_of: paid.id, reason: 'Goodwill' });
    expect(inCash.statusCode).toBe(400);
    expect(err(inCash).attr).toBe('method');
    const back = await owner.post(`/api/orders/${o.id}/payments/`, { amount: -2000, currency: 'CHF', method: 'voucher', refund_of: paid.id, reason: 'Goodwill' });
    expect(back.statusCode, back.body).toBe(201);
    const after = await detail(v.id);
    expect(after.balance).toBe(1100 + 2000);
    expect(after.ledger.at(-1)).toMatchObject({ kind: 'refund', amount: 2000, balance_after: 3100 });
    expect(ledgerSum(after)).toBe(after.balance);
    expect((await owner.get(`/api/orders/${o.id}/`)).json()).toMatchObject({ paid: 2900 });
    // A cash payment is not refunded to a voucher.
    const cash = (await owner.post(`/api/orders/${o.id}/payments/`, { amount: 500, currency: 'CHF', method: 'cash' })).json();
    expect((await owner.post(`/api/orders/${o.id}/payments/`, { amount: -500, currency: 'CHF', method: 'voucher', refund_of: cash.id, reason: 'x' })).statusCode).toBe(400);
  });

  it('gives a voucher payment back another way once its voucher is cancelled: money put back on it could never be spent', async () => {
    const v = await staffVoucher(4900);
    const o = (await counterSale(1, { code: v.code })).json();
    const paid = (await owner.get(`/api/orders/${o.id}/payments/`)).json()[0];
    expect((await owner.post(`/api/gift-vouchers/${v.id}/cancel/`, { reason: 'Sold by mistake' })).statusCode).toBe(200);
    const onto = await owner.post(`/api/orders/${o.id}/payments/`, { amount: -4900, currency: 'CHF', method: 'voucher', refund_of: paid.id, reason: 'Cancelled trip' });
    expect(onto.statusCode).toBe(400);
    expect(err(onto).detail).toMatch(/cancelled: give this money back another way/);
    const cash = await owner.post(`/api/orders/${o.id}/payments/`, { amount: -4900, currency: 'CHF', method: 'cash', refund_of: paid.id, reason: 'Cancelled trip' });
    expect(cash.statusCode, cash.body).toBe(201);
    expect((await detail(v.id)).balance).toBe(0);
    expect((await owner.get(`/api/orders/${o.id}/`)).json()).toMatchObject({ paid: 0 });
  });

  // The voucher's row lock (redeemVoucher(): select … for update after the order's lock) makes this
  // hold; without it, on PostgreSQL, both redemptions read the same balance and both passed (PGlite
  // runs one transaction at a time and cannot show the race). Two orders: nothing but the voucher is shared.
  it('lets two payments race for a voucher’s last balance: exactly one passes, the other is told it is used up', async () => {
    for (let round = 0; round < 3; round++) {
      const v = await staffVoucher(4900);
      const orders = [(await counterSale(1)).json(), (await counterSale(1)).json()] as { id: string }[];
      const results = await Promise.all(orders.map((o) => owner.post(`/api/orders/${o.id}/payments/`, { amount: 4900, currency: 'CHF', method: 'voucher', voucher_code: v.code })));
      expect(results.map((r) => r.statusCode).sort(), results.map((r) => r.body).join('\n')).toEqual([201, 409]);
      expect(err(results.find((r) => r.statusCode === 409)!).code).toBe('voucher_used_up');
      const after = await detail(v.id);
      expect(after.balance).toBe(0);
      expect(after.ledger.filter((e) => e.kind === 'redemption')).toHaveLength(1);
      expect(ledgerSum(after)).toBe(0);
    }
  });
});

describe('expiry, cancelling and extending', () => {
  it('refuses an expired voucher until it is extended, with a reason in its ledger and the audit trail; a cancelled one for good', async () => {
    const v = await staffVoucher(3000);
    await t.database.db.update(giftVoucher).set({ expires_at: new Date(Date.now() - 60_000) }).where(eq(giftVoucher.id, v.id));
    expect((await detail(v.id)).status).toBe('expired');
    const expired = await counterSale(1, { code: v.code });
    expect(err(expired)).toMatchObject({ code: 'voucher_expired', attr: 'voucher_code' });
    expect((await owner.post(`/api/gift-vouchers/${v.id}/extend/`, { expires_on: addDays(today(), 30) })).statusCode).toBe(400);
    expect((await owner.post(`/api/gift-vouchers/${v.id}/extend/`, { expires_on: addDays(today(), -1), reason: 'Too late' })).statusCode).toBe(400);
    const extended = await owner.post(`/api/gift-vouchers/${v.id}/extend/`, { expires_on: addDays(today(), 30), reason: 'Customer was ill' });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json()).toMatchObject({ status: 'active', ledger: expect.arrayContaining([expect.objectContaining({ kind: 'extend', amount: 0, reason: 'Customer was ill' })]) });
    expect((await counterSale(1, { code: v.code, amount: 1000 })).statusCode).toBe(201);

    expect((await owner.post(`/api/gift-vouchers/${v.id}/cancel/`, { reason: '' })).statusCode).toBe(400);
    const cancelled = await owner.post(`/api/gift-vouchers/${v.id}/cancel/`, { reason: 'Sold by mistake' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', balance: 0 });
    expect(cancelled.json().ledger.at(-1)).toMatchObject({ kind: 'cancel', amount: -2000, balance_after: 0, reason: 'Sold by mistake' });
    expect((await owner.post(`/api/gift-vouchers/${v.id}/cancel/`, { reason: 'Again' })).statusCode).toBe(409);
    expect(err(await counterSale(1, { code: v.code }))).toMatchObject({ code: 'voucher_cancelled' });
    const audit = await t.database.db.select().from(auditEvent).where(and(eq(auditEvent.subject, 'gift_voucher'), eq(auditEvent.subject_id, v.id)));
    expect(audit.map((a) => a.action).sort()).toEqual(['voucher cancelled', 'voucher extended', 'voucher issued']);
    expect(audit.find((a) => a.action === 'voucher cancelled')!.changes).toMatchObject({ reason: 'Sold by mistake' });
    expect(audit.every((a) => a.actor_id)).toBe(true);
  });

  it('lists vouchers with balances, searchable and filtered by status, paginated in SQL, and as CSV', async () => {
    const list = (await owner.get('/api/gift-vouchers/?page_size=5')).json();
    expect(list.count).toBeGreaterThan(5);
    expect(list.results).toHaveLength(5);
    expect(list.next).toContain('page=2');
    const cancelled = (await owner.get('/api/gift-vouchers/?status=cancelled')).json();
    expect(cancelled.results.length).toBeGreaterThan(0);
    expect(cancelled.results.every((v: { status: string }) => v.status === 'cancelled')).toBe(true);
    const byRecipient = (await owner.get('/api/gift-vouchers/?search=rita@example')).json();
    expect(byRecipient.results).toEqual([expect.objectContaining({ recipient_email: 'rita@example.com', value: 7500 })]);
    const csv = await owner.get('/api/gift-vouchers/export.csv?status=used');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe('code,status,currency,value,balance,expires_at,source,buyer_name,buyer_email,recipient_name,recipient_email,deliver_on,created_at');
    expect(csv.body).toContain(',used,CHF,100.00,0.00,');
    expect((await owner.get('/api/gift-vouchers/?page=99')).statusCode).toBe(404);
  });
});

describe('tenancy', () => {
  it('keeps one organisation’s vouchers from another: its ids are 404, its codes unknown', async () => {
    const v = await staffVoucher(2500);
    expect((await other.get(`/api/gift-vouchers/${v.id}/`)).statusCode).toBe(404);
    expect((await other.post(`/api/gift-vouchers/${v.id}/cancel/`, { reason: 'Hijack' })).statusCode).toBe(404);
    expect((await other.get('/api/gift-vouchers/')).json().count).toBe(0);
    const otherTour = await sellableExperience(other, 'Other cruise');
    expect((await other.patch(`/api/experiences/${otherTour.id}/`, { status: 'Active' })).statusCode).toBe(200);
    const otherSlot = (await other.get(`/api/bookings/check-availability/?experience=${otherTour.id}&date=${addDays(today(), 5)}`)).json()[0].id;
    const held = (await other.post('/api/cart/lines/', { slot: otherSlot, quantities: { [otherTour.category]: 1 } })).json();
    const sale = await other.post('/api/cart/checkout/', { lines: [held.id], customer: { email: 'x@example.com', first_name: 'X' }, voucher_code: v.code });
    expect(err(sale)).toMatchObject({ code: 'voucher_unknown', attr: 'voucher_code' });
    expect((await detail(v.id)).balance).toBe(2500);
  });
});

describe('the accounting export', () => {
  it('shows a voucher sale as a liability without VAT, one issued by staff and a cancellation as their own rows, and redemptions as payments of method voucher', async () => {
    const csv = await owner.get(`/api/accounting/journal.csv?from=${today()}&to=${today()}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...rows] = csv.body.trim().split('\r\n').map(cells);
    const records = rows.map((r) => Object.fromEntries(r.map((c, i) => [header![i], c])));
    const sold = records.filter((r) => r.category === 'voucher_sale');
    expect(sold.find((r) => r.gross_minor === '7500')).toMatchObject({ vat_minor: '0', net_minor: '7500', vat_rate_percent: '0', method: 'online', counterparty: 'Bea Buyer' });
    expect(records.some((r) => r.category === 'voucher_issued' && r.gross_minor === '10000')).toBe(true);
    expect(records.some((r) => r.category === 'voucher_cancelled' && r.gross_minor === '-2000')).toBe(true);
    expect(records.some((r) => r.category === 'payment' && r.method === 'voucher' && r.gross_minor === '3000')).toBe(true);
    expect(records.some((r) => r.category === 'refund' && r.method === 'voucher' && r.gross_minor === '-2000')).toBe(true);
    // A code spends a balance: the journal (read by others than those who manage vouchers) names none in full.
    const codes = (await t.database.db.select({ code: giftVoucher.code }).from(giftVoucher)).map((r) => r.code);
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) expect(csv.body.replace(/-/g, '')).not.toContain(code);
    expect(sold.every((r) => /Gift voucher …[2-9A-Z]{4}/.test(r.description!))).toBe(true);
    // The platform's fee of a voucher sale (1.5 % of 75.00).
    expect(records.some((r) => r.category === 'payment_fee' && r.gross_minor === '-113')).toBe(true);
    // Voucher payments are payments: the journal's payments still add up to what orders record as paid.
    const payments = await t.database.db.select().from(orderPayment).where(eq(orderPayment.method, 'voucher'));
    expect(payments.length).toBeGreaterThan(0);
    const entries = await t.database.db.select().from(giftVoucherEntry);
    expect(entries.filter((e) => e.kind === 'redemption').reduce((s, e) => s - e.amount, 0)).toBe(payments.filter((p) => p.amount > 0).reduce((s, p) => s + p.amount, 0));
  });
});
