import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAutoAssignResult, ZDepartureGuides, ZManifest, ZMyDepartures, type TDepartureGuides } from '@tourdesk/contracts';
import { pgError } from '../src/lib/db-errors';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Guides (issue 34): who guides and their days off; assigning by hand (an overlap refused by the
 * database's exclusion constraint, named in a 409; a day off refused); two assignments of one guide
 * at once to overlapping departures — exactly one wins, and with the constraint dropped both do;
 * fewest hours that week first when assigning automatically; a departure of an offer with a guide
 * per 4 guests sells only what its guides can take, and a guide cannot be taken away from what is
 * sold or held (a hold that has expired, not swept yet, is no longer in the way); a guide's own departures with their manifests; the manifest names its guides.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let anna: Browser;
const ZONE = 'Europe/Zurich';
const SUB = 'guiding';
/** Days ahead (D, D+1, …): far enough that no booking cut-off is near. */
const day = (n: number) => addDays(todayIn(ZONE), 3 + n);
const ids: Record<'anna' | 'ben' | 'aaron', string> = {} as never;
/** Three offers: walk 10:00–12:00, boat 11:00–13:00 (overlaps the walk), bike 14:00–16:00 with a guide per 4 guests. */
const offers: Record<'walk' | 'boat' | 'bike', { id: string; category: string }> = {} as never;

async function offer(title: string, time: string, duration = 120) {
  const o = await sellableExperience(owner, title);
  expect((await owner.patch(`/api/experiences/${o.id}/`, { duration_minutes: duration, status: 'Active' })).statusCode).toBe(200);
  expect((await owner.delete(`/api/schedule-rules/${o.rule}/`)).statusCode).toBe(200);
  const rule = await owner.post('/api/schedule-rules/', { experience: o.id, valid_from: todayIn(ZONE), valid_to: day(10), start_times: [time], capacity: 8 });
  expect(rule.statusCode, rule.body).toBe(201);
  return { ...o, rule: rule.json().id as string };
}
async function slotOf(o: { id: string }, date: string) {
  const slots = (await owner.get(`/api/bookings/check-availability/?experience=${o.id}&date=${date}`)).json() as { id: string; remaining: number }[];
  expect(slots).toHaveLength(1);
  return slots[0]!;
}
const assign = (slot: string, guide: string) => owner.post(`/api/start-times/${slot}/guides/`, { guide });

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: SUB, currency: 'CHF', time_zone: ZONE });
  const role = (await owner.post('/api/roles/', { name: 'Guide', permission_sets: ['view_experiences'] })).json().id as string;
  const a = await inviteMember(t.app, sink, owner, SUB, 'anna@guiding.test', role, { first_name: 'Anna', last_name: 'Berg' });
  anna = a.member;
  ids.anna = a.id;
  ids.ben = (await inviteMember(t.app, sink, owner, SUB, 'ben@guiding.test', role, { first_name: 'Ben', last_name: 'Ode' })).id;
  ids.aaron = (await inviteMember(t.app, sink, owner, SUB, 'aaron@guiding.test', role, { first_name: 'Aaron', last_name: 'Alp' })).id;
  offers.walk = await offer('Old town walk', '10:00');
  offers.boat = await offer('Lake boat', '11:00');
  offers.bike = await offer('Bike tour', '14:00');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('who guides', () => {
  it('lists the team; a member is made a guide and given days off by whoever manages the team', async () => {
    for (const id of Object.values(ids)) expect((await owner.put(`/api/guides/${id}/`, { guides: true })).statusCode).toBe(204);
    const list = (await owner.get('/api/guides/')).json() as { results: { id: string; name: string; guides: boolean }[] };
    expect(list.results.filter((m) => m.guides).map((m) => m.name)).toEqual(['Aaron Alp', 'Anna Berg', 'Ben Ode']);
    expect((await owner.post(`/api/guides/${ids.aaron}/days-off/`, { starts_on: day(3), ends_on: day(3), note: 'Dentist' })).statusCode).toBe(204);
    expect((await owner.post(`/api/guides/${ids.ben}/days-off/`, { starts_on: day(0), ends_on: day(1) })).statusCode).toBe(204);
    const bad = await owner.post(`/api/guides/${ids.ben}/days-off/`, { starts_on: day(2), ends_on: day(1) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ attr: 'ends_on' });
    expect((await owner.put('/api/guides/00000000-0000-4000-8000-000000000000/', { guides: true })).statusCode).toBe(404);
    // A guide is not a team manager.
    expect((await anna.put(`/api/guides/${ids.anna}/`, { guides: false })).statusCode).toBe(403);
    expect((await anna.get('/api/users/me/')).json()).toMatchObject({ guides: true });
  });
});

