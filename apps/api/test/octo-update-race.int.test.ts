import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * OCTO: changing a reservation's unit items while the partner cancels it at the same moment
 * (issue 28). The change holds the new units first, then, in its own transaction, finds the booking
 * no longer ON_HOLD and refuses. The new hold must go too: released inside the refused
 * transaction, its release was rolled back with it and the seats stayed held until the hold ran out.
 * The cancel is sent while the change's new hold is being made (the hold queue's `hold`, wrapped
 * here), which is the moment a partner's second request can arrive. (A confirm at that moment
 * deletes the reservation's cart, and the new line with it.)
 */

const ZONE = 'Europe/Zurich';
let t: TestApp;
let sink: MailSink;
let tour: { id: string; category: string };
let octo: ReturnType<typeof partnerClient>;
const B = '/octo/v1';

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  const owner: Browser = await createOrganisation(t.app, sink, { subdomain: 'octorace', currency: 'EUR', time_zone: ZONE });
  await createOrganisation(t.app, sink, { subdomain: 'octoraceagency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Race tour');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  const partner = await makePartnership(t.database, { supplier: 'octorace', reseller: 'octoraceagency', offers: [tour.id] });
  octo = partnerClient(t.app, partner.key);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const seatsOf = async (slotId: string) =>
  ((await t.database.asOwner((tx) => tx.execute(sql`select booked, held from slot where id = ${slotId}`))) as unknown as { rows: { booked: number; held: number }[] }).rows[0]!;

describe('OCTO: a unit-item change that loses to a cancellation', () => {
  it('is refused and leaves no hold behind', async () => {
    const day = addDays(todayIn(ZONE), 4);
    const [slot] = (await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day, localDateEnd: day })).json() as { id: string }[];
    const uuid = randomUUID();
    const held = await octo.post(`${B}/bookings`, { uuid, productId: tour.id, optionId: 'DEFAULT', availabilityId: slot!.id, unitItems: [{ unitId: tour.category }, { unitId: tour.category }] });
    expect(held.statusCode, held.body).toBe(200);
    expect(await seatsOf(slot!.id)).toMatchObject({ booked: 0, held: 2 });

    // While the change's new hold (3 seats) is made, the partner's cancellation of the booking goes through.
    const queue = t.app.holds;
    const real = queue.hold.bind(queue);
    let cancelled: { statusCode: number; body: string } | undefined;
    queue.hold = async (...args) => {
      const line = await real(...args);
      cancelled = await octo.post(`${B}/bookings/${uuid}/cancel`, { reason: 'Plans changed' });
      return line;
    };
    let changed;
    try {
      changed = await octo.patch(`${B}/bookings/${uuid}`, { unitItems: [{ unitId: tour.category }, { unitId: tour.category }, { unitId: tour.category }] });
    } finally {
      queue.hold = real;
    }
    expect(cancelled?.statusCode, cancelled?.body).toBe(200);
    expect(changed.statusCode, changed.body).toBe(400);
    expect(changed.json()).toMatchObject({ error: 'BAD_REQUEST' });
    // Nothing is booked, and the change's three seats are not held any more.
    expect(await seatsOf(slot!.id)).toMatchObject({ booked: 0, held: 0 });
  });
});
