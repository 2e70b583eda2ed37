import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TResale, TResaleDetail } from '@tourdesk/contracts';
import { eq } from 'drizzle-orm';
import { booking } from '../src/db/schema';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { day, resaleWorld, ZONE } from './resale-fixtures';

const idOf = async (b: Browser) => (await b.get('/api/users/me/')).json().base_account.id as string;

/**
 * Resales seen from both sides: the supplier (what its partners sold of its offers) and the
 * reseller (what it sold of the supplier's offers) read the same lines with the commission fixed at
 * sale; a third organisation sees none of it. Runs on PGlite and on the PostgreSQL server.
 */
let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let commission: Awaited<ReturnType<typeof w.contract>>;
const sold: { id: string; reference: string; booking: string }[] = [];
let direct: { id: string };

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'rs');
  commission = await w.contract({ commission_bp: 1500 });
  // Six resales of 2 adults at 49.00 over the coming days, and one order the supplier sold itself.
  for (let i = 0; i < 6; i += 1) sold.push(await w.resell(commission, 2 + i, 2, `AG-${i}`));
  const res = await w.supplier.post('/api/orders/', { customer: { email: 'walkin@example.com', first_name: 'Walk', last_name: 'In' }, lines: [{ slot: await w.slotOn(2), quantities: { [w.exp.category]: 1 } }] });
  expect(res.statusCode, res.body).toBe(201);
  direct = res.json();
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('the resales list', () => {
  it('shows the supplier and the reseller the same lines with the commission fixed at sale', async () => {
    const mine = await w.supplier.get('/api/resales/?page_size=50');
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await w.reseller.get('/api/resales/?page_size=50');
    expect(theirs.statusCode, theirs.body).toBe(200);
    const a = mine.json().results as TResale[];
    const b = theirs.json().results as TResale[];
    expect(a).toHaveLength(6);
    expect(b.map((r) => r.id)).toEqual(a.map((r) => r.id));
    // Newest sale first; the supplier's own order is not a resale.
    expect(a[0]!.order_reference).toBe(sold[5]!.reference);
    expect(a.some((r) => r.order_id === direct.id)).toBe(false);
    const line = a.find((r) => r.id === sold[0]!.booking)!;
    expect(line).toMatchObject({
      side: 'supplier',
      reseller_reference: 'AG-0',
      offer: { id: w.exp.id, name: 'rs kayak' },
      local_date: day(2),
      local_time: '10:00',
      time_zone: 'Europe/Zurich',
      partner_name: 'rs-res tours',
      seats: 2,
      currency: 'CHF',
      gross: 9800,
      commission: 1470,
      supplier_net: 8330,
      status: 'Confirmed',
      settlement: null,
    });
    expect(line.items).toEqual([{ kind: 'category', label: 'Adult rs kayak', quantity: 2 }]);
    expect(b.find((r) => r.id === line.id)).toMatchObject({ side: 'reseller', partner_name: 'rs-sup tours', gross: 9800, commission: 1470, offer: { name: 'rs kayak' } });
    expect(mine.json().totals).toEqual([{ currency: 'CHF', lines: 6, gross: 6 * 9800, commission: 6 * 1470, supplier_net: 6 * 8330 }]);
    expect(theirs.json().totals).toEqual(mine.json().totals);
  });

  it('answers each side for itself: a supplier asking as reseller, and a third organisation, see nothing', async () => {
    expect((await w.supplier.get('/api/resales/?side=reseller')).json().count).toBe(0);
    expect((await w.supplier.get('/api/resales/?side=supplier')).json().count).toBe(6);
    expect((await w.reseller.get('/api/resales/?side=supplier')).json().count).toBe(0);
    expect((await w.reseller.get('/api/resales/?side=reseller')).json().count).toBe(6);
    const other = await w.third.get('/api/resales/');
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ count: 0, results: [], totals: [] });
    expect((await w.third.get('/api/resales/filter-options/')).json()).toEqual({ partners: [], offers: [], stores: [] });
  });

  it('filters by partner, offer, status, settlement and sale date', async () => {
    const count = async (query: string, who = w.supplier) => {
      const res = await who.get(`/api/resales/?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().count as number;
    };
    expect(await count(`partner=${commission.id}`)).toBe(6);
    expect(await count(`partner=${randomUUID()}`)).toBe(0);
    expect(await count(`offer=${w.exp.id}`, w.reseller)).toBe(6);
    expect(await count(`offer=${randomUUID()}`)).toBe(0);
    expect(await count(`store=${randomUUID()}`)).toBe(0);
    expect(await count('status=Confirmed')).toBe(6);
    expect(await count('status=Canceled')).toBe(0);
    expect(await count('settled=no')).toBe(6);
    expect(await count('settled=yes')).toBe(0);
    expect(await count('date_range=7 days')).toBe(6);
    expect(await count(`from=${day(0)}&to=${day(0)}`)).toBe(6);
    expect(await count(`from=${day(1)}`)).toBe(0);
    expect(await count(`to=${day(-1)}`)).toBe(0);
    // A cancelled resale is found by its status, both sides.
    expect((await w.supplier.post(`/api/orders/${sold[5]!.id}/cancel/`, { keep_cancellation_fee: false })).statusCode).toBe(200);
    expect(await count('status=Canceled')).toBe(1);
    expect(await count('status=Canceled', w.reseller)).toBe(1);
    expect(await count('status=Confirmed', w.reseller)).toBe(5);
  });

  it('totals what each line counts for, as its line and statements do: a line cancelled free nothing, one with a fee kept the fee (issue 28)', async () => {
    // sold[5] was cancelled free above: its line shows 0, and so do the totals.
    const lines = (await w.supplier.get('/api/resales/?page_size=50')).json();
    expect(lines.results.find((r: TResale) => r.id === sold[5]!.booking)).toMatchObject({ status: 'Canceled', gross: 0, commission: 0 });
    expect(lines.totals).toEqual([{ currency: 'CHF', lines: 6, gross: 5 * 9800, commission: 5 * 1470, supplier_net: 5 * 8330 }]);
    await t.database.db.update(booking).set({ cancellation_fee: 1500 }).where(eq(booking.id, sold[5]!.booking));
    const theirs = (await w.reseller.get('/api/resales/?page_size=50')).json();
    expect(theirs.totals).toEqual([{ currency: 'CHF', lines: 6, gross: 5 * 9800 + 1500, commission: 5 * 1470, supplier_net: 5 * 8330 + 1500 }]);
    const sum = (k: 'gross' | 'commission') => (theirs.results as TResale[]).reduce((n, r) => n + r[k], 0);
    expect([sum('gross'), sum('commission')]).toEqual([theirs.totals[0].gross, theirs.totals[0].commission]);
    expect((await w.reseller.get('/api/resales/?status=Canceled')).json().totals).toEqual([{ currency: 'CHF', lines: 1, gross: 1500, commission: 0, supplier_net: 1500 }]);
    await t.database.db.update(booking).set({ cancellation_fee: 0 }).where(eq(booking.id, sold[5]!.booking));
  });

  it('pages in SQL and refuses bad input with a 4xx in the envelope', async () => {
    const first = (await w.reseller.get('/api/resales/?page_size=5')).json();
    expect(first).toMatchObject({ count: 6, total_pages: 2, current_page_number: 1 });
    expect(first.results).toHaveLength(5);
    expect(first.next).toContain('page=2');
    const second = (await w.reseller.get('/api/resales/?page_size=5&page=2')).json();
    expect(second.results).toHaveLength(1);
    expect(new Set([...first.results, ...second.results].map((r: TResale) => r.id)).size).toBe(6);
    expect((await w.reseller.get('/api/resales/?page_size=5&page=3')).statusCode).toBe(404);
    for (const bad of ['page_size=7', 'side=both', 'partner=nope', 'status=Lost', 'date_range=1 year', 'from=2026-13-01', `from=${day(3)}&to=${day(1)}`]) {
      const res = await w.supplier.get(`/api/resales/?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().type).toBe('validation_error');
    }
  });

  it('exports the lines as CSV with the list’s filters, each side its own view', async () => {
    const res = await w.supplier.get('/api/resales/export.csv?status=Confirmed');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="resales-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = res.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('sold_at,order_reference,reseller_reference,side,partner,supplier,reseller,store,offer,date,time,time_zone,items,seats,status,currency,gross,commission,supplier_net,cancellation_fee,settlement');
    expect(rows).toHaveLength(6); // the cancelled one is filtered out
    const first = rows.find((r) => r.includes(`,${sold[0]!.reference},AG-0,`))!;
    expect(first).toContain(`,supplier,rs-res tours,rs-sup tours,rs-res tours,,rs kayak,${day(2)},10:00,Europe/Zurich,2 Adult rs kayak,2,Confirmed,CHF,98.00,14.70,83.30,0.00,`);
    const theirs = (await w.reseller.get('/api/resales/export.csv')).body.trimEnd().split('\r\n');
    expect(theirs).toHaveLength(7);
    expect(theirs.find((r) => r.includes(`,${sold[0]!.reference},`))).toContain(',reseller,rs-sup tours,');
    expect((await w.third.get('/api/resales/export.csv')).body.trimEnd().split('\r\n')).toHaveLength(1);
    expect((await w.supplier.get(`/api/resales/export.csv?from=${day(3)}&to=${day(1)}`)).statusCode).toBe(400);
  });

  it('offers the partners, offers and stores of the organisation’s resales as filter options', async () => {
    expect((await w.supplier.get('/api/resales/filter-options/')).json()).toEqual({ partners: [{ id: commission.id, name: 'rs-res tours', side: 'supplier' }], offers: [{ id: w.exp.id, name: 'rs kayak' }], stores: [] });
    expect((await w.reseller.get('/api/resales/filter-options/')).json()).toEqual({ partners: [{ id: commission.id, name: 'rs-sup tours', side: 'reseller' }], offers: [{ id: w.exp.id, name: 'rs kayak' }], stores: [] });
  });
});

