import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZErrorEnvelope, ZPublicAvailability, ZPublicReservation } from '@tourdesk/contracts';
import { addDays, todayIn } from '../src/lib/local-time';
import { seedOctoDemo } from '../src/seed/demo-octo';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * The public booking API (the spec's get-availabilities, reserve, book, cancel-reservation,
 * cancel-booking) for a partner's key: the same service as OCTO in the product's own shape and
 * error envelope. A contract priced by net rates answers the partner's net per unit.
 */
const ZONE = 'Europe/Zurich';
const day = (n = 5) => addDays(todayIn(ZONE), n);
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let tour: { id: string; category: string };
let hidden: { id: string };
let partner: Awaited<ReturnType<typeof makePartnership>>;
let api: ReturnType<typeof partnerClient>;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'pubsupply', currency: 'CHF', time_zone: ZONE });
  await createOrganisation(t.app, sink, { subdomain: 'pubagency', kind: 'affiliate', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Glacier walk');
  hidden = await sellableExperience(owner, 'Not shared');
  const policy = (await owner.post('/api/cancellation-policies/', { name: 'Flexible', rules: [{ hours_before: 24, refund_percent: 100 }] })).json().id;
  await owner.patch(`/api/experiences/${tour.id}/`, { cancellation_policy: policy });
  for (const e of [tour, hidden]) expect((await owner.patch(`/api/experiences/${e.id}/`, { status: 'Active' })).statusCode).toBe(200);
  // Priced by net rates: the partner owes 4000 of the adult's 4900.
  partner = await makePartnership(t.database, { supplier: 'pubsupply', reseller: 'pubagency', offers: [tour.id], pricing: 'net', netRates: { [tour.category]: 4000 }, currency: 'CHF' });
  api = partnerClient(t.app, partner.key);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const envelope = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, body: ZErrorEnvelope.parse(res.json()) });
