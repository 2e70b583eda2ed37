import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDashboard, ZOnboarding, type TDashboard } from '@tourdesk/contracts';
import { systemNotification } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * The dashboard: today's departures with their seats and arrivals, the nearly full ones of the next
 * days, revenue of today, 7 and 30 days, orders owing money and refunds due, and the onboarding
 * checklist from what is set up — each part for a role that may see it, and only its organisation's.
 */

/** A zone where it is not yet 21:00, so that a departure at 23:00 today is still ahead. */
const ZONE = ['Pacific/Kiritimati', 'Asia/Tokyo', 'Europe/Zurich', 'America/New_York', 'Pacific/Honolulu', 'Pacific/Pago_Pago'].find(
  (zone) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date())) < 21,
)!;

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guide: Browser;
let other: Browser;
let exp: { id: string; category: string; rule: string };
let today: string;
let tonight: string;
let tomorrow: string;
const get = async (who: Browser) => {
  const res = await who.get('/api/dashboard/');
  expect(res.statusCode, res.body).toBe(200);
  return ZDashboard.parse(res.json());
};
const sell = async (slot: string, n: number, email: string) => {
  const res = await owner.post('/api/orders/', { customer: { email, first_name: 'Dana', last_name: 'Board' }, lines: [{ slot, quantities: { [exp.category]: n } }] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; total: number; bookings: { id: string; ticket_code: string }[] };
};

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'board', currency: 'CHF', time_zone: ZONE });
  other = await createOrganisation(t.app, sink, { subdomain: 'elsewhere', currency: 'CHF', time_zone: ZONE });
  const viewOnly = (await owner.post('/api/roles/', { name: 'Guide', permission_sets: ['view_experiences'] })).json().id;
  guide = (await inviteMember(t.app, sink, owner, 'board', 'guide@board.test', viewOnly)).member;
  exp = await sellableExperience(owner, 'Night walk');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
  await owner.delete(`/api/schedule-rules/${exp.rule}/`);
  today = todayIn(ZONE);
  tomorrow = addDays(today, 1);
  expect((await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: today, start_times: ['23:00'], capacity: 10 })).statusCode).toBe(201);
  tonight = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${today}`)).json()[0].id;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('the dashboard', () => {
  let first: { id: string; total: number; bookings: { id: string; ticket_code: string }[] };

  it('shows today’s departures with seats booked and checked in', async () => {
    first = await sell(tonight, 3, 'dora@example.com');
    await sell(tonight, 2, 'emil@example.com');
    expect((await owner.post('/api/bookings/check-in/', { ticket_code: first.bookings[0]!.ticket_code })).statusCode).toBe(200);
    const d = await get(owner);
    expect(d).toMatchObject({ date: today, time_zone: ZONE, currency: 'CHF' });
    expect(d.departures).toEqual([expect.objectContaining({ slot: tonight, experience_title: 'Night walk', local_time: '23:00', capacity: 10, booked: 5, remaining: 5, arrived: 3 })]);
  });

  it('counts revenue sold today, in 7 and in 30 days, day by day', async () => {
    const d = await get(owner);
    const sold = 5 * 4900;
    expect(d.revenue).toMatchObject({ today: sold, last_7_days: sold, last_30_days: sold });
    expect(d.revenue!.days).toHaveLength(30);
    expect(d.revenue!.days.at(-1)).toEqual({ date: today, revenue: sold, orders: 2 });
  });

  it('lists the nearly full departures of the next days, from the one definition of seats left', async () => {
    const slot = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${tomorrow}`)).json()[0];
    expect((await get(owner)).nearly_full).toEqual([]);
    await sell(slot.id, 8, 'full@example.com');
    const d = await get(owner);
    expect(d.nearly_full).toEqual([expect.objectContaining({ slot: slot.id, local_date: tomorrow, remaining: 2, status: 'limited' })]);
  });

  it('counts orders that owe money and refunds due, by their payment status', async () => {
    let d = await get(owner);
    expect(d.money_due).toEqual({ unpaid_orders: 3, unpaid_amount: 13 * 4900, refunds_due: 0, refunds_amount: 0 });
    // The first order is paid, then cancelled: its money is to be given back.
    expect((await owner.post(`/api/orders/${first.id}/payments/`, { amount: first.total, currency: 'CHF', method: 'cash' })).statusCode).toBe(201);
    expect((await owner.post(`/api/orders/${first.id}/cancel/`)).statusCode).toBe(200);
    d = await get(owner);
    expect(d.money_due).toEqual({ unpaid_orders: 2, unpaid_amount: 10 * 4900, refunds_due: 1, refunds_amount: first.total });
    expect(d.revenue!.today).toBe(2 * 4900 + 8 * 4900);
  });

  it('shows a guide the departures only, and another organisation none of this one’s', async () => {
    const g: TDashboard = await get(guide);
    expect(g.departures?.map((x) => x.slot)).toEqual([tonight]);
    expect(g).toMatchObject({ revenue: null, money_due: null, onboarding: null });
    const o = await get(other);
    expect(o.departures).toEqual([]);
    expect(o.revenue).toMatchObject({ today: 0, last_30_days: 0 });
    expect(o.money_due).toEqual({ unpaid_orders: 0, unpaid_amount: 0, refunds_due: 0, refunds_amount: 0 });
  });
});

