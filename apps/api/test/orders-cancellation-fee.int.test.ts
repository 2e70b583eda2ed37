import { eq } from 'drizzle-orm';
import { ZOrder, ZRefundProposal, ZWebOrder, type TInvoice } from '@tourdesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, booking } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * The cancellation fee: an order cancelled under a policy that refunds less than everything paid
 * keeps the rest (paid − the policy's refund) as its fee — its total, its VAT at the rate of the
 * cancelled lines, its payment status, the refund proposed, the invoice that replaces a credited
 * one. The customer's cancel on their booking page always keeps it; staff choose (free of charge
 * by default, as before).
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guest: Browser;
const ZONE = 'Europe/Zurich';
const SELLER = { legal_name: 'Fee Tours AG', billing_address: 'Seestrasse 1\n6000 Luzern', vat_number: 'CHE-123.456.789 MWST', vat_rate_bp: 810 };
/** 100 % up to 100 days before the start, 50 % after: a slot three days ahead refunds half. */
const HALF = [
  { hours_before: 2400, refund_percent: 100 },
  { hours_before: 1, refund_percent: 50 },
];
let half: { id: string; category: string; rate: string; slot: string };
let reduced: { id: string; category: string; rate: string; slot: string };
let full: { id: string; category: string; rate: string; slot: string };
let noPolicy: { id: string; category: string; rate: string; slot: string };
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;
const who = (n: number) => ({ email: `fee${n}@example.com`, first_name: `Fee${n}`, last_name: 'Guest' });

