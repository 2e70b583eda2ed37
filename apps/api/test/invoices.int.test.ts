import { eq } from 'drizzle-orm';
import type { TInvoice } from '@tourdesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, invoiceSequence } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Invoices an accountant accepts: issued only with the seller's details, numbered without gaps per
 * organisation and year, dated the organisation's local day, never changed once issued; a change to
 * an invoiced order is corrected by a credit note and, where something is still sold, a new invoice.
 */

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let accountId: string;
let exp: { id: string; category: string; rule: string };
let slotId: string;
// Far east of UTC: for half of every day the local date is not UTC's.
const ZONE = 'Pacific/Kiritimati';
const SELLER = { legal_name: 'Reef Tours Ltd', billing_address: 'Main Road 1\nLondon Island', vat_number: 'KI-998877', vat_rate_bp: 1250 };
type Item = { code: string; detail: string; attr: string | null };
const items = (res: { json(): unknown }) => (res.json() as { errors: Item[] }).errors;
const guest = (n: number) => ({ email: `reef${n}@example.com`, first_name: `Reef${n}`, last_name: 'Guest' });
const localToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const year = () => localToday().slice(0, 4);

async function newOrder(n: number, qty = 2, lines = 1) {
  const res = await owner.post('/api/orders/', { customer: guest(n), lines: Array.from({ length: lines }, () => ({ slot: slotId, quantities: { [exp.category]: qty } })) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; bookings: { id: string }[]; total: number };
}
const issue = (orderId: string) => owner.post(`/api/orders/${orderId}/invoice/`);
async function pdfText(path: string) {
  const res = await owner.get(path);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
}

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'reef' });
  accountId = (await owner.get('/api/users/me/')).json().base_account.id;
  await t.database.db.update(baseAccount).set({ time_zone: ZONE }).where(eq(baseAccount.id, accountId));
  exp = await sellableExperience(owner, 'Reef snorkelling');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
  await owner.delete(`/api/schedule-rules/${exp.rule}/`);
  await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['10:00'], capacity: 500 });
  slotId = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(ZONE), 3)}`)).json()[0].id;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('issuing an invoice', () => {
  it('first asks for what an invoice cannot be issued without, and takes no number meanwhile', async () => {
    const o = await newOrder(1);
    const refused = await issue(o.id);
    expect(refused.statusCode).toBe(400);
    expect(items(refused).map((i) => i.attr)).toEqual(['billing_address', 'vat_number', 'vat_rate_bp']);
    expect((await owner.get(`/api/orders/${o.id}/invoices/`)).json()).toEqual([]);
    expect((await owner.patch('/api/account/', SELLER)).statusCode).toBe(200);
    expect((await owner.get('/api/account/')).json().next_invoice_number).toBe(`INV-${year()}-00001`);
    const inv = (await issue(o.id)).json() as TInvoice;
    expect(inv).toMatchObject({ kind: 'invoice', number: `INV-${year()}-00001`, issued_on: localToday(), credits: null });
    expect((await owner.get('/api/account/')).json().next_invoice_number).toBe(`INV-${year()}-00002`);
    // Sold before the organisation had a VAT rate: the invoice applies today's rate (its tax point),
    // never a silent 0 %; the gross stays as sold, and the order's VAT follows.
    expect(inv.lines.map((l) => l.vat_rate_bp)).toEqual([SELLER.vat_rate_bp]);
    expect(inv.tax_total).toBe(Math.round((o.total * SELLER.vat_rate_bp) / (10000 + SELLER.vat_rate_bp)));
    expect(inv.tax_total).toBeGreaterThan(0);
    expect(inv.total).toBe(o.total);
    const after = (await owner.get(`/api/orders/${o.id}/`)).json();
    expect(after).toMatchObject({ total: o.total, tax_total: inv.tax_total });
    expect(after.bookings[0].tax_rate_bp).toBe(SELLER.vat_rate_bp);
    // Issuing again answers the same invoice.
    expect((await issue(o.id)).json().number).toBe(inv.number);
  });

  it('shows seller and buyer with name, address and VAT number, each line with its rate, and totals per rate', async () => {
    const other = await sellableExperience(owner, 'Lagoon kayak');
    await owner.patch(`/api/experiences/${other.id}/`, { status: 'Active', vat_rate_bp: 500 });
    const otherSlot = (await owner.get(`/api/bookings/check-availability/?experience=${other.id}&date=${addDays(todayIn(ZONE), 3)}`)).json()[0].id;
    const res = await owner.post('/api/orders/', {
      customer: guest(2),
      lines: [
        { slot: slotId, quantities: { [exp.category]: 2 } },
        { slot: otherSlot, quantities: { [other.category]: 1 } },
      ],
    });
    const o = res.json();
    await owner.patch(`/api/customers/${o.customer.id}/`, { company: 'Atoll Travel Co', address: 'Harbour 5\nTarawa', vat_number: 'KI-112233' });
    const inv = (await issue(o.id)).json() as TInvoice;
    expect(inv.seller).toMatchObject({ legal_name: 'Reef Tours Ltd', address: SELLER.billing_address, vat_number: 'KI-998877' });
    expect(inv.customer).toMatchObject({ name: 'Atoll Travel Co', vat_number: 'KI-112233' });
    expect(inv.customer.address).toContain('Harbour 5');
    expect(inv.lines.map((l) => l.vat_rate_bp).sort((x, y) => x - y)).toEqual([500, 1250]);
    for (const l of inv.lines) expect(l.net + l.tax).toBe(l.total);
    expect(inv.taxes.map((x) => x.vat_rate_bp)).toEqual([500, 1250]);
    expect(inv.taxes.reduce((s, x) => s + x.gross, 0)).toBe(inv.total);
    expect(inv.net_total + inv.tax_total).toBe(inv.total);
    const text = await pdfText(`/api/orders/${o.id}/invoice.pdf`);
    const issuedOn = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${localToday()}T00:00:00Z`));
    for (const s of [`Invoice ${inv.number}`, `Date ${issuedOn}`, 'VAT KI-998877', 'VAT KI-112233', 'Atoll Travel Co', 'Harbour 5', '12.5%', '5%']) expect(text).toContain(s);
  });

  it('never changes an issued invoice when the seller, the buyer or the rates change later', async () => {
    const o = await newOrder(3);
    const before = (await issue(o.id)).json() as TInvoice;
    await owner.patch('/api/account/', { billing_address: 'New Road 9', vat_rate_bp: 1500, legal_name: 'Reef Renamed Ltd' });
    await owner.patch(`/api/customers/${(await owner.get(`/api/orders/${o.id}/`)).json().customer.id}/`, { address: 'Somewhere else' });
    expect((await owner.get(`/api/orders/${o.id}/invoice/`)).json()).toEqual(before);
    expect((await owner.get(`/api/orders/${o.id}/invoices/${before.id}/`)).json()).toEqual(before);
    await owner.patch('/api/account/', SELLER);
  });

  it('numbers invoices without gaps or repeats when many are issued at once, per organisation and year', async () => {
    const orders = await Promise.all(Array.from({ length: 8 }, (_, i) => newOrder(40 + i, 1)));
    const before = Number((await owner.get('/api/account/')).json().next_invoice_number.slice(-5));
    const answers = await Promise.all(orders.map((o) => issue(o.id)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    const numbers = answers.map((a) => Number(a.json().number.slice(-5))).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => before + i));
    // Another year's sequence is its own: last year's numbers do not continue into this one.
    await t.database.db.insert(invoiceSequence).values({ account_id: accountId, series: 'INV', year: Number(year()) - 1, next_number: 900 });
    expect((await issue((await newOrder(50)).id)).json().number).toBe(`INV-${year()}-${String(before + 8).padStart(5, '0')}`);
    // Another organisation starts at 1.
    const otherOrg = await createOrganisation(t.app, sink, { subdomain: 'atoll' });
    await otherOrg.patch('/api/account/', SELLER);
    expect((await otherOrg.get('/api/account/')).json().next_invoice_number).toMatch(/-00001$/);
  });
});

