import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSettlementDetail } from '@tourdesk/contracts';
import { baseAccount, booking, settlement, settlementLine } from '../src/db/schema';
import { seedDemo } from '../src/seed/demo';
import { createTestApp, type TestApp } from './harness';
import { startMailSink, type MailSink } from './mail-sink';
import { day, resaleWorld } from './resale-fixtures';

/**
 * A statement never moves once made (issue 28): each of its lines keeps the figures it was settled
 * at, and its total is their sum. A line cancelled or changed afterwards — through the back office,
 * the web store or OCTO, all of which end in the booking's row — is credited on the next statement
 * of the partnership as a reversing line (negative figures, naming the line it reverses), followed
 * by the line's new figures when it still counts for something (a cancellation fee kept).
 */
let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let p: Awaited<ReturnType<typeof w.contract>>;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'sc');
  p = await w.contract({ commission_bp: 1500, payment_collector: 'reseller' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const make = (from: number, to: number) => w.supplier.post('/api/settlements/', { partnership_id: p.id, period_from: day(from), period_to: day(to) });
const read = async (id: string, who = w.supplier) => (await who.get(`/api/settlements/${id}/`)).json() as TSettlementDetail;
/** The statement's lines add up to its figures. */
function addsUp(s: TSettlementDetail) {
  const sum = (k: 'gross' | 'commission' | 'supplier_net') => s.lines.reduce((n, l) => n + l[k], 0);
  expect({ gross: sum('gross'), commission: sum('commission'), supplier_net: sum('supplier_net'), bookings: s.lines.length }).toEqual({ gross: s.gross, commission: s.commission, supplier_net: s.supplier_net, bookings: s.bookings });
}

describe('a statement after its lines change', () => {
  let first: TSettlementDetail;
  let a: Awaited<ReturnType<typeof w.resell>>;
  let b: Awaited<ReturnType<typeof w.resell>>;

  it('keeps the figures its lines were settled at when one is cancelled afterwards', async () => {
    a = await w.resell(p, 2, 2, 'A');
    b = await w.resell(p, 3, 1, 'B');
    const res = await make(2, 3);
    expect(res.statusCode, res.body).toBe(201);
    first = res.json();
    expect(first).toMatchObject({ bookings: 2, gross: 3 * 4900, commission: 1470 + 735, reseller_owes: 3 * 4900 - 2205 });
    addsUp(first);

    // The back office cancels A's order free of charge after the statement was made.
    expect((await w.supplier.post(`/api/orders/${a.id}/cancel/`, { keep_cancellation_fee: false })).statusCode).toBe(200);
    for (const who of [w.supplier, w.reseller]) {
      const again = await read(first.id, who);
      expect(again).toMatchObject({ bookings: 2, gross: first.gross, commission: first.commission, supplier_net: first.supplier_net, reseller_owes: first.reseller_owes });
      addsUp(again);
      // The line shows what it was settled at, not its live status.
      expect(again.lines.find((l) => l.id === a.booking)).toMatchObject({ status: 'Confirmed', gross: 9800, commission: 1470, supplier_net: 8330, kind: 'sale', reverses: null });
    }
    const csv = (await w.supplier.get(`/api/settlements/${first.id}/export.csv`)).body.trim().split('\r\n').map((r) => r.split(','));
    expect(csv.find((r) => r[2] === 'A')!.slice(8, 13)).toEqual(['Confirmed', 'CHF', '98.00', '14.70', '83.30']);
    expect(csv.find((r) => r[1] === 'TOTAL')!.slice(10, 13).map(Number)).toEqual([first.gross / 100, first.commission / 100, first.supplier_net / 100]);
  });

  it('credits the cancelled line on the next statement as a reversing line naming the one it reverses', async () => {
    const c = await w.resell(p, 5, 1, 'C');
    const res = await make(5, 5);
    expect(res.statusCode, res.body).toBe(201);
    const second = res.json() as TSettlementDetail;
    addsUp(second);
    const original = first.lines.find((l) => l.id === a.booking)!;
    const reversal = second.lines.find((l) => l.id === a.booking)!;
    expect(reversal).toMatchObject({ kind: 'reversal', status: 'Canceled', gross: -9800, commission: -1470, supplier_net: -8330, reverses: { line_id: original.line_id, settlement_id: first.id, number: first.number } });
    expect(second.lines.find((l) => l.id === c.booking)).toMatchObject({ kind: 'sale', gross: 4900, commission: 735 });
    expect(second).toMatchObject({ bookings: 2, gross: 4900 - 9800, commission: 735 - 1470, supplier_net: 4165 - 8330, reseller_owes: 4165 - 8330, payer: 'supplier' });
    // The first statement still has not moved.
    expect(await read(first.id)).toMatchObject({ gross: first.gross, commission: first.commission, bookings: 2 });
    // The cancelled line now points to the statement that credited it.
    const line = ((await w.reseller.get('/api/resales/?settled=yes&page_size=50')).json().results as { id: string; settlement: { id: string } }[]).find((l) => l.id === a.booking)!;
    expect(line.settlement.id).toBe(second.id);

    const csv = (await w.supplier.get(`/api/settlements/${second.id}/export.csv`)).body.trim().split('\r\n').map((r) => r.split(','));
    expect(csv.find((r) => r[2] === 'A')!.slice(7)).toEqual(['-2', 'Canceled', 'CHF', '-98.00', '-14.70', '-83.30', 'reversal', first.number]);
    expect(csv.find((r) => r[1] === 'TOTAL')!.slice(10, 13).map(Number)).toEqual([second.gross / 100, second.commission / 100, second.supplier_net / 100]);
    expect(csv.at(-1)!.slice(1, 2).concat(csv.at(-1)!.slice(10, 11))).toEqual(['SUPPLIER OWES RESELLER', '41.65']);
    const pdf = await w.supplier.get(`/api/settlements/${second.id}/statement.pdf`);
    expect(pdf.statusCode).toBe(200);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(pdf.rawPayload) }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain(`reverses ${first.number}`);
    expect(text).toContain('-CHF 98.00');
    expect(text).toContain('sc-sup tours owes sc-res tours');
  });

  it('reverses a line whose figures changed and settles its new figures (a fee kept), on a statement of any period', async () => {
    await t.database.db.update(booking).set({ status: 'Canceled', cancellation_fee: 2000 }).where(eq(booking.id, b.booking));
    // No new line in this period: the change alone makes a statement.
    const res = await make(20, 20);
    expect(res.statusCode, res.body).toBe(201);
    const third = res.json() as TSettlementDetail;
    addsUp(third);
    const mine = third.lines.filter((l) => l.id === b.booking);
    expect(mine.map((l) => ({ kind: l.kind, status: l.status, gross: l.gross, commission: l.commission }))).toEqual([
      { kind: 'reversal', status: 'Canceled', gross: -4900, commission: -735 },
      { kind: 'sale', status: 'Canceled', gross: 2000, commission: 0 },
    ]);
    expect(mine[0]!.reverses).toMatchObject({ settlement_id: first.id, number: first.number });
    expect(third).toMatchObject({ bookings: 2, gross: -2900, commission: -735, supplier_net: -2165 });
    // Nothing changed since: nothing to settle.
    expect((await make(1, 30)).statusCode).toBe(409);
  });
});

describe('the demo data', () => {
  // Seeding the whole demo on PGlite takes tens of seconds on a busy two-core machine.
  it('shows a settled and an open statement whose stored lines add up to them', { timeout: 120_000 }, async () => {
    expect(await seedDemo(t.database.db)).toBe(true);
    const [demo] = await t.database.db.select().from(baseAccount).where(eq(baseAccount.subdomain, 'demo'));
    const made = await t.database.db.select().from(settlement).where(eq(settlement.supplier_account_id, demo!.id));
    expect(made.map((s) => s.status).sort()).toEqual(['Open', 'Settled']);
    const lines = await t.database.db
      .select()
      .from(settlementLine)
      .where(
        inArray(
          settlementLine.settlement_id,
          made.map((s) => s.id),
        ),
      );
    for (const s of made) {
      const mine = lines.filter((l) => l.settlement_id === s.id);
      expect(mine.length, s.number).toBeGreaterThan(0);
      expect({ bookings: mine.length, gross: mine.reduce((n, l) => n + l.gross, 0), commission: mine.reduce((n, l) => n + l.commission, 0) }).toEqual({ bookings: s.bookings, gross: s.gross, commission: s.commission });
    }
  });
});
