import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { BASE, Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * The organisation's currency and time zone come from sign-up; the currency can change until the
 * first sale; every amount uses the currency's own minor unit (ISO 4217: JPY none, KWD three) in
 * the API, the CSV export and the invoice PDF.
 */
let t: TestApp;
let sink: MailSink;
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function pdfText(owner: Browser, path: string) {
  const res = await owner.get(path);
  expect(res.statusCode, res.body).toBe(200);
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
}

/** An organisation in `currency` selling one offer at `price` minor units, with an order of two seats. */
async function sellIn(subdomain: string, currency: string, zone: string, price: number) {
  const owner = await createOrganisation(t.app, sink, { subdomain, currency, time_zone: zone });
  const exp = await sellableExperience(owner, 'City walk');
  expect((await owner.patch(`/api/pricing-rates/${exp.rate}/`, { retail_price: price })).statusCode).toBe(200);
  await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' });
  const [slot] = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(zone), 3)}`)).json();
  const res = await owner.post('/api/orders/', { customer: { email: `buyer@${subdomain}.test`, first_name: 'Bo' }, lines: [{ slot: slot.id, quantities: { [exp.category]: 2 } }] });
  expect(res.statusCode, res.body).toBe(201);
  return { owner, exp, order: res.json() as { id: string; reference: string; total: number; currency: string } };
}

describe('sign-up asks for the currency and time zone', () => {
  it('keeps what was chosen, and refuses what is not a currency or a time zone', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'tokyo', currency: 'JPY', time_zone: 'Asia/Tokyo' });
    expect((await owner.get('/api/account/')).json()).toMatchObject({ currency: 'JPY', time_zone: 'Asia/Tokyo' });
    expect((await owner.get('/api/users/me/')).json().base_account).toMatchObject({ currency: 'JPY', time_zone: 'Asia/Tokyo' });

    const anon = new Browser(t.app, BASE);
    const base = { email: 'x@bad.test', password: 'a-Long-passw0rd!', organisation_name: 'Bad org', kind: 'supplier', subdomain: 'badorg' };
    const money = await anon.post('/api/users/register/', { ...base, currency: 'XYZ', time_zone: 'UTC' });
    expect(money.statusCode).toBe(400);
    expect(err(money).attr).toBe('currency');
    const zone = await anon.post('/api/users/register/', { ...base, currency: 'EUR', time_zone: 'Mars/Olympus' });
    expect(zone.statusCode).toBe(400);
    expect(err(zone).attr).toBe('time_zone');
  });
});

describe('the currency changes until the first sale', () => {
  it('moves prices and extras to the new currency keeping what they show, then refuses once seats are held or sold', async () => {
    const owner = await createOrganisation(t.app, sink, { subdomain: 'swap', currency: 'EUR', time_zone: 'Europe/Berlin' });
    const exp = await sellableExperience(owner, 'Canal cruise');
    const extra = (await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Drink', price: 1500 })).json();
    const changed = await owner.patch('/api/account/', { currency: 'JPY' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().currency).toBe('JPY');
    expect((await owner.get(`/api/pricing-rates/${exp.rate}/`)).json()).toMatchObject({ retail_price: 49, currency: 'JPY' });
    expect((await owner.get(`/api/inventory-items/${extra.id}/`)).json()).toMatchObject({ price: 15 });

    await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' });
    const [slot] = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn('Europe/Berlin'), 3)}`)).json();
    const line = (await owner.post('/api/cart/lines/', { slot: slot.id, quantities: { [exp.category]: 1 } })).json();
    expect(line.total).toBe(49);
    const held = await owner.patch('/api/account/', { currency: 'EUR' });
    expect(held.statusCode).toBe(409);
    expect(err(held)).toMatchObject({ code: 'conflict', attr: 'currency', detail: expect.stringMatching(/after the first sale/) });
    await owner.post('/api/cart/checkout/', { customer: { email: 'first@swap.test', first_name: 'First' } });
    expect((await owner.patch('/api/account/', { currency: 'EUR' })).statusCode).toBe(409);
    expect((await owner.get('/api/account/')).json().currency).toBe('JPY');
    // Other details still change.
    expect((await owner.patch('/api/account/', { currency: 'JPY', name: 'Swap tours' })).statusCode).toBe(200);
  });
});