describe('corrections', () => {
  beforeAll(async () => {
    expect((await owner.patch('/api/account/', SELLER)).statusCode).toBe(200);
  });

  it('cancelling a line of an invoiced order issues a credit note for the invoice and a new invoice for what is still sold', async () => {
    const o = await newOrder(60, 2, 2);
    const first = (await issue(o.id)).json() as TInvoice;
    expect(first.total).toBe(o.total);
    const res = await owner.post(`/api/orders/${o.id}/lines/${o.bookings[1]!.id}/cancel/`);
    expect(res.statusCode, res.body).toBe(200);
    const docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { id: string; kind: string; number: string; total: number; credits: string | null; credited_by: string | null }[];
    expect(docs.map((d) => d.kind), JSON.stringify(docs)).toEqual(['invoice', 'credit_note', 'invoice']);
    const [, note, second] = docs;
    expect(docs[0]).toMatchObject({ number: first.number, credited_by: note!.number });
    expect(note).toMatchObject({ total: -first.total, credits: first.number });
    expect(note!.number).toMatch(new RegExp(`^CN-${year()}-\\d{5}$`));
    expect(second!.total).toBe(first.total / 2);
    const cn = (await owner.get(`/api/orders/${o.id}/invoices/${note!.id}/`)).json() as TInvoice;
    expect(cn.lines.map((l) => l.total)).toEqual(first.lines.map((l) => -l.total));
    expect(cn.credits).toMatchObject({ id: first.id, number: first.number });
    expect((await owner.get(`/api/orders/${o.id}/`)).json().invoice.number).toBe(second!.number);
    // The original is unchanged, and every document has its PDF.
    expect((await owner.get(`/api/orders/${o.id}/invoices/${first.id}/`)).json()).toEqual(first);
    const text = await pdfText(`/api/orders/${o.id}/invoices/${note!.id}/pdf/`);
    expect(text).toContain(`Credit note ${note!.number}`);
    expect(text).toContain(`Cancels invoice ${first.number}`);
  });

  it('changing quantities corrects the invoice; cancelling the order credits it with no new invoice; payments change no document', async () => {
    const o = await newOrder(61, 2);
    await issue(o.id);
    await owner.post(`/api/orders/${o.id}/payments/`, { amount: 500, currency: 'EUR', method: 'cash' });
    expect((await owner.get(`/api/orders/${o.id}/invoices/`)).json()).toHaveLength(1);
    expect((await owner.patch(`/api/orders/${o.id}/lines/${o.bookings[0]!.id}/`, { quantities: { [exp.category]: 3 } })).statusCode).toBe(200);
    let docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { kind: string; total: number }[];
    expect(docs.map((d) => [d.kind, d.total])).toEqual([
      ['invoice', o.total],
      ['credit_note', -o.total],
      ['invoice', (o.total / 2) * 3],
    ]);
    expect((await owner.post(`/api/orders/${o.id}/cancel/`)).statusCode).toBe(200);
    docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json();
    expect(docs.map((d) => [d.kind, d.total])).toEqual([
      ['invoice', o.total],
      ['credit_note', -o.total],
      ['invoice', (o.total / 2) * 3],
      ['credit_note', -(o.total / 2) * 3],
    ]);
    expect((await owner.get(`/api/orders/${o.id}/`)).json().invoice).toBeNull();
    expect((await owner.get(`/api/orders/${o.id}/invoice/`)).statusCode).toBe(404);
  });

  it('keeps the invoice when the offer is renamed or the zone changes, and a later correction describes the lines as sold', async () => {
    const o = await newOrder(62, 2);
    const first = (await issue(o.id)).json() as TInvoice;
    expect(first.lines[0]!.description).toMatch(/^Reef snorkelling, \d{2} \w{3,4} \d{4}, 10:00: /);
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { title: 'Reef snorkelling (renamed)' })).statusCode).toBe(200);
    await t.database.db.update(baseAccount).set({ time_zone: 'Pacific/Honolulu' }).where(eq(baseAccount.id, accountId));
    try {
      // A payment recomputes the order: nothing it sold changed, so no credit note and no new number.
      expect((await owner.post(`/api/orders/${o.id}/payments/`, { amount: 100, currency: 'EUR', method: 'cash' })).statusCode).toBe(201);
      expect(((await owner.get(`/api/orders/${o.id}/invoices/`)).json() as unknown[]).length).toBe(1);
      // A real change: the new invoice describes the line as it was sold (title and local time of the sale).
      expect((await owner.patch(`/api/orders/${o.id}/lines/${o.bookings[0]!.id}/`, { quantities: { [exp.category]: 1 } })).statusCode).toBe(200);
      const docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { id: string; kind: string }[];
      expect(docs.map((d) => d.kind)).toEqual(['invoice', 'credit_note', 'invoice']);
      const second = (await owner.get(`/api/orders/${o.id}/invoices/${docs[2]!.id}/`)).json() as TInvoice;
      expect(second.lines.map((l) => l.description)).toEqual(first.lines.map((l) => l.description));
    } finally {
      await owner.patch(`/api/experiences/${exp.id}/`, { title: 'Reef snorkelling' });
      await t.database.db.update(baseAccount).set({ time_zone: ZONE }).where(eq(baseAccount.id, accountId));
    }
  });

  it('describes a line sold under the 12-hour setting with a 12-hour time', async () => {
    await t.database.db.update(baseAccount).set({ time_format: '12h' }).where(eq(baseAccount.id, accountId));
    try {
      const o = await newOrder(63, 1);
      const doc = (await issue(o.id)).json() as TInvoice;
      expect(doc.lines[0]!.description).toMatch(/^Reef snorkelling, \d{2} \w{3,4} \d{4}, 10:00 am: /);
    } finally {
      await t.database.db.update(baseAccount).set({ time_format: '24h' }).where(eq(baseAccount.id, accountId));
    }
  });

  it('never corrects an invoice at 0 %: a change made while the VAT rate is unset is refused until it is set again', async () => {
    const o = await newOrder(31, 2);
    const first = (await issue(o.id)).json() as TInvoice;
    expect(first.lines.every((l) => l.vat_rate_bp === SELLER.vat_rate_bp)).toBe(true);
    expect((await owner.patch('/api/account/', { vat_rate_bp: 0 })).statusCode).toBe(200);
    try {
      const refused = await owner.patch(`/api/orders/${o.id}/lines/${o.bookings[0]!.id}/`, { quantities: { [exp.category]: 3 } });
      expect(refused.statusCode).toBe(400);
      expect(items(refused)[0]).toMatchObject({ attr: 'vat_rate_bp' });
      expect((await owner.get(`/api/orders/${o.id}/invoices/`)).json()).toHaveLength(1);
    } finally {
      expect((await owner.patch('/api/account/', { vat_rate_bp: SELLER.vat_rate_bp })).statusCode).toBe(200);
    }
    // Issuing again answers the invoice it has, whatever the seller's details are now.
    expect((await issue(o.id)).json().number).toBe(first.number);
    const changed = await owner.patch(`/api/orders/${o.id}/lines/${o.bookings[0]!.id}/`, { quantities: { [exp.category]: 3 } });
    expect(changed.statusCode, changed.body).toBe(200);
    const docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { id: string; kind: string }[];
    expect(docs.map((d) => d.kind)).toEqual(['invoice', 'credit_note', 'invoice']);
    const corrected = (await owner.get(`/api/orders/${o.id}/invoices/${docs[2]!.id}/`)).json() as TInvoice;
    expect(corrected.lines.every((l) => l.vat_rate_bp === SELLER.vat_rate_bp)).toBe(true);
    expect(corrected.tax_total).toBeGreaterThan(0);
  });
});
