import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZInventoryItem, ZPoolDay, ZPoolUsage } from '@tourdesk/contracts';
import { pgError } from '../src/lib/db-errors';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Resource pools (issue 34): two kayak offers share one pool of kayaks (one per adult, none per
 * infant), a wetsuit rented as an extra takes from a wetsuit pool; the pool's buffer after use
 * makes a departure's window reach into the next one. Seats left are the least of the departure's
 * own and what its pools have free; holds, counter sales and checkouts take from the pools and a
 * cancellation gives back; the stock or a buffer cannot change under what is booked or held, nor
 * an offer's usage grow past it; the database refuses overuse whoever writes; another organisation
 * sees nothing.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
const ZONE = 'Europe/Zurich';
const DATE = addDays(todayIn(ZONE), 4);
const offers: Record<'sunrise' | 'sunset', { id: string; category: string }> = {} as never;
let infant: string;
let kayaks: string;
let wetsuits: string;
let wetsuit: string;
const slots: Record<'sunrise' | 'sunset', string> = {} as never;
const customer = { email: 'paddler@example.com', first_name: 'Pia', last_name: 'Paddle' };

async function offer(title: string, time: string) {
  const o = await sellableExperience(owner, title);
  expect((await owner.patch(`/api/experiences/${o.id}/`, { duration_minutes: 120, status: 'Active' })).statusCode).toBe(200);
  expect((await owner.delete(`/api/schedule-rules/${o.rule}/`)).statusCode).toBe(200);
  const rule = await owner.post('/api/schedule-rules/', { experience: o.id, valid_from: todayIn(ZONE), valid_to: addDays(DATE, 2), start_times: [time], capacity: 8 });
  expect(rule.statusCode, rule.body).toBe(201);
  return o;
}
async function slot(o: { id: string }, date = DATE) {
  const found = (await owner.get(`/api/bookings/check-availability/?experience=${o.id}&date=${date}`)).json() as { id: string; remaining: number; status: string }[];
  expect(found).toHaveLength(1);
  return found[0]!;
}
const remaining = async () => ({ sunrise: (await slot(offers.sunrise)).remaining, sunset: (await slot(offers.sunset)).remaining });
const hold = (which: 'sunrise' | 'sunset', adults: number, more: { infants?: number; wetsuits?: number } = {}) =>
  owner.post('/api/cart/lines/', {
    slot: slots[which],
    quantities: { [offers[which].category]: adults, ...(more.infants ? { [infant]: more.infants } : {}) },
    ...(more.wetsuits ? { extras: { [wetsuit]: more.wetsuits } } : {}),
  });
