import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ZCart, ZHeldLine, ZSlot, type TSlot } from '@tourdesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, cartLine, slot } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { sweepExpiredHolds } from '../src/modules/availability/holds';
import { extendHorizonsIfDue, HORIZON_JOB } from '../src/modules/availability/horizon';
import { HORIZON_DAYS } from '../src/modules/availability/slots';
import { scheduledJob } from '../src/db/schema';
import { startMailSink, type MailSink } from './mail-sink';

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
let exp: { id: string; category: string; rule: string };
let accountId: string;
const ZONE = 'Europe/Zurich';
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;
const customer = { email: 'guest@example.com', first_name: 'Gina', last_name: 'Guest' };

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'slots' });
  other = await createOrganisation(t.app, sink, { subdomain: 'elsewhere' });
  accountId = (await owner.get('/api/users/me/')).json().base_account.id;
  await t.database.db.update(baseAccount).set({ time_zone: ZONE }).where(eq(baseAccount.id, accountId));
  exp = await sellableExperience(owner, 'Boat tour');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active', duration_minutes: 90 })).statusCode).toBe(200);
  // The tests below bring their own schedule.
  expect((await owner.delete(`/api/schedule-rules/${exp.rule}/`)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const tomorrow = () => addDays(todayIn(ZONE), 1);
async function slotsOn(date: string) {
  const res = await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${date}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; local_time: string; starts_at: string; capacity: number; booked: number; held: number; remaining: number; status: string; bookable: boolean; prices: unknown[] }[];
}

describe('schedules and slots', () => {
  it('creates slots from a rule, in local time across a daylight-saving change', async () => {
    const rule = await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['09:00', '14:30'], capacity: 4 });
    expect(rule.statusCode, rule.body).toBe(201);
    const day = await slotsOn(tomorrow());
    expect(day.map((s) => s.local_time)).toEqual(['09:00', '14:30']);
    expect(day[0]).toMatchObject({ capacity: 4, booked: 0, held: 0, remaining: 4, status: 'available', bookable: true });
    expect(day[0]!.prices).toHaveLength(1);
    // The last Sunday of March and of October (both within the horizon): 09:00 stays 09:00.
    for (const date of ['2027-03-27', '2027-03-28', '2027-10-30', '2027-10-31']) {
      const [nine] = await slotsOn(date);
      expect(nine?.local_time).toBe('09:00');
      const utcHour = new Date(nine!.starts_at).getUTCHours();
      expect(utcHour).toBe(date === '2027-03-28' || date === '2027-10-30' ? 7 : 8);
    }
  });

  it('closes and reopens a slot, and never lowers its capacity below what is booked and held', async () => {
    const [s] = await slotsOn(tomorrow());
    expect((await owner.patch(`/api/start-times/${s!.id}/`, { closed: true })).json()).toMatchObject({ closed: true, status: 'closed', bookable: false });
    expect((await owner.patch(`/api/start-times/${s!.id}/`, { closed: false, capacity: 6 })).json()).toMatchObject({ closed: false, capacity: 6 });
    expect((await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 3 } })).statusCode).toBe(201);
    const lower = await owner.patch(`/api/start-times/${s!.id}/`, { capacity: 2 });
    expect(lower.statusCode).toBe(400);
    expect(err(lower).detail).toMatch(/3 seats are booked or held/);
    await owner.delete(`/api/cart/lines/${(await owner.get('/api/cart/')).json().lines[0].id}/`);
    expect((await owner.patch(`/api/start-times/${s!.id}/`, { capacity: 4 })).statusCode).toBe(200);
  });
});

