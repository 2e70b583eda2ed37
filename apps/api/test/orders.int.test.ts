import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as IdempotencyModule from '../src/modules/orders/idempotency-routes';
import { baseAccount } from '../src/db/schema';
import type { TenantCtx } from '../src/lib/crud';
import { addDays, todayIn } from '../src/lib/local-time';

/**
 * The Idempotency-Key guard switched off, in this file only: `idempotent` replaced by the naive
 * check-then-act a guard without the insert-first rule would be (look for the key, run, then write
 * the key), which concurrent retries all get past.
 */
const guardOff = vi.hoisted(() => ({ on: false }));
vi.mock('../src/modules/orders/idempotency-routes', async (importOriginal) => {
  const real = await importOriginal<typeof IdempotencyModule>();
  const { idempotencyKey } = await import('../src/db/schema');
  return {
    ...real,
    async idempotent<T>(ctx: TenantCtx, request: FastifyRequest, reply: FastifyReply, scope: string, statusOf: number | ((r: T) => number), run: () => Promise<T>) {
      if (!guardOff.on) return real.idempotent(ctx, request, reply, scope, statusOf, run);
      const key = String(request.headers['idempotency-key']);
      const who = { account_id: ctx.accountId, user_id: ctx.userId!, scope, key };
      const [seen] = await ctx.tx
        .select()
        .from(idempotencyKey)
        .where(and(eq(idempotencyKey.account_id, who.account_id), eq(idempotencyKey.user_id, who.user_id), eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key)));
      if (seen) return seen.response as T;
      const result = await run();
      const status = typeof statusOf === 'number' ? statusOf : statusOf(result);
      await ctx.tx
        .insert(idempotencyKey)
        .values({ ...who, request_hash: '', status, response: result as object })
        .onConflictDoNothing();
      reply.status(status);
      return result;
    },
  };
});
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/** Orders as a place to manage money and customers: lines, payments, invoices, audit, customers. */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let exp: { id: string; category: string; rule: string };
const ZONE = 'Europe/Zurich';
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;
const guest = (n: number) => ({ email: `guest${n}@example.com`, first_name: `Guest${n}`, last_name: 'Tester' });
let slots: { id: string; remaining: number }[];

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'ledger' });
  const me = (await owner.get('/api/users/me/')).json();
  await t.database.db.update(baseAccount).set({ time_zone: ZONE, vat_rate_bp: 810, legal_name: 'Ledger Tours AG', billing_address: 'Seestrasse 1\n6000 Luzern', vat_number: 'CHE-123.456.789 MWST' }).where(eq(baseAccount.id, me.base_account.id));
  exp = await sellableExperience(owner, 'Lake cruise');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
  await owner.delete(`/api/schedule-rules/${exp.rule}/`);
  await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['10:00', '15:00'], capacity: 60 });
  slots = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(ZONE), 3)}`)).json();
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const remaining = async (slotId: string) =>
  ((await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(ZONE), 3)}`)).json() as { id: string; remaining: number }[]).find((s) => s.id === slotId)!.remaining;