describe('the onboarding checklist', () => {
  it('says what is set up, from the organisation’s real state', async () => {
    const steps = (await get(owner)).onboarding!.steps;
    expect(Object.fromEntries(steps.map((s) => [s.key, s.done]))).toEqual({ offer: true, schedule: true, prices: true, payments: false, store: false, team: true });
    const fresh = (await get(other)).onboarding!;
    expect(fresh).toMatchObject({ dismissed: false, done: 0 });
    expect((await other.get('/api/onboarding-steps/')).json()).toHaveLength(6);
    expect((await other.post('/api/stores/', { name: 'Shop', slug: 'shop' })).statusCode).toBe(201);
    expect(ZOnboarding.parse((await other.get('/api/onboardings/getting-started/')).json()).steps.find((s) => s.key === 'store')?.done).toBe(true);
  });

  it('is put away and brought back by the organisation; a guide may not', async () => {
    const off = await owner.patch('/api/onboardings/getting-started/', { dismissed: true });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().dismissed).toBe(true);
    expect((await get(owner)).onboarding?.dismissed).toBe(true);
    expect((await get(other)).onboarding?.dismissed).toBe(false);
    expect((await guide.patch('/api/onboardings/getting-started/', { dismissed: false })).statusCode).toBe(403);
    expect((await owner.patch('/api/onboardings/other/', { dismissed: false })).statusCode).toBe(400);
    expect((await owner.patch('/api/onboardings/getting-started/', { dismissed: 'no' })).statusCode).toBe(400);
    expect((await owner.patch('/api/onboardings/getting-started/', { dismissed: false })).json().dismissed).toBe(false);
    expect((await owner.get('/api/onboardings/')).json()).toHaveLength(1);
  });
});

describe('the bell', () => {
  it('counts the announcements a user has not opened yet, each user for themselves', async () => {
    await t.database.db.insert(systemNotification).values({ title: 'New: dashboards', body: 'Your day at a glance.', level: 'info' });
    const before = (await owner.get('/api/system-notifications/unread/')).json();
    expect(before.unread).toBeGreaterThanOrEqual(1);
    expect((await owner.post('/api/system-notifications/seen/')).statusCode).toBe(204);
    expect((await owner.get('/api/system-notifications/unread/')).json()).toMatchObject({ unread: 0, seen_at: expect.any(String) });
    // The guide has not opened them: still counted for them.
    expect((await guide.get('/api/system-notifications/unread/')).json().unread).toBe(before.unread);
    // One published later counts again; one scheduled for tomorrow does not yet.
    await t.database.db.insert(systemNotification).values([
      { title: 'Later', body: 'x', level: 'warning', published_at: new Date(Date.now() + 1000) },
      { title: 'Tomorrow', body: 'y', level: 'info', published_at: new Date(Date.now() + 86_400_000) },
    ]);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await owner.get('/api/system-notifications/unread/')).json().unread).toBe(1);
  });
});
