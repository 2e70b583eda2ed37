import fc from 'fast-check';
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, booking, cartLine, slot, waitlistEntry } from '../src/db/schema';
import { offerDueSeats } from '../src/modules/waitlist/service';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { until } from './harness';
import { randomUUID } from 'node:crypto';

/**
 * Beyond examples: random sequences of what the back office does to orders — sell, hold, change a
 * hold, check out, change a line, pay, refund part of a payment, cancel a line, cancel an order, issue
 * an invoice, rename the offer, change its price, raise the offer's booking cut-off so that one of the
 * run's departures stops selling within minutes or has stopped already (holds on it live then), check
 * a ticket in (as the owner or as a guide without Manage orders, asking to override or not: every
 * ticket is for another day, so the door answers "wrong day" unless the owner overrides), a
 * partner's OCTO reserve, extend, confirm and cancel, a statement for the partner's period, settling
 * a statement (by the side that receives the money, or refused), a sale with a promo code (10 %, a fixed
 * 7.77 of three uses, or 100 %), a customer joining a departure's waiting list in the web store, the
 * waiting list's job, a customer booking the seats offered to them, staff issuing a gift voucher,
 * paying an order with one and refunding that payment (back onto the voucher), a customer paying a
 * deposit online in the web store (Stripe's local stand-in) with a gift voucher paying first, and
 * paying an order's balance through a payment link — run against the API (on PGlite, and on the
 * PostgreSQL server with TEST_DATABASE_URL), and after every step the promises are checked against
 * what the database and the API say:
 *   - every slot: seats booked + held ≤ capacity, and `booked` is the sum of its live bookings' seats;
 *   - every order: its payments minus refunds are what it says is paid, and its payment status is the
 *     one its balance calls for;
 *   - every invoiced order: its invoices plus credit notes add up to its total.
 *   - every line: its total is its items' gross less its promo discount; an order's discount is its
 *     open lines' discounts;
 *   - an issued invoice stands until what its order sells changes: a payment, a renamed offer or a
 *     new price issues no credit note;
 *   - a statement's lines add up to its totals, and neither ever changes;
 *   - no hold outlives its departure's cut-off, and a departure past it is never held, booked at
 *     checkout (whatever its hold says) nor has a waiting list joined;
 *   - the door answers what its rule says (cancelled, unconfirmed, already in, wrong day, admitted);
 *   - a gift voucher: its balance is what its ledger adds up to, never below 0 nor above its value,
 *     and what it paid net of refunds is what its orders' voucher payments say;
 *   - a waiting list: an entry offered seats holds exactly them in its own cart until its offer ends,
 *     one booked has its order on that departure, and once the job has run no entry waits whose
 *     seats are free in its departure (the first whose seats fit is offered them).
 *   - a resource pool (issue 34): what every live line and booking takes is what the offer's rules
 *     say for what it sells, and the pool's use is never above its stock at any moment.
 * A fixed seed (MODEL_SEED, MODEL_RUNS to change them) makes a CI run repeatable; a failure prints
 * the seed and the sequence that broke a promise (fast-check's report), and every run prints how
 * often each predicted case came (which of them a seed reached). With the steps of issue 31,
 * seed 7's fourth run renamed the offer between an invoice and a payment: it found invoices compared
 * by their live descriptions. Each new step changes every seed's sequences; seed 11 is the default
 * since the waiting-list steps, as its runs both offer seats to an entry and book them.
 */

const SEED = Number(process.env.MODEL_SEED ?? 11);
const RUNS = Number(process.env.MODEL_RUNS ?? 6);
const ZONE = 'Europe/Zurich';
const SELLER = { legal_name: 'Model Tours Ltd', billing_address: 'Quai 1\n6000 Luzern', vat_number: 'CHE-123.456.789', vat_rate_bp: 810 };

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let accountId: string;
let exp: { id: string; category: string; rate: string; rule: string };
let runs = 0;
/** The resource pool the offer takes from (issue 34). */
let pool: string;
let octo: ReturnType<typeof partnerClient>;
let partnership: string;
/** The reseller's back office (the other side of a statement). */
let agency: Browser;
/** A member whose role lets them check tickets in but not change orders (no Manage orders): no override. */
let guide: Browser;
/** A visitor of the organisation's web store (its waiting lists). */
let shopper: Browser;
const SHOP = '/api/web-stores/modelshop';
let fake: FakeStripe;
const STRIPE_SECRET = 'whsec_model';
/** Gift vouchers staff issued (every run's). */
const vouchers: { id: string; code: string }[] = [];
/** How often each answer the model predicts came (printed at the end: which cases a seed reached). */
const seen = new Map<string, number>();
const tally = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
/** Every statement made, with its figures as first seen (they never change). */
const statements = new Map<string, string>();

interface Line {
  id: string;
  code: string;
}
interface Order {
  id: string;
  lines: Line[];
  /** Invoices and credit notes it had at the last check. */
  documents: number;
  /** What it sold changed since the last check (a line changed or cancelled, the order cancelled), or it was invoiced. */
  changed: boolean;
}
/** What the commands know: the orders made so far (ids only; figures are always read back). */
interface Model {
  orders: Order[];
  customer: number;
  /** The run's two departures (its own days, so a run starts with their seats free). */
  slots: string[];
  /** The partner's reservations (OCTO uuids). */
  reservations: string[];
  /** When each of the run's departures starts (ms). */
  starts: number[];
  /** The offer's booking cut-off in minutes (0 at the start of a run: the organisation's, also 0). */
  cutoff: number;
}
interface Step {
  run(m: Model, api: Browser): Promise<void>;
  toString(): string;
}

