import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TSettlementDetail } from '@tourdesk/contracts';
import type * as ResaleQueries from '../src/modules/resales/queries';
import type { Db } from '../src/db/client';
import { booking, partnership } from '../src/db/schema';
import { createTestApp, type TestApp } from './harness';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { day, resaleWorld, ZONE } from './resale-fixtures';

/**
 * Settlement statements: the supplier makes one per partnership and period of slot dates; it
 * freezes the figures of the lines not yet settled and marks them, so no line is ever on two
 * statements. Statements of one partnership are made under its row lock: with the lock switched off
 * (here, lockPartnership replaced by the same query without FOR UPDATE) two statements made at once
 * both count the same lines. PGlite runs one transaction at a time, so the race itself can only
 * happen on the PostgreSQL server; on PGlite the protected case runs alone.
 */
const lock = vi.hoisted(() => ({ off: false }));
vi.mock('../src/modules/resales/queries', async (importOriginal) => {
  const real = await importOriginal<typeof ResaleQueries>();
  const { partnership: table } = await import('../src/db/schema');
  const { and: both, eq: is } = await import('drizzle-orm');
  return {
    ...real,
    async lockPartnership(tx: Db, supplierId: string, id: string) {
      if (!lock.off) return real.lockPartnership(tx, supplierId, id);
      const [row] = await tx
        .select()
        .from(table)
        .where(both(is(table.id, id), is(table.supplier_account_id, supplierId)));
      return row;
    },
  };
});