describe('holds, checkout and cancellation', () => {
  it('holds seats, refuses more than remain with "sold out", books them, and releases them on cancel', async () => {
    const [s] = await slotsOn(tomorrow());
    const held = await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 3 } });
    expect(held.statusCode, held.body).toBe(201);
    // The hold routes write their answer without the schema's check (lib/plain-json.ts): it must still fit it.
    const { cart: cartId, ...line } = ZHeldLine.strict().parse(held.json());
    expect(line).toMatchObject({ slot: s!.id, seats: 3, total: 3 * 4900 });
    expect((await owner.get('/api/cart/')).json()).toMatchObject({ id: cartId, lines: [line] });
    expect((await slotsOn(tomorrow()))[0]).toMatchObject({ held: 3, remaining: 1, status: 'limited' });

    const again = await other.get('/api/users/me/');
    expect(again.statusCode).toBe(200);
    const tooMany = await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 2 } });
    expect(tooMany.statusCode).toBe(409);
    expect(err(tooMany)).toMatchObject({ code: 'sold_out', detail: 'Sold out: only 1 seat left in this time slot.' });

    const order = await owner.post('/api/cart/checkout/', { customer });
    expect(order.statusCode, order.body).toBe(201);
    const o = order.json();
    expect(o).toMatchObject({ status: 'Confirmed', payment_status: 'Not paid', total: 3 * 4900, customer: { email: 'guest@example.com' } });
    expect(o.bookings).toHaveLength(1);
    expect(o.bookings[0].ticket_code).toMatch(/^[A-Z0-9]{12}$/);
    expect((await slotsOn(tomorrow()))[0]).toMatchObject({ booked: 3, held: 0, remaining: 1 });
    expect((await owner.get('/api/cart/')).json().lines).toEqual([]);

    const canceled = await owner.post(`/api/bookings/${o.bookings[0].id}/cancel/`);
    expect(canceled.json().status).toBe('Canceled');
    expect((await slotsOn(tomorrow()))[0]).toMatchObject({ booked: 0, remaining: 4 });
    expect((await owner.post(`/api/bookings/${o.bookings[0].id}/cancel/`)).statusCode).toBe(409);
  });

  it('stops counting an expired hold at once', async () => {
    const [, s] = await slotsOn(tomorrow());
    await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 4 } });
    expect((await slotsOn(tomorrow()))[1]).toMatchObject({ held: 4, remaining: 0, status: 'sold_out' });
    await t.database.db.update(cartLine).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(cartLine.slot_id, s!.id));
    expect((await slotsOn(tomorrow()))[1]).toMatchObject({ held: 0, remaining: 4, status: 'available' });
    expect((await owner.get('/api/cart/')).json().lines).toEqual([]);
    // What checkout does with an expired line (re-hold it if it was shown, or refuse naming it): test/checkout.int.test.ts.
    await sweepExpiredHolds(t.database.db);
    expect((await slotsOn(tomorrow()))[1]).toMatchObject({ held: 0, remaining: 4 });
  });

  it('gives the seats of an expired hold to the next one who needs them, and the first checkout then books nothing', async () => {
    const day = addDays(todayIn(ZONE), 2);
    const [s] = await slotsOn(day);
    const roles = (await owner.get('/api/roles/')).json().results as { id: string; is_owner: boolean }[];
    const { member } = await inviteMember(t.app, sink, owner, 'slots', 'colleague@example.com', roles.find((r) => r.is_owner)!.id);
    await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 3 } });
    // Full while the hold lasts: the colleague cannot have the seats.
    const refused = await member.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 4 } });
    expect(err(refused)).toMatchObject({ code: 'sold_out', detail: 'Sold out: only 1 seat left in this time slot.' });
    await t.database.db.update(cartLine).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(cartLine.slot_id, s!.id));
    // Expired: the colleague's hold sweeps it and gets all four seats.
    const taken = await member.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 4 } });
    expect(taken.statusCode, taken.body).toBe(201);
    expect((await slotsOn(day))[0]).toMatchObject({ held: 4, remaining: 0 });
    const res = await owner.post('/api/cart/checkout/', { customer });
    expect(res.statusCode).toBe(400);
    expect(err(res).detail).toMatch(/The cart is empty/);
    expect((await slotsOn(day))[0]).toMatchObject({ booked: 0, held: 4 });
    expect((await member.delete(`/api/cart/lines/${taken.json().id}/`)).statusCode).toBe(200);
    expect((await slotsOn(day))[0]).toMatchObject({ booked: 0, held: 0, remaining: 4 });
  });

  it('refuses a slot past its cutoff, a closed offer, and participants outside the limits', async () => {
    const [s] = await slotsOn(tomorrow());
    await owner.patch(`/api/experiences/${exp.id}/`, { booking_cutoff_minutes: 60 * 24 * 3, max_participants: 5 });
    const late = await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 1 } });
    expect(err(late).detail).toBe('Bookings for this time slot have closed.');
    // The calendar says the same: past its cutoff a slot is closed for booking, the later ones open.
    expect((await slotsOn(tomorrow()))[0]).toMatchObject({ id: s!.id, status: 'closed', bookable: false, closed: false, time_zone: ZONE });
    expect((await slotsOn(addDays(todayIn(ZONE), 5)))[0]).toMatchObject({ status: 'available', bookable: true });
    await owner.patch(`/api/experiences/${exp.id}/`, { booking_cutoff_minutes: 0 });
    const far = (await slotsOn(addDays(todayIn(ZONE), 5)))[0]!;
    expect(err(await owner.post('/api/cart/lines/', { slot: far.id, quantities: { [exp.category]: 6 } })).detail).toBe('Book at most 5 participants.');
    expect(err(await owner.post('/api/cart/lines/', { slot: far.id, quantities: { [exp.category]: 0 } })).attr).toBe('quantities');
    await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Inactive' });
    expect(err(await owner.post('/api/cart/lines/', { slot: far.id, quantities: { [exp.category]: 1 } })).detail).toBe('This offer is not on sale.');
    expect((await slotsOn(addDays(todayIn(ZONE), 5)))[0]).toMatchObject({ id: far.id, status: 'closed', bookable: false, time_zone: ZONE });
    await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active', max_participants: null });
  });
});