describe('assigning by hand', () => {
  let walk: string;
  it('assigns a guide; the manifest, its CSV and its PDF name them', async () => {
    walk = (await slotOf(offers.walk, day(0))).id;
    const res = await assign(walk, ids.anna);
    expect(res.statusCode, res.body).toBe(200);
    expect(ZDepartureGuides.parse(res.json()).guides).toEqual([{ id: ids.anna, name: 'Anna Berg' }]);
    const m = ZManifest.parse((await owner.get(`/api/manifests/${walk}/`)).json());
    expect(m.guides).toEqual([{ id: ids.anna, name: 'Anna Berg' }]);
    const csv = (await owner.get(`/api/manifests/${walk}/export.csv`)).body.trimEnd().split('\r\n');
    expect(csv[0]!.endsWith(',notes,guides')).toBe(true);
    expect(csv.at(-1)!.endsWith(',Anna Berg')).toBe(true);
    const again = await assign(walk, ids.anna);
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].detail).toBe('Anna Berg already guides this departure.');
  });

  it('refuses an overlapping departure (the exclusion constraint), naming the one in the way', async () => {
    const boat = (await slotOf(offers.boat, day(0))).id;
    const res = await assign(boat, ids.anna);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ type: 'client_error', errors: [{ code: 'conflict', attr: 'guide', detail: `Anna Berg already guides “Old town walk” on ${day(0)} at 10:00, which overlaps this one.` }] });
    const panel = ZDepartureGuides.parse((await owner.get(`/api/start-times/${boat}/guides/`)).json());
    // Anna overlaps, Ben is off: Aaron is the one who could take it.
    expect(panel.available.map((g) => g.name)).toEqual(['Aaron Alp']);
  });

  it('refuses a guide on a day off, and a member who does not guide', async () => {
    const bike = (await slotOf(offers.bike, day(1))).id;
    const off = await assign(bike, ids.ben);
    expect(off.statusCode).toBe(409);
    expect(off.json().errors[0].detail).toBe(`Ben Ode is off on ${day(1)} (a day off from ${day(0)} to ${day(1)}): choose another guide or remove the day off.`);
    const me = (await owner.get('/api/users/me/')).json().id as string;
    const notGuide = await assign(bike, me);
    expect(notGuide.statusCode).toBe(400);
    expect(notGuide.json().errors[0]).toMatchObject({ attr: 'guide' });
  });
});

