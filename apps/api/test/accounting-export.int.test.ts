import { and, eq, sql } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { JOURNAL_COLUMNS } from '@tourdesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, invoice, order, orderPayment } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { seedDemo } from '../src/seed/demo';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { BASE, Browser } from './http-client';
import { createOrganisation, inviteMember, signIn } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * The accounting export: the journal's rows add up to what the documents and the orders record
 * (sales − credit notes per VAT rate = the documents' VAT totals; an order's sales = its total;
 * payments − refunds = what orders record as paid), a period is the organisation's local days, one
 * organisation never sees another's rows, bad periods are a 400 envelope, and the ZIP opens with one
 * PDF per invoice and credit note of the period.
 */

let t: TestApp;
let sink: MailSink;
let demo: Browser;
let demoId: string;
const DEMO_ZONE = 'Europe/Zurich';
// Far east of UTC: local midnight is 10:00 UTC the day before.
const ZONE = 'Pacific/Kiritimati';

type Row = Record<(typeof JOURNAL_COLUMNS)[number], string>;
/** Parses the journal (RFC 4180 quoting, CRLF lines) into header and rows keyed by column. */
function parseCsv(text: string) {
  const lines: string[][] = [];
  let cell = '';
  let line: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      line.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      line.push(cell);
      lines.push(line);
      line = [];
      cell = '';
      i++;
    } else cell += c;
  }
  const [header, ...rest] = lines;
  return { header: header!, rows: rest.map((l) => Object.fromEntries(header!.map((h, i) => [h, l[i] ?? ''])) as Row) };
}
async function journal(browser: Browser, from: string, to: string) {
  const res = await browser.get(`/api/accounting/journal.csv?from=${from}&to=${to}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="journal-${from}-${to}.csv"`);
  return parseCsv(res.body);
}
async function zipOf(browser: Browser, from: string, to: string) {
  const res = await browser.get(`/api/accounting/documents.zip?from=${from}&to=${to}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  return unzipSync(new Uint8Array(res.rawPayload));
}
async function pdfText(bytes: Uint8Array) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: bytes.slice() }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
}
const sum = (rows: Row[], column: keyof Row) => rows.reduce((s, r) => s + Number(r[column] || 0), 0);
const SALES = ['sale', 'cancellation_fee', 'credit_note'];
const isDocument = (r: Row) => /^(INV|CN)-/.test(r.document!) && SALES.includes(r.category!);

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  expect(await seedDemo(t.database.db)).toBe(true);
  demo = await signIn(new Browser(t.app, BASE), 'owner@demo.tourdesk.test', 'demo', 'tourdesk-demo');
  demoId = (await demo.get('/api/users/me/')).json().base_account.id;
}, 300_000);
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe("the demo's last month", () => {
  const to = todayIn(DEMO_ZONE);
  const from = addDays(to, -30);

  it('lists sales, the cancellation fee, the credit note, gift vouchers, payments, refunds and commissions, amounts with a decimal point and in minor units', async () => {
    const { header, rows } = await journal(demo, from, to);
    expect(header).toEqual([...JOURNAL_COLUMNS]);
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(['sale', 'cancellation_fee', 'credit_note', 'voucher_sale', 'voucher_issued', 'voucher_cancelled', 'payment', 'refund', 'partner_commission']));
    // The demo's vouchers: a sale and a staff-issued one carry no VAT; the partly spent one is a payment of method voucher.
    expect(rows.filter((r) => r.category.startsWith('voucher_')).every((r) => r.vat_minor === '0')).toBe(true);
    expect(rows.some((r) => r.category === 'payment' && r.method === 'voucher' && r.gross_minor === '6000')).toBe(true);
    for (const r of rows) {
      expect(r.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.date >= from && r.date <= to).toBe(true);
      expect(r.currency).toBe('CHF');
      for (const [major, minor] of [['net', 'net_minor'], ['vat', 'vat_minor'], ['gross', 'gross_minor']] as const) {
        if (r[major] === '') continue;
        expect(r[major]).toMatch(/^-?\d+\.\d{2}$/);
        expect(Math.round(Number(r[major]) * 100)).toBe(Number(r[minor]));
      }
      if (r.net !== '') expect(Number(r.net_minor) + Number(r.vat_minor)).toBe(Number(r.gross_minor));
    }
    // The corrected business invoice: its credit note cancels it line by line, a new invoice follows.
    const keller = rows.filter((r) => r.counterparty === 'Keller Reisen GmbH' && SALES.includes(r.category!));
    expect([...new Set(keller.map((r) => `${r.category} ${r.document.slice(0, 3)}`))]).toEqual(['sale INV', 'credit_note CN-']);
    expect(keller.every((r) => r.offer === 'Sunrise Kayak on Lake Lucerne' && r.vat_rate_percent === '8.1')).toBe(true);
    // The web order cancelled under the policy keeps its fee; its refund gives the rest back.
    expect(rows.find((r) => r.category === 'cancellation_fee')).toMatchObject({ counterparty: 'Nina Graf', gross: '89.00', vat: '6.67', document: '' });
    expect(rows.filter((r) => r.category === 'refund').map((r) => r.counterparty).sort()).toEqual(['Emma Schmid', 'Nina Graf']);
    expect(rows.find((r) => r.category === 'refund' && r.counterparty === 'Emma Schmid')).toMatchObject({ method: 'card terminal', gross: '-178.00' });
    // A payment of an invoiced order names its invoice.
    expect(rows.find((r) => r.category === 'payment' && r.counterparty === 'Amélie Martin')!.document).toMatch(/^INV-/);
    // The supplier pays its partner the commission: a cost.
    const commissions = rows.filter((r) => r.category === 'partner_commission');
    expect(commissions.every((r) => r.counterparty === 'Alpine Agency' && Number(r.gross_minor) < 0 && /^STL-/.test(r.document!))).toBe(true);
  });

  it("adds up: sales − credit notes per VAT rate are the documents' VAT totals, each order's sales its total, payments − refunds what orders record as paid", async () => {
    const { rows } = await journal(demo, from, to);
    // Per rate, the documents' lines against the totals per rate each document stored.
    const docs = await t.database.db
      .select({ data: invoice.data })
      .from(invoice)
      .where(and(eq(invoice.account_id, demoId), sql`${invoice.issued_on} between ${from}::date and ${to}::date`));
    expect(docs.length).toBeGreaterThanOrEqual(4);
    const byRate = new Map<string, { vat: number; gross: number }>();
    for (const d of docs) {
      for (const x of d.data.taxes as { vat_rate_bp: number; tax: number; gross: number }[]) {
        const key = String(x.vat_rate_bp / 100);
        const s = byRate.get(key) ?? { vat: 0, gross: 0 };
        byRate.set(key, { vat: s.vat + x.tax, gross: s.gross + x.gross });
      }
    }
    const journalRates = new Map<string, { vat: number; gross: number }>();
    for (const r of rows.filter(isDocument)) {
      const s = journalRates.get(r.vat_rate_percent!) ?? { vat: 0, gross: 0 };
      journalRates.set(r.vat_rate_percent!, { vat: s.vat + Number(r.vat_minor), gross: s.gross + Number(r.gross_minor) });
    }
    expect(journalRates).toEqual(byRate);
    // Every order placed in the period: what the journal sold of it is what it records (total, VAT).
    const placed = await t.database.db
      .select({ reference: order.reference, total: order.total, tax: order.tax_total })
      .from(order)
      .where(and(eq(order.account_id, demoId), sql`(${order.created_at} at time zone ${DEMO_ZONE})::date between ${from}::date and ${to}::date`));
    expect(placed.length).toBeGreaterThan(10);
    for (const o of placed) {
      const sold = rows.filter((r) => r.order === o.reference && SALES.includes(r.category!));
      expect({ reference: o.reference, total: sum(sold, 'gross_minor'), tax: sum(sold, 'vat_minor') }).toEqual(o);
    }
    // Payments and refunds (every demo payment is in the period) against orders.paid.
    const money = rows.filter((r) => r.category === 'payment' || r.category === 'refund');
    const [paid] = await t.database.db.select({ paid: sql<number>`sum(${order.paid})::int` }).from(order).where(eq(order.account_id, demoId));
    const [recorded] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(orderPayment).where(eq(orderPayment.account_id, demoId));
    expect(money.length).toBe(recorded!.n);
    expect(sum(money, 'gross_minor')).toBe(paid!.paid);
    expect(sum(money, 'gross_minor')).toBeGreaterThan(0);
  });

  it('gives the same documents as one ZIP, a PDF per invoice and credit note named by its number', async () => {
    const files = await zipOf(demo, from, to);
    const numbers = (
      await t.database.db
        .select({ number: sql<string>`${invoice.data}->>'number'` })
        .from(invoice)
        .where(and(eq(invoice.account_id, demoId), sql`${invoice.issued_on} between ${from}::date and ${to}::date`))
    ).map((r) => `${r.number}.pdf`);
    expect(Object.keys(files).sort()).toEqual(numbers.sort());
    expect(numbers.some((n) => n.startsWith('CN-'))).toBe(true);
    for (const [name, bytes] of Object.entries(files)) {
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
      expect(await pdfText(bytes)).toContain(name.replace('.pdf', ''));
    }
    const summary = (await demo.get(`/api/accounting/summary/?from=${from}&to=${to}`)).json();
    expect(summary.invoices + summary.credit_notes).toBe(numbers.length);
    expect(summary).toMatchObject({ from, to, time_zone: DEMO_ZONE, rows: { credit_note: 3, cancellation_fee: 1, refund: 2 } });
  });

  it('shows a period without documents as an empty ZIP and a journal of its header only', async () => {
    const { rows } = await journal(demo, '2020-01-01', '2020-01-31');
    expect(rows).toEqual([]);
    expect(Object.keys(await zipOf(demo, '2020-01-01', '2020-01-31'))).toEqual([]);
  });
});

describe('a period', () => {
  let owner: Browser;
  let accountId: string;
  let refs: { late: string; early: string };
  const day = addDays(todayIn(ZONE), -10);

  beforeAll(async () => {
    owner = await createOrganisation(t.app, sink, { subdomain: 'reef' });
    accountId = (await owner.get('/api/users/me/')).json().base_account.id;
    await t.database.db
      .update(baseAccount)
      .set({ time_zone: ZONE, legal_name: 'Reef Tours Ltd', billing_address: 'Main Road 1\nLondon Island', vat_number: 'KI-998877', vat_rate_bp: 1250 })
      .where(eq(baseAccount.id, accountId));
    const exp = await sellableExperience(owner, 'Reef snorkelling');
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
    await owner.delete(`/api/schedule-rules/${exp.rule}/`);
    await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['10:00'], capacity: 50 });
    const slot = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(ZONE), 3)}`)).json()[0].id;
    const sell = async (n: number) => {
      const res = await owner.post('/api/orders/', { customer: { email: `reef${n}@example.com`, first_name: `Reef${n}`, last_name: 'Guest' }, lines: [{ slot, quantities: { [exp.category]: n } }] });
      expect(res.statusCode, res.body).toBe(201);
      const o = res.json() as { id: string; reference: string; total: number; currency: string };
      expect((await owner.post(`/api/orders/${o.id}/payments/`, { amount: o.total, currency: o.currency, method: 'cash' })).statusCode).toBe(201);
      return o;
    };
    // 23:30 on `day` and 00:30 the day after, in the organisation's zone (UTC+14).
    const late = await sell(1);
    const early = await sell(2);
    const at = (iso: string) => new Date(iso);
    const lateAt = at(`${day}T09:30:00Z`);
    const earlyAt = at(`${day}T10:30:00Z`);
    for (const [o, when] of [[late, lateAt], [early, earlyAt]] as const) {
      await t.database.db.update(order).set({ created_at: when }).where(eq(order.id, o.id));
      await t.database.db.update(orderPayment).set({ created_at: when }).where(eq(orderPayment.order_id, o.id));
    }
    refs = { late: late.reference, early: early.reference };
  }, 120_000);

  it("is the organisation's local days: 23:30 belongs to its day, 00:30 to the next", async () => {
    const first = (await journal(owner, day, day)).rows;
    expect(first.filter((r) => r.category === 'sale').map((r) => r.order)).toEqual([refs.late]);
    expect(first.filter((r) => r.category === 'payment').map((r) => r.order)).toEqual([refs.late]);
    expect(first.every((r) => r.date === day)).toBe(true);
    const next = (await journal(owner, addDays(day, 1), addDays(day, 1))).rows;
    expect(next.filter((r) => r.category === 'sale').map((r) => r.order)).toEqual([refs.early]);
    expect(next.filter((r) => r.category === 'payment').map((r) => r.order)).toEqual([refs.early]);
    expect(next.every((r) => r.date === addDays(day, 1))).toBe(true);
    // Both happened on `day` in UTC: a period of UTC days would have taken both at once.
    expect((await journal(owner, addDays(day, -1), addDays(day, -1))).rows).toEqual([]);
  });

  it("holds only the caller's organisation: the demo's rows are not here, this one's are not in the demo's; a reseller is not sold the supplier's orders", async () => {
    const mine = (await journal(owner, addDays(day, -30), todayIn(ZONE))).rows;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r) => r.order === refs.late || r.order === refs.early)).toBe(true);
    const demoRows = (await journal(demo, addDays(todayIn(DEMO_ZONE), -30), todayIn(DEMO_ZONE))).rows;
    expect(demoRows.some((r) => r.counterparty.startsWith('Reef'))).toBe(false);
    expect(mine.every((r) => r.counterparty.startsWith('Reef'))).toBe(true);
    expect(Object.keys(await zipOf(owner, addDays(day, -30), todayIn(ZONE)))).toEqual([]);
    // The reseller reads the orders it resold (reseller_read) but they are the supplier's sales: its
    // journal has its commission (an income) only.
    const agency = await signIn(new Browser(t.app, BASE), 'owner@alpine-agency.tourdesk.test', 'alpine-agency', 'tourdesk-demo');
    const resold = (await journal(agency, addDays(todayIn(DEMO_ZONE), -30), todayIn(DEMO_ZONE))).rows;
    expect(resold.length).toBeGreaterThan(0);
    expect(resold.every((r) => r.category === 'partner_commission' && Number(r.gross_minor) > 0 && r.counterparty === 'Alpine Trails & Tours')).toBe(true);
    expect(Object.keys(await zipOf(agency, addDays(todayIn(DEMO_ZONE), -30), todayIn(DEMO_ZONE)))).toEqual([]);
  });

  it('refuses a period that ends before it starts, spans more than a year, or is no date: a 400 envelope', async () => {
    for (const path of ['/api/accounting/journal.csv', '/api/accounting/documents.zip', '/api/accounting/summary/']) {
      for (const [query, attr] of [
        ['from=2026-03-10&to=2026-03-09', 'to'],
        ['from=2025-01-01&to=2026-01-02', 'to'],
        ['from=0001-01-01&to=9999-12-31', 'to'],
        ['from=2026-02-30&to=2026-03-01', 'from'],
        ['from=yesterday&to=2026-03-01', 'from'],
        ['to=2026-03-01', 'from'],
      ] as const) {
        const res = await owner.get(`${path}?${query}`);
        expect(res.statusCode, `${path}?${query}`).toBe(400);
        const body = res.json();
        expect(body.type).toBe('validation_error');
        expect(body.errors.map((e: { attr: string }) => e.attr)).toContain(attr);
      }
    }
    // A year, leap day included, is allowed.
    expect((await owner.get('/api/accounting/summary/?from=2024-01-01&to=2024-12-31')).statusCode).toBe(200);
  });

  it('is for those who manage orders: a team member without that set gets 403', async () => {
    const viewer = (await owner.post('/api/roles/', { name: 'Catalogue viewer', permission_sets: ['view_experiences'] })).json().id;
    const { member } = await inviteMember(t.app, sink, owner, 'reef', 'viewer@reef.test', viewer);
    for (const path of ['/api/accounting/journal.csv', '/api/accounting/documents.zip', '/api/accounting/summary/']) {
      expect((await member.get(`${path}?from=${day}&to=${day}`)).statusCode).toBe(403);
    }
  });
});
