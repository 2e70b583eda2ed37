import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, booking, order, partnership } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { forgetPartnerKeys } from '../src/modules/octo/auth';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * Review of the partner APIs (issue 17): what a key may do when its supplier's plan no longer has
 * partners, and bad input on the partner APIs past authentication (the schema fuzz test signs in
 * as a user, so OCTO's and the public booking API's handlers only ever answer it 401).
 */
const ZONE = 'Europe/Zurich';
const day = (n = 5) => addDays(todayIn(ZONE), n);
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let tour: { id: string; category: string };
let partner: Awaited<ReturnType<typeof makePartnership>>;
let octo: ReturnType<typeof partnerClient>;
const B = '/octo/v1';

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'revsupply', currency: 'EUR', time_zone: ZONE });
  await createOrganisation(t.app, sink, { subdomain: 'revagency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Kayak tour');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  partner = await makePartnership(t.database, { supplier: 'revsupply', reseller: 'revagency', offers: [tour.id], commissionBp: 1500 });
  octo = partnerClient(t.app, partner.key);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function departure(n = 5) {
  const res = await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(n), localDateEnd: day(n) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }[])[0]!;
}

describe('bad input on the partner APIs never answers 5xx', () => {
  it('OCTO and the public booking API refuse odd values with a 4xx', async () => {
    const slot = await departure();
    const nul = 'a\u0000b';
    const cases: [string, string, unknown][] = [
      ['POST', `${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: '0000-01-01', localDateEnd: '0000-01-01' }],
      ['POST', `${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: '2030-02-30', localDateEnd: '2030-03-01' }],
      ['POST', `${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', availabilityIds: [nul, 'x'] }],
      ['POST', `${B}/availability`, { productId: nul, optionId: 'DEFAULT', localDateStart: day(), localDateEnd: day() }],
      ['POST', `${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(), localDateEnd: day(), units: [{ id: nul, quantity: 1 }] }],
      ['POST', `${B}/availability/calendar`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: '9999-12-31', localDateEnd: '9999-12-31' }],
      ['POST', `${B}/bookings`, { productId: tour.id, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId: tour.category }], resellerReference: nul }],
      ['POST', `${B}/bookings`, { productId: tour.id, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId: tour.category }], notes: nul }],
      ['POST', `${B}/bookings`, { productId: tour.id, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId: tour.category }], contact: { fullName: nul } }],
      ['POST', `${B}/bookings`, { productId: tour.id, optionId: 'DEFAULT', availabilityId: nul, unitItems: [{ unitId: tour.category }] }],
      ['POST', `${B}/bookings`, { productId: tour.id, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId: nul }] }],
      ['GET', `${B}/bookings?resellerReference=${encodeURIComponent(nul)}`, undefined],
      ['GET', `${B}/bookings?supplierReference=${encodeURIComponent(nul)}`, undefined],
      ['GET', `${B}/products/${encodeURIComponent(nul)}`, undefined],
      ['POST', `${B}/bookings/${randomUUID()}/confirm`, { contact: { emailAddress: nul } }],
      ['POST', `${B}/bookings/${randomUUID()}/cancel`, { reason: nul }],
      ['POST', '/api/public/reserve/', { product: tour.id, availability: slot.id, quantities: { [tour.category]: 1 }, reference: nul }],
      ['POST', '/api/public/reserve/', { product: tour.id, availability: slot.id, quantities: {} }],
      ['POST', '/api/public/reserve/', { product: tour.id, availability: slot.id, quantities: { [randomUUID()]: 1000 } }],
      ['GET', `/api/public/get-availabilities/?product=${tour.id}&from=0000-01-01&to=0000-01-02`, undefined],
      ['POST', '/api/public/cancel-booking/', { uuid: randomUUID(), reason: nul }],
    ];
    const failures: string[] = [];
    for (const [method, url, body] of cases) {
      const res = method === 'GET' ? await octo.get(url) : await octo.post(url, body);
      if (res.statusCode >= 500) failures.push(`${method} ${url} ${JSON.stringify(body)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    // A reservation with odd values patched and confirmed.
    const made = await octo.post(`${B}/bookings`, { productId: tour.id, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId: tour.category }] });
    expect(made.statusCode, made.body).toBe(200);
    const uuid = made.json().uuid as string;
    for (const body of [{ resellerReference: nul }, { notes: nul }, { contact: { fullName: nul } }, { unitItems: [{ unitId: nul }] }]) {
      const res = await octo.patch(`${B}/bookings/${uuid}`, body);
      if (res.statusCode >= 500) failures.push(`PATCH ${JSON.stringify(body)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    for (const body of [{ contact: { fullName: 'Ada', emailAddress: 'ada@example.com', notes: nul } }, { contact: { fullName: nul, emailAddress: 'ada@example.com' } }, { contact: { fullName: 'Ada', emailAddress: 'ada@example.com' }, resellerReference: nul }]) {
      const res = await octo.post(`${B}/bookings/${uuid}/confirm`, body);
      if (res.statusCode >= 500) failures.push(`confirm ${JSON.stringify(body)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('a key of a supplier whose plan has no partners', () => {
  it('is refused (403) as the back office refuses the partners pages, and works again with the feature', async () => {
    expect((await octo.get(`${B}/products`)).statusCode).toBe(200);
    await t.database.db.update(baseAccount).set({ subscription_tier_id: 'supplier-starter' }).where(eq(baseAccount.id, partner.supplierId));
    forgetPartnerKeys();
    const octoRes = await octo.get(`${B}/products`);
    expect(octoRes.statusCode, octoRes.body).toBe(403);
    const pub = await octo.get(`/api/public/get-availabilities/?product=${tour.id}&from=${day()}`);
    expect(pub.statusCode, pub.body).toBe(403);
    await t.database.db.update(baseAccount).set({ subscription_tier_id: 'supplier-pro' }).where(eq(baseAccount.id, partner.supplierId));
    forgetPartnerKeys();
    expect((await octo.get(`${B}/products`)).statusCode).toBe(200);
  });
});

describe('a booked reservation’s net is the one fixed at sale', () => {
  it('answers gross less the booking’s commission (as statements count it), not the contract as it reads now', async () => {
    const slot = await departure(6);
    // 3 × 4999 at 15 %: the line's commission is floor(2249.55) = 2249, three units' floor(749.85) × 3 = 2247.
    await t.database.db.update(partnership).set({ commission_bp: 1500 }).where(eq(partnership.id, partner.partnershipId));
    const rate = (await owner.get(`/api/pricing-rates/?experience=${tour.id}`)).json().results[0];
    expect((await owner.patch(`/api/pricing-rates/${rate.id}/`, { retail_price: 4999 })).statusCode).toBe(200);
    forgetPartnerKeys();
    const uuid = randomUUID();
    const held = await octo.post('/api/public/reserve/', { uuid, product: tour.id, availability: slot.id, quantities: { [tour.category]: 3 } });
    expect(held.statusCode, held.body).toBe(201);
    const booked = await octo.post('/api/public/book/', { uuid, customer: { email: 'ada@example.com', first_name: 'Ada' } });
    expect(booked.statusCode, booked.body).toBe(200);
    const [line] = await t.database.db.select({ total: booking.total, commission: booking.commission }).from(booking).innerJoin(order, eq(order.id, booking.order_id)).where(eq(order.reference, booked.json().order_reference));
    expect(line).toEqual({ total: 14997, commission: 2249 });
    expect(booked.json()).toMatchObject({ total: 14997, net: 14997 - 2249 });
    // The supplier changes the contract afterwards: what was sold keeps its commission.
    await t.database.db.update(partnership).set({ commission_bp: 3000 }).where(eq(partnership.id, partner.partnershipId));
    forgetPartnerKeys();
    expect((await octo.post('/api/public/book/', { uuid, customer: { email: 'ada@example.com', first_name: 'Ada' } })).json()).toMatchObject({ total: 14997, net: 14997 - 2249 });
    const got = await octo.get(`${B}/bookings/${uuid}`);
    expect(got.json().pricing).toMatchObject({ retail: 14997, net: 14997 - 2249 });
    await t.database.db.update(partnership).set({ commission_bp: 1500 }).where(eq(partnership.id, partner.partnershipId));
    forgetPartnerKeys();
  });
});

describe('a partner cancels a booking free only while the policy refunds all of it', () => {
  it('refuses past the cut-off it advertises (the supplier’s policy keeps the money then), and lets it cancel before', async () => {
    // Refunded in full until 30 days before, nothing after: a booking 6 days ahead is past the cut-off.
    const policy = (await owner.post('/api/cancellation-policies/', { name: 'Strict', rules: [{ hours_before: 720, refund_percent: 100 }, { hours_before: 0, refund_percent: 0 }] })).json().id;
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { cancellation_policy: policy })).statusCode).toBe(200);
    const product = (await octo.get(`${B}/products/${tour.id}`)).json();
    expect(product.options[0]).toMatchObject({ cancellationCutoffAmount: 720, cancellationCutoffUnit: 'hour' });
    const slot = await departure(6);
    const uuid = randomUUID();
    expect((await octo.post('/api/public/reserve/', { uuid, product: tour.id, availability: slot.id, quantities: { [tour.category]: 1 } })).statusCode).toBe(201);
    const booked = await octo.post('/api/public/book/', { uuid, customer: { email: 'late@example.com', first_name: 'Late' } });
    expect(booked.json()).toMatchObject({ status: 'CONFIRMED', cancellable: false });
    const late = await octo.post(`${B}/bookings/${uuid}/cancel`, { reason: 'changed plans' });
    expect(late.statusCode, late.body).toBe(400);
    expect(late.json()).toMatchObject({ error: 'BAD_REQUEST' });
    const refused = await octo.post('/api/public/cancel-booking/', { uuid });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors[0].detail).toMatch(/no longer be cancelled/);
    expect((await octo.get(`${B}/bookings/${uuid}`)).json()).toMatchObject({ status: 'CONFIRMED', cancellable: false });
    // Refunded in full a little longer: the same booking may now be cancelled.
    expect((await owner.patch(`/api/cancellation-policies/${policy}/`, { rules: [{ hours_before: 24, refund_percent: 100 }, { hours_before: 0, refund_percent: 0 }] })).statusCode).toBe(200);
    expect((await octo.get(`${B}/bookings/${uuid}`)).json()).toMatchObject({ cancellable: true });
    expect((await octo.post(`${B}/bookings/${uuid}/cancel`)).json()).toMatchObject({ status: 'CANCELLED' });
  });
});