describe('extras and the held-seat counter', () => {
  it('prices extras offered with the experience and refuses the others', async () => {
    const paddle = (await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Dry bag', price: 500 })).json();
    const other = (await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Not offered', price: 900 })).json();
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { extras: [paddle.id] })).statusCode).toBe(200);
    const [s] = await slotsOn(addDays(todayIn(ZONE), 6));
    const held = await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 2 }, extras: { [paddle.id]: 3 } });
    expect(held.statusCode, held.body).toBe(201);
    const line = held.json();
    expect(line).toMatchObject({ seats: 2, total: 2 * 4900 + 3 * 500, extras: { [paddle.id]: 3 } });
    const options = (await owner.get('/api/bookings/options/')).json();
    expect(options.extras).toEqual([{ id: paddle.id, name: 'Dry bag', price: 500, currency: 'EUR' }]);
    const refused = await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 1 }, extras: { [other.id]: 1 } });
    expect(err(refused)).toMatchObject({ code: 'invalid', attr: 'extras', detail: 'This extra is not offered with this experience.' });
    await owner.delete(`/api/cart/lines/${line.id}/`);
  });

  it('asks the experience’s booking questions at checkout: required ones answered, answers of the right kind', async () => {
    const swim = (await owner.post('/api/booking-questions/', { question: 'Can everyone swim?', answer_type: 'yes_no', required: true })).json();
    const size = (await owner.post('/api/booking-questions/', { question: 'Wetsuit size', answer_type: 'choice', choices: ['S', 'M', 'L'] })).json();
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { booking_questions: [swim.id, size.id] })).statusCode).toBe(200);
    const [s] = await slotsOn(addDays(todayIn(ZONE), 8));
    await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 1 } });
    expect(err(await owner.post('/api/cart/checkout/', { customer }))).toMatchObject({ code: 'required', attr: `answers.${swim.id}`, detail: 'Please answer: Can everyone swim?' });
    expect(err(await owner.post('/api/cart/checkout/', { customer, answers: { [swim.id]: 'maybe' } })).attr).toBe(`answers.${swim.id}`);
    expect(err(await owner.post('/api/cart/checkout/', { customer, answers: { [swim.id]: 'yes', [size.id]: 'XL' } })).detail).toBe('Choose one of the options: Wetsuit size');
    expect(err(await owner.post('/api/cart/checkout/', { customer, answers: { [swim.id]: 'yes', [exp.id]: 'x' } })).detail).toBe('This question is not asked for these bookings.');
    const order = await owner.post('/api/cart/checkout/', { customer, answers: { [swim.id]: 'yes', [size.id]: 'M' } });
    expect(order.statusCode, order.body).toBe(201);
    const booking = (await owner.get(`/api/bookings/${order.json().bookings[0].id}/`)).json();
    expect(booking.answers).toEqual({ [swim.id]: 'yes', [size.id]: 'M' });
    await owner.patch(`/api/experiences/${exp.id}/`, { booking_questions: [] });
  });

  it('keeps slot.held equal to the seats of its cart lines through holds, changes, releases, checkouts and sweeps', async () => {
    const [s] = await slotsOn(addDays(todayIn(ZONE), 7));
    const consistent = async () => {
      const rows = (await t.database.db.execute(sql`
        select s.held, coalesce((select sum(seats) from cart_line where slot_id = s.id), 0)::int as lines from slot s where s.id = ${s!.id}`)) as unknown as { rows: { held: number; lines: number }[] };
      expect(rows.rows[0]!.held).toBe(rows.rows[0]!.lines);
      return rows.rows[0]!.held;
    };
    const a = (await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 1 } })).json();
    expect(await consistent()).toBe(1);
    const changed = await owner.patch(`/api/cart/lines/${a.id}/`, { quantities: { [exp.category]: 3 } });
    expect(changed.statusCode).toBe(200);
    ZCart.strict().parse(changed.json());
    expect(await consistent()).toBe(3);
    expect((await owner.post('/api/cart/checkout/', { customer })).statusCode).toBe(201);
    expect(await consistent()).toBe(0);
    await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 1 } });
    await t.database.db.update(cartLine).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(cartLine.slot_id, s!.id));
    expect(await consistent()).toBe(1);
    expect((await slotsOn(addDays(todayIn(ZONE), 7)))[0]).toMatchObject({ held: 0, booked: 3, remaining: 1 });
    expect(await sweepExpiredHolds(t.database.db)).toBeGreaterThanOrEqual(1);
    expect(await consistent()).toBe(0);
  });
});