const errorOf = (res: { json(): { errors: { code: string; detail: string; attr?: string }[] } }) => res.json().errors[0]!;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'paddles', currency: 'CHF', time_zone: ZONE });
  other = await createOrganisation(t.app, sink, { subdomain: 'elsewhere' });
  // Sunrise 07:00–09:00, sunset 09:15–11:15: apart, until the kayaks' 30 minutes to dry.
  offers.sunrise = await offer('Sunrise kayak', '07:00');
  offers.sunset = await offer('Sunset kayak', '09:15');
  infant = (await owner.post('/api/pricing-categories/', { type: 'Infant', label: 'Infant' })).json().id;
  expect((await owner.post('/api/pricing-rates/', { experience: offers.sunrise.id, pricing_category: infant, retail_price: 0 })).statusCode).toBe(201);
  const k = await owner.post('/api/inventory-items/', { type: 'Equipment', name: 'Kayaks', price: 0, stock: 4, buffer_after_minutes: 30 });
  expect(k.statusCode, k.body).toBe(201);
  kayaks = k.json().id;
  wetsuits = (await owner.post('/api/inventory-items/', { type: 'Equipment', name: 'Wetsuits', price: 0, stock: 2 })).json().id;
  wetsuit = (await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Wetsuit rental', price: 800 })).json().id;
  expect((await owner.patch(`/api/experiences/${offers.sunrise.id}/`, { extras: [wetsuit] })).statusCode).toBe(200);
  slots.sunrise = (await slot(offers.sunrise)).id;
  slots.sunset = (await slot(offers.sunset)).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('pools and an offer’s usage', () => {
  it('keeps a pool’s buffers on its inventory item', async () => {
    const item = ZInventoryItem.parse((await owner.get(`/api/inventory-items/${kayaks}/`)).json());
    expect(item).toMatchObject({ type: 'Equipment', stock: 4, buffer_before_minutes: 0, buffer_after_minutes: 30 });
    const bad = await owner.patch(`/api/inventory-items/${kayaks}/`, { buffer_before_minutes: -5 });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toMatchObject({ attr: 'buffer_before_minutes', detail: 'A buffer cannot be negative.' });
  });

  it('says what a booking takes: per seat of a category, per extra; refuses what is not a pool', async () => {
    expect(ZPoolUsage.parse((await owner.get(`/api/experiences/${offers.sunrise.id}/pools/`)).json())).toEqual({ experience: offers.sunrise.id, rules: [] });
    const notPool = await owner.put(`/api/experiences/${offers.sunrise.id}/pools/`, { rules: [{ pool: wetsuit, per: 'booking', units: 1 }] });
    expect(notPool.statusCode).toBe(400);
    expect(errorOf(notPool)).toMatchObject({ attr: 'rules.0.pool', detail: 'Rule 1: Wetsuit rental is not a pool (an Equipment item with a stock).' });
    const noCategory = await owner.put(`/api/experiences/${offers.sunrise.id}/pools/`, { rules: [{ pool: kayaks, per: 'seat', units: 1 }] });
    expect(noCategory.statusCode).toBe(400);
    expect(errorOf(noCategory).detail).toBe('Per seat: choose the pricing category.');
    const set = await owner.put(`/api/experiences/${offers.sunrise.id}/pools/`, {
      rules: [
        { pool: kayaks, per: 'seat', pricing_category: offers.sunrise.category, units: 1 },
        { pool: wetsuits, per: 'extra', extra: wetsuit, units: 1 },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(ZPoolUsage.parse(set.json()).rules.map((r) => [r.pool.name, r.per, r.units])).toEqual([
      ['Kayaks', 'seat', 1],
      ['Wetsuits', 'extra', 1],
    ]);
    expect((await owner.put(`/api/experiences/${offers.sunset.id}/pools/`, { rules: [{ pool: kayaks, per: 'seat', pricing_category: offers.sunset.category, units: 1 }] })).statusCode).toBe(200);
    // Seats left: the least of the departure's own 8 and the 4 kayaks.
    expect(await remaining()).toEqual({ sunrise: 4, sunset: 4 });
    // A pool an offer uses cannot be deleted.
    const del = await owner.delete(`/api/inventory-items/${kayaks}/`);
    expect(del.statusCode).toBe(409);
    expect(errorOf(del).detail).toBe('Sunrise kayak, Sunset kayak take from this pool. Remove it from their resources first.');
  });
});

describe('holds and sales take from the pool, across offers', () => {
  it('shares the kayaks between the two offers over the buffer, infants take none', async () => {
    const a = await hold('sunrise', 3, { infants: 2 });
    expect(a.statusCode, a.body).toBe(201);
    // The sunrise window runs to 09:30 with the kayaks' buffer: the sunset departure has 1 kayak left.
    expect(await remaining()).toEqual({ sunrise: 1, sunset: 1 });
    const b = await hold('sunset', 2);
    expect(b.statusCode).toBe(409);
    expect(errorOf(b)).toMatchObject({ code: 'sold_out', detail: 'Sold out: not enough Kayaks left for this time slot.' });
    const c = await hold('sunset', 1);
    expect(c.statusCode, c.body).toBe(201);
    expect(await remaining()).toEqual({ sunrise: 0, sunset: 0 });
    expect((await slot(offers.sunset)).status).toBe('sold_out');
    // Without the buffer the two departures no longer meet: each has what the other leaves.
    expect((await owner.patch(`/api/inventory-items/${kayaks}/`, { buffer_after_minutes: 0 })).statusCode).toBe(200);
    expect(await remaining()).toEqual({ sunrise: 1, sunset: 3 });
    // Back to 30 minutes: 4 kayaks are in use around 09:15, as many as there are.
    expect((await owner.patch(`/api/inventory-items/${kayaks}/`, { buffer_after_minutes: 30 })).statusCode).toBe(200);
    const more = await hold('sunset', 1);
    expect(more.statusCode).toBe(409);
    // Changing a line checks the pool as well (tourdesk_hold), its own kayaks counted as free.
    const grow = await owner.patch(`/api/cart/lines/${a.json().id}/`, { quantities: { [offers.sunrise.category]: 4 } });
    expect(grow.statusCode).toBe(409);
    expect(errorOf(grow).detail).toBe('Sold out: not enough Kayaks left for this time slot.');
    const shrink = await owner.patch(`/api/cart/lines/${a.json().id}/`, { quantities: { [offers.sunrise.category]: 2 } });
    expect(shrink.statusCode, shrink.body).toBe(200);
    expect(await remaining()).toEqual({ sunrise: 1, sunset: 1 });
    await owner.delete(`/api/cart/lines/${a.json().id}/`);
    await owner.delete(`/api/cart/lines/${c.json().id}/`);
    expect(await remaining()).toEqual({ sunrise: 4, sunset: 4 });
  });

  it('takes wetsuits per extra sold, whatever the seats', async () => {
    const three = await hold('sunrise', 1, { wetsuits: 3 });
    expect(three.statusCode).toBe(409);
    expect(errorOf(three).detail).toBe('Sold out: not enough Wetsuits left for this time slot.');
    const two = await hold('sunrise', 1, { wetsuits: 2 });
    expect(two.statusCode, two.body).toBe(201);
    const again = await hold('sunrise', 1, { wetsuits: 1 });
    expect(again.statusCode).toBe(409);
    // Extras limit a hold, not the seats: 3 kayaks are left.
    expect((await remaining()).sunrise).toBe(3);
    // A counter sale checks no seat for extras: the pools' check refuses it when it commits, as a 409.
    const counter = await owner.post('/api/orders/', { customer, lines: [{ slot: slots.sunrise, quantities: { [offers.sunrise.category]: 1 }, extras: { [wetsuit]: 1 } }] });
    expect(counter.statusCode, counter.body).toBe(409);
    expect(errorOf(counter)).toMatchObject({ code: 'sold_out', detail: 'Sold out: not enough Wetsuits (2 in stock) for this time slot.' });
    await owner.delete(`/api/cart/lines/${two.json().id}/`);
  });

  it('books at checkout and at the counter, and gives back what a cancellation frees', async () => {
    const line = await hold('sunrise', 2);
    expect(line.statusCode, line.body).toBe(201);
    const sold = await owner.post('/api/cart/checkout/', { customer, lines: [line.json().id] });
    expect(sold.statusCode, sold.body).toBe(201);
    expect(await remaining()).toEqual({ sunrise: 2, sunset: 2 });
    const counter = await owner.post('/api/orders/', { customer, lines: [{ slot: slots.sunset, quantities: { [offers.sunset.category]: 2 } }] });
    expect(counter.statusCode, counter.body).toBe(201);
    expect(await remaining()).toEqual({ sunrise: 0, sunset: 0 });
    const over = await owner.post('/api/orders/', { customer, lines: [{ slot: slots.sunset, quantities: { [offers.sunset.category]: 1 } }] });
    expect(over.statusCode).toBe(409);
    expect(errorOf(over).code).toBe('sold_out');
    const cancel = await owner.post(`/api/orders/${counter.json().id}/cancel/`, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await remaining()).toEqual({ sunrise: 2, sunset: 2 });
  });
});

describe('what is in the way of a change', () => {
  it('refuses a stock below what is booked or held at some moment, naming the departure', async () => {
    // 2 kayaks are booked on the sunrise departure (the checkout above); 2 more held on the sunset one.
    const held = await hold('sunset', 2);
    expect(held.statusCode, held.body).toBe(201);
    const low = await owner.patch(`/api/inventory-items/${kayaks}/`, { stock: 3 });
    expect(low.statusCode).toBe(409);
    expect(errorOf(low)).toMatchObject({ code: 'sold_out', attr: 'stock' });
    // The first departure in the way: the sunrise one, whose window (to 09:30) meets the sunset's start.
    expect(errorOf(low).detail).toBe(`4 of Kayaks are booked or held around Sunrise kayak on ${DATE} at 07:00: the stock cannot go below that.`);
    // A longer buffer before use would make the windows meet more: refused the same way.
    expect((await owner.patch(`/api/inventory-items/${kayaks}/`, { buffer_after_minutes: 0 })).statusCode).toBe(200);
    expect((await owner.patch(`/api/inventory-items/${kayaks}/`, { stock: 3 })).statusCode).toBe(200);
    const buffer = await owner.patch(`/api/inventory-items/${kayaks}/`, { buffer_after_minutes: 30 });
    expect(buffer.statusCode).toBe(409);
    expect((await owner.patch(`/api/inventory-items/${kayaks}/`, { stock: 4, buffer_after_minutes: 30 })).statusCode).toBe(200);
    await owner.delete(`/api/cart/lines/${held.json().id}/`);
  });

  it('refuses a usage that would put a departure to come over the pool', async () => {
    const res = await owner.put(`/api/experiences/${offers.sunrise.id}/pools/`, { rules: [{ pool: kayaks, per: 'seat', pricing_category: offers.sunrise.category, units: 3 }] });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).detail).toBe(`The departure of ${DATE} at 07:00 would need 2 more Kayaks than the pool has free: lower the usage, raise the stock, or move or cancel bookings first.`);
    // Nothing changed: the rules, and what the booking takes.
    expect(ZPoolUsage.parse((await owner.get(`/api/experiences/${offers.sunrise.id}/pools/`)).json()).rules).toHaveLength(2);
    expect(await remaining()).toEqual({ sunrise: 2, sunset: 2 });
    // One more per booking (a guide's kayak) is fine: it counts the bookings already sold.
    const withGuide = await owner.put(`/api/experiences/${offers.sunrise.id}/pools/`, {
      rules: [
        { pool: kayaks, per: 'seat', pricing_category: offers.sunrise.category, units: 1 },
        { pool: kayaks, per: 'booking', units: 1 },
        { pool: wetsuits, per: 'extra', extra: wetsuit, units: 1 },
      ],
    });
    expect(withGuide.statusCode, withGuide.body).toBe(200);
    // 3 kayaks in use at sunrise (2 + the booking's 1); a new booking takes 1 + 1 per seat: 0 seats.
    expect(await remaining()).toEqual({ sunrise: 0, sunset: 1 });
  });

  it('refuses overuse in the database whoever writes: a booking written past the pool fails at commit', async () => {
    const write = () =>
      t.database.db.execute(sql`update booking set quantities = jsonb_build_object(${offers.sunrise.category}::text, 6), seats = 6 where slot_id = ${slots.sunrise}::uuid and status <> 'Canceled'`);
    const err = await write().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(pgError(err)).toMatchObject({ code: 'TD409' });
    expect(pgError(err)?.message).toBe('Sold out: not enough Kayaks (4 in stock) for this time slot.');
  });
});

describe('the capacity page’s day', () => {
  it('shows each pool’s use over the day and the departures a pool limits', async () => {
    const day = ZPoolDay.parse((await owner.get(`/api/pools/day/?date=${DATE}`)).json());
    expect(day.pools.map((p) => p.name)).toEqual(['Kayaks', 'Wetsuits']);
    const k = day.pools[0]!;
    expect(k).toMatchObject({ stock: 4, buffer_after_minutes: 30 });
    expect(k.departures.map((d) => [d.experience_title, d.used, d.peak])).toEqual([
      ['Sunrise kayak', 3, 3],
      ['Sunset kayak', 0, 3],
    ]);
    const rise = k.departures[0]!;
    expect(new Date(rise.window_to).getTime() - new Date(rise.ends_at).getTime()).toBe(30 * 60_000);
    expect(day.limited.map((l) => l.slot).sort()).toEqual([slots.sunrise, slots.sunset].sort());
    expect(day.limited.find((l) => l.slot === slots.sunset)).toEqual({ slot: slots.sunset, pool_seats: 1, own_seats: 8 });
    expect((await owner.get('/api/pools/day/?date=someday')).statusCode).toBe(400);
  });

  it('shows another organisation nothing', async () => {
    expect((await other.get(`/api/experiences/${offers.sunrise.id}/pools/`)).statusCode).toBe(404);
    expect((await other.put(`/api/experiences/${offers.sunrise.id}/pools/`, { rules: [] })).statusCode).toBe(404);
    expect(ZPoolDay.parse((await other.get(`/api/pools/day/?date=${DATE}`)).json()).pools).toEqual([]);
    const theirs = (await other.post('/api/inventory-items/', { type: 'Equipment', name: 'Boats', price: 0, stock: 2 })).json().id as string;
    const mixed = await owner.put(`/api/experiences/${offers.sunrise.id}/pools/`, { rules: [{ pool: theirs, per: 'booking', units: 1 }] });
    expect(mixed.statusCode).toBe(400);
    expect(errorOf(mixed).detail).toBe('Rule 1: no inventory item with this id.');
  });
});