async function offer(browser: Browser, title: string, rules: typeof HALF | null, { price, vat }: { price?: number; vat?: number } = {}) {
  const exp = await sellableExperience(browser, title);
  if (price) expect((await browser.patch(`/api/pricing-rates/${exp.rate}/`, { retail_price: price })).statusCode).toBe(200);
  const policy = rules ? (await browser.post('/api/cancellation-policies/', { name: `${title} policy`, rules })).json().id : null;
  const patched = await browser.patch(`/api/experiences/${exp.id}/`, { status: 'Active', cancellation_policy: policy, ...(vat !== undefined ? { vat_rate_bp: vat } : {}) });
  expect(patched.statusCode, patched.body).toBe(200);
  const zone = (await browser.get('/api/account/')).json().time_zone as string;
  const [slot] = (await browser.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(zone), 3)}`)).json();
  return { ...exp, slot: slot.id as string };
}

async function newOrder(n: number, lines: { slot: string; category: string; qty: number }[], browser = owner) {
  const res = await browser.post('/api/orders/', { customer: who(n), lines: lines.map((l) => ({ slot: l.slot, quantities: { [l.category]: l.qty } })) });
  expect(res.statusCode, res.body).toBe(201);
  return ZOrder.parse(res.json());
}
async function pay(orderId: string, amount: number, currency = 'CHF', browser = owner) {
  const res = await browser.post(`/api/orders/${orderId}/payments/`, { amount, currency, method: 'cash' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
const getOrder = async (id: string, browser = owner) => ZOrder.parse((await browser.get(`/api/orders/${id}/`)).json());
const proposal = async (id: string, browser = owner) => ZRefundProposal.parse((await browser.get(`/api/orders/${id}/refund-proposal/`)).json());
async function cancel(id: string, body?: unknown, browser = owner) {
  const res = await browser.post(`/api/orders/${id}/cancel/`, body);
  expect(res.statusCode, res.body).toBe(200);
  return ZOrder.parse(res.json());
}
async function refund(orderId: string, paymentId: string, amount: number, currency = 'CHF', browser = owner) {
  const res = await browser.post(`/api/orders/${orderId}/payments/`, { amount: -amount, currency, method: 'cash', refund_of: paymentId, reason: 'Cancelled under the policy' });
  expect(res.statusCode, res.body).toBe(201);
}
const shares = async (orderId: string) =>
  Object.fromEntries((await t.database.db.select({ slot: booking.slot_id, fee: booking.cancellation_fee }).from(booking).where(eq(booking.order_id, orderId))).map((b) => [b.slot, b.fee]));

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'feeshop', currency: 'CHF', time_zone: ZONE });
  const me = (await owner.get('/api/users/me/')).json();
  await t.database.db.update(baseAccount).set(SELLER).where(eq(baseAccount.id, me.base_account.id));
  half = await offer(owner, 'Half refund tour', HALF);
  reduced = await offer(owner, 'Reduced rate tour', HALF, { price: 3333, vat: 260 });
  full = await offer(owner, 'Full refund tour', [{ hours_before: 1, refund_percent: 100 }]);
  noPolicy = await offer(owner, 'No policy tour', null);
  const storeId = (await owner.post('/api/stores/', { name: 'Fee shop', slug: 'fees' })).json().id;
  expect((await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [half.id] })).statusCode).toBeLessThan(300);
  guest = new Browser(t.app, 'feeshop.localhost');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('a customer cancels on their booking page', () => {
  it('keeps the fee under a 50 % policy: the total is the fee, the rest is due back and proposed, then the order is settled', async () => {
    const base = '/api/web-stores/fees';
    const { id: cart, token } = (await guest.post(`${base}/carts/`)).json();
    const held = await guest.post(`${base}/carts/${cart}/lines/`, { slot: half.slot, quantities: { [half.category]: 2 } }, { 'x-cart-token': token });
    expect(held.statusCode, held.body).toBe(201);
    const placed = await guest.post(`${base}/orders/`, { cart, customer: who(1), accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token });
    expect(placed.statusCode, placed.body).toBe(201);
    const web = ZWebOrder.parse(placed.json());
    const secret = web.manage_url.split('#')[1]!;
    const id = (await owner.get(`/api/orders/?search=${web.reference}`)).json().results[0].id as string;
    const payment = await pay(id, 9800);

    // What the page says before: half refunded, half kept — and staff are proposed the same.
    const before = ZWebOrder.parse((await guest.get(`${base}/orders/${web.reference}/`, { 'x-order-token': secret })).json());
    expect(before.cancellation).toMatchObject({ allowed: true, refund: 4900, fee: 4900, reason: 'Cancel now and 50 % of what you paid is refunded.' });
    expect(await proposal(id)).toMatchObject({ amount: 4900, cancellation_fee: 4900 });

    const res = await guest.post(`${base}/orders/${web.reference}/cancel/`, {}, { 'x-order-token': secret });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZWebOrder.parse(res.json())).toMatchObject({ status: 'Canceled', payment_status: 'Refund due', total: 4900, paid: 9800, refunded: 0, cancellation_fee: 4900 });

    // The books keep the fee: its VAT at the cancelled line's 8.1 % (round-half-up(4900 × 810 / 10810) = 367).
    const o = await getOrder(id);
    expect(o).toMatchObject({ status: 'Canceled', sold_total: 9800, total: 4900, cancellation_fee: 4900, tax_total: 367, paid: 9800, balance: -4900, payment_status: 'Refund due' });
    const proposed = await proposal(id);
    expect(proposed).toMatchObject({ amount: 4900, cancellation_fee: 4900 });
    expect(proposed.reason).toBe('Cancelled under the cancellation policy: its fee of CHF 49.00 is kept, the rest of what was paid is refunded.');
    // Never invoiced: no document.
    expect(o.invoices).toEqual([]);
    const audit = (await owner.get(`/api/orders/${id}/audit/`)).json() as { action: string; changes: Record<string, unknown>; actor: unknown }[];
    expect(audit.find((e) => e.action === 'cancelled')).toMatchObject({ changes: { cancellation_fee: 4900 }, actor: null });

    // The rest refunded: settled — the fee is what the cancelled order owes, and it is paid.
    await refund(id, payment, proposed.amount);
    expect(await getOrder(id)).toMatchObject({ status: 'Canceled', total: 4900, paid: 4900, refunded: 4900, balance: 0, payment_status: 'Fully paid' });
    expect(await proposal(id)).toMatchObject({ amount: 0, cancellation_fee: 4900 });
    expect(ZWebOrder.parse((await guest.get(`${base}/orders/${web.reference}/`, { 'x-order-token': secret })).json())).toMatchObject({
      payment_status: 'Fully paid',
      total: 4900,
      paid: 4900,
      refunded: 4900,
      cancellation_fee: 4900,
      cancellation: { allowed: false },
    });
    // No more than the rest can be proposed, nor can it be paid again.
    expect(err(await owner.post(`/api/orders/${id}/payments/`, { amount: 100, currency: 'CHF', method: 'cash' })).detail).toBe('This order is cancelled: it takes refunds only.');
  });

  it('keeps nothing when nothing was paid', async () => {
    const o = await newOrder(2, [{ slot: half.slot, category: half.category, qty: 1 }]);
    expect(await cancel(o.id, { keep_cancellation_fee: true })).toMatchObject({ total: 0, cancellation_fee: 0, tax_total: 0, payment_status: 'Not paid' });
  });
});

describe('staff cancel from the back office', () => {
  it('free of charge by default, as before: nothing kept, everything paid due back', async () => {
    for (const [n, body] of [[3, undefined], [4, {}], [5, { keep_cancellation_fee: false }]] as const) {
      const o = await newOrder(n, [{ slot: half.slot, category: half.category, qty: 2 }]);
      await pay(o.id, 9800);
      // What keeping the fee would keep is offered, not applied.
      expect(await proposal(o.id)).toMatchObject({ amount: 4900, cancellation_fee: 4900 });
      expect(await cancel(o.id, body)).toMatchObject({ status: 'Canceled', total: 0, tax_total: 0, cancellation_fee: 0, sold_total: 9800, paid: 9800, payment_status: 'Refund due' });
      expect(await proposal(o.id)).toEqual({ amount: 9800, reason: 'Paid beyond what the order owes now.', cancellation_fee: 0 });
    }
    const o = await newOrder(6, [{ slot: half.slot, category: half.category, qty: 1 }]);
    const bad = await owner.post(`/api/orders/${o.id}/cancel/`, { keep_cancellation_fee: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(err(bad).attr).toBe('keep_cancellation_fee');
    expect((await getOrder(o.id)).status).toBe('Confirmed');
  });

  it('keeping the fee under the policy: the fee on the order, the rest proposed and refunded, settled', async () => {
    const o = await newOrder(7, [{ slot: half.slot, category: half.category, qty: 3 }]);
    const payment = await pay(o.id, 14700);
    const c = await cancel(o.id, { keep_cancellation_fee: true });
    // 50 % of 147.00 refunded (73.50), 73.50 kept; its VAT round-half-up(7350 × 810 / 10810) = 551.
    expect(c).toMatchObject({ status: 'Canceled', total: 7350, cancellation_fee: 7350, tax_total: 551, sold_total: 14700, balance: -7350, payment_status: 'Refund due' });
    expect(c.bookings.every((b) => b.status === 'Canceled')).toBe(true);
    expect((await proposal(o.id)).amount).toBe(7350);
    await refund(o.id, payment, 7350);
    expect(await getOrder(o.id)).toMatchObject({ payment_status: 'Fully paid', balance: 0, refunded: 7350 });
  });

  it('refuses to keep a fee the policy does not allow now, and changes nothing', async () => {
    const o = await newOrder(8, [{ slot: noPolicy.slot, category: noPolicy.category, qty: 1 }]);
    await pay(o.id, 4900);
    expect(await proposal(o.id)).toMatchObject({ cancellation_fee: null });
    const res = await owner.post(`/api/orders/${o.id}/cancel/`, { keep_cancellation_fee: true });
    expect(res.statusCode).toBe(409);
    expect(err(res)).toMatchObject({ attr: 'keep_cancellation_fee', detail: 'No cancellation fee can be kept under the policy now: a booking of this order has no cancellation policy. Cancel free of charge instead.' });
    expect(await getOrder(o.id)).toMatchObject({ status: 'Confirmed', total: 4900, cancellation_fee: 0 });
  });

  it('a policy that refunds 100 % keeps no fee', async () => {
    const o = await newOrder(9, [{ slot: full.slot, category: full.category, qty: 2 }]);
    await pay(o.id, 9800);
    expect(await proposal(o.id)).toMatchObject({ amount: 9800, cancellation_fee: 0 });
    expect(await cancel(o.id, { keep_cancellation_fee: true })).toMatchObject({ total: 0, cancellation_fee: 0, tax_total: 0, payment_status: 'Refund due' });
    expect((await proposal(o.id)).amount).toBe(9800);
  });

  it('splits the fee over lines of several VAT rates pro rata by gross, each share taxed at its line’s rate', async () => {
    // 49.00 at 8.1 % and 33.33 at 2.6 %: paid 82.33, 50 % refunded rounded down (41.16), 41.17 kept.
    const o = await newOrder(10, [
      { slot: half.slot, category: half.category, qty: 1 },
      { slot: reduced.slot, category: reduced.category, qty: 1 },
    ]);
    await pay(o.id, 8233);
    const c = await cancel(o.id, { keep_cancellation_fee: true });
    // 4117 × 4900 / 8233 = 2450.30, × 3333 / 8233 = 1666.70: the unit rounding left goes to the larger remainder.
    expect(await shares(o.id)).toEqual({ [half.slot]: 2450, [reduced.slot]: 1667 });
    // VAT: round-half-up(2450 × 810 / 10810) = 184 and round-half-up(1667 × 260 / 10260) = 42.
    expect(c).toMatchObject({ total: 4117, cancellation_fee: 4117, tax_total: 184 + 42, payment_status: 'Refund due' });
    expect((await proposal(o.id)).amount).toBe(4116);
  });

  it('a line cancelled earlier is refunded in full: the fee is kept only of what the open lines cost', async () => {
    const o = await newOrder(11, [
      { slot: half.slot, category: half.category, qty: 1 },
      { slot: reduced.slot, category: reduced.category, qty: 1 },
    ]);
    await pay(o.id, 8233);
    const reducedLine = o.bookings.find((b) => b.slot === reduced.slot)!;
    expect((await owner.post(`/api/orders/${o.id}/lines/${reducedLine.id}/cancel/`)).statusCode).toBe(200);
    // 33.33 overpaid comes back whole; of the 49.00 still booked, half.
    expect(await proposal(o.id)).toMatchObject({ amount: 3333 + 2450, cancellation_fee: 2450 });
    const c = await cancel(o.id, { keep_cancellation_fee: true });
    expect(await shares(o.id)).toEqual({ [half.slot]: 2450, [reduced.slot]: 0 });
    expect(c).toMatchObject({ total: 2450, cancellation_fee: 2450, tax_total: 184, payment_status: 'Refund due' });
    expect((await proposal(o.id)).amount).toBe(5783);
  });
});

describe('invoices', () => {
  it('an invoiced order cancelled with a fee: a credit note cancels the invoice, a new invoice states the fee with its VAT', async () => {
    const o = await newOrder(12, [{ slot: half.slot, category: half.category, qty: 2 }]);
    await pay(o.id, 9800);
    const first = (await owner.post(`/api/orders/${o.id}/invoice/`)).json() as TInvoice;
    expect(first.total).toBe(9800);
    await cancel(o.id, { keep_cancellation_fee: true });
    const docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { id: string; kind: string; total: number; credits: string | null }[];
    expect(docs.map((d) => [d.kind, d.total])).toEqual([
      ['invoice', 9800],
      ['credit_note', -9800],
      ['invoice', 4900],
    ]);
    const replacement = (await owner.get(`/api/orders/${o.id}/invoices/${docs[2]!.id}/`)).json() as TInvoice;
    expect(replacement.lines).toEqual([{ description: 'Cancellation fee', quantity: 1, unit_price: 4900, vat_rate_bp: 810, net: 4900 - 367, tax: 367, total: 4900 }]);
    expect(replacement).toMatchObject({ total: 4900, tax_total: 367, net_total: 4533, taxes: [{ vat_rate_bp: 810, gross: 4900, tax: 367, net: 4533 }], paid: 9800 });
    expect((await getOrder(o.id)).invoice?.id).toBe(replacement.id);
    // Refunding the rest changes no document.
    const pdf = await owner.get(`/api/orders/${o.id}/invoices/${replacement.id}/pdf/`);
    expect(pdf.statusCode).toBe(200);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const text = (await (await (await getDocument({ data: new Uint8Array(pdf.rawPayload) }).promise).getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain('Cancellation fee');
    expect(text).toContain('CHF 49.00');
  });

  it('an invoiced order cancelled free of charge is credited with no new invoice, as before', async () => {
    const o = await newOrder(13, [{ slot: half.slot, category: half.category, qty: 1 }]);
    await pay(o.id, 4900);
    await owner.post(`/api/orders/${o.id}/invoice/`);
    await cancel(o.id);
    const docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { kind: string; total: number }[];
    expect(docs.map((d) => [d.kind, d.total])).toEqual([
      ['invoice', 4900],
      ['credit_note', -4900],
    ]);
  });
});

describe('currencies without decimals', () => {
  it('JPY: the fee rounds to whole yen — 50 % of ¥999 refunds ¥499 and keeps ¥500, its VAT ¥45 at 10 %', async () => {
    const yen = await createOrganisation(t.app, sink, { subdomain: 'feeyen', currency: 'JPY', time_zone: 'Asia/Tokyo' });
    expect((await yen.patch('/api/account/', { billing_address: '1-1 Marunouchi, Tokyo', vat_number: 'T1234567890123', vat_rate_bp: 1000 })).statusCode).toBe(200);
    const walk = await offer(yen, 'Temple walk', HALF, { price: 999 });
    const o = await newOrder(14, [{ slot: walk.slot, category: walk.category, qty: 1 }], yen);
    const payment = await pay(o.id, 999, 'JPY', yen);
    await yen.post(`/api/orders/${o.id}/invoice/`);
    expect(await proposal(o.id, yen)).toMatchObject({ amount: 499, cancellation_fee: 500 });
    // round-half-up(500 × 1000 / 11000) = 45.
    expect(await cancel(o.id, { keep_cancellation_fee: true }, yen)).toMatchObject({ currency: 'JPY', total: 500, cancellation_fee: 500, tax_total: 45, payment_status: 'Refund due' });
    const p = await proposal(o.id, yen);
    expect(p).toMatchObject({ amount: 499, cancellation_fee: 500 });
    expect(p.reason).toContain('JPY 500');
    const docs = (await yen.get(`/api/orders/${o.id}/invoices/`)).json() as { id: string; kind: string; total: number }[];
    const fee = (await yen.get(`/api/orders/${o.id}/invoices/${docs.at(-1)!.id}/`)).json() as TInvoice;
    expect(fee.lines).toEqual([{ description: 'Cancellation fee', quantity: 1, unit_price: 500, vat_rate_bp: 1000, net: 455, tax: 45, total: 500 }]);
    await refund(o.id, payment, 499, 'JPY', yen);
    expect(await getOrder(o.id, yen)).toMatchObject({ total: 500, paid: 500, refunded: 499, payment_status: 'Fully paid' });
    const csv = (await yen.get('/api/orders/export.csv')).body.trim().split('\r\n');
    const header = csv[0]!.split(',');
    const row = csv.find((r) => r.startsWith(o.reference))!.split(',');
    expect(['total', 'paid', 'refunded', 'balance'].map((c) => row[header.indexOf(c)])).toEqual(['500', '500', '499', '0']);
  });
});