async function times(n: number) {
  const res = await api.get(`/api/public/get-availabilities/?product=${tour.id}&from=${day(n)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as unknown[]).map((x) => ZPublicAvailability.parse(x));
}

describe('the public booking API', () => {
  it('get-availabilities → reserve → book → cancel-booking, with the partner’s net and the resale in the supplier’s books', async () => {
    const [slot] = await times(5);
    expect(slot).toMatchObject({ status: 'available', seats_left: 8, currency: 'CHF', prices: [{ unit: tour.category, retail: 4900, net: 4000 }] });
    const uuid = randomUUID();
    const held = await api.post('/api/public/reserve/', { uuid, product: tour.id, availability: slot!.id, quantities: { [tour.category]: 2 }, reference: 'PUB-7' });
    expect(held.statusCode, held.body).toBe(201);
    expect(ZPublicReservation.parse(held.json())).toMatchObject({ uuid, status: 'ON_HOLD', total: 9800, net: 8000, reference: 'PUB-7', order_reference: null });
    expect((await times(5))[0]!.seats_left).toBe(6);
    expect((await api.post('/api/public/reserve/', { uuid, product: tour.id, availability: slot!.id, quantities: { [tour.category]: 2 } })).json()).toMatchObject({ uuid, status: 'ON_HOLD' });
    expect((await times(5))[0]!.seats_left).toBe(6);

    const booked = await api.post('/api/public/book/', { uuid, customer: { email: 'walker@example.com', first_name: 'Wanda', last_name: 'Walker' } });
    expect(booked.statusCode, booked.body).toBe(200);
    const b = ZPublicReservation.parse(booked.json());
    expect(b).toMatchObject({ status: 'CONFIRMED', expires_at: null, cancellable: true });
    expect(b.order_reference).toBeTruthy();
    expect(b.ticket_code).toBeTruthy();
    const rows = (await t.database.asOwner((tx) =>
      tx.execute(sql`select o.reseller_reference, b.commission, b.total from orders o join booking b on b.order_id = o.id where o.reference = ${b.order_reference} and o.partnership_id = ${partner.partnershipId}`),
    )) as unknown as { rows: { reseller_reference: string; commission: number; total: number }[] };
    expect(rows.rows).toEqual([{ reseller_reference: 'PUB-7', commission: 1800, total: 9800 }]);

    expect(envelope(await api.post('/api/public/cancel-reservation/', { uuid }))).toMatchObject({ status: 409, body: { errors: [{ code: 'conflict', attr: 'uuid' }] } });
    const cancelled = await api.post('/api/public/cancel-booking/', { uuid, reason: 'Weather' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED' });
    expect((await times(5))[0]!.seats_left).toBe(8);
  });

  it('cancel-reservation gives the seats back', async () => {
    const [slot] = await times(6);
    const held = await api.post('/api/public/reserve/', { product: tour.id, availability: slot!.id, quantities: { [tour.category]: 3 } });
    expect(held.statusCode, held.body).toBe(201);
    const uuid = held.json().uuid as string;
    expect((await times(6))[0]!.seats_left).toBe(5);
    expect(envelope(await api.post('/api/public/cancel-booking/', { uuid }))).toMatchObject({ status: 409 });
    expect((await api.post('/api/public/cancel-reservation/', { uuid })).json()).toMatchObject({ status: 'CANCELLED' });
    expect((await times(6))[0]!.seats_left).toBe(8);
  });

  it('answers refusals in the product’s envelope: no key 401, an offer not shared 404, sold out 409, unknown reservation 404', async () => {
    expect(envelope(await partnerClient(t.app, null).get(`/api/public/get-availabilities/?product=${tour.id}&from=${day()}`))).toMatchObject({ status: 401, body: { errors: [{ code: 'not_authenticated' }] } });
    expect(envelope(await api.get(`/api/public/get-availabilities/?product=${hidden.id}&from=${day()}`))).toMatchObject({ status: 404, body: { errors: [{ attr: 'productId' }] } });
    const [slot] = await times(7);
    expect(envelope(await api.post('/api/public/reserve/', { product: tour.id, availability: slot!.id, quantities: { [tour.category]: 9 } }))).toMatchObject({ status: 409, body: { errors: [{ code: 'sold_out' }] } });
    expect(envelope(await api.post('/api/public/reserve/', { product: tour.id, availability: slot!.id, quantities: {} }))).toMatchObject({ status: 400 });
    expect(envelope(await api.post('/api/public/book/', { uuid: randomUUID(), customer: { email: 'x@example.com', first_name: 'X' } }))).toMatchObject({ status: 404, body: { errors: [{ attr: 'uuid' }] } });
    expect(envelope(await api.get('/api/public/get-availabilities/?product=nope&from=2030-01-01'))).toMatchObject({ status: 400 });
  });

  it('the demo seed gives the partnership with alpine-agency a working key (and nothing without one)', async () => {
    expect(await t.database.db.transaction((tx) => seedOctoDemo(tx, partner.supplierId))).toBeNull();
    await createOrganisation(t.app, sink, { subdomain: 'alpine-agency', kind: 'affiliate', currency: 'CHF', time_zone: ZONE });
    await makePartnership(t.database, { supplier: 'pubsupply', reseller: 'alpine-agency', offers: [tour.id], currency: 'CHF' });
    const secret = await t.database.db.transaction((tx) => seedOctoDemo(tx, partner.supplierId));
    expect(secret).toMatch(/^td_[A-Za-z0-9_-]{43}$/);
    const products = await partnerClient(t.app, secret).get('/octo/v1/products');
    expect(products.statusCode, products.body).toBe(200);
    expect(products.json().map((x: { id: string }) => x.id)).toEqual([tour.id]);
  });

  it('is in the OpenAPI document beside OCTO', async () => {
    const doc = (await t.app.inject({ url: '/api/schema/' })).json() as { paths: Record<string, unknown> };
    for (const path of ['/api/public/get-availabilities/', '/api/public/reserve/', '/api/public/book/', '/api/public/cancel-reservation/', '/api/public/cancel-booking/', '/octo/v1/availability', '/octo/v1/bookings/{uuid}/confirm', '/octo/v1/products/{id}']) {
      expect(doc.paths[path], path).toBeTruthy();
    }
    expect(doc.paths['/octo/v1/availability/']).toBeUndefined();
  });
});
