import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * Issue 29, "an OCTO booking uuid is unique across all suppliers, so a key can learn whether a uuid
 * is in use elsewhere": a UUID is unique per supplier; a key of one supplier reserving a UUID that
 * another supplier's reservation uses makes its own booking, and neither sees the other's.
 */
const ZONE = 'Europe/Zurich';
const day = (n = 5) => addDays(todayIn(ZONE), n);
const B = '/octo/v1';
let t: TestApp;
let sink: MailSink;
const tours: { id: string; category: string }[] = [];
const keys: ReturnType<typeof partnerClient>[] = [];

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  await createOrganisation(t.app, sink, { subdomain: 'uuagency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
  for (const sub of ['uusupone', 'uusuptwo']) {
    const owner: Browser = await createOrganisation(t.app, sink, { subdomain: sub, currency: 'EUR', time_zone: ZONE });
    const tour = await sellableExperience(owner, `${sub} tour`);
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
    tours.push(tour);
    keys.push(partnerClient(t.app, (await makePartnership(t.database, { supplier: sub, reseller: 'uuagency', offers: [tour.id] })).key));
  }
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function reserve(i: number, uuid: string) {
  const api = keys[i]!;
  const slots = await api.post(`${B}/availability`, { productId: tours[i]!.id, optionId: 'DEFAULT', localDateStart: day(), localDateEnd: day() });
  expect(slots.statusCode, slots.body).toBe(200);
  return api.post(`${B}/bookings`, { uuid, productId: tours[i]!.id, optionId: 'DEFAULT', availabilityId: slots.json()[0].id, unitItems: [{ unitId: tours[i]!.category }] });
}

describe('an OCTO booking UUID is unique per supplier', () => {
  it('a UUID in use at one supplier is free at another: each key makes and reads its own booking', async () => {
    const uuid = randomUUID();
    const first = await reserve(0, uuid);
    expect(first.statusCode, first.body).toBe(200);
    const second = await reserve(1, uuid);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ uuid, productId: tours[1]!.id, status: 'ON_HOLD' });
    expect((await keys[0]!.get(`${B}/bookings/${uuid}`)).json()).toMatchObject({ productId: tours[0]!.id, status: 'ON_HOLD' });
    // Cancelling one supplier's booking leaves the other's as it was.
    expect((await keys[1]!.post(`${B}/bookings/${uuid}/cancel`, { reason: 'test' })).json()).toMatchObject({ status: 'CANCELLED' });
    expect((await keys[0]!.get(`${B}/bookings/${uuid}`)).json()).toMatchObject({ productId: tours[0]!.id, status: 'ON_HOLD' });
    // Within one supplier a UUID is still one booking: the same call again answers it (idempotent).
    expect((await reserve(0, uuid)).json()).toMatchObject({ uuid, productId: tours[0]!.id });
  });
});