describe('a resale’s detail', () => {
  it('shows the order with its lines; the customer’s contact only to the supplier', async () => {
    const mine = await w.supplier.get(`/api/resales/${sold[0]!.id}/`);
    expect(mine.statusCode, mine.body).toBe(200);
    const d = mine.json() as TResaleDetail;
    expect(d).toMatchObject({ id: sold[0]!.id, reference: sold[0]!.reference, reseller_reference: 'AG-0', side: 'supplier', gross: 9800, commission: 1470, supplier_net: 8330, reseller: { name: 'rs-res tours' } });
    expect(d.customer.name).toBe('Gina Guest');
    expect(d.customer.email).toMatch(/@example\.com$/);
    expect(d.lines.map((l) => l.commission)).toEqual([1470]);
    const theirs = (await w.reseller.get(`/api/resales/${sold[0]!.id}/`)).json() as TResaleDetail;
    expect(theirs).toMatchObject({ side: 'reseller', gross: 9800, commission: 1470, supplier: { name: 'rs-sup tours' }, customer: { name: 'Gina Guest', email: null, phone: null } });
  });

  it('is a 404 for another organisation, for an order that is no resale, and for an unknown id', async () => {
    expect((await w.third.get(`/api/resales/${sold[0]!.id}/`)).statusCode).toBe(404);
    expect((await w.supplier.get(`/api/resales/${direct.id}/`)).statusCode).toBe(404);
    expect((await w.reseller.get(`/api/resales/${direct.id}/`)).statusCode).toBe(404);
    expect((await w.supplier.get(`/api/resales/${randomUUID()}/`)).statusCode).toBe(404);
    const bad = await w.supplier.get('/api/resales/not-an-id/');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().type).toBe('validation_error');
  });
});