let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let p: Awaited<ReturnType<typeof w.contract>>;
const year = () => day(0).slice(0, 4);

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'st');
  p = await w.contract({ commission_bp: 1500, payment_collector: 'reseller' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const make = (body: unknown, who = w.supplier) => who.post('/api/settlements/', body);
const period = (from: number, to: number, id = p.id) => ({ partnership_id: id, period_from: day(from), period_to: day(to) });

describe('making a statement', () => {
  let first: TSettlementDetail;

  it('freezes the period’s unsettled lines by slot date and numbers the statement without gaps', async () => {
    // Days 2, 3 and 4 in the period (2 + 1 + 3 adults at 49.00); day 5 is after it.
    const a = await w.resell(p, 2, 2, 'A');
    const b = await w.resell(p, 3, 1, 'B');
    const c = await w.resell(p, 4, 3, 'C');
    const after = await w.resell(p, 5, 2, 'D');
    // A line cancelled with a fee kept counts the fee, without commission; one cancelled free not at all.
    const fee = await w.resell(p, 3, 2, 'E');
    await t.database.db.update(booking).set({ status: 'Canceled', cancellation_fee: 2000 }).where(eq(booking.id, fee.booking));
    const free = await w.resell(p, 3, 2, 'F');
    await t.database.db.update(booking).set({ status: 'Canceled' }).where(eq(booking.id, free.booking));

    const res = await make(period(2, 4));
    expect(res.statusCode, res.body).toBe(201);
    first = res.json();
    const gross = (2 + 1 + 3) * 4900 + 2000;
    const commission = Math.floor((2 * 4900 * 1500) / 10_000) + Math.floor((4900 * 1500) / 10_000) + Math.floor((3 * 4900 * 1500) / 10_000);
    expect(first).toMatchObject({
      number: `STL-${year()}-00001`,
      side: 'supplier',
      partner_name: 'st-res tours',
      period_from: day(2),
      period_to: day(4),
      currency: 'CHF',
      bookings: 4,
      gross,
      commission,
      supplier_net: gross - commission,
      // The reseller collected the customers' money: it owes the supplier the net.
      reseller_owes: gross - commission,
      payer: 'reseller',
      status: 'Open',
      can_settle: true,
    });
    expect(new Set(first.lines.map((l) => l.id))).toEqual(new Set([a.booking, b.booking, c.booking, fee.booking]));
    expect(first.lines.find((l) => l.id === fee.booking)).toMatchObject({ status: 'Canceled', gross: 2000, commission: 0, supplier_net: 2000 });
    const marked = await t.database.db.select({ id: booking.id }).from(booking).where(eq(booking.settlement_id, first.id));
    expect(marked.map((m) => m.id).sort()).toEqual(first.lines.map((l) => l.id).sort());
    // The list shows the lines settled, with the statement's number.
    const listed = (await w.reseller.get(`/api/resales/?settled=yes&page_size=50`)).json();
    expect(listed.count).toBe(4);
    expect(listed.results[0].settlement).toMatchObject({ id: first.id, number: first.number, status: 'Open' });
    expect(after.booking).not.toBeUndefined();
  });

  it('never takes a settled line again: an overlapping period takes only what is left', async () => {
    const res = await make(period(3, 6));
    expect(res.statusCode, res.body).toBe(201);
    const second = res.json() as TSettlementDetail;
    expect(second).toMatchObject({ number: `STL-${year()}-00002`, bookings: 1, gross: 2 * 4900, commission: 1470 });
    expect(second.lines.map((l) => l.reseller_reference)).toEqual(['D']);
    const again = await make(period(2, 6));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ type: 'client_error', errors: [{ code: 'conflict', attr: 'period_from' }] });
    // The refused statement took no number: the next one is 00003.
    await w.resell(p, 6, 1, 'G');
    expect((await make(period(6, 6))).json().number).toBe(`STL-${year()}-00003`);
  });

  it('when the supplier collected, the supplier owes the reseller its commission; figures stay as frozen', async () => {
    await t.database.db.update(partnership).set({ payment_collector: 'supplier' }).where(eq(partnership.id, p.id));
    await w.resell(p, 7, 2, 'H');
    const res = await make(period(7, 7));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ bookings: 1, gross: 9800, commission: 1470, supplier_net: 8330, reseller_owes: -1470, payer: 'supplier', can_settle: false });
    const asReseller = (await w.reseller.get(`/api/settlements/${res.json().id}/`)).json();
    expect(asReseller).toMatchObject({ side: 'reseller', partner_name: 'st-sup tours', reseller_owes: -1470, can_settle: true });
    await t.database.db.update(partnership).set({ payment_collector: 'reseller' }).where(eq(partnership.id, p.id));
    // An earlier statement keeps its figures.
    const list = (await w.supplier.get('/api/settlements/?page_size=50')).json();
    expect(list.count).toBe(4);
    expect(list.results.find((s: { number: string }) => s.number.endsWith('00001')).payer).toBe('reseller');
  });

  it('figures a contract by net rates: the reseller keeps the gross less the net rates', async () => {
    const agency = await createOrganisation(t.app, sink, { subdomain: 'st-net', kind: 'affiliate', currency: 'CHF', time_zone: ZONE });
    const agencyId = (await agency.get('/api/users/me/')).json().base_account.id as string;
    const net = await w.contract({ pricing: 'net', net_rates: { [w.exp.category]: 4100 }, reseller: agencyId });
    await w.resell(net, 8, 3, 'N');
    const res = await make(period(1, 30, net.id));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ bookings: 1, gross: 3 * 4900, commission: 3 * 800, supplier_net: 3 * 4100, reseller_owes: 3 * 4100 });
    expect((await agency.get('/api/settlements/')).json().count).toBe(1);
    expect((await w.reseller.get('/api/settlements/')).json().count).toBe(4);
  });

  it('is the supplier’s: the reseller is refused, another organisation gets a 404, bad input a 400', async () => {
    await w.resell(p, 9, 1, 'I');
    const byReseller = await make(period(9, 9), w.reseller);
    expect(byReseller.statusCode).toBe(403);
    expect(byReseller.json().errors[0]).toMatchObject({ code: 'permission_denied', attr: 'partnership_id' });
    expect((await make(period(9, 9), w.third)).statusCode).toBe(404);
    expect((await make(period(9, 9, randomUUID()))).statusCode).toBe(404);
    for (const bad of [{ ...period(9, 9), period_to: day(8) }, { ...period(9, 9), partnership_id: 'x' }, { partnership_id: p.id }, { ...period(9, 9), period_from: '2026-02-30' }]) {
      const res = await make(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().type).toBe('validation_error');
    }
  });
});

