import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { baseAccount, booking, checkInScan } from '../src/db/schema';
import type { TenantCtx } from '../src/lib/crud';
import { addDays, todayIn } from '../src/lib/local-time';
import type * as CheckInQueries from '../src/modules/check-in/queries';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember, signIn } from './identity-fixtures';
import { seedDemo } from '../src/seed/demo';
import { BASE, Browser as HttpBrowser } from './http-client';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Check-in at the door: departures of a day, the tickets a device keeps offline (what each role
 * sees of a customer), batches of scans settled by scan time across devices, idempotent resends,
 * wrong day and departure with the override, undo with a reason, the audit trail, tenancy — and two
 * devices scanning one ticket at the same moment, with the row lock and (on PostgreSQL) without it.
 */

/** The booking lock switched off by the race test only: the same read without FOR UPDATE, then a pause. */
const lock = vi.hoisted(() => ({ off: false }));
vi.mock('../src/modules/check-in/queries', async (importOriginal) => {
  const real = await importOriginal<typeof CheckInQueries>();
  const schema = await import('../src/db/schema');
  const orm = await import('drizzle-orm');
  return {
    ...real,
    async lockTickets(ctx: TenantCtx, codes: string[]) {
      if (!lock.off) return real.lockTickets(ctx, codes);
      const rows = await ctx.tx
        .select({ b: schema.booking, local_date: schema.slot.local_date, local_time: schema.slot.local_time, starts_at: schema.slot.starts_at })
        .from(schema.booking)
        .innerJoin(schema.slot, orm.eq(schema.slot.id, schema.booking.slot_id))
        .where(orm.and(orm.eq(schema.booking.account_id, ctx.accountId), orm.inArray(schema.booking.ticket_code, codes)));
      await new Promise((resolve) => setTimeout(resolve, 150));
      return rows;
    },
  };
});

/**
 * The door admits today's tickets only, so the departures sold here are today's: 21:00 and 22:00 in
 * a zone where it is not yet 18:00, whatever the time this test runs (one of these always is).
 */
const ZONE = ['Pacific/Kiritimati', 'Asia/Tokyo', 'Europe/Zurich', 'America/New_York', 'Pacific/Pago_Pago'].find(
  (zone) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date())) < 18,
)!;
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guide: Browser;
let other: Browser;
let exp: { id: string; category: string; rule: string };
let day: string;
let morning: string;
let afternoon: string;
let nextDay: string;
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;
const onServer = Boolean(process.env.TEST_DATABASE_URL);