describe('check-in and attendance', () => {
  let ticket: string;
  let bookingId: string;
  beforeAll(async () => {
    const [s] = await slotsOn(addDays(todayIn(ZONE), 3));
    await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 2 } });
    const o = (await owner.post('/api/cart/checkout/', { customer })).json();
    ticket = o.bookings[0].ticket_code;
    bookingId = o.bookings[0].id;
  });

  it('refuses a ticket of another day with its date; once admitted (override at the door), says when on a second scan', async () => {
    const first = await owner.post('/api/bookings/check-in/', { ticket_code: ticket });
    expect(first.statusCode, first.body).toBe(409);
    expect(err(first)).toMatchObject({ code: 'wrong_day', detail: expect.stringMatching(/^Wrong day: booked for \w{3} \d{1,2} \w{3} at \d{2}:\d{2}\.$/) });
    const door = await owner.post('/api/check-in/scans/', { device_id: 'desk', slots: [], scans: [{ id: randomUUID(), ticket_code: ticket, scanned_at: new Date().toISOString(), override: true }] });
    expect(door.json().results[0]).toMatchObject({ result: 'admitted', override: true, ticket: { attendance: 'Arrived' } });
    const second = await owner.post('/api/bookings/check-in/', { ticket_code: ticket });
    expect(second.statusCode).toBe(409);
    expect(err(second).detail).toMatch(/^Already checked in at \d{2}:\d{2}\.$/);
  });

  it('refuses another organisation’s ticket and a cancelled booking', async () => {
    expect((await other.post('/api/bookings/check-in/', { ticket_code: ticket })).statusCode).toBe(404);
    await owner.patch(`/api/bookings/${bookingId}/attendance/`, { attendance: 'Open' });
    await owner.post(`/api/bookings/${bookingId}/cancel/`);
    const res = await owner.post('/api/bookings/check-in/', { ticket_code: ticket });
    expect(res.statusCode).toBe(400);
    expect(err(res).detail).toMatch(/cancelled/);
  });

  it('moves attendance Open → No show → Open, and lists the manifest of a day', async () => {
    const [s] = await slotsOn(addDays(todayIn(ZONE), 4));
    await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 1 } });
    const o = (await owner.post('/api/cart/checkout/', { customer: { ...customer, email: 'GUEST@example.com', first_name: 'Gina' } })).json();
    const id = o.bookings[0].id;
    expect((await owner.patch(`/api/bookings/${id}/attendance/`, { attendance: 'No show' })).json().attendance).toBe('No show');
    expect((await owner.patch(`/api/bookings/${id}/attendance/`, { attendance: 'Open' })).json().attendance).toBe('Open');
    const manifest = (await owner.get(`/api/bookings/by-date/?date=${addDays(todayIn(ZONE), 4)}`)).json();
    expect(manifest.map((b: { id: string }) => b.id)).toContain(id);
    // The same customer (matched by e-mail in any case) for every order.
    expect(new Set((await owner.get(`/api/bookings/by-date/?date=${addDays(todayIn(ZONE), 3)}`)).json().map((b: { customer: { id: string } }) => b.customer.id)).has(o.customer.id)).toBe(true);
  });
});