/** A refusal the product explains (bad input, sold out, a rule) is an answer; anything else is a failure. */
function answered(res: { statusCode: number; body: string }, what: string) {
  expect([200, 201, 204, 400, 409], `${what}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
  return res.statusCode < 300;
}
const made = (o: { id: string; bookings: { id: string; ticket_code: string }[] }): Order => ({ id: o.id, lines: o.bookings.map((b) => ({ id: b.id, code: b.ticket_code })), documents: 0, changed: false });
const pick = <T,>(items: T[], i: number) => (items.length ? items[i % items.length]! : undefined);
const guest = (m: Model) => ({ email: `model${++m.customer}@example.com`, first_name: 'Model', last_name: `Guest ${m.customer}` });

function command(name: string, run: (m: Model, api: Browser) => Promise<void>): Step {
  return { run, toString: () => name };
}

/**
 * Whether a departure is on sale, as the model knows: it stops at its start minus the offer's
 * cut-off. Within a few seconds of that moment the model does not say (the step and the server
 * read the clock at different moments).
 */
function sale(m: Model, slotId: string): 'open' | 'closed' | 'unsure' {
  const s = m.slots.indexOf(slotId);
  if (s < 0) return 'unsure';
  const ends = m.starts[s]! - m.cutoff * 60_000;
  return ends > Date.now() + 5_000 ? 'open' : ends < Date.now() - 5_000 ? 'closed' : 'unsure';
}
const slotOf = (m: Model, s: number) => m.slots[s]!;

/** Each step with its weight: selling and paying come more often than renaming the offer. */
const steps: [number, fc.Arbitrary<Step>][] = [
  [3, fc.record({ slot: fc.nat(1), qty: fc.integer({ min: 1, max: 4 }), lines: fc.integer({ min: 1, max: 2 }) }).map(({ slot: s, qty, lines }) =>
    command(`sell ${lines}×${qty} on slot ${s}`, async (m, api) => {
      const res = await api.post('/api/orders/', { customer: guest(m), lines: Array.from({ length: lines }, () => ({ slot: m.slots[s], quantities: { [exp.category]: qty } })) });
      if (answered(res, 'sell')) m.orders.push(made(res.json()));
    }),
  )],
  [2, fc.record({ slot: fc.nat(1), qty: fc.integer({ min: 1, max: 4 }), code: fc.constantFrom('MODEL10', 'model777', 'MODELFREE') }).map(({ slot: s, qty, code }) =>
    command(`sell ${qty} on slot ${s} with promo code ${code}`, async (m, api) => {
      const res = await api.post('/api/orders/', { customer: guest(m), lines: [{ slot: m.slots[s], quantities: { [exp.category]: qty } }], promo_code: code });
      if (answered(res, 'sell with a promo code')) m.orders.push(made(res.json()));
    }),
  )],
  [2, fc.record({ slot: fc.nat(1), qty: fc.integer({ min: 1, max: 5 }) }).map(({ slot: s, qty }) =>
    command(`hold ${qty} on slot ${s}`, async (m, api) => {
      const held = answered(await api.post('/api/cart/lines/', { slot: m.slots[s], quantities: { [exp.category]: qty } }), 'hold');
      if (sale(m, slotOf(m, s)) === 'closed') {
        expect(held, `a hold on slot ${s}, past its cut-off`).toBe(false);
        tally('hold past the cut-off refused');
      }
    }),
  )],
  [1, fc.integer({ min: 1, max: 6 }).map((qty) =>
    command(`change the cart's first hold to ${qty}`, async (_m, api) => {
      const line = (await api.get('/api/cart/')).json().lines[0];
      if (line) answered(await api.patch(`/api/cart/lines/${line.id}/`, { quantities: { [exp.category]: qty } }), 'change hold');
    }),
  )],
  [2, fc.boolean().map((every) =>
    command(`check out the cart${every ? ', every line named' : ''}`, async (m, api) => {
      const lines = (await api.get('/api/cart/')).json().lines as { id: string; slot: string; expires_at: string }[];
      if (lines.length === 0) return;
      // Named, every line is booked (one whose hold ran out is held again) or the checkout is refused;
      // unnamed, the lines still held are. A departure past its cut-off is never booked, whatever its hold says.
      const booking = every ? lines : lines.filter((l) => Date.parse(l.expires_at) > Date.now());
      const res = await api.post('/api/cart/checkout/', { customer: guest(m), ...(every ? { lines: lines.map((l) => l.id) } : {}) });
      const closed = booking.filter((l) => sale(m, l.slot) === 'closed');
      if (closed.length) tally(`checkout of a line past its cut-off ${res.statusCode < 300 ? 'booked' : 'refused'}`);
      if (answered(res, 'checkout')) {
        expect(closed, `checkout booked a line past its departure's cut-off: ${res.body}`).toEqual([]);
        const order = res.json() as { id: string; bookings: { id: string; ticket_code: string; slot: string }[] };
        for (const b of order.bookings) expect(sale(m, b.slot), `checkout booked departure ${b.slot} past its cut-off`).not.toBe('closed');
        m.orders.push(made(order));
      }
    }),
  )],
  [2, fc.record({ o: fc.nat(), l: fc.nat(), qty: fc.integer({ min: 1, max: 5 }) }).map(({ o, l, qty }) =>
    command(`change line ${l} of order ${o} to ${qty}`, async (m, api) => {
      const order = pick(m.orders, o);
      const line = order && pick(order.lines, l);
      if (line && answered(await api.patch(`/api/orders/${order.id}/lines/${line.id}/`, { quantities: { [exp.category]: qty } }), 'change line')) order.changed = true;
    }),
  )],
  [3, fc.record({ o: fc.nat(), share: fc.integer({ min: 1, max: 100 }) }).map(({ o, share }) =>
    command(`pay ${share}% of order ${o}'s balance`, async (m, api) => {
      const order = pick(m.orders, o);
      if (!order) return;
      const now = (await api.get(`/api/orders/${order.id}/`)).json();
      const amount = Math.ceil(((now.total - now.paid) * share) / 100);
      if (amount > 0) answered(await api.post(`/api/orders/${order.id}/payments/`, { amount, currency: now.currency, method: 'cash' }), 'pay');
    }),
  )],
  [2, fc.record({ o: fc.nat(), share: fc.integer({ min: 1, max: 100 }) }).map(({ o, share }) =>
    command(`refund ${share}% of order ${o}'s first payment`, async (m, api) => {
      const order = pick(m.orders, o);
      if (!order) return;
      const payment = (await api.get(`/api/orders/${order.id}/payments/`)).json().find((p: { kind: string }) => p.kind === 'payment');
      if (!payment) return;
      const amount = Math.max(1, Math.floor((payment.amount * share) / 100));
      answered(await api.post(`/api/orders/${order.id}/payments/`, { amount: -amount, currency: payment.currency, method: 'cash', refund_of: payment.id, reason: 'model' }), 'refund');
    }),
  )],
  [1, fc.record({ o: fc.nat(), l: fc.nat() }).map(({ o, l }) =>
    command(`cancel line ${l} of order ${o}`, async (m, api) => {
      const order = pick(m.orders, o);
      const line = order && pick(order.lines, l);
      if (line && answered(await api.post(`/api/orders/${order.id}/lines/${line.id}/cancel/`), 'cancel line')) order.changed = true;
    }),
  )],
  [1, fc.nat().map((o) =>
    command(`cancel order ${o}`, async (m, api) => {
      const order = pick(m.orders, o);
      if (order && answered(await api.post(`/api/orders/${order.id}/cancel/`), 'cancel order')) order.changed = true;
    }),
  )],
  [2, fc.nat().map((o) =>
    command(`invoice order ${o}`, async (m, api) => {
      const order = pick(m.orders, o);
      if (order && answered(await api.post(`/api/orders/${order.id}/invoice/`), 'invoice')) order.changed = true;
    }),
  )],
  [1, fc.integer({ min: 1, max: 99 }).map((n) =>
    command(`rename the offer (${n})`, async (_m, api) => {
      answered(await api.patch(`/api/experiences/${exp.id}/`, { title: `Model tour ${n}` }), 'rename');
    }),
  )],
  [2, fc.record({ slot: fc.nat(1), qty: fc.integer({ min: 1, max: 3 }) }).map(({ slot: s, qty }) =>
    command(`partner reserves ${qty} on slot ${s}`, async (m) => {
      const uuid = randomUUID();
      const res = await octo.post('/octo/v1/bookings', { uuid, productId: exp.id, optionId: 'DEFAULT', availabilityId: m.slots[s], unitItems: Array.from({ length: qty }, () => ({ unitId: exp.category })) });
      expect([200, 400], `reserve: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      if (res.statusCode === 200) m.reservations.push(uuid);
    }))],
  [1, fc.nat().map((r) =>
    command(`partner extends reservation ${r}`, async (m) => {
      const uuid = pick(m.reservations, r);
      if (uuid) expect([200, 400]).toContain((await octo.post(`/octo/v1/bookings/${uuid}/extend`, { expirationMinutes: 60 })).statusCode);
    }))],
  [2, fc.nat().map((r) =>
    command(`partner confirms reservation ${r}`, async (m) => {
      const uuid = pick(m.reservations, r);
      if (uuid) expect([200, 400]).toContain((await octo.post(`/octo/v1/bookings/${uuid}/confirm`, { contact: { fullName: 'Model Partner', emailAddress: 'partner.guest@example.com' } })).statusCode);
    }))],
  [1, fc.nat().map((r) =>
    command(`partner cancels reservation ${r}`, async (m) => {
      const uuid = pick(m.reservations, r);
      if (uuid) expect([200, 400]).toContain((await octo.post(`/octo/v1/bookings/${uuid}/cancel`, { reason: 'model' })).statusCode);
    }))],
  [1, fc.constant(
    command('a statement for the partner', async (_m, api) => {
      const res = await api.post('/api/settlements/', { partnership_id: partnership, period_from: todayIn(ZONE), period_to: addDays(todayIn(ZONE), 120) });
      if (answered(res, 'statement')) statements.set(res.json().id, '');
    }))],
  [2, fc.record({ o: fc.nat(), l: fc.nat(), override: fc.boolean(), byGuide: fc.boolean() }).map(({ o, l, override, byGuide }) =>
    command(`check in line ${l} of order ${o}${override ? ' anyway' : ''} as the ${byGuide ? 'guide' : 'owner'}`, async (m, api) => {
      const order = pick(m.orders, o);
      const line = order && pick(order.lines, l);
      if (!line) return;
      // What the door should answer: the rule (cancelled, unconfirmed, already in; a ticket of another
      // day admitted only when asked by a role that holds Manage orders), read from the line as it is.
      const b = ((await api.get(`/api/orders/${order.id}/`)).json().bookings as { id: string; status: string; attendance: string; starts_at: string }[]).find((x) => x.id === line.id)!;
      const today = todayIn(ZONE) === todayIn(ZONE, new Date(b.starts_at));
      const expected =
        b.status === 'Canceled' ? 'canceled'
        : b.status === 'Created' ? 'unconfirmed'
        : b.attendance === 'Arrived' ? 'already_checked_in'
        : today || (override && !byGuide) ? 'admitted'
        : 'wrong_day';
      const res = await (byGuide ? guide : api).post('/api/check-in/scans/', { device_id: 'model', slots: [], scans: [{ id: randomUUID(), ticket_code: line.code, scanned_at: new Date().toISOString(), override }] });
      expect(res.statusCode, res.body).toBe(200);
      const [answer] = (res.json() as { results: { result: string; override: boolean; can_override: boolean; detail: string }[] }).results;
      tally(`check-in ${byGuide ? 'guide' : 'owner'}${override ? ' override' : ''}: ${answer!.result}`);
      expect(answer!.result, `check-in of ${line.code} (${b.status}, ${b.attendance}, ${b.starts_at}): ${answer!.detail}`).toBe(expected);
      expect(answer!.override, 'admitted to another day').toBe(expected === 'admitted' && !today);
      expect(answer!.can_override, 'may check in anyway').toBe(expected === 'wrong_day' && !byGuide);
      if (expected === 'admitted') expect(((await api.get(`/api/orders/${order.id}/`)).json().bookings as { id: string; attendance: string }[]).find((x) => x.id === line.id)!.attendance).toBe('Arrived');
    }))],
  [1, fc.record({ s: fc.nat(), byReseller: fc.boolean() }).map(({ s, byReseller }) =>
    command(`the ${byReseller ? 'reseller' : 'supplier'} settles statement ${s}`, async () => {
      const id = pick([...statements.keys()], s);
      if (!id) return;
      // The side that receives the money marks it settled, once; the statement's figures stay as they are.
      const before = (await owner.get(`/api/settlements/${id}/`)).json() as { status: string; payer: string | null };
      const receiver = before.payer === 'supplier' ? 'reseller' : 'supplier';
      const res = await (byReseller ? agency : owner).post(`/api/settlements/${id}/settle/`);
      const expected = before.status === 'Settled' ? 409 : receiver === (byReseller ? 'reseller' : 'supplier') ? 200 : 403;
      tally(`settle by the ${byReseller ? 'reseller' : 'supplier'}: ${res.statusCode}`);
      expect(res.statusCode, `settle (${before.status}, payer ${before.payer}): ${res.body}`).toBe(expected);
      if (expected === 200) expect(res.json()).toMatchObject({ status: 'Settled' });
    }))],
  [1, fc.record({ slot: fc.nat(1), lead: fc.constantFrom(-90, 3, 9) }).map(({ slot: s, lead }) =>
    command(`hold a seat on slot ${s}, then raise the offer's cut-off: it stops selling ${lead < 0 ? `${-lead} minutes ago` : `in ${lead} minutes`}`, async (m, api) => {
      // As the back office sets it on the offer: every departure of the offer stops selling that long
      // before its start; the run's holds on it end then (a hold is 15 minutes: these cut it), and a
      // departure past it is never held nor booked again. A seat is held on it first, so that a hold
      // is there when the cut-off comes (it may be refused: sold out, or past an earlier cut-off).
      answered(await api.post('/api/cart/lines/', { slot: m.slots[s], quantities: { [exp.category]: 1 } }), 'hold before the cut-off');
      const live = (await t.database.db.execute(sql`select count(*)::int as n from ${cartLine} where slot_id = ${m.slots[s]}::uuid and expires_at > now()`)) as unknown as { rows: { n: number }[] };
      tally(`cut-off raised ${lead < 0 ? 'past' : 'near'} a departure with ${live.rows[0]!.n ? '' : 'no '}live holds`);
      const cutoff = Math.floor((m.starts[s]! - Date.now()) / 60_000) + -lead;
      expect((await api.patch(`/api/experiences/${exp.id}/`, { booking_cutoff_minutes: cutoff })).statusCode).toBe(200);
      m.cutoff = cutoff;
    }))],
  [3, fc.record({ slot: fc.nat(1), more: fc.integer({ min: 0, max: 3 }) }).map(({ slot: s, more }) =>
    command(`a customer joins slot ${s}'s waiting list for ${more} more than are left`, async (m) => {
      const email = `waiting${++m.customer}@example.com`;
      const left = (await t.database.db.execute(sql`select remaining::int as n from slot_api where id = ${m.slots[s]}::uuid`)) as unknown as { rows: { n: number }[] };
      const seats = Math.min(30, Math.max(1, left.rows[0]!.n + more));
      const res = await shopper.post(`${SHOP}/waitlist/`, { slot: m.slots[s], email, name: 'Model Waiter', seats });
      // A departure past its cut-off is not on sale: no list to join.
      const open = sale(m, slotOf(m, s));
      if (open === 'closed') expect(res.statusCode, `join past the cut-off: ${res.body}`).toBe(400);
      if (open !== 'open') return;
      // Refused (409) while the seats are free: they are to be booked instead.
      expect([201, 409], `join: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      expect(res.statusCode === 409, `join ${seats} with ${left.rows[0]!.n} left: ${res.body}`).toBe(seats <= left.rows[0]!.n);
    }))],
  [2, fc.constant(
    command('the waiting list’s job runs', async (m) => {
      await offerDueSeats(t.database.db, t.app.jobs);
      // No entry waits whose seats are free in its departure (on sale): the first whose seats fit was offered them.
      for (const id of m.slots) {
        if (sale(m, id) !== 'open') continue;
        const left = (await t.database.db.execute(sql`select remaining::int as n from slot_api where id = ${id}::uuid`)) as unknown as { rows: { n: number }[] };
        const [fits] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(waitlistEntry).where(and(eq(waitlistEntry.slot_id, id), eq(waitlistEntry.status, 'waiting'), sql`${waitlistEntry.seats} <= ${left.rows[0]!.n}`));
        expect(fits!.n, `slot ${id}: an entry waits whose seats are free (${left.rows[0]!.n} left)`).toBe(0);
      }
    }))],
  [3, fc.nat().map((e) =>
    command(`the customer offered seats ${e} books them`, async (m) => {
      const offered = await t.database.db.select().from(waitlistEntry).where(and(eq(waitlistEntry.status, 'offered'), sql`${waitlistEntry.slot_id} in (${sql.join(m.slots.map((id) => sql`${id}::uuid`), sql`, `)})`)).orderBy(waitlistEntry.created_at);
      const entry = pick(offered, e);
      if (!entry) return;
      const mail = await sink.latest(entry.email, /Seats for you/);
      const [, cart, token] = mail.text.match(/#waitlist=([0-9a-f-]{36})\.([A-Za-z0-9_-]+)/)!;
      const res = await shopper.post(`${SHOP}/orders/`, { cart, customer: { email: entry.email, first_name: 'Model', last_name: 'Waiter' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token! });
      // Its offer may have ended (another step cancelled nothing, but the hold is the rule): then it is refused.
      if (!answered(res, 'book an offer')) return;
      const [booked] = await t.database.db.select({ order: waitlistEntry.order_id, status: waitlistEntry.status }).from(waitlistEntry).where(eq(waitlistEntry.id, entry.id));
      expect(booked, `entry ${entry.email}: booked with the order it placed`).toMatchObject({ status: 'booked' });
      tally('a waiting-list offer booked');
      m.orders.push(made((await owner.get(`/api/orders/${booked!.order}/`)).json()));
    }))],
  [1, fc.integer({ min: 500, max: 15000 }).map((value) =>
    command(`staff issue a gift voucher of ${value}`, async (_m, api) => {
      const res = await api.post('/api/gift-vouchers/', { value, reason: 'model', recipient_name: 'Model' });
      expect(res.statusCode, res.body).toBe(201);
      vouchers.push({ id: res.json().id, code: res.json().code });
    }))],
  [2, fc.record({ o: fc.nat(), v: fc.nat(), share: fc.integer({ min: 1, max: 100 }) }).map(({ o, v, share }) =>
    command(`pay ${share}% of order ${o}'s balance with voucher ${v}`, async (m, api) => {
      const order = pick(m.orders, o);
      const voucher = pick(vouchers, v);
      if (!order || !voucher) return;
      const now = (await api.get(`/api/orders/${order.id}/`)).json();
      const amount = Math.ceil(((now.total - now.paid) * share) / 100);
      // Refused with why when it holds less, is used up, or the order is cancelled or paid.
      if (amount > 0) answered(await api.post(`/api/orders/${order.id}/payments/`, { amount, currency: now.currency, method: 'voucher', voucher_code: voucher.code }), 'pay with a voucher');
    }))],
  [1, fc.record({ o: fc.nat(), share: fc.integer({ min: 1, max: 100 }) }).map(({ o, share }) =>
    command(`refund ${share}% of order ${o}'s first voucher payment onto the voucher`, async (m, api) => {
      const order = pick(m.orders, o);
      if (!order) return;
      const payment = (await api.get(`/api/orders/${order.id}/payments/`)).json().find((p: { kind: string; method: string }) => p.kind === 'payment' && p.method === 'voucher');
      if (!payment) return;
      const amount = Math.max(1, Math.floor((payment.amount * share) / 100));
      answered(await api.post(`/api/orders/${order.id}/payments/`, { amount: -amount, currency: payment.currency, method: 'voucher', refund_of: payment.id, reason: 'model' }), 'refund a voucher payment');
    }))],
  [2, fc.record({ slot: fc.nat(1), qty: fc.integer({ min: 1, max: 3 }), v: fc.option(fc.nat(), { nil: undefined }) }).map(({ slot: s, qty, v }) =>
    command(`a customer pays a deposit online for ${qty} on slot ${s}${v === undefined ? '' : `, voucher ${v} first`}`, async (m) => {
      const voucher = v === undefined ? undefined : pick(vouchers, v);
      const cart = (await shopper.post(`${SHOP}/carts/`, {})).json() as { id: string; token: string };
      const h = { 'x-cart-token': cart.token };
      if (!answered(await shopper.post(`${SHOP}/carts/${cart.id}/lines/`, { slot: m.slots[s], quantities: { [exp.category]: qty } }, h), 'hold in the store')) return;
      const started = await shopper.post(`${SHOP}/payments/`, { cart: cart.id, customer: guest(m), accept_terms: true, payment_option: 'online', ...(voucher ? { voucher_code: voucher.code } : {}) }, h);
      if (!answered(started, 'start paying online')) return;
      const { checkout, token } = started.json() as { checkout: string; token: string };
      const session = (await t.database.db.execute(sql`select session_id from online_checkout where id = ${checkout}::uuid`)) as unknown as { rows: { session_id: string }[] };
      await fake.payCheckoutSession(session.rows[0]!.session_id);
      const done = await until('the payment finished', async () => {
        const r = (await shopper.get(`${SHOP}/payments/${checkout}/`, { 'x-order-token': token })).json();
        return r.status === 'paid' || r.status === 'refunded' ? r : null;
      });
      if (done.status !== 'paid') return;
      const row = (await t.database.db.execute(sql`select order_id from online_checkout where id = ${checkout}::uuid`)) as unknown as { rows: { order_id: string }[] };
      m.orders.push(made((await owner.get(`/api/orders/${row.rows[0]!.order_id}/`)).json()));
    }))],
  [1, fc.nat().map((o) =>
    command(`the customer of order ${o} pays its balance through a payment link`, async (m, api) => {
      const order = pick(m.orders, o);
      if (!order) return;
      const sent = await api.post(`/api/orders/${order.id}/payment-link/`);
      if (!answered(sent, 'send a payment link')) return;
      const to = (await api.get(`/api/orders/${order.id}/`)).json().customer.email as string;
      const mail = await sink.latest(to, /Pay what is left/);
      const path = new URL(mail.text.match(/https?:\/\/\S+\/pay\/\S+/)![0]).pathname;
      const go = await shopper.get(`${path}/checkout`);
      if (go.statusCode !== 303) return;
      const session = new URL(go.headers.location as string).pathname.split('/').at(-1)!;
      if (!session.startsWith('cs_')) return;
      await fake.payCheckoutSession(session);
      await until('the link’s payment recorded or refunded', async () => {
        const r = (await t.database.db.execute(sql`select status from online_checkout where session_id = ${session}`)) as unknown as { rows: { status: string }[] };
        return r.rows[0]?.status !== 'open';
      });
    }))],
  [1, fc.integer({ min: 1000, max: 9000 }).map((price) =>
    command(`price the offer at ${price}`, async (_m, api) => {
      answered(await api.patch(`/api/pricing-rates/${exp.rate}/`, { retail_price: price }), 'reprice');
    }),
  )],
];

/** The payment status an order's balance calls for (paid net of refunds, against what it owes). */
function expectedStatus(paid: number, owed: number, refunded: number, selling: boolean) {
  if (paid > owed) return 'Refund due';
  if (paid === owed && (owed > 0 || (selling && refunded === 0))) return 'Fully paid';
  if (paid <= 0 && refunded > 0 && owed === 0) return 'Refunded';
  if (paid <= 0) return 'Not paid';
  return 'Partially paid';
}

let customers = 0;
/** Two departures on days no earlier run used, and when they start; the offer's cut-off back to none. */
async function runSlots() {
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { booking_cutoff_minutes: 0 })).statusCode).toBe(200);
  const day = addDays(todayIn(ZONE), 3 + 2 * runs++);
  const found = await Promise.all([day, addDays(day, 1)].map(async (d) => (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${d}`)).json()[0] as { id: string; starts_at: string } | undefined));
  expect(found.every(Boolean), `departures on ${day}`).toBe(true);
  return { slots: found.map((s) => s!.id), starts: found.map((s) => Date.parse(s!.starts_at)), cutoff: 0 };
}
async function promisesHold(m: Model) {
  // Seats: what the slot says against a count of its bookings and live holds.
  for (const id of m.slots) {
    const [s] = await t.database.db.select().from(slot).where(eq(slot.id, id));
    const [b] = await t.database.db.select({ seats: sql<number>`coalesce(sum(${booking.seats}), 0)::int` }).from(booking).where(and(eq(booking.slot_id, id), ne(booking.status, 'Canceled')));
    const [h] = await t.database.db.select({ seats: sql<number>`coalesce(sum(${cartLine.seats}), 0)::int` }).from(cartLine).where(and(eq(cartLine.slot_id, id), gt(cartLine.expires_at, sql`now()`)));
    expect(s!.booked, `slot ${id}: booked is its bookings' seats`).toBe(b!.seats);
    expect(s!.booked + h!.seats, `slot ${id}: booked + held ≤ capacity`).toBeLessThanOrEqual(s!.capacity);
  }
  // Resource pools: what every live line and booking takes is what the offer's rules say for what it
  // sells, and no pool is ever used past its stock at any moment (its peak over each departure's window).
  const [wrong] = ((await t.database.db.execute(sql`
    select (select count(*) from ${cartLine} l join ${slot} s on s.id = l.slot_id
            where l.expires_at > now() and l.pools is distinct from tourdesk_pool_units(s.account_id, s.experience_id, l.quantities, l.extras))::int
         + (select count(*) from ${booking} b where b.status <> 'Canceled' and b.pools is distinct from tourdesk_pool_units(b.account_id, b.experience_id, b.quantities, b.extras))::int as n`)) as unknown as { rows: { n: number }[] }).rows;
  expect(wrong!.n, 'lines and bookings whose pools are not what the rules say').toBe(0);
  const [over] = ((await t.database.db.execute(sql`
    select count(*)::int as n from ${slot} s where s.experience_id = ${exp.id}::uuid and tourdesk_pool_free(${pool}::uuid, s.id) < 0`)) as unknown as { rows: { n: number }[] }).rows;
  expect(over!.n, 'departures whose window has the pool over its stock').toBe(0);
  // Money, for every order made in any run so far.
  // No live hold outlives its departure's cut-off (the offer's, else the organisation's).
  const [late] = ((await t.database.db.execute(sql`
    select count(*)::int as n from ${cartLine} l join ${slot} s on s.id = l.slot_id join experience e on e.id = s.experience_id join base_account a on a.id = s.account_id
    where l.expires_at > now() and l.expires_at > s.starts_at - make_interval(mins => coalesce(nullif(e.booking_cutoff_minutes, 0), a.default_cutoff_minutes))`)) as unknown as { rows: { n: number }[] }).rows;
  expect(late!.n, 'holds past their departure’s cut-off').toBe(0);
  // Gift vouchers: the balance is its ledger's sum, within 0 and its value; what it paid net is its orders' voucher payments.
  for (const v of vouchers) {
    const d = (await owner.get(`/api/gift-vouchers/${v.id}/`)).json() as { value: number; balance: number; ledger: { amount: number }[] };
    expect(d.balance, `voucher ${v.code}: its balance is its ledger's sum`).toBe(d.ledger.reduce((n, e) => n + e.amount, 0));
    expect(d.balance >= 0 && d.balance <= d.value, `voucher ${v.code}: balance ${d.balance} within 0 and ${d.value}`).toBe(true);
    const [paid] = ((await t.database.db.execute(sql`
      select coalesce(sum(p.amount), 0)::int as n from order_payment p
      where p.method = 'voucher' and (p.provider_ref in (select id::text from gift_voucher_entry where voucher_id = ${v.id}::uuid)
        or p.refund_of in (select pp.id from order_payment pp where pp.provider_ref in (select id::text from gift_voucher_entry where voucher_id = ${v.id}::uuid)))`)) as unknown as { rows: { n: number }[] }).rows;
    expect(d.value - d.balance, `voucher ${v.code}: what it paid is its orders' voucher payments net of refunds`).toBe(paid!.n);
  }
  // Waiting lists: an offer holds its seats in its own cart until it ends; a booked entry has its order there.
  const entries = await t.database.db.select().from(waitlistEntry).where(sql`${waitlistEntry.slot_id} in (${sql.join(m.slots.map((id) => sql`${id}::uuid`), sql`, `)})`);
  for (const e of entries) {
    if (e.status === 'offered' && e.offered_until! > new Date()) {
      const [held] = await t.database.db.select({ seats: sql<number>`coalesce(sum(${cartLine.seats}), 0)::int` }).from(cartLine).where(and(eq(cartLine.cart_id, e.cart_id!), eq(cartLine.slot_id, e.slot_id), gt(cartLine.expires_at, sql`now()`)));
      expect(held!.seats, `entry ${e.email}: its offer holds its seats`).toBe(e.seats);
    }
    if (e.status === 'booked') {
      const [b] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(booking).where(and(eq(booking.order_id, e.order_id!), eq(booking.slot_id, e.slot_id)));
      expect(b!.n, `entry ${e.email}: booked with its order on its departure`).toBeGreaterThan(0);
    }
  }
  // Statements: their lines add up to their totals, and nothing on them ever changes.
  for (const [id, first] of statements) {
    const st = (await owner.get(`/api/settlements/${id}/`)).json() as { gross: number; commission: number; supplier_net: number; bookings: number; lines: { line_id: string; kind: string; gross: number; commission: number; supplier_net: number; seats: number; status: string }[] };
    const sum = (k: 'gross' | 'commission' | 'supplier_net') => st.lines.reduce((n, l) => n + l[k], 0);
    expect([sum('gross'), sum('commission'), sum('supplier_net'), st.lines.length], `statement ${id} adds up`).toEqual([st.gross, st.commission, st.supplier_net, st.bookings]);
    const figures = JSON.stringify([st.gross, st.commission, st.supplier_net, st.bookings, st.lines.map((l) => [l.line_id, l.kind, l.gross, l.commission, l.supplier_net, l.seats, l.status])]);
    if (first) expect(figures, `statement ${id} never changes`).toBe(first);
    else statements.set(id, figures);
  }
  // Orders of earlier runs no longer change: the run's own orders are checked.
  for (const o of m.orders) {
    const order = (await owner.get(`/api/orders/${o.id}/`)).json();
    const payments = (await owner.get(`/api/orders/${o.id}/payments/`)).json() as { amount: number; kind: string }[];
    const paid = payments.reduce((sum, p) => sum + p.amount, 0);
    const refunded = -payments.filter((p) => p.amount < 0).reduce((sum, p) => sum + p.amount, 0);
    expect(order.paid, `order ${order.reference}: paid is its payments minus refunds`).toBe(paid);
    expect(order.payment_status, `order ${order.reference}: payment status follows the balance (paid ${paid}, total ${order.total})`).toBe(expectedStatus(paid, order.total, refunded, (order.bookings as { status: string }[]).some((b) => b.status !== 'Canceled')));
    const lines = order.bookings as { status: string; total: number; discount: number; items: { total: number }[] }[];
    for (const b of lines) expect(b.total, `order ${order.reference}: a line is its items less its discount`).toBe(b.items.reduce((n, i) => n + i.total, 0) - b.discount);
    if (order.discount) expect(order.discount.amount, `order ${order.reference}: its discount is its open lines'`).toBe(lines.filter((b) => b.status !== 'Canceled').reduce((n, b) => n + b.discount, 0));
    const docs = (await owner.get(`/api/orders/${o.id}/invoices/`)).json() as { kind: string; total: number }[];
    if (docs.length > 0) expect(docs.reduce((sum, d) => sum + d.total, 0), `order ${order.reference}: invoices plus credit notes are its total (${JSON.stringify(docs)})`).toBe(order.total);
    // An issued invoice stands until what the order sells changes: no credit note for a payment, a renamed offer or a new price.
    if (!o.changed) expect(docs.length, `order ${order.reference}: invoiced again without a change (${JSON.stringify(docs)})`).toBe(o.documents);
    o.documents = docs.length;
    o.changed = false;
  }
}

beforeAll(async () => {
  sink = await startMailSink();
  fake = await startFakeStripe({ webhookSecret: STRIPE_SECRET });
  // The shopper joins many waiting lists and pays many carts from one address: room for them.
  t = await createTestApp({
    env: { SMTP_URL: sink.url, STORE_ORDERS_PER_ADDRESS: '1000', STORE_ORDERS_PER_STORE: '1000', STORE_CARTS_PER_ADDRESS: '1000', STORE_LINES_PER_ADDRESS: '1000', STRIPE_SECRET_KEY: 'sk_test_model', STRIPE_WEBHOOK_SECRET: STRIPE_SECRET, STRIPE_API_URL: fake.url },
  });
  fake.setWebhook(`${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/stripe/webhook/`, STRIPE_SECRET);
  owner = await createOrganisation(t.app, sink, { subdomain: 'model' });
  accountId = (await owner.get('/api/users/me/')).json().base_account.id;
  await t.database.db.update(baseAccount).set({ time_zone: ZONE }).where(eq(baseAccount.id, accountId));
  expect((await owner.patch('/api/account/', SELLER)).statusCode).toBe(200);
  exp = await sellableExperience(owner, 'Model tour');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
  await owner.delete(`/api/schedule-rules/${exp.rule}/`);
  expect((await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['10:00'], capacity: 16 })).statusCode).toBe(201);
  // A resource pool (issue 34) the offer takes one boat per seat from, with a buffer: one more boat
  // than a departure has seats, so it never decides a step's outcome, and every step's accounting of
  // it is checked (promisesHold: what each line and booking takes, and the pool's use at every moment).
  pool = (await owner.post('/api/inventory-items/', { type: 'Equipment', name: 'Model boats', price: 0, stock: 17, buffer_after_minutes: 30 })).json().id;
  expect((await owner.put(`/api/experiences/${exp.id}/pools/`, { rules: [{ pool, per: 'seat', pricing_category: exp.category, units: 1 }] })).statusCode).toBe(200);
  // A reseller selling the offer over OCTO at 15 % commission.
  agency = await createOrganisation(t.app, sink, { subdomain: 'modelagency', kind: 'affiliate' });
  const partner = await makePartnership(t.database, { supplier: 'model', reseller: 'modelagency', offers: [exp.id], commissionBp: 1500, currency: (await owner.get('/api/account/')).json().currency });
  partnership = partner.partnershipId;
  octo = partnerClient(t.app, partner.key);
  expect((await owner.post('/api/promo-codes/', { code: 'MODELFREE', kind: 'percent', percent_bp: 10000 })).statusCode).toBe(201);
  // A guide checks tickets in; their role holds no Manage orders, so they may not admit another day's.
  const guideRole = (await owner.post('/api/roles/', { name: 'Guide', permission_sets: ['view_experiences'] })).json().id;
  ({ member: guide } = await inviteMember(t.app, sink, owner, 'model', 'guide@model.test', guideRole));
  const shop = (await owner.post('/api/stores/', { name: 'Model shop', slug: 'modelshop' })).json().id;
  expect((await owner.post(`/api/stores/${shop}/add-experience/`, { experiences: [exp.id] })).statusCode).toBeLessThan(300);
  shopper = new Browser(t.app, 'model.localhost');
  // The shop takes cards on the organisation's connected account and asks a 20 % deposit, the rest 2 days before.
  expect((await owner.post('/api/payment-providers/connect/')).statusCode).toBe(200);
  await fake.completeOnboarding((await owner.get('/api/payment-providers/oauth/')).json().account);
  await until('charges enabled', async () => (await owner.get('/api/payment-providers/oauth/')).json().charges_enabled);
  expect((await owner.patch(`/api/stores/${shop}/`, { payment_options: ['pay_on_site', 'online'], deposit: { kind: 'percent', value: 2000, balance_due_days: 2 } })).statusCode).toBe(200);
  expect((await owner.post('/api/promo-codes/', { code: 'MODEL10', kind: 'percent', percent_bp: 1000 })).statusCode).toBe(201);
  expect((await owner.post('/api/promo-codes/', { code: 'MODEL777', kind: 'amount', amount: 777, max_uses: 3 })).statusCode).toBe(201);
  // Two organisations, a member, a store connected to Stripe: more than the default minute on a busy machine.
}, 180_000);
afterAll(async () => {
  process.stdout.write(`model seed ${SEED}, what the model predicted and saw: ${JSON.stringify(Object.fromEntries([...seen].sort()), null, 1)}\n`);
  await t?.close();
  await fake?.close();
  await sink?.close();
});

describe('orders under random sequences of operations', () => {
  it(`keep seats, payments, payment status and invoices true after every step (seed ${SEED}, ${RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(...steps.map(([weight, arbitrary]) => ({ weight, arbitrary }))), { minLength: 15, maxLength: 40 }), async (sequence) => {
        const model: Model = { orders: [], customer: (customers += 1000), ...(await runSlots()), reservations: [] };
        for (const step of sequence) {
          await step.run(model, owner);
          await promisesHold(model);
        }
        // Empty the cart between runs.
        for (const line of (await owner.get('/api/cart/')).json().lines) await owner.delete(`/api/cart/lines/${line.id}/`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);
});