describe('a contract by net rates', () => {
  it('fixes the reseller’s share as the gross less the net rates', async () => {
    const net = await w.contract({ pricing: 'net', net_rates: { [w.exp.category]: 4000 }, reseller: w.ids.third });
    const r = await w.resell(net, 9, 3, 'NET-1');
    const line = ((await w.third.get(`/api/resales/?partner=${net.id}`)).json().results as TResale[])[0]!;
    expect(line).toMatchObject({ id: r.booking, side: 'reseller', gross: 3 * 4900, commission: 3 * 900, supplier_net: 3 * 4000 });
    // The first reseller does not see the third's resale.
    expect((await w.reseller.get(`/api/resales/${r.id}/`)).statusCode).toBe(404);
    expect((await w.reseller.get(`/api/resales/?partner=${net.id}`)).json().count).toBe(0);
  });

  it('falls back to the pricing rate’s net price for a category the contract leaves blank (issue 28)', async () => {
    // The contract form shows the rate's net price as the placeholder of a blank category.
    const rate = await w.supplier.patch(`/api/pricing-rates/${w.exp.rate}/`, { net_price: 4200 });
    expect(rate.statusCode, rate.body).toBe(200);
    const agency = await createOrganisation(t.app, sink, { subdomain: 'rs-blank', kind: 'affiliate', currency: 'CHF', time_zone: ZONE });
    const agencyId = (await agency.get('/api/users/me/')).json().base_account.id as string;
    const blank = await w.contract({ pricing: 'net', net_rates: {}, reseller: agencyId });
    const r = await w.resell(blank, 10, 2, 'BLANK-1');
    const line = ((await agency.get(`/api/resales/?partner=${blank.id}`)).json().results as TResale[])[0]!;
    expect(line).toMatchObject({ id: r.booking, gross: 2 * 4900, commission: 2 * 700, supplier_net: 2 * 4200 });
    // A net rate set in the contract still wins over the rate's.
    const set = await w.contract({ pricing: 'net', net_rates: { [w.exp.category]: 4000 }, reseller: (await idOf(await createOrganisation(t.app, sink, { subdomain: 'rs-set', kind: 'affiliate', currency: 'CHF', time_zone: ZONE }))) });
    const s = await w.resell(set, 10, 1, 'SET-1');
    expect(((await w.supplier.get(`/api/resales/?partner=${set.id}`)).json().results as TResale[]).find((x) => x.id === s.booking)).toMatchObject({ gross: 4900, commission: 900 });
    await w.supplier.patch(`/api/pricing-rates/${w.exp.rate}/`, { net_price: null });
  });
});