describe('each currency’s own minor unit', () => {
  it('JPY has no decimals: API, CSV (numbers, negatives included) and the invoice PDF', async () => {
    const { owner, order } = await sellIn('yen', 'JPY', 'Asia/Tokyo', 1200);
    expect(order).toMatchObject({ total: 2400, currency: 'JPY' });
    await owner.patch('/api/account/', { billing_address: '1-1 Marunouchi, Tokyo', vat_number: 'T1234567890123', vat_rate_bp: 1000 });
    expect((await owner.post(`/api/orders/${order.id}/invoice/`)).statusCode).toBe(200);
    const text = await pdfText(owner, `/api/orders/${order.id}/invoice.pdf`);
    expect(text).toContain('JPY 2,400');
    expect(text).not.toMatch(/JPY 2,400\.00|JPY 24\.00/);

    // Paid, then cancelled: a refund is due, and the CSV's balance is a negative number.
    const paid = await owner.post(`/api/orders/${order.id}/payments/`, { amount: 2400, currency: 'JPY', method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await owner.post(`/api/orders/${order.id}/cancel/`)).statusCode).toBe(200);
    const csv = (await owner.get('/api/orders/export.csv')).body.trim().split('\r\n');
    const header = csv[0]!.split(',');
    const row = csv.find((r) => r.startsWith(order.reference))!.split(',');
    const cell = (name: string) => row[header.indexOf(name)];
    expect([cell('currency'), cell('payment_status'), cell('sold_total'), cell('total'), cell('paid'), cell('refunded'), cell('balance')]).toEqual(['JPY', 'Refund due', '2400', '0', '2400', '0', '-2400']);
    // The list keeps what the cancelled order was sold for beside what it owes now.
    const listed = (await owner.get('/api/orders/')).json().results.find((o: { id: string }) => o.id === order.id);
    expect(listed).toMatchObject({ sold_total: 2400, total: 0, paid: 2400, refunded: 0, payment_status: 'Refund due' });
    const refund = await owner.post(`/api/orders/${order.id}/payments/`, { amount: -2400, currency: 'JPY', method: 'cash', refund_of: paid.json().id, reason: 'Cancelled' });
    expect(refund.statusCode, refund.body).toBe(201);
    const after = (await owner.get('/api/orders/')).json().results.find((o: { id: string }) => o.id === order.id);
    expect(after).toMatchObject({ sold_total: 2400, total: 0, paid: 0, refunded: 2400, payment_status: 'Refunded' });
  });

  it('KWD has three decimals', async () => {
    const { owner, order } = await sellIn('kuwait', 'KWD', 'Asia/Kuwait', 1250);
    expect(order).toMatchObject({ total: 2500, currency: 'KWD' });
    const csv = (await owner.get('/api/orders/export.csv')).body.trim().split('\r\n');
    const header = csv[0]!.split(',');
    const row = csv.find((r) => r.startsWith(order.reference))!.split(',');
    expect(row[header.indexOf('total')]).toBe('2.500');
    expect(row[header.indexOf('balance')]).toBe('2.500');
    await owner.patch('/api/account/', { billing_address: 'Gulf Road, Kuwait City', vat_number: 'KW-1', vat_rate_bp: 500 });
    expect((await owner.post(`/api/orders/${order.id}/invoice/`)).statusCode).toBe(200);
    expect(await pdfText(owner, `/api/orders/${order.id}/invoice.pdf`)).toContain('KWD 2.500');
  });
});