describe('reading and settling a statement', () => {
  let s: TSettlementDetail;
  beforeAll(async () => {
    s = (await w.supplier.get('/api/settlements/?status=Open&page_size=50')).json().results.find((x: { number: string }) => x.number.endsWith('00001'));
  });

  it('lists the statements of both sides, filtered by partner and status, and none of a third organisation', async () => {
    expect((await w.supplier.get(`/api/settlements/?partner=${p.id}`)).json().count).toBe(4);
    expect((await w.supplier.get(`/api/settlements/?partner=${randomUUID()}`)).json().count).toBe(0);
    expect((await w.reseller.get('/api/settlements/?status=Settled')).json().count).toBe(0);
    expect((await w.third.get('/api/settlements/')).json()).toMatchObject({ count: 0, results: [] });
    for (const path of [`/api/settlements/${s.id}/`, `/api/settlements/${s.id}/export.csv`, `/api/settlements/${s.id}/statement.pdf`]) expect((await w.third.get(path)).statusCode, path).toBe(404);
    expect((await w.third.post(`/api/settlements/${s.id}/settle/`, {})).statusCode).toBe(404);
    expect((await w.supplier.get('/api/settlements/?status=Paid')).statusCode).toBe(400);
  });

  it('exports the statement as CSV with amounts as numbers in the currency’s major unit', async () => {
    const res = await w.reseller.get(`/api/settlements/${s.id}/export.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain(`statement-${s.number}.csv`);
    const rows = res.body.trim().split('\r\n').map((r) => r.split(','));
    expect(rows[0]).toEqual(['statement', 'order', 'reseller_reference', 'sold_at', 'offer', 'date', 'time', 'seats', 'status', 'currency', 'gross', 'commission', 'supplier_net', 'kind', 'reverses']);
    expect(rows).toHaveLength(1 + 4 + 2);
    const line = rows.find((r) => r[2] === 'A')!;
    expect(line.slice(5)).toEqual([day(2), '10:00', '2', 'Confirmed', 'CHF', '98.00', '14.70', '83.30', 'sale', '']);
    const total = rows.find((r) => r[1] === 'TOTAL')!;
    expect(total.slice(10, 13).map(Number)).toEqual([s.gross / 100, s.commission / 100, s.supplier_net / 100]);
    expect(rows.at(-1)!.slice(1, 2).concat(rows.at(-1)!.slice(9, 11))).toEqual(['RESELLER OWES SUPPLIER', 'CHF', (s.reseller_owes / 100).toFixed(2)]);
  });

  it('exports the list of statements as CSV, filtered as the list, each side naming the other', async () => {
    const res = await w.supplier.get(`/api/settlements/export.csv?partner=${p.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="statements-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = res.body.trim().split('\r\n');
    expect(rows[0]).toBe('statement,side,partner,period_from,period_to,bookings,currency,gross,commission,supplier_net,payer,owed,status,settled_at,created_at');
    expect(rows).toHaveLength(1 + 4);
    const mine = rows.find((r) => r.startsWith(`${s.number},`))!;
    expect(mine).toContain(",supplier,st-res tours,");
    expect(mine).toContain(`,CHF,${(s.gross / 100).toFixed(2)},${(s.commission / 100).toFixed(2)},${(s.supplier_net / 100).toFixed(2)},`);
    expect((await w.reseller.get('/api/settlements/export.csv')).body).toContain(`${s.number},reseller,`);
    expect((await w.third.get('/api/settlements/export.csv')).body.trim().split('\r\n')).toHaveLength(1);
    expect((await w.supplier.get('/api/settlements/export.csv?status=Paid')).statusCode).toBe(400);
  });

  it('prints the statement as a PDF both sides can read', async () => {
    const res = await w.supplier.get(`/api/settlements/${s.id}/statement.pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain('Settlement statement');
    expect(text).toContain(s.number);
    expect(text).toContain('Supplier: st-sup tours');
    expect(text).toContain('Reseller: st-res tours');
    expect(text).toContain(`Period ${day(2)} to ${day(4)}`);
    expect(text).toContain('CHF 20.00');
    expect(text).toContain('st-res tours owes st-sup tours');
    expect(text).toContain(`CHF ${(s.reseller_owes / 100).toFixed(2)}`);
  });

  it('is marked settled once, by the side that receives the money', async () => {
    const byPayer = await w.reseller.post(`/api/settlements/${s.id}/settle/`, {});
    expect(byPayer.statusCode).toBe(403);
    const done = await w.supplier.post(`/api/settlements/${s.id}/settle/`, {});
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'Settled', settled_by: 'Olga Owner', can_settle: false });
    expect(Date.now() - Date.parse(done.json().settled_at)).toBeLessThan(60_000);
    expect((await w.supplier.post(`/api/settlements/${s.id}/settle/`, {})).statusCode).toBe(409);
    expect((await w.reseller.get(`/api/settlements/${s.id}/`)).json()).toMatchObject({ status: 'Settled', settled_by: 'Olga Owner' });
    const lines = (await w.reseller.get('/api/resales/?settled=yes&page_size=50')).json().results as { settlement: { id: string; status: string } }[];
    expect(lines.filter((l) => l.settlement.id === s.id).map((l) => l.settlement.status)).toEqual(['Settled', 'Settled', 'Settled', 'Settled']);
    // A statement where the supplier owes is confirmed by the reseller.
    const owed = (await w.reseller.get('/api/settlements/?page_size=50')).json().results.find((x: { reseller_owes: number }) => x.reseller_owes < 0);
    expect((await w.supplier.post(`/api/settlements/${owed.id}/settle/`, {})).statusCode).toBe(403);
    expect((await w.reseller.post(`/api/settlements/${owed.id}/settle/`, {})).json()).toMatchObject({ status: 'Settled', settled_by: 'Olga Owner' });
  });
});

describe('statements made at once', () => {
  /** Six lines on days `from`..`from + 5`, and five statements of overlapping periods asked at once. */
  async function fiveAtOnce(from: number) {
    for (let i = 0; i < 6; i += 1) await w.resell(p, from + i, 1, `RACE-${from + i}`);
    const periods = [period(from, from + 5), period(from, from + 3), period(from + 2, from + 5), period(from + 1, from + 4), period(from, from + 5)];
    const answers = await Promise.all(periods.map((b) => make(b)));
    for (const a of answers) expect([201, 409], a.body).toContain(a.statusCode);
    const made = answers.filter((a) => a.statusCode === 201).map((a) => a.json() as TSettlementDetail);
    const marked = await t.database.db
      .select({ id: booking.id, settlement: booking.settlement_id })
      .from(booking)
      .where(
        inArray(
          booking.settlement_id,
          made.map((m) => m.id),
        ),
      );
    return { made, counted: made.reduce((n, m) => n + m.bookings, 0), marked: marked.length };
  }

  it('never settle a line twice under the partnership’s lock', async () => {
    const { made, counted, marked } = await fiveAtOnce(40);
    expect(made.length).toBeGreaterThan(0);
    expect(marked).toBe(6);
    expect(counted).toBe(6);
    // Numbers stay gapless.
    const numbers = (await t.database.db.execute(sql`select number from settlement order by number`)) as unknown as { rows: { number: string }[] };
    expect(numbers.rows.map((r) => Number(r.number.slice(-5)))).toEqual(numbers.rows.map((_, i) => i + 1));
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('count the same lines twice with the lock switched off (PostgreSQL)', async () => {
    lock.off = true;
    try {
      const { counted, marked } = await fiveAtOnce(50);
      expect(marked).toBe(6);
      expect(counted).toBeGreaterThan(marked);
    } finally {
      lock.off = false;
    }
  });
});