async function newOrder(n: number, qty = 2) {
  const res = await owner.post('/api/orders/', { customer: guest(n), lines: [{ slot: slots[0]!.id, quantities: { [exp.category]: qty } }] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('orders', () => {
  it('books lines directly into an order with totals and VAT from the server', async () => {
    const before = await remaining(slots[0]!.id);
    const o = await newOrder(1, 3);
    expect(o).toMatchObject({ status: 'Confirmed', payment_status: 'Not paid', total: 3 * 4900, paid: 0, balance: 3 * 4900, lines: 1 });
    // 14700 × 810 / 10810 = 1101.48… → 1101; 9800 → 734.32… → 734 (half up, see vatOf()).
    expect(o.tax_total).toBe(1101);
    expect(await remaining(slots[0]!.id)).toBe(before - 3);
    // A reference people read out: the local year and the order's number in it, one after the other.
    const year = todayIn(ZONE).slice(0, 4);
    expect(o.reference).toMatch(new RegExp(`^${year}-\\d{6}$`));
    const next = await newOrder(99, 1);
    expect(Number(next.reference.slice(5))).toBe(Number(o.reference.slice(5)) + 1);
    expect((await owner.get(`/api/orders/?search=${next.reference}`)).json().results.map((x: { id: string }) => x.id)).toEqual([next.id]);
  });

  it('records partial and full payments and refunds; refuses overpayment, other currencies and oversized refunds', async () => {
    const o = await newOrder(2);
    const pay = (body: object) => owner.post(`/api/orders/${o.id}/payments/`, { currency: 'EUR', method: 'cash', ...body });
    const first = await pay({ amount: 3000, method: 'card terminal', reference: 'T-1' });
    expect(first.statusCode).toBe(201);
    expect((await owner.get(`/api/orders/${o.id}/`)).json()).toMatchObject({ payment_status: 'Partially paid', paid: 3000, balance: 6800 });
    expect(err(await pay({ amount: 7000 }))).toMatchObject({ attr: 'amount', detail: 'That is more than is left to pay (EUR 68.00).' });
    expect(err(await pay({ amount: 100, currency: 'CHF' }))).toMatchObject({ attr: 'currency' });
    expect(err(await pay({ amount: 0 })).attr).toBe('amount');
    const second = await pay({ amount: 6800, method: 'bank transfer' });
    expect(second.statusCode).toBe(201);
    expect((await owner.get(`/api/orders/${o.id}/`)).json()).toMatchObject({ payment_status: 'Fully paid', balance: 0 });
    // A refund names the payment it gives back, and why; never more than is left of that payment.
    expect(err(await pay({ amount: -100 }))).toMatchObject({ attr: 'refund_of', code: 'required' });
    expect(err(await pay({ amount: -100, refund_of: first.json().id }))).toMatchObject({ attr: 'reason', code: 'required' });
    expect(err(await pay({ amount: -3100, refund_of: first.json().id, reason: 'Goodwill' }))).toMatchObject({ attr: 'amount', detail: 'A refund cannot be larger than what is left of this payment (EUR 30.00).' });
    expect(err(await pay({ amount: 100, refund_of: first.json().id }))).toMatchObject({ attr: 'refund_of' });
    const back = await pay({ amount: -3000, refund_of: first.json().id, reason: 'Paid twice by mistake', method: 'card terminal' });
    expect(back.json()).toMatchObject({ kind: 'refund', amount: -3000, refund_of: first.json().id, reason: 'Paid twice by mistake' });
    expect(err(await pay({ amount: -1, refund_of: back.json().id, reason: 'x' }))).toMatchObject({ attr: 'refund_of' });
    expect(err(await pay({ amount: -1, refund_of: first.json().id, reason: 'x' })).detail).toBe('This payment was refunded in full already.');
    // Still owed after the refund: Partially paid, never "Fully paid".
    expect((await owner.get(`/api/orders/${o.id}/`)).json()).toMatchObject({ payment_status: 'Partially paid', paid: 6800, refunded: 3000, balance: 3000 });
    const list = (await owner.get(`/api/orders/${o.id}/payments/`)).json();
    expect(list.map((p: { amount: number }) => p.amount)).toEqual([3000, 6800, -3000]);
    expect(list[0]).toMatchObject({ refunded: 3000 });
    expect(list[0].recorded_by.name).toBeTruthy();
  });

  it('replays a retried payment with the same Idempotency-Key, even when the retries race, and refuses the key with another body', async () => {
    const o = await newOrder(3);
    const key = 'pay-3-first';
    const send = (amount: number) => owner.request('POST', `/api/orders/${o.id}/payments/`, { amount, currency: 'EUR', method: 'cash' }, { 'idempotency-key': key });
    const results = await Promise.all(Array.from({ length: 6 }, () => send(1000)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect((await owner.get(`/api/orders/${o.id}/payments/`)).json()).toHaveLength(1);
    expect((await owner.get(`/api/orders/${o.id}/`)).json().paid).toBe(1000);
    const other = await send(2000);
    expect(other.statusCode).toBe(422);
    expect(err(other)).toMatchObject({ code: 'idempotency_error', attr: 'Idempotency-Key' });
    // The same key and body for another order is another request: refused too, and nothing paid there.
    const second = await newOrder(23);
    const elsewhere = await owner.request('POST', `/api/orders/${second.id}/payments/`, { amount: 1000, currency: 'EUR', method: 'cash' }, { 'idempotency-key': key });
    expect(elsewhere.statusCode).toBe(422);
    expect((await owner.get(`/api/orders/${second.id}/payments/`)).json()).toHaveLength(0);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('records the payment more than once when the key is checked before it is written (the guard off)', async () => {
    const o = await newOrder(13);
    guardOff.on = true;
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => owner.request('POST', `/api/orders/${o.id}/payments/`, { amount: 100, currency: 'EUR', method: 'cash' }, { 'idempotency-key': 'racing' })),
      );
      expect(results.every((r) => r.statusCode === 201)).toBe(true);
    } finally {
      guardOff.on = false;
    }
    expect((await owner.get(`/api/orders/${o.id}/payments/`)).json().length).toBeGreaterThan(1);
  });

  it('creates one order for concurrent retries of an order create with one Idempotency-Key', async () => {
    const body = { customer: guest(4), lines: [{ slot: slots[1]!.id, quantities: { [exp.category]: 1 } }] };
    const results = await Promise.all(Array.from({ length: 5 }, () => owner.request('POST', '/api/orders/', body, { 'idempotency-key': 'order-guest4' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(5).fill(201));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect((await owner.get('/api/orders/?search=guest4@example.com')).json().count).toBe(1);
  });

  it('changes a line’s quantities under the capacity check and cancels lines, releasing seats', async () => {
    const o = await newOrder(5, 2);
    const line = o.bookings[0];
    const before = await remaining(slots[0]!.id);
    const changed = await owner.patch(`/api/orders/${o.id}/lines/${line.id}/`, { quantities: { [exp.category]: 4 } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ total: 4 * 4900 });
    expect(await remaining(slots[0]!.id)).toBe(before - 2);
    const tooMany = await owner.patch(`/api/orders/${o.id}/lines/${line.id}/`, { quantities: { [exp.category]: 4 + before } });
    expect(err(tooMany).code).toBe('sold_out');
    expect((await owner.get(`/api/orders/${o.id}/`)).json().total).toBe(4 * 4900);
    const cancelled = await owner.post(`/api/orders/${o.id}/lines/${line.id}/cancel/`);
    expect(cancelled.json()).toMatchObject({ total: 0, status: 'Canceled' });
    expect(await remaining(slots[0]!.id)).toBe(before + 2);
    expect(err(await owner.post(`/api/orders/${o.id}/lines/${line.id}/cancel/`)).detail).toBe('This line is already cancelled.');
    expect(err(await owner.patch(`/api/orders/${o.id}/lines/${line.id}/`, { quantities: { [exp.category]: 1 } })).code).toBe('invalid');
  });

  it('refuses quantities outside the experience’s limits and lines of another organisation’s slots', async () => {
    await owner.patch(`/api/experiences/${exp.id}/`, { min_participants: 2 });
    const res = await owner.post('/api/orders/', { customer: guest(6), lines: [{ slot: slots[0]!.id, quantities: { [exp.category]: 1 } }] });
    expect(err(res)).toMatchObject({ attr: 'lines.0.quantities', detail: 'Book at least 2 participants.' });
    await owner.patch(`/api/experiences/${exp.id}/`, { min_participants: 1 });
    const foreign = await owner.post('/api/orders/', { customer: guest(6), lines: [{ slot: exp.id, quantities: { [exp.category]: 1 } }] });
    expect(err(foreign)).toMatchObject({ code: 'not_found', attr: 'lines.0.slot' });
  });

  it('cancels a whole order and keeps its payments to be refunded; deletes only an order without bookings and payments', async () => {
    const o = await newOrder(7);
    await owner.post(`/api/orders/${o.id}/payments/`, { amount: 500, currency: 'EUR', method: 'cash' });
    expect(err(await owner.delete(`/api/orders/${o.id}/`)).detail).toBe('This order has bookings that are not cancelled: it cannot be deleted. Cancel it instead.');
    const cancelled = (await owner.post(`/api/orders/${o.id}/cancel/`)).json();
    expect(cancelled).toMatchObject({ status: 'Canceled', total: 0, paid: 500 });
    expect(cancelled.bookings.every((b: { status: string }) => b.status === 'Canceled')).toBe(true);
    expect(err(await owner.post(`/api/orders/${o.id}/payments/`, { amount: 100, currency: 'EUR', method: 'cash' })).detail).toBe('This order is cancelled: it takes refunds only.');
    expect(err(await owner.delete(`/api/orders/${o.id}/`)).detail).toBe('This order has payments: it cannot be deleted. Cancel it instead.');
    const bare = await newOrder(8);
    await owner.post(`/api/orders/${bare.id}/cancel/`);
    expect((await owner.delete(`/api/orders/${bare.id}/`)).statusCode).toBe(204);
    expect((await owner.get(`/api/orders/${bare.id}/`)).statusCode).toBe(404);
  });

  // Invoices and credit notes: test/invoices.int.test.ts.

  it('keeps an order for an experience confirmed by hand Unconfirmed, with its seats, until it is confirmed', async () => {
    await owner.patch(`/api/experiences/${exp.id}/`, { confirmation_mode: 'manual' });
    const before = await remaining(slots[0]!.id);
    const o = await newOrder(14);
    await owner.patch(`/api/experiences/${exp.id}/`, { confirmation_mode: 'instant' });
    expect(o).toMatchObject({ status: 'Created' });
    expect(o.bookings[0].status).toBe('Created');
    expect(await remaining(slots[0]!.id)).toBe(before - 2);
    expect((await owner.get(`/api/orders/?status=Unconfirmed&search=guest14@example.com`)).json().count).toBe(1);
    expect(err(await owner.post('/api/bookings/check-in/', { ticket_code: o.bookings[0].ticket_code })).detail).toBe('This booking is not confirmed yet: confirm its order first.');
    const confirmed = (await owner.post(`/api/orders/${o.id}/confirm/`)).json();
    expect(confirmed).toMatchObject({ status: 'Confirmed' });
    expect(confirmed.bookings[0].status).toBe('Confirmed');
    expect(err(await owner.post(`/api/orders/${o.id}/confirm/`)).detail).toBe('This order is already confirmed.');
    expect((await owner.get(`/api/orders/${o.id}/audit/`)).json().map((e: { action: string }) => e.action)).toContain('confirmed');
  });

  it('records who changed what in the audit trail', async () => {
    const o = await newOrder(12);
    await owner.patch(`/api/orders/${o.id}/`, { notes: 'Window seats' });
    await owner.post(`/api/orders/${o.id}/payments/`, { amount: 100, currency: 'EUR', method: 'cash' });
    // Its departure is a later day: admitted at the door with the override.
    await owner.post('/api/check-in/scans/', { device_id: 'desk', slots: [], scans: [{ id: randomUUID(), ticket_code: o.bookings[0].ticket_code, scanned_at: new Date().toISOString(), override: true }] });
    await owner.patch(`/api/bookings/${o.bookings[0].id}/attendance/`, { attendance: 'Open' });
    await owner.post(`/api/orders/${o.id}/lines/${o.bookings[0].id}/cancel/`);
    const events = (await owner.get(`/api/orders/${o.id}/audit/`)).json();
    expect(events.map((e: { subject: string; action: string }) => `${e.subject} ${e.action}`)).toEqual([
      'order created',
      'order updated',
      'payment payment recorded',
      'line checked in with override',
      'line attendance changed',
      'line cancelled',
    ]);
    expect(events[1].changes).toEqual({ notes: ['', 'Window seats'] });
    expect(events.every((e: { actor: { name: string } | null }) => e.actor !== null)).toBe(true);
  });

  it('lists orders with the spec’s filters, ordering and pagination, exports CSV, and offers the sellers', async () => {
    // Enough orders for two pages of five, whatever the tests before made.
    for (let n = 30; (await owner.get('/api/orders/?page_size=5')).json().count < 10; n++) await newOrder(n, 1);
    const all = (await owner.get('/api/orders/?page_size=50')).json();
    expect(all.count).toBeGreaterThanOrEqual(10);
    const paid = (await owner.get('/api/orders/?payment_status=Fully paid')).json();
    expect(paid.results.every((o: { payment_status: string }) => o.payment_status === 'Fully paid')).toBe(true);
    const cancelled = (await owner.get('/api/orders/?status=Canceled')).json();
    expect(cancelled.count).toBeGreaterThanOrEqual(2);
    expect((await owner.get('/api/orders/?status=Unconfirmed')).json().count).toBe(0);
    expect((await owner.get('/api/orders/?date_range=7 days')).json().count).toBe(all.count);
    expect((await owner.get('/api/orders/?search=Guest1 Tester')).json().results[0].customer.email).toBe('guest1@example.com');
    const page = (await owner.get('/api/orders/?page_size=5&page=2&ordering=reference')).json();
    expect(page.results).toHaveLength(5);
    expect(err(await owner.get('/api/orders/?payment_status=Paid')).attr).toBe('payment_status');
    expect((await owner.get('/api/orders/?page=99')).statusCode).toBe(404);
    const options = (await owner.get('/api/orders/filter-options/')).json();
    expect(options.sellers).toHaveLength(1);
    expect((await owner.get(`/api/orders/?seller=${options.sellers[0].id}`)).json().count).toBe(all.count);
    const csv = await owner.get('/api/orders/export.csv?payment_status=Fully paid');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="orders-/);
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('reference,created_at,status,payment_status,customer_name,customer_email,seller,lines,currency,sold_total,total,paid,refunded,balance');
    expect(rows).toHaveLength(paid.count + 1);
  });
});

describe('customers', () => {
  it('creates, finds, edits and deletes customers; one per e-mail; never one with orders', async () => {
    const created = await owner.post('/api/customers/', { email: 'Nora@Example.com', first_name: 'Nora', last_name: 'North', country: 'CH', marketing_consent: true });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ email: 'nora@example.com', orders: 0, total_spent: 0 });
    expect(err(await owner.post('/api/customers/', { email: 'nora@example.com', first_name: 'Again' }))).toMatchObject({ attr: 'email', detail: 'A customer with this e-mail already exists.' });
    expect(err(await owner.post('/api/customers/', { email: 'x@example.com', first_name: 'X', country: 'Switzerland' })).attr).toBe('country');
    expect((await owner.get('/api/customers/?search=north')).json().results.map((c: { email: string }) => c.email)).toEqual(['nora@example.com']);
    expect((await owner.patch(`/api/customers/${created.json().id}/`, { phone: '+41 79 000 00 00' })).json().phone).toBe('+41 79 000 00 00');
    expect((await owner.delete(`/api/customers/${created.json().id}/`)).statusCode).toBe(204);
    const buyer = (await owner.get('/api/customers/?search=guest2@example.com')).json().results[0];
    expect(buyer).toMatchObject({ orders: 1 });
    expect(err(await owner.delete(`/api/customers/${buyer.id}/`)).detail).toBe('This customer has 1 order: they cannot be deleted.');
  });
});

describe('the organisation’s details', () => {
  it('keeps the legal and billing details and VAT rate that invoices show, and refuses bad ones', async () => {
    const org = (await owner.get('/api/account/')).json();
    expect(org).toMatchObject({ subdomain: 'ledger', legal_name: 'Ledger Tours AG', vat_rate_bp: 810, currency: 'EUR' });
    const changed = await owner.patch('/api/account/', { legal_name: 'Ledger Lake Tours AG', billing_email: 'billing@ledger.test', vat_rate_bp: 770 });
    expect(changed.json()).toMatchObject({ legal_name: 'Ledger Lake Tours AG', billing_email: 'billing@ledger.test', vat_rate_bp: 770, name: org.name });
    expect(err(await owner.patch('/api/account/', { time_zone: 'Mars/Olympus' })).attr).toBe('time_zone');
    expect(err(await owner.patch('/api/account/', { billing_email: 'nope' })).attr).toBe('billing_email');
    expect(err(await owner.patch('/api/account/', { vat_rate_bp: 10001 })).attr).toBe('vat_rate_bp');
    const o = await newOrder(20);
    const inv = (await owner.post(`/api/orders/${o.id}/invoice/`)).json();
    expect(inv.seller).toMatchObject({ legal_name: 'Ledger Lake Tours AG', email: 'billing@ledger.test' });
    // 9800 × 770 / 10770 = 700.65… → 701.
    expect(inv.taxes).toEqual([{ vat_rate_bp: 770, net: 9099, tax: 701, gross: 9800 }]);
    // An experience's own rate wins over the organisation's.
    await owner.patch(`/api/experiences/${exp.id}/`, { vat_rate_bp: 0 });
    expect((await newOrder(21)).tax_total).toBe(0);
    await owner.patch(`/api/experiences/${exp.id}/`, { vat_rate_bp: null });
  });
});