describe('the itinerary', () => {
  it('keeps agenda items in time order, for the organisation’s own experiences only', async () => {
    for (const [minutes, title] of [[90, 'Swim stop'], [0, 'Welcome and safety briefing'], [45, 'Coffee on the beach']] as const) {
      expect((await owner.post('/api/agenda-items/', { experience: exp.id, minutes_from_start: minutes, title })).statusCode).toBe(201);
    }
    const items = (await owner.get(`/api/agenda-items/?experience=${exp.id}`)).json().results;
    expect(items.map((i: { title: string }) => i.title)).toEqual(['Welcome and safety briefing', 'Coffee on the beach', 'Swim stop']);
    const renamed = await owner.patch(`/api/agenda-items/${items[2].id}/`, { title: 'Swim stop (weather permitting)' });
    expect(renamed.json()).toMatchObject({ minutes_from_start: 90, title: 'Swim stop (weather permitting)' });
    const foreign = await other.post('/api/agenda-items/', { experience: exp.id, title: 'Sneaky' });
    expect(foreign.statusCode).toBe(400);
    expect(err(foreign).attr).toBe('experience');
  });
});

describe('calendars', () => {
  it('gives each day of a month its best status and seats left, per experience and across the organisation', async () => {
    const from = todayIn(ZONE);
    const to = addDays(from, 20);
    const days = (await owner.get(`/api/bookings/calendar/?experience=${exp.id}&from=${from}&to=${to}`)).json();
    expect(days.length).toBeGreaterThan(15);
    expect(days[days.length - 1]).toMatchObject({ slots: 2, remaining: 8, status: 'available' });
    const capacity = (await owner.get(`/api/capacity/calendar/?from=${from}&to=${to}`)).json();
    const last = capacity.find((d: { date: string }) => d.date === days[days.length - 1].date);
    expect(last).toMatchObject({ capacity: 8, booked: 0, held: 0, remaining: 8 });
    expect((await owner.get(`/api/bookings/calendar/?experience=${exp.id}&from=${from}&to=${addDays(from, 200)}`)).statusCode).toBe(400);
  });
});

describe('the bookings list', () => {
  it('filters by the spec’s statuses, dates and search, paginated in SQL', async () => {
    const all = (await owner.get('/api/bookings/?page_size=50')).json();
    expect(all.count).toBeGreaterThanOrEqual(4);
    const canceled = (await owner.get('/api/bookings/?status=Canceled')).json();
    expect(canceled.results.every((b: { status: string }) => b.status === 'Canceled')).toBe(true);
    expect(canceled.count).toBeGreaterThanOrEqual(2);
    const upcoming = (await owner.get('/api/bookings/?status=Confirmed')).json();
    expect(upcoming.results.every((b: { status: string; starts_at: string }) => b.status === 'Confirmed' && new Date(b.starts_at) > new Date())).toBe(true);
    expect((await owner.get('/api/bookings/?status=Completed')).json().count).toBe(0);
    const day = addDays(todayIn(ZONE), 4);
    const onDay = (await owner.get(`/api/bookings/?from=${day}&to=${day}`)).json();
    expect(onDay.count).toBe(1);
    const byName = (await owner.get(`/api/bookings/?search=gina`)).json();
    expect(byName.count).toBe(all.count);
    expect((await owner.get(`/api/bookings/?search=nobody-at-all`)).json().count).toBe(0);
    expect((await owner.get('/api/bookings/?status=Done')).statusCode).toBe(400);
  });
});