async function sell(slot: string, n: number, email: string, first_name: string) {
  const o = await owner.post('/api/orders/', { customer: { email, first_name, last_name: 'Guest', phone: '+41 79 000 00 00' }, lines: [{ slot, quantities: { [exp.category]: n } }], notes: 'Vegetarian lunch' });
  expect(o.statusCode, o.body).toBe(201);
  return o.json() as { id: string; bookings: { id: string; ticket_code: string }[] };
}
const scan = (ticket_code: string, extra: Record<string, unknown> = {}) => ({ id: randomUUID(), ticket_code, scanned_at: new Date().toISOString(), ...extra });
const batch = (who: Browser, device: string, slots: string[], scans: object[]) => who.post('/api/check-in/scans/', { device_id: device, device_name: `Phone ${device}`, slots, scans });
const audit = async (orderId: string) => ((await owner.get(`/api/orders/${orderId}/audit/`)).json() as { action: string; changes: Record<string, unknown> }[]);

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'doors' });
  const me = (await owner.get('/api/users/me/')).json();
  await t.database.db.update(baseAccount).set({ time_zone: ZONE }).where(eq(baseAccount.id, me.base_account.id));
  exp = await sellableExperience(owner, 'Lake tour');
  await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' });
  await owner.delete(`/api/schedule-rules/${exp.rule}/`);
  await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['21:00', '22:00'], capacity: 20 });
  day = todayIn(ZONE);
  const slots = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${day}`)).json();
  [morning, afternoon] = [slots[0].id, slots[1].id];
  nextDay = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(day, 1)}`)).json()[0].id;
  const guideRole = (await owner.post('/api/roles/', { name: 'Guide', permission_sets: ['view_experiences'] })).json().id;
  ({ member: guide } = await inviteMember(t.app, sink, owner, 'doors', 'guide@doors.test', guideRole));
  other = await createOrganisation(t.app, sink, { subdomain: 'otherdoors' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('departures and the tickets a device keeps', () => {
  it('lists a day’s departures with bookings and arrivals; today by default, in the organisation’s zone', async () => {
    await sell(morning, 2, 'dep1@example.com', 'Dep');
    const res = await guide.get(`/api/check-in/departures/?date=${day}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ date: day, time_zone: ZONE });
    expect(body.departures.find((d: { slot: string }) => d.slot === morning)).toMatchObject({ experience_title: 'Lake tour', local_time: '21:00', arrived_seats: 0 });
    expect((await guide.get('/api/check-in/departures/')).json().date).toBe(todayIn(ZONE));
    expect((await guide.get('/api/check-in/departures/?date=2026-02-30')).statusCode).toBe(400);
  });

  it('downloads tickets page by page; door staff see name, seats, extras, notes and balance, never e-mail, phone or payments', async () => {
    const o = await sell(morning, 3, 'private.person@example.com', 'Priya');
    const asGuide = await guide.get(`/api/check-in/tickets/?slots=${morning},${afternoon}&page_size=50`);
    expect(asGuide.statusCode, asGuide.body).toBe(200);
    const mine = asGuide.json().results.find((r: { booking: string }) => r.booking === o.bookings[0]!.id);
    expect(mine).toMatchObject({ name: 'Priya Guest', seats: 3, categories: [{ label: 'Adult Lake tour', quantity: 3 }], notes: 'Vegetarian lunch', balance_due: 3 * 4900, contact: null, payment: null });
    expect(asGuide.body).not.toContain('private.person@example.com');
    expect(asGuide.body).not.toContain('+41 79');
    const asOwner = (await owner.get(`/api/check-in/tickets/?slots=${morning}&page_size=50`)).json().results.find((r: { booking: string }) => r.booking === o.bookings[0]!.id);
    expect(asOwner.contact).toEqual({ email: 'private.person@example.com', phone: '+41 79 000 00 00' });
    expect(asOwner.payment).toMatchObject({ order: o.id, total: 3 * 4900, paid: 0, payment_status: 'Not paid' });
    const page = (await guide.get(`/api/check-in/tickets/?slots=${morning}&page_size=5&page=1`)).json();
    expect(page.count).toBeGreaterThanOrEqual(2);
    expect((await guide.get(`/api/check-in/tickets/?slots=not-a-uuid`)).statusCode).toBe(400);
    expect((await guide.get(`/api/check-in/tickets/`)).statusCode).toBe(400);
  });

  it('refuses a role without View experiences, and answers another organisation nothing', async () => {
    const none = (await owner.post('/api/roles/', { name: 'Nothing', permission_sets: [] })).json().id;
    const { member } = await inviteMember(t.app, sink, owner, 'doors', 'nobody@doors.test', none);
    expect((await member.get('/api/check-in/departures/')).statusCode).toBe(403);
    expect((await batch(member, 'x', [], [scan('ABCDEFGHIJKL')])).statusCode).toBe(403);
    expect((await other.get(`/api/check-in/tickets/?slots=${morning}`)).json().count).toBe(0);
  });
});

describe('scans', () => {
  it('admits once, tells a second scan when and by whom, and a batch sent again changes nothing', async () => {
    const o = await sell(morning, 2, 'scan1@example.com', 'Sam');
    const code = o.bookings[0]!.ticket_code;
    const first = [scan(code.toLowerCase())];
    const res = await batch(guide, 'dev-a', [morning], first);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results[0]).toMatchObject({ result: 'admitted', replayed: false, detail: 'Checked in.', ticket: { name: 'Sam Guest', attendance: 'Arrived', checked_in_by: 'Mia Member', checked_in_device: 'Phone dev-a' } });
    const again = await batch(guide, 'dev-a', [morning], first);
    expect(again.json().results[0]).toMatchObject({ result: 'admitted', replayed: true });
    const second = (await batch(owner, 'dev-b', [morning], [scan(code)])).json().results[0];
    expect(second.result).toBe('already_checked_in');
    expect(second.detail).toMatch(/^Already checked in at \d{2}:\d{2} by Mia Member on Phone dev-a\.$/);
    const events = (await audit(o.id)).filter((e) => e.action === 'checked in');
    expect(events).toHaveLength(1);
    expect(events[0]!.changes).toMatchObject({ device: 'Phone dev-a', device_id: 'dev-a', ticket_code: code });
    const rows = await t.database.db.select().from(checkInScan).where(eq(checkInScan.booking_id, o.bookings[0]!.id));
    expect(rows.map((r) => r.result).sort()).toEqual(['admitted', 'already_checked_in']);
  });

  it('settles offline scans by scan time: the earliest scan wins, whichever device sends first', async () => {
    const o = await sell(morning, 1, 'offline@example.com', 'Olli');
    const code = o.bookings[0]!.ticket_code;
    const early = new Date(Date.now() - 10 * 60_000).toISOString();
    const later = new Date(Date.now() - 5 * 60_000).toISOString();
    // Device B (online) scans at "later" and is told "checked in"; device A scanned at "early", offline.
    const b = [scan(code, { scanned_at: later })];
    expect((await batch(owner, 'dev-b', [morning], b)).json().results[0].result).toBe('admitted');
    // Sent to be decided, the earlier time changes nothing: the guest is not let in twice.
    expect((await batch(guide, 'dev-a', [morning], [scan(code, { scanned_at: early })])).json().results[0].result).toBe('already_checked_in');
    const a = (await batch(guide, 'dev-a', [morning], [scan(code, { scanned_at: early, offline: true })])).json().results[0];
    expect(a).toMatchObject({ result: 'admitted', ticket: { checked_in_at: early, checked_in_by: 'Mia Member' } });
    // B sends its batch again: now it learns the ticket was used first on A.
    expect((await batch(owner, 'dev-b', [morning], b)).json().results[0]).toMatchObject({ result: 'already_checked_in', replayed: true });
    const [row] = await t.database.db.select().from(booking).where(eq(booking.id, o.bookings[0]!.id));
    expect(row!.checked_in_at!.toISOString()).toBe(early);
    expect((await audit(o.id)).map((e) => e.action)).toEqual(expect.arrayContaining(['checked in', 'check-in moved to an earlier scan']));
    // A scan time in the future counts as now.
    const future = (await batch(owner, 'dev-c', [], [scan(code, { scanned_at: new Date(Date.now() + 86_400_000).toISOString() })])).json().results[0];
    expect(future.result).toBe('already_checked_in');
  });

  it('answers wrong departure and wrong day with the booked time; the override admits for Manage orders only, and is audited', async () => {
    const o = await sell(afternoon, 1, 'wrong@example.com', 'Wanda');
    const code = o.bookings[0]!.ticket_code;
    const dep = (await batch(guide, 'dev-a', [morning], [scan(code)])).json().results[0];
    expect(dep).toMatchObject({ result: 'wrong_departure', can_override: false, detail: 'Wrong departure: booked for 22:00, Lake tour.' });
    expect((await batch(guide, 'dev-a', [morning], [scan(code, { override: true })])).json().results[0].result).toBe('wrong_departure');
    const forced = (await batch(owner, 'dev-b', [morning], [scan(code, { override: true })])).json().results[0];
    expect(forced).toMatchObject({ result: 'admitted', override: true, detail: 'Checked in (override).' });
    const event = (await audit(o.id)).find((e) => e.action === 'checked in with override');
    expect(event?.changes).toMatchObject({ booked_for: `${day} 22:00`, checked_in_departures: [morning] });
  });

  it('answers a ticket of another day "wrong day" with its date, with no departure chosen too; only an override admits it, and says the day', async () => {
    const o = await sell(nextDay, 1, 'tomorrow@example.com', 'Tom');
    const code = o.bookings[0]!.ticket_code;
    const tomorrow = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(`${addDays(day, 1)}T12:00:00Z`));
    for (const slots of [[], [morning], [nextDay]]) {
      const answer = (await batch(guide, 'dev-a', slots, [scan(code)])).json().results[0];
      expect(answer).toMatchObject({ result: 'wrong_day', can_override: false, detail: `Wrong day: booked for ${tomorrow} at 21:00.`, ticket: { attendance: 'Open' } });
    }
    expect((await batch(guide, 'dev-a', [], [scan(code, { override: true })])).json().results[0].result).toBe('wrong_day');
    const desk = await owner.post('/api/bookings/check-in/', { ticket_code: code });
    expect(desk.statusCode).toBe(409);
    expect(err(desk)).toMatchObject({ code: 'wrong_day', detail: `Wrong day: booked for ${tomorrow} at 21:00.` });
    // The desk's "Check in anyway" is the same override; here it is left for the door to use below.
    expect(err(await owner.post('/api/bookings/check-in/', { ticket_code: 'NOSUCHTICKET', override: true }))).toMatchObject({ code: 'not_found' });
    expect((await batch(owner, 'dev-b', [], [scan(code)])).json().results[0]).toMatchObject({ result: 'wrong_day', can_override: true });
    const forced = (await batch(owner, 'dev-b', [], [scan(code, { override: true })])).json().results[0];
    expect(forced).toMatchObject({ result: 'admitted', override: true, detail: `Checked in (override). Booked for ${tomorrow} at 21:00.` });
    // Once in, any door says so first, with the day it is booked for.
    const again = (await batch(guide, 'dev-a', [morning], [scan(code)])).json().results[0];
    expect(again.result).toBe('already_checked_in');
    expect(again.detail).toMatch(new RegExp(`^Already checked in at \\d{2}:\\d{2} by .+ on Phone dev-b\\. Booked for ${tomorrow} at 21:00\\.$`));
    const event = (await audit(o.id)).find((e) => e.action === 'checked in with override');
    expect(event?.changes).toMatchObject({ booked_for: `${addDays(day, 1)} 21:00`, checked_in_departures: [] });
  });

  it('reads its times in the organisation’s time format: 12-hour once the owner chooses it', async () => {
    const o = await sell(afternoon, 1, 'twelve@example.com', 'Tilda');
    const code = o.bookings[0]!.ticket_code;
    expect((await owner.patch('/api/product-configuration/', { time_format: '12h' })).statusCode).toBe(200);
    try {
      // A signed-in user's organisation is read again after at most two seconds.
      await new Promise((r) => setTimeout(r, 2_100));
      const dep = (await batch(guide, 'dev-t', [morning], [scan(code)])).json().results[0];
      expect(dep).toMatchObject({ result: 'wrong_departure', detail: 'Wrong departure: booked for 10:00 pm, Lake tour.' });
      await batch(guide, 'dev-t', [afternoon], [scan(code)]);
      const again = (await batch(guide, 'dev-t', [afternoon], [scan(code)])).json().results[0];
      expect(again.detail).toMatch(/^Already checked in at \d{1,2}:\d\d [ap]m by /);
    } finally {
      await owner.patch('/api/product-configuration/', { time_format: '24h' });
      await new Promise((r) => setTimeout(r, 2_100));
    }
  });

  it('says cancelled, not confirmed and unknown; another organisation’s ticket is unknown', async () => {
    const o = await sell(morning, 1, 'cancel@example.com', 'Cora');
    await owner.post(`/api/bookings/${o.bookings[0]!.id}/cancel/`);
    const res = (await batch(guide, 'dev-a', [morning], [scan(o.bookings[0]!.ticket_code), scan('NOSUCHTICKET'), scan(`https://doors.example/t/${o.bookings[0]!.ticket_code}`)])).json().results;
    expect(res.map((r: { result: string }) => r.result)).toEqual(['canceled', 'unknown', 'canceled']);
    const mine = await sell(morning, 1, 'mine@example.com', 'Mina');
    expect((await batch(other, 'dev-x', [], [scan(mine.bookings[0]!.ticket_code)])).json().results[0]).toMatchObject({ result: 'unknown', ticket: null });
  });

  it('refuses bad batches with a clear error', async () => {
    expect(err(await batch(guide, 'bad device!', [], [scan('X')])).attr).toBe('device_id');
    expect((await batch(guide, 'dev', [], [])).statusCode).toBe(400);
    expect(err(await batch(guide, 'dev', [], [{ id: 'nope', ticket_code: 'X', scanned_at: new Date().toISOString() }])).attr).toBe('scans.0.id');
    expect(err(await batch(guide, 'dev', [], [{ id: randomUUID(), ticket_code: 'X', scanned_at: 'yesterday' }])).attr).toBe('scans.0.scanned_at');
  });

  it('admits a ticket of another day at the desk with "Check in anyway" (override), audited as such', async () => {
    const o = await sell(nextDay, 1, 'desk-tomorrow@example.com', 'Dora');
    const code = o.bookings[0]!.ticket_code;
    expect(err(await owner.post('/api/bookings/check-in/', { ticket_code: code })).code).toBe('wrong_day');
    const anyway = await owner.post('/api/bookings/check-in/', { ticket_code: code, override: true });
    expect(anyway.statusCode, anyway.body).toBe(200);
    expect(anyway.json()).toMatchObject({ attendance: 'Arrived' });
    expect((await audit(o.id)).map((e) => e.action)).toContain('checked in with override');
  });

  it('keeps the back office’s single scan at POST /api/bookings/check-in/', async () => {
    const o = await sell(morning, 1, 'desk@example.com', 'Desk');
    const first = await owner.post('/api/bookings/check-in/', { ticket_code: o.bookings[0]!.ticket_code });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ attendance: 'Arrived', id: o.bookings[0]!.id });
    const second = await owner.post('/api/bookings/check-in/', { ticket_code: o.bookings[0]!.ticket_code });
    expect(err(second)).toMatchObject({ code: 'already_checked_in' });
    expect((await guide.post('/api/bookings/check-in/', { ticket_code: o.bookings[0]!.ticket_code })).statusCode).toBe(403);
  });
});

describe('undo', () => {
  it('undoes a check-in with a reason in the audit trail; the ticket can be scanned again', async () => {
    const o = await sell(morning, 1, 'undo@example.com', 'Uma');
    const code = o.bookings[0]!.ticket_code;
    await batch(guide, 'dev-a', [morning], [scan(code)]);
    expect((await guide.post(`/api/check-in/tickets/${o.bookings[0]!.id}/undo/`, { reason: ' ' })).statusCode).toBe(400);
    const undone = await guide.post(`/api/check-in/tickets/${o.bookings[0]!.id}/undo/`, { reason: 'Scanned the wrong guest' });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ attendance: 'Open', checked_in_at: null, checked_in_by: null });
    expect(err(await guide.post(`/api/check-in/tickets/${o.bookings[0]!.id}/undo/`, { reason: 'again' })).code).toBe('conflict');
    expect((await other.post(`/api/check-in/tickets/${o.bookings[0]!.id}/undo/`, { reason: 'x' })).statusCode).toBe(404);
    expect((await audit(o.id)).find((e) => e.action === 'check-in undone')?.changes).toMatchObject({ reason: 'Scanned the wrong guest', attendance: ['Arrived', 'Open'] });
    expect((await batch(guide, 'dev-a', [morning], [scan(code)])).json().results[0].result).toBe('admitted');
  });
});

