import { eq } from 'drizzle-orm';
import type { TBooking, TOrder } from '@tourdesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Money fixed when it is sold: each line keeps its items (a pricing category or an extra, quantity,
 * unit price), VAT rate, net, tax and gross from the moment of sale; nothing later changes them but
 * a change of that line. The payment status follows the money, refunds included.
 */

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let accountId: string;
let exp: { id: string; category: string; rate: string; rule: string };
let child: string;
let childRate: string;
let lunch: string;
let slotId: string;
const ZONE = 'Europe/Zurich';
const guest = (n: number) => ({ email: `fixed${n}@example.com`, first_name: `Fixed${n}`, last_name: 'Guest' });
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;
const order = async (id: string) => (await owner.get(`/api/orders/${id}/`)).json() as TOrder;

async function newOrder(n: number, lines = 1) {
  const res = await owner.post('/api/orders/', {
    customer: guest(n),
    lines: Array.from({ length: lines }, () => ({ slot: slotId, quantities: { [exp.category]: 2, [child]: 1 }, extras: { [lunch]: 3 } })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TOrder;
}
const itemsOf = (b: TBooking) => b.items.map((i) => [i.kind, i.label, i.quantity, i.unit_price, i.total, i.tax_rate_bp, i.tax, i.net]);

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'fixed' });
  accountId = (await owner.get('/api/users/me/')).json().base_account.id;
  await t.database.db.update(baseAccount).set({ time_zone: ZONE, vat_rate_bp: 810 }).where(eq(baseAccount.id, accountId));
  exp = await sellableExperience(owner, 'Glacier hike');
  child = (await owner.post('/api/pricing-categories/', { type: 'Child', label: 'Child' })).json().id;
  childRate = (await owner.post('/api/pricing-rates/', { experience: exp.id, pricing_category: child, retail_price: 3300 })).json().id;
  lunch = (await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Packed lunch', price: 1500 })).json().id;
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active', extras: [lunch] })).statusCode).toBe(200);
  await owner.delete(`/api/schedule-rules/${exp.rule}/`);
  await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['09:00'], capacity: 200 });
  slotId = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(ZONE), 4)}`)).json()[0].id;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('a line sold', () => {
  it('shows what it sells item by item in the cart, and keeps those items, their prices and VAT when booked', async () => {
    const held = await owner.post('/api/cart/lines/', { slot: slotId, quantities: { [exp.category]: 2, [child]: 1 }, extras: { [lunch]: 3 } });
    expect(held.statusCode, held.body).toBe(201);
    const cart = (await owner.get('/api/cart/')).json();
    expect(cart.lines[0].items.map((i: { label: string; quantity: number; unit_price: number }) => [i.label, i.quantity, i.unit_price]).sort()).toEqual([
      ['Adult Glacier hike', 2, 4900],
      ['Child', 1, 3300],
      ['Packed lunch', 3, 1500],
    ]);
    const o = (await owner.post('/api/cart/checkout/', { customer: guest(1), lines: [held.json().id] })).json() as TOrder;
    const b = o.bookings[0]!;
    expect(b.total).toBe(2 * 4900 + 3300 + 3 * 1500);
    // 9800 × 810 / 10810 = 734.3 → 734; 3300 → 247.3 → 247; 4500 → 337.2 → 337.
    expect(itemsOf(b).sort()).toEqual(
      [
        ['category', 'Adult Glacier hike', 2, 4900, 9800, 810, 734, 9066],
        ['category', 'Child', 1, 3300, 3300, 810, 247, 3053],
        ['extra', 'Packed lunch', 3, 1500, 4500, 810, 337, 4163],
      ].sort(),
    );
    expect(b).toMatchObject({ tax_rate_bp: 810, tax: 734 + 247 + 337, net: b.total - (734 + 247 + 337) });
    expect(o).toMatchObject({ total: b.total, tax_total: b.tax, sold_total: b.total });
  });

  it('never changes when the VAT rates, a price or a name change later', async () => {
    const o = await newOrder(2);
    const before = o.bookings[0]!;
    await owner.patch('/api/account/', { vat_rate_bp: 770 });
    await owner.patch(`/api/experiences/${exp.id}/`, { vat_rate_bp: 250 });
    await owner.patch(`/api/pricing-rates/${exp.rate}/`, { retail_price: 9900 });
    await owner.patch(`/api/pricing-categories/${child}/`, { label: 'Kid' });
    await owner.patch(`/api/inventory-items/${lunch}/`, { name: 'Lunch box', price: 2500 });
    // A payment recomputes the order: still the figures it was sold with.
    await owner.post(`/api/orders/${o.id}/payments/`, { amount: 1000, currency: 'EUR', method: 'cash' });
    const after = await order(o.id);
    expect(itemsOf(after.bookings[0]!)).toEqual(itemsOf(before));
    expect(after).toMatchObject({ total: o.total, tax_total: o.tax_total, sold_total: o.total });
    await owner.patch('/api/account/', { vat_rate_bp: 810 });
    await owner.patch(`/api/experiences/${exp.id}/`, { vat_rate_bp: null });
    await owner.patch(`/api/pricing-rates/${exp.rate}/`, { retail_price: 4900 });
    await owner.patch(`/api/pricing-categories/${child}/`, { label: 'Child' });
    await owner.patch(`/api/inventory-items/${lunch}/`, { name: 'Packed lunch', price: 1500 });
  });

  it('editing an order prices again only the line that changes', async () => {
    const o = await newOrder(3, 2);
    const [first, second] = o.bookings;
    await owner.patch(`/api/pricing-rates/${childRate}/`, { retail_price: 4000 });
    await owner.patch('/api/account/', { vat_rate_bp: 250 });
    const changed = await owner.patch(`/api/orders/${o.id}/lines/${first!.id}/`, { quantities: { [exp.category]: 2, [child]: 2 } });
    expect(changed.statusCode, changed.body).toBe(200);
    const now = changed.json() as TOrder;
    const a = now.bookings.find((b) => b.id === first!.id)!;
    const b = now.bookings.find((x) => x.id === second!.id)!;
    expect(a.items.find((i) => i.label === 'Child')).toMatchObject({ quantity: 2, unit_price: 4000, total: 8000, tax_rate_bp: 250 });
    expect(a.total).toBe(9800 + 8000 + 4500);
    expect(itemsOf(b)).toEqual(itemsOf(second!));
    expect(now.tax_total).toBe(a.tax + b.tax);
    await owner.patch(`/api/pricing-rates/${childRate}/`, { retail_price: 3300 });
    await owner.patch('/api/account/', { vat_rate_bp: 810 });
  });
});

describe('payment status follows the money', () => {
  it('goes Not paid → Partially paid → Fully paid; a cancelled paid order is Refund due and keeps its original total; refunding it makes it Refunded', async () => {
    const o = await newOrder(4);
    expect(o.payment_status).toBe('Not paid');
    const pay = (body: object) => owner.post(`/api/orders/${o.id}/payments/`, { currency: 'EUR', method: 'card terminal', ...body });
    const p1 = (await pay({ amount: 5000 })).json();
    expect((await order(o.id)).payment_status).toBe('Partially paid');
    const p2 = (await pay({ amount: o.total - 5000 })).json();
    expect(await order(o.id)).toMatchObject({ payment_status: 'Fully paid', balance: 0 });
    expect((await owner.post(`/api/orders/${o.id}/cancel/`)).statusCode).toBe(200);
    const cancelled = await order(o.id);
    // A negative balance is never "Fully paid": the money is to be given back.
    expect(cancelled).toMatchObject({ status: 'Canceled', payment_status: 'Refund due', total: 0, sold_total: o.total, balance: -o.total, paid: o.total });
    expect((await owner.get('/api/orders/?payment_status=Refund due')).json().results.map((x: { id: string }) => x.id)).toContain(o.id);
    await pay({ amount: -5000, refund_of: p1.id, reason: 'Cancelled: storm warning' });
    expect(await order(o.id)).toMatchObject({ payment_status: 'Refund due', refunded: 5000 });
    await pay({ amount: -(o.total - 5000), refund_of: p2.id, reason: 'Cancelled: storm warning' });
    expect(await order(o.id)).toMatchObject({ payment_status: 'Refunded', paid: 0, refunded: o.total, balance: 0, total: 0, sold_total: o.total });
  });

  it('a line cancelled after full payment leaves the order Refund due for that line, and a refund of it evens the balance', async () => {
    const o = await newOrder(5, 2);
    const paid = (await owner.post(`/api/orders/${o.id}/payments/`, { amount: o.total, currency: 'EUR', method: 'cash' })).json();
    await owner.post(`/api/orders/${o.id}/lines/${o.bookings[1]!.id}/cancel/`);
    const after = await order(o.id);
    expect(after).toMatchObject({ payment_status: 'Refund due', total: o.total / 2, balance: -o.total / 2, sold_total: o.total });
    expect(err(await owner.post(`/api/orders/${o.id}/payments/`, { amount: 100, currency: 'EUR', method: 'cash' })).detail).toBe('This order is fully paid: nothing is left to pay.');
    await owner.post(`/api/orders/${o.id}/payments/`, { amount: -o.total / 2, currency: 'EUR', method: 'cash', refund_of: paid.id, reason: 'One guest fewer' });
    expect(await order(o.id)).toMatchObject({ payment_status: 'Fully paid', balance: 0 });
  });
});