describe('rule changes', () => {
  it('keeps a slot that holds bookings when its rule goes away', async () => {
    const e2 = await sellableExperience(owner, 'Sunset cruise');
    await owner.patch(`/api/experiences/${e2.id}/`, { status: 'Active' });
    await owner.delete(`/api/schedule-rules/${e2.rule}/`);
    const rule = (await owner.post('/api/schedule-rules/', { experience: e2.id, valid_from: todayIn(ZONE), start_times: ['18:00'], capacity: 10 })).json();
    const date = addDays(todayIn(ZONE), 2);
    const [s] = (await owner.get(`/api/bookings/check-availability/?experience=${e2.id}&date=${date}`)).json();
    await owner.post('/api/cart/lines/', { slot: s.id, quantities: { [e2.category]: 2 } });
    await owner.post('/api/cart/checkout/', { customer });
    expect((await owner.delete(`/api/schedule-rules/${rule.id}/`)).json()).toMatchObject({ kept_slots: 1 });
    const left = await t.database.db.select().from(slot).where(and(eq(slot.experience_id, e2.id)));
    expect(left.map((x) => x.id)).toEqual([s.id]);
    expect(left[0]).toMatchObject({ booked: 2, closed: true, rule_id: null });
  });

  it('keeps a slot whose only booking was cancelled (its order still refers to it): 200 with the count, never a 500', async () => {
    const e3 = await sellableExperience(owner, 'Harbour walk');
    await owner.patch(`/api/experiences/${e3.id}/`, { status: 'Active' });
    const date = addDays(todayIn(ZONE), 2);
    const [s] = (await owner.get(`/api/bookings/check-availability/?experience=${e3.id}&date=${date}`)).json();
    const o = (await owner.post('/api/orders/', { customer, lines: [{ slot: s.id, quantities: { [e3.category]: 1 } }] })).json();
    expect((await owner.post(`/api/bookings/${o.bookings[0].id}/cancel/`)).statusCode).toBe(200);
    const res = await owner.delete(`/api/schedule-rules/${e3.rule}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kept_slots: 1, detail: expect.stringMatching(/1 time slot with bookings was kept/) });
    const left = await t.database.db.select().from(slot).where(eq(slot.experience_id, e3.id));
    expect(left).toEqual([expect.objectContaining({ id: s.id, booked: 0, closed: true })]);
    // A rule that wants the slot again reopens it.
    await owner.post('/api/schedule-rules/', { experience: e3.id, valid_from: todayIn(ZONE), start_times: [s.local_time], capacity: 10 });
    expect((await t.database.db.select().from(slot).where(eq(slot.id, s.id)))[0]).toMatchObject({ closed: false, rule_id: expect.any(String) });
  });

  it('keeps a capacity and a closure set by hand on a slot when its schedule is regenerated', async () => {
    const e4 = await sellableExperience(owner, 'Glacier hike');
    await owner.patch(`/api/experiences/${e4.id}/`, { status: 'Active' });
    await owner.delete(`/api/schedule-rules/${e4.rule}/`);
    const input = { experience: e4.id, valid_from: todayIn(ZONE), start_times: ['08:00', '13:00', '16:00'], capacity: 10 };
    const rule = (await owner.post('/api/schedule-rules/', input)).json();
    const date = addDays(todayIn(ZONE), 3);
    const [a, b, c] = (await owner.get(`/api/bookings/check-availability/?experience=${e4.id}&date=${date}`)).json();
    expect((await owner.patch(`/api/start-times/${a.id}/`, { capacity: 4 })).statusCode).toBe(200);
    expect((await owner.patch(`/api/start-times/${b.id}/`, { closed: true })).statusCode).toBe(200);
    const changed = await owner.put(`/api/schedule-rules/${rule.id}/`, { ...input, capacity: 12 });
    expect(changed.json()).toMatchObject({ capacity: 12, kept_slots: 0 });
    const after = new Map((await t.database.db.select().from(slot).where(eq(slot.local_date, date))).map((x) => [x.id, x]));
    expect(after.get(a.id)).toMatchObject({ capacity: 4, closed: false });
    expect(after.get(b.id)).toMatchObject({ capacity: 12, closed: true });
    expect(after.get(c.id)).toMatchObject({ capacity: 12, closed: false });
    // Reopened by hand, it follows the rule again for what was not set by hand.
    await owner.patch(`/api/start-times/${b.id}/`, { closed: false });
    await owner.put(`/api/schedule-rules/${rule.id}/`, { ...input, capacity: 9 });
    expect((await t.database.db.select().from(slot).where(eq(slot.id, b.id)))[0]).toMatchObject({ capacity: 9, closed: false });
  });
});

describe('the selling horizon', () => {
  const lastDay = async (experienceId: string) =>
    ((await t.database.db.execute(sql`select max(local_date)::text as d, count(*)::int as n from slot where experience_id = ${experienceId}::uuid`)) as unknown as { rows: { d: string; n: number }[] }).rows[0]!;

  it('extends every schedule to the horizon once a day, from where its slots stop, touching none that exist', async () => {
    const e5 = await sellableExperience(owner, 'Lake swim');
    await owner.patch(`/api/experiences/${e5.id}/`, { status: 'Active' });
    const full = await lastDay(e5.id);
    expect(full.d).toBe(addDays(todayIn(ZONE), HORIZON_DAYS));
    // As if the schedule had been made 100 days ago and nothing had extended it since.
    await t.database.db.execute(sql`delete from slot where experience_id = ${e5.id}::uuid and local_date > ${addDays(todayIn(ZONE), HORIZON_DAYS - 100)}::date`);
    const [s] = (await owner.get(`/api/bookings/check-availability/?experience=${e5.id}&date=${addDays(todayIn(ZONE), 5)}`)).json();
    await owner.patch(`/api/start-times/${s.id}/`, { capacity: 3 });
    await t.database.db.delete(scheduledJob).where(eq(scheduledJob.name, HORIZON_JOB));

    expect(await extendHorizonsIfDue(t.database.db)).toBeGreaterThanOrEqual(100);
    expect(await lastDay(e5.id)).toEqual(full);
    expect((await t.database.db.select().from(slot).where(eq(slot.id, s.id)))[0]).toMatchObject({ capacity: 3 });
    // The day's run is claimed: a second instance asking now does nothing.
    expect(await extendHorizonsIfDue(t.database.db)).toBeNull();
    // A day later it runs again, and finds nothing missing.
    await t.database.db.update(scheduledJob).set({ last_run_at: sql`now() - interval '25 hours'` }).where(eq(scheduledJob.name, HORIZON_JOB));
    expect(await extendHorizonsIfDue(t.database.db)).toBe(0);
  });
});

describe('carts', () => {
  it('lists the organisation’s carts that hold seats, and retrieves one', async () => {
    const [s] = await slotsOn(addDays(todayIn(ZONE), 9));
    const line = (await owner.post('/api/cart/lines/', { slot: s!.id, quantities: { [exp.category]: 1 } })).json();
    const mine = (await owner.get('/api/cart/')).json();
    expect(mine.id).toBe(line.cart);
    const list = (await owner.get('/api/carts/')).json();
    expect(list.results.map((c: { id: string }) => c.id)).toContain(mine.id);
    expect(list.results.every((c: { lines: unknown[] }) => c.lines.length > 0)).toBe(true);
    expect((await owner.get(`/api/carts/${mine.id}/`)).json()).toMatchObject({ id: mine.id, total: mine.total });
    expect((await other.get(`/api/carts/${mine.id}/`)).statusCode).toBe(404);
    await owner.delete(`/api/cart/lines/${line.id}/`);
  });
});

describe('the slot text', () => {
  it('sends the month calendar in the Slot schema, the same slots the other endpoints show', async () => {
    const from = addDays(todayIn(ZONE), 1);
    const res = await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&from=${from}&to=${addDays(from, 30)}`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const slots = z.array(ZSlot).parse(res.json());
    expect(slots.length).toBeGreaterThan(0);
    const [first] = slots;
    const byDate = (await owner.get(`/api/capacity/by-date/?date=${first!.local_date}`)).json() as (TSlot & { experience_title: string })[];
    const same = byDate.find((s) => s.id === first!.id)!;
    expect({ ...same, experience_title: undefined }).toEqual({ ...first, experience_title: undefined });
    expect(first!.prices.map((p) => p.retail_price)).toEqual([4900]);
  });
});