describe('two devices scan one ticket at the same moment', () => {
  const admittedOf = async (code: string) => {
    // dev-2's clock is a second behind: whichever request takes the lock first, one guest goes in.
    const behind = new Date(Date.now() - 1000).toISOString();
    const results = await Promise.all(['dev-1', 'dev-2'].map((d) => batch(d === 'dev-1' ? guide : owner, d, [morning], [scan(code, d === 'dev-2' ? { scanned_at: behind } : {})])));
    return results.map((r) => r.json().results[0].result as string).filter((r) => r === 'admitted').length;
  };

  it('admits it once: the booking’s row lock decides one scan after the other', async () => {
    for (let i = 0; i < 5; i++) {
      const o = await sell(morning, 1, `race${i}@example.com`, 'Race');
      expect(await admittedOf(o.bookings[0]!.ticket_code)).toBe(1);
      const rows = await t.database.db.select().from(checkInScan).where(and(eq(checkInScan.booking_id, o.bookings[0]!.id), eq(checkInScan.result, 'admitted')));
      expect(rows).toHaveLength(1);
    }
  });

  it.runIf(onServer)('admits it twice without the lock (the race the lock prevents)', async () => {
    lock.off = true;
    try {
      const o = await sell(morning, 1, 'race-off@example.com', 'Race');
      expect(await admittedOf(o.bookings[0]!.ticket_code)).toBe(2);
      const rows = await t.database.db.select().from(checkInScan).where(and(eq(checkInScan.booking_id, o.bookings[0]!.id), eq(checkInScan.result, 'admitted')));
      expect(rows).toHaveLength(2);
    } finally {
      lock.off = false;
    }
  });
});