describe('a departure that needs a guide per 4 guests', () => {
  let bike: string;
  const sell = (seats: number) =>
    owner.post('/api/orders/', { customer: { email: `g${seats}@example.com`, first_name: 'Gina', last_name: 'Guest' }, lines: [{ slot: bike, quantities: { [offers.bike.category]: seats } }] });
  const remaining = async () => (await slotOf(offers.bike, day(2))).remaining;

  it('sells nothing without a guide, then only what its guides can take', async () => {
    expect((await owner.patch(`/api/experiences/${offers.bike.id}/`, { guests_per_guide: 4 })).statusCode).toBe(200);
    bike = (await slotOf(offers.bike, day(2))).id;
    expect(await remaining()).toBe(0);
    expect((await sell(1)).statusCode).toBe(409);
    expect((await assign(bike, ids.anna)).statusCode).toBe(200);
    expect(await remaining()).toBe(4);
    // A hold (the cart: tourdesk_hold_many) stops at the guides' seats by the same rule, and says what is left.
    const held = await owner.post('/api/cart/lines/', { slot: bike, quantities: { [offers.bike.category]: 5 } });
    expect(held.statusCode, held.body).toBe(409);
    expect(held.json().errors[0].detail).toBe('Sold out: only 4 seats left in this time slot.');
    const five = await sell(5);
    expect(five.statusCode, five.body).toBe(409);
    expect(five.json().errors[0].code).toBe('sold_out');
    expect((await sell(3)).statusCode).toBe(201);
    expect(await remaining()).toBe(1);
  });

  it('refuses to take away a guide the bookings need, saying what is in the way', async () => {
    const res = await owner.delete(`/api/start-times/${bike}/guides/${ids.anna}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0].detail).toBe('3 seats are booked or held on this departure, and at one guide per 4 guests no guide would be left: assign another guide first, or move or cancel bookings.');
    // The database refuses it too, whoever writes.
    const refused = await t.database.asOwner((tx) => tx.execute(sql`delete from guide_assignment where slot_id = ${bike}::uuid`)).catch((e: unknown) => e);
    expect(pgError(refused)).toMatchObject({ code: '23514' });
    expect(pgError(refused)!.message).toContain('slot_seats_check');
    // A second guide: 8 seats (the capacity), and now either may go.
    const two = ZDepartureGuides.parse((await assign(bike, ids.aaron)).json());
    expect(two).toMatchObject({ guests_per_guide: 4, guide_seats: 8, booked: 3 });
    expect(await remaining()).toBe(5);
    const one: TDepartureGuides = ZDepartureGuides.parse((await owner.delete(`/api/start-times/${bike}/guides/${ids.anna}/`)).json());
    expect(one.guides.map((g) => g.name)).toEqual(['Aaron Alp']);
    expect(await remaining()).toBe(1);
  });

  it('refuses a rule that its sold departures’ guides could not take', async () => {
    const res = await owner.patch(`/api/experiences/${offers.bike.id}/`, { guests_per_guide: 2 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ attr: 'guests_per_guide' });
    expect(res.json().errors[0].detail).toContain('3 seats booked or held');
  });

  it('lets a guide go when what they were needed for is only holds that have expired (not swept yet)', async () => {
    const later = (await slotOf(offers.bike, day(6))).id;
    expect((await assign(later, ids.anna)).statusCode).toBe(200);
    const held = await owner.post('/api/cart/lines/', { slot: later, quantities: { [offers.bike.category]: 4 } });
    expect(held.statusCode, held.body).toBe(201);
    // A live hold needs Anna.
    const needed = await owner.delete(`/api/start-times/${later}/guides/${ids.anna}/`);
    expect(needed.statusCode).toBe(409);
    expect(needed.json().errors[0].detail).toContain('4 seats are booked or held');
    // Expired, still counted in slot.held until a sweep: its seats are free, and Anna may go.
    await t.database.asOwner((tx) => tx.execute(sql`update cart_line set expires_at = now() - interval '1 second' where slot_id = ${later}::uuid`));
    const gone = await owner.delete(`/api/start-times/${later}/guides/${ids.anna}/`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(ZDepartureGuides.parse(gone.json())).toMatchObject({ guides: [], guide_seats: 0, held: 0 });
  });
});

describe('assigning automatically', () => {
  it('gives each departure the free guide with the fewest hours that week, skipping days off and overlaps', async () => {
    // Day 3: Anna already guides the bike tour (2 hours); Aaron is off.
    const bike = (await slotOf(offers.bike, day(3))).id;
    expect((await assign(bike, ids.anna)).statusCode).toBe(200);
    const res = await owner.post('/api/guides/auto-assign/', { from: day(3), to: day(3) });
    expect(res.statusCode, res.body).toBe(200);
    const done = ZAutoAssignResult.parse(res.json());
    // The walk (10:00) goes to Ben (0 hours; Aaron, first by name, is off); the boat (11:00)
    // overlaps Ben's walk, so Anna takes it. By name alone, Anna would have had the walk.
    expect(done.assigned.map((a) => [a.experience_title, a.guide.name])).toEqual([
      ['Old town walk', 'Ben Ode'],
      ['Lake boat', 'Anna Berg'],
    ]);
    expect(done.unstaffed).toEqual([]);
    // Again: nothing left to give.
    expect(ZAutoAssignResult.parse((await owner.post('/api/guides/auto-assign/', { from: day(3), to: day(3) })).json()).assigned).toEqual([]);
    expect((await owner.post('/api/guides/auto-assign/', { from: day(0), to: day(20) })).statusCode).toBe(400);
  });
});

describe('my departures', () => {
  it('shows a guide their departures, each with its manifest', async () => {
    const res = await anna.get(`/api/guides/me/departures/?from=${day(0)}&to=${day(3)}`);
    expect(res.statusCode, res.body).toBe(200);
    const mine = ZMyDepartures.parse(res.json());
    expect(mine.guides).toBe(true);
    expect(mine.departures.map((d) => [d.local_date, d.experience_title])).toEqual([
      [day(0), 'Old town walk'],
      [day(3), 'Lake boat'],
      [day(3), 'Bike tour'],
    ]);
    expect(mine.departures.every((d) => d.guides.some((g) => g.id === ids.anna))).toBe(true);
    const owners = ZMyDepartures.parse((await owner.get(`/api/guides/me/departures/?from=${day(0)}&to=${day(3)}`)).json());
    expect(owners).toEqual({ guides: false, departures: [] });
  });
});

describe('a departure whose times change', () => {
  // The assignment keeps a copy of its departure's window for the exclusion constraint; the trigger
  // slot_guide_times (migration 0069) moves it with the departure. Without it, the longer paddle is
  // saved and Aaron guides two departures at once (the first expectation fails with a 200).
  it('moves its guides with it, and refuses new times that would put a guide on two departures at once', async () => {
    const dawn = await offer('Dawn paddle', '07:00', 60);
    const ride = await offer('Early ride', '08:30', 60);
    const dawnSlot = (await slotOf(dawn, day(9))).id;
    const rideSlot = (await slotOf(ride, day(9))).id;
    expect((await assign(dawnSlot, ids.aaron)).statusCode).toBe(200);
    expect((await assign(rideSlot, ids.aaron)).statusCode).toBe(200);
    const windowOf = async () =>
      ((await t.database.db.execute(sql`select to_char(ends_at at time zone 'Europe/Zurich', 'HH24:MI') as ends from guide_assignment where slot_id = ${dawnSlot}`)) as unknown as { rows: { ends: string }[] }).rows;
    // Two hours: 07:00–09:00 would overlap the ride at 08:30.
    expect((await owner.patch(`/api/experiences/${dawn.id}/`, { duration_minutes: 120 })).statusCode).toBe(200);
    const rule = { experience: dawn.id, valid_from: todayIn(ZONE), valid_to: day(10), start_times: ['07:00'], capacity: 9 };
    const refused = await owner.put(`/api/schedule-rules/${dawn.rule}/`, rule);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().errors[0]).toMatchObject({ code: 'conflict', detail: `Aaron Alp guides “Early ride” at 08:30 on ${day(9)}, which the departure at 07:00 on ${day(9)} would overlap with its new times: give one of them another guide first.` });
    expect(await windowOf()).toEqual([{ ends: '08:00' }]);
    // Eighty minutes fit: the assignment follows the departure to 08:20.
    expect((await owner.patch(`/api/experiences/${dawn.id}/`, { duration_minutes: 80 })).statusCode).toBe(200);
    const saved = await owner.put(`/api/schedule-rules/${dawn.rule}/`, rule);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await windowOf()).toEqual([{ ends: '08:20' }]);
  });
});

describe('one guide, two overlapping departures at the same moment', () => {
  it('lets exactly one assignment win; with the constraint dropped, both do', async () => {
    const race = async (date: string) => {
      const [walk, boat] = [(await slotOf(offers.walk, date)).id, (await slotOf(offers.boat, date)).id];
      const answers = await Promise.all([assign(walk, ids.anna), assign(boat, ids.anna)]);
      return answers.map((r) => r.statusCode).sort();
    };
    expect(await race(day(4))).toEqual([200, 409]);
    // Without the constraint nothing else stops it: the protection is the constraint.
    await t.database.asOwner((tx) => tx.execute(sql`alter table guide_assignment drop constraint guide_assignment_no_overlap`));
    expect(await race(day(5))).toEqual([200, 200]);
  });
});
