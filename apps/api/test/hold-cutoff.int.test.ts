import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * A hold never outlives its departure's cut-off (issue 28). The departure here starts 70 to 75
 * minutes from now and its offer stops selling 65 minutes before a start, so it is on sale for 5 to
 * 10 more minutes — less than a hold's 15. A counter hold, a line written straight into the
 * database, an OCTO reservation and OCTO's extend asked again and again all end when the sale does.
 */

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let tour: { id: string; category: string };
let slotId: string;
/** When the departure stops being on sale: its start minus the cut-off. */
let until: number;
const CUTOFF = 65;

const linesUntil = async () =>
  (await t.database.asOwner((tx) => tx.execute(sql`select (extract(epoch from expires_at) * 1000)::float8 as until from cart_line where slot_id = ${slotId}`))) as unknown as { rows: { until: number }[] };

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'cutoff', currency: 'EUR', time_zone: 'UTC' });
  await createOrganisation(t.app, sink, { subdomain: 'cutoffagency', kind: 'affiliate', currency: 'EUR', time_zone: 'UTC' });
  const exp = await sellableExperience(owner, 'Late kayak');
  tour = exp;
  // A departure 70 to 75 minutes from now (UTC is the organisation's zone), on the day it falls.
  const start = new Date(Math.floor((Date.now() + 75 * 60_000) / 300_000) * 300_000);
  const [date, time] = [start.toISOString().slice(0, 10), start.toISOString().slice(11, 16)];
  await owner.delete(`/api/schedule-rules/${exp.rule}/`);
  expect((await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: new Date().toISOString().slice(0, 10), start_times: [time], capacity: 10 })).statusCode).toBe(201);
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active', booking_cutoff_minutes: CUTOFF })).statusCode).toBe(200);
  const slots = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${date}`)).json() as { id: string; starts_at: string }[];
  expect(slots).toHaveLength(1);
  slotId = slots[0]!.id;
  until = start.getTime() - CUTOFF * 60_000;
  expect(until).toBeGreaterThan(Date.now());
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('a hold ends when its departure stops being on sale', () => {
  it('cuts a counter hold, and any later write of its expiry, at the departure’s cut-off', async () => {
    const held = await owner.post('/api/cart/lines/', { slot: slotId, quantities: { [tour.category]: 2 } });
    expect(held.statusCode, held.body).toBe(201);
    // A hold is 15 minutes; this departure's sale ends sooner.
    const line = (await owner.get('/api/cart/')).json().lines[0];
    expect(Date.parse(line.expires_at)).toBeLessThanOrEqual(until);
    // Whoever writes the line — here the database's owner — cannot stretch it past the cut-off.
    await t.database.asOwner((tx) => tx.execute(sql`update cart_line set expires_at = now() + interval '1 day' where slot_id = ${slotId}`));
    for (const row of (await linesUntil()).rows) expect(row.until).toBeLessThanOrEqual(until);
    await owner.delete(`/api/cart/lines/${line.id}/`);
  });

  it('never lets OCTO’s extend hold a reservation past the cut-off, however often it is asked', async () => {
    const partner = await makePartnership(t.database, { supplier: 'cutoff', reseller: 'cutoffagency', offers: [tour.id] });
    const octo = partnerClient(t.app, partner.key);
    const uuid = randomUUID();
    const reserved = await octo.post('/octo/v1/bookings', { uuid, productId: tour.id, optionId: 'DEFAULT', availabilityId: (await octo.post('/octo/v1/availability', { productId: tour.id, optionId: 'DEFAULT', localDateStart: new Date(until).toISOString().slice(0, 10), localDateEnd: new Date(until + CUTOFF * 60_000).toISOString().slice(0, 10) })).json()[0].id, unitItems: [{ unitId: tour.category }] });
    expect(reserved.statusCode, reserved.body).toBe(200);
    expect(Date.parse(reserved.json().utcExpiresAt)).toBeLessThanOrEqual(until);
    for (let i = 0; i < 3; i++) {
      const extended = await octo.post(`/octo/v1/bookings/${uuid}/extend`, { expirationMinutes: 60 });
      expect(extended.statusCode, extended.body).toBe(200);
      expect(Date.parse(extended.json().utcExpiresAt)).toBeLessThanOrEqual(until);
    }
    for (const row of (await linesUntil()).rows) expect(row.until).toBeLessThanOrEqual(until);
  });

  it('ends the holds already made when the offer’s cut-off, or the organisation’s, is raised past them', async () => {
    const live = async () =>
      ((await t.database.asOwner((tx) => tx.execute(sql`select count(*)::int as n from cart_line where slot_id = ${slotId} and expires_at > now()`))) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    // A cut-off 10 minutes longer than the time left before the start: the departure's sale has ended.
    const past = Math.ceil((until + CUTOFF * 60_000 - Date.now()) / 60_000) + 10;
    const raise: [string, (minutes: number) => Promise<{ statusCode: number }>][] = [
      ['the offer’s', (minutes) => owner.patch(`/api/experiences/${tour.id}/`, { booking_cutoff_minutes: minutes || CUTOFF })],
      // With the offer's own cut-off at none, the organisation's default decides (two pages set it).
      ['the product configuration’s', (minutes) => owner.patch('/api/product-configuration/', { booking_cutoff_minutes: minutes })],
      ['the booking settings’', (minutes) => owner.patch('/api/bookings/config/', { default_cutoff_minutes: minutes })],
    ];
    for (const [whose, set] of raise) {
      const held = await owner.post('/api/cart/lines/', { slot: slotId, quantities: { [tour.category]: 1 } });
      expect(held.statusCode, held.body).toBe(201);
      expect(await live()).toBeGreaterThan(0);
      expect((await set(past)).statusCode).toBe(200);
      expect(await live(), `a hold live past ${whose} new cut-off`).toBe(0);
      expect((await set(0)).statusCode).toBe(200);
      for (const line of (await owner.get('/api/cart/')).json().lines) await owner.delete(`/api/cart/lines/${line.id}/`);
      if (whose === 'the offer’s') expect((await owner.patch(`/api/experiences/${tour.id}/`, { booking_cutoff_minutes: 0 })).statusCode).toBe(200);
    }
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { booking_cutoff_minutes: CUTOFF })).statusCode).toBe(200);
  });
});