describe('the demo', () => {
  // Seeding the whole demo on PGlite takes tens of seconds on a busy two-core machine.
  it('has tomorrow’s 09:30 kayak to check in, and its guide may do it without seeing e-mails or phones', { timeout: 120_000 }, async () => {
    expect(await seedDemo(t.database.db)).toBe(true);
    const guideOfDemo = await signIn(new HttpBrowser(t.app, BASE), 'guide@demo.tourdesk.test', 'demo', 'tourdesk-demo');
    const tomorrow = addDays(todayIn('Europe/Zurich'), 1); // the demo's zone, not this file's
    const departures = (await guideOfDemo.get(`/api/check-in/departures/?date=${tomorrow}`)).json().departures;
    const kayak = departures.find((d: { local_time: string }) => d.local_time === '09:30');
    expect(kayak).toMatchObject({ bookings: 3, arrived_bookings: 0 });
    const tickets = (await guideOfDemo.get(`/api/check-in/tickets/?slots=${kayak.slot}`)).json().results;
    expect(tickets.filter((x: { status: string }) => x.status !== 'Canceled').map((x: { name: string }) => x.name).sort()).toEqual(['Hana Novak', 'Lea Brunner', 'Marco Bianchi']);
    expect(tickets.find((x: { name: string }) => x.name === 'Lea Brunner')).toMatchObject({ notes: 'Child of 8: bring the small wetsuit.', contact: null, payment: null });
  });
});
