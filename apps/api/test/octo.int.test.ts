import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZOctoAvailability, ZOctoBooking, ZOctoProduct } from '@tourdesk/contracts';
import type { TenantCtx } from '../src/lib/crud';
import { addDays, todayIn } from '../src/lib/local-time';
import { forgetPartnerKeys, partnerOfSecret } from '../src/modules/octo/auth';
import { availabilityOf } from '../src/modules/octo/present';
import { availability } from '../src/modules/octo/availability';
import type * as OctoQueries from '../src/modules/octo/queries';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * OCTO for resellers: a partner's key walks OCTO's flows against the supplier's own slots
 * (availability → reserve → confirm → cancel; expiry; extend), is refused as OCTO requires
 * (unknown product, option, unit, availability, uuid; sold out), and is refused itself when
 * revoked, suspended, or asking for what its contract does not share. The resale is an order in
 * the supplier's books that names the partner, with the commission fixed at sale, and takes its
 * seats from the one pool the web store sells from.
 *
 * Confirming one UUID is serialised by the reservation's row lock (octo/queries.ts); with the
 * lock switched off (here, in this file) concurrent confirms race, which only the PostgreSQL
 * server can show (PGlite runs one transaction at a time).
 */
const lock = vi.hoisted(() => ({ off: false }));
vi.mock('../src/modules/octo/queries', async (importOriginal) => {
  const real = await importOriginal<typeof OctoQueries>();
  const { octoBooking } = await import('../src/db/schema');
  return {
    ...real,
    async lockReservation(ctx: TenantCtx, uuid: string) {
      if (!lock.off) return real.lockReservation(ctx, uuid);
      const [row] = await ctx.tx.select().from(octoBooking).where(and(eq(octoBooking.account_id, ctx.accountId), eq(octoBooking.uuid, uuid)));
      return row;
    },
  };
});

const ZONE = 'Europe/Zurich';
const day = (n = 5) => addDays(todayIn(ZONE), n);
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let tour: { id: string; category: string };
let hidden: { id: string };
let child: string;
let partner: Awaited<ReturnType<typeof makePartnership>>;
let other: Awaited<ReturnType<typeof makePartnership>>;
let octo: ReturnType<typeof partnerClient>;
const B = '/octo/v1';

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'alpsupply', currency: 'EUR', time_zone: ZONE });
  await createOrganisation(t.app, sink, { subdomain: 'lakeagency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
  const rival = await createOrganisation(t.app, sink, { subdomain: 'rivalsupply', currency: 'EUR', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Kayak tour');
  hidden = await sellableExperience(owner, 'Private tour');
  const rivalTour = await sellableExperience(rival, 'Rival tour');
  child = (await owner.post('/api/pricing-categories/', { type: 'Child', label: 'Child' })).json().id;
  await owner.post('/api/pricing-rates/', { experience: tour.id, pricing_category: child, retail_price: 2500 });
  const policy = (await owner.post('/api/cancellation-policies/', { name: 'Flexible', rules: [{ hours_before: 24, refund_percent: 100 }, { hours_before: 0, refund_percent: 0 }] })).json().id;
  await owner.patch(`/api/experiences/${tour.id}/`, { cancellation_policy: policy });
  for (const [b, e] of [[owner, tour], [owner, hidden], [rival, rivalTour]] as const) expect((await b.patch(`/api/experiences/${e.id}/`, { status: 'Active' })).statusCode).toBe(200);
  partner = await makePartnership(t.database, { supplier: 'alpsupply', reseller: 'lakeagency', offers: [tour.id], commissionBp: 1500 });
  other = await makePartnership(t.database, { supplier: 'rivalsupply', reseller: 'lakeagency', offers: [rivalTour.id] });
  octo = partnerClient(t.app, partner.key);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function departure(n = 5) {
  const res = await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(n), localDateEnd: day(n) });
  expect(res.statusCode, res.body).toBe(200);
  const list = res.json() as { id: string; vacancies: number; status: string }[];
  expect(list).toHaveLength(1);
  return list[0]!;
}
const adults = (n: number) => Array.from({ length: n }, () => ({ unitId: tour.category }));
const reserve = (body: Record<string, unknown>) => octo.post(`${B}/bookings`, { productId: tour.id, optionId: 'DEFAULT', ...body });
const contact = { fullName: 'Ada Lovelace', emailAddress: 'ada@example.com', phoneNumber: '+41 79 000 00 00', country: 'CH' };
const endPartnership = (id: string) => t.database.asOwner((tx) => tx.execute(sql`update partnership set status = 'Ended' where id = ${id}`));
const octoError = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, body: res.json() });

describe('OCTO: the supplier and its products', () => {
  it('answers the supplier and only the products the contract shares, units typed as OCTO says, with and without a trailing slash', async () => {
    const s = await octo.get(`${B}/supplier`);
    expect(s.statusCode, s.body).toBe(200);
    expect(s.json()).toMatchObject({ id: partner.supplierId, name: 'alpsupply tours' });
    expect((await octo.get(`${B}/supplier/`)).statusCode).toBe(200);
    const list = await octo.get(`${B}/products`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().map((p: { id: string }) => p.id)).toEqual([tour.id]);
    const one = await octo.get(`${B}/products/${tour.id}`);
    const product = ZOctoProduct.parse(one.json());
    expect(product).toMatchObject({ availabilityType: 'START_TIME', timeZone: ZONE, options: [{ id: 'DEFAULT', default: true, availabilityLocalStartTimes: ['10:00'] }] });
    const units = product.options[0]!.units;
    expect(units.map((u) => [u.id, u.type])).toEqual([
      [tour.category, 'ADULT'],
      [child, 'CHILD'],
    ]);
    // Pricing capability: retail and net (the contract's 15 % commission) in minor units.
    expect(units[0]!.pricingFrom).toEqual([{ original: 4900, retail: 4900, net: 4900 - 735, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] }]);
    expect((await partnerClient(t.app, partner.key, '').get(`${B}/products/${tour.id}`)).json().options[0].units[0].pricingFrom).toBeUndefined();
  });

  it('refuses an unknown product, an offer the contract does not share and another supplier’s offer with INVALID_PRODUCT_ID', async () => {
    for (const id of [randomUUID(), hidden.id, 'not-an-id']) {
      expect(octoError(await octo.get(`${B}/products/${id}`))).toEqual({ status: 400, body: { error: 'INVALID_PRODUCT_ID', errorMessage: expect.any(String), productId: id } });
    }
    const res = await octo.post(`${B}/availability`, { productId: hidden.id, optionId: 'DEFAULT', localDateStart: day(), localDateEnd: day() });
    expect(octoError(res)).toMatchObject({ status: 400, body: { error: 'INVALID_PRODUCT_ID', productId: hidden.id } });
  });

  it('answers 404 for a path OCTO does not define here', async () => {
    expect((await octo.get(`${B}/capabilities-of-nothing`)).statusCode).toBe(404);
  });
});

/** What OCTO's own validator (github.com/octotravel/validator, its supplier flows) checks beyond the shapes above. */
describe('OCTO: as its validator reads it', () => {
  const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
  const utcFields = (o: Record<string, unknown>) => Object.entries(o).filter(([k, v]) => k.startsWith('utc') && v !== null);

  it('gives options a numeric minUnits, and every utc… time to the second without fractions', async () => {
    const product = (await octo.get(`${B}/products/${tour.id}`)).json();
    expect(product.options[0].restrictions).toEqual({ minUnits: 0, maxUnits: null });
    const list = (await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(3), localDateEnd: day(4) })).json() as Record<string, unknown>[];
    expect(list.length).toBeGreaterThan(0);
    for (const a of list) expect(a.utcCutoffAt).toMatch(UTC);
    const held = (await reserve({ availabilityId: list[0]!.id, unitItems: adults(1) })).json();
    expect(utcFields(held).map(([k]) => k).sort()).toEqual(['utcCreatedAt', 'utcExpiresAt', 'utcUpdatedAt']);
    for (const [, v] of utcFields(held)) expect(v).toMatch(UTC);
    expect(held.availability.utcCutoffAt).toMatch(UTC);
    await octo.post(`${B}/bookings/${held.uuid}/cancel`);
  });

  it('carries a voucher and a ticket per unit on every booking, with the QR code once confirmed', async () => {
    const a = await departure(6);
    const held = (await reserve({ availabilityId: a.id, unitItems: adults(2) })).json();
    const empty = { redemptionMethod: 'DIGITAL', utcRedeemedAt: null, deliveryOptions: [] };
    expect(held.voucher).toEqual(empty);
    expect(held.unitItems.map((u: { ticket: unknown }) => u.ticket)).toEqual([empty, empty]);
    const confirmed = await octo.post(`${B}/bookings/${held.uuid}/confirm`, { contact });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const booking = confirmed.json();
    expect(booking.utcConfirmedAt).toMatch(UTC);
    const qr = { redemptionMethod: 'DIGITAL', utcRedeemedAt: null, deliveryOptions: [{ deliveryFormat: 'QRCODE', deliveryValue: expect.any(String) }] };
    expect(booking.voucher).toEqual(qr);
    for (const u of booking.unitItems) expect(u.ticket).toEqual(qr);
    expect((await octo.post(`${B}/bookings/${held.uuid}/cancel`)).statusCode).toBe(200);
  });

  it('refuses a range and ids together with BAD_REQUEST, and a reservation without unit items with UNPROCESSABLE_ENTITY', async () => {
    const a = await departure(7);
    const both = await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(7), localDateEnd: day(7), availabilityIds: [a.id] });
    expect(octoError(both)).toEqual({ status: 400, body: { error: 'BAD_REQUEST', errorMessage: expect.any(String) } });
    for (const body of [{ availabilityId: a.id }, { availabilityId: a.id, unitItems: [] }]) {
      expect(octoError(await reserve(body))).toMatchObject({ status: 400, body: { error: 'UNPROCESSABLE_ENTITY' } });
    }
  });

  it('confirms a contact without an e-mail address under the reseller’s billing address, the guest’s name kept on the order', async () => {
    const billing = (address: string) => t.database.asOwner((tx) => tx.execute(sql`update base_account set billing_email = ${address} where subdomain = 'lakeagency'`));
    await billing('bookings@lakeagency.example');
    forgetPartnerKeys();
    try {
      const uuid = randomUUID();
      expect((await reserve({ uuid, availabilityId: (await departure(9)).id, unitItems: adults(1) })).statusCode).toBe(200);
      const done = await octo.post(`${B}/bookings/${uuid}/confirm`, { contact: { fullName: 'John Doe' } });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ status: 'CONFIRMED', contact: { fullName: 'John Doe', emailAddress: null } });
      const order = (await owner.get(`/api/orders/?search=${done.json().supplierReference}`)).json().results[0];
      expect(order.customer).toMatchObject({ first_name: 'John', last_name: 'Doe', email: 'bookings@lakeagency.example' });
    } finally {
      // The other tests' reseller has no billing address: a contact without e-mail is refused there.
      await billing('');
      forgetPartnerKeys();
    }
  });
});

describe('OCTO: availability', () => {
  it('gives departures with vacancies and prices from the one definition of open and seats left, and a calendar per day', async () => {
    const res = await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(3), localDateEnd: day(4) });
    expect(res.statusCode, res.body).toBe(200);
    const list = (res.json() as unknown[]).map((a) => ZOctoAvailability.parse(a));
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ status: 'AVAILABLE', available: true, vacancies: 8, capacity: 8 });
    expect(list[0]!.localDateTimeStart).toMatch(new RegExp(`^${day(3)}T10:00:00\\+0[12]:00$`));
    expect(list[0]!.unitPricing).toContainEqual(expect.objectContaining({ unitId: child, retail: 2500, net: 2500 - 375 }));
    // The hot call's text is exactly the typed shape (@octocloud/types' Availability) of the same departures.
    const p = (await partnerOfSecret(t.database.db, partner.key))!;
    const typed = (await availability({ db: t.database.db, holds: t.app.holds }, p, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(3), localDateEnd: day(4) })).map((x) => availabilityOf(p, tour.id, x, true));
    expect(res.json()).toEqual(typed);
    const plain = await partnerClient(t.app, partner.key, '').post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(3), localDateEnd: day(4) });
    expect(plain.json()).toEqual(typed.map(({ unitPricing: _, ...rest }) => rest));
    const cal = await octo.post(`${B}/availability/calendar`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(3), localDateEnd: day(6) });
    expect(cal.statusCode, cal.body).toBe(200);
    expect(cal.json()).toHaveLength(4);
    expect(cal.json()[0]).toMatchObject({ localDate: day(3), available: true, status: 'AVAILABLE', vacancies: 8, capacity: 8 });
    // Asking for more units than a departure has left shows it sold out for them.
    const many = await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(3), localDateEnd: day(3), units: [{ id: tour.category, quantity: 9 }] });
    expect(many.json()[0]).toMatchObject({ status: 'SOLD_OUT', available: false });
  });

  it('refuses an unknown option, an unknown unit and a request without dates as OCTO says', async () => {
    const base = { productId: tour.id, localDateStart: day(3), localDateEnd: day(3) };
    expect(octoError(await octo.post(`${B}/availability`, { ...base, optionId: 'LUNCH' }))).toMatchObject({ status: 400, body: { error: 'INVALID_OPTION_ID', optionId: 'LUNCH' } });
    const unit = randomUUID();
    expect(octoError(await octo.post(`${B}/availability`, { ...base, optionId: 'DEFAULT', units: [{ id: unit, quantity: 1 }] }))).toMatchObject({ status: 400, body: { error: 'INVALID_UNIT_ID', unitId: unit } });
    expect(octoError(await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT' }))).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    expect(octoError(await octo.post(`${B}/availability`, { optionId: 'DEFAULT' }))).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
  });
});

describe('OCTO: a booking’s life', () => {
  it('availability → reserve (holds seats) → confirm (an order in the supplier’s books, marked as the partner’s resale) → cancel', async () => {
    const slot = await departure(5);
    const uuid = randomUUID();
    const held = await reserve({ uuid, availabilityId: slot.id, unitItems: [...adults(2), { unitId: child }], resellerReference: 'LAKE-1' });
    expect(held.statusCode, held.body).toBe(200);
    const booking = ZOctoBooking.parse(held.json());
    expect(booking).toMatchObject({ uuid, status: 'ON_HOLD', resellerReference: 'LAKE-1', availabilityId: slot.id, supplierReference: null });
    expect(Date.parse(booking.utcExpiresAt!)).toBeGreaterThan(Date.now());
    expect(booking.pricing).toMatchObject({ retail: 2 * 4900 + 2500, net: 2 * 4900 + 2500 - Math.floor(((2 * 4900 + 2500) * 1500) / 10000) });
    // One pool: the seats are gone for the web store and the back office too.
    expect((await departure(5)).vacancies).toBe(slot.vacancies - 3);
    // The same uuid again answers the same reservation (no second hold).
    const again = await reserve({ uuid, availabilityId: slot.id, unitItems: adults(2) });
    expect(again.json()).toMatchObject({ uuid, status: 'ON_HOLD', unitItems: expect.arrayContaining([expect.objectContaining({ unitId: child })]) });
    expect((await departure(5)).vacancies).toBe(slot.vacancies - 3);

    expect(octoError(await octo.post(`${B}/bookings/${uuid}/confirm`, { contact: { fullName: 'No Mail' } }))).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    const confirmed = await octo.post(`${B}/bookings/${uuid}/confirm`, { contact, resellerReference: 'LAKE-1' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const done = ZOctoBooking.parse(confirmed.json());
    expect(done).toMatchObject({ status: 'CONFIRMED', utcExpiresAt: null, cancellable: true, contact: { emailAddress: 'ada@example.com', firstName: null } });
    expect(done.supplierReference).toBeTruthy();
    expect((await octo.post(`${B}/bookings/${uuid}/confirm`, { contact })).json()).toMatchObject({ status: 'CONFIRMED', supplierReference: done.supplierReference });
    expect((await departure(5)).vacancies).toBe(slot.vacancies - 3);

    // The supplier's books: one order, the partner and its reference on it, the commission fixed.
    const orders = (await owner.get('/api/orders/')).json().results as { id: string; reference: string }[];
    const order = orders.find((o) => o.reference === done.supplierReference)!;
    expect(order).toBeTruthy();
    const rows = (await t.database.asOwner((tx) =>
      tx.execute(sql`select o.partnership_id, o.reseller_account_id, o.reseller_reference, b.partnership_id as b_partnership, b.commission, b.total
                     from orders o join booking b on b.order_id = o.id where o.id = ${order.id}`),
    )) as unknown as { rows: { partnership_id: string; reseller_account_id: string; reseller_reference: string; b_partnership: string; commission: number; total: number }[] };
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ partnership_id: partner.partnershipId, reseller_account_id: partner.resellerId, reseller_reference: 'LAKE-1', b_partnership: partner.partnershipId, total: 12300, commission: 1845 });
    const audit = (await owner.get(`/api/orders/${order.id}/audit/`)).json();
    expect(JSON.stringify(audit)).toContain('resold');

    const byRef = await octo.get(`${B}/bookings?resellerReference=LAKE-1`);
    expect(byRef.json().map((b: { uuid: string }) => b.uuid)).toEqual([uuid]);
    expect((await octo.get(`${B}/bookings?supplierReference=${done.supplierReference}`)).json().map((b: { uuid: string }) => b.uuid)).toEqual([uuid]);
    expect(octoError(await octo.get(`${B}/bookings`))).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });

    const patched = await octo.patch(`${B}/bookings/${uuid}`, { contact: { phoneNumber: '+41 79 111 11 11' } });
    expect(patched.json()).toMatchObject({ status: 'CONFIRMED', contact: { phoneNumber: '+41 79 111 11 11', emailAddress: 'ada@example.com' } });

    const cancelled = await octo.post(`${B}/bookings/${uuid}/cancel`, { reason: 'Customer changed plans' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', cancellation: { reason: 'Customer changed plans' } });
    expect((await octo.post(`${B}/bookings/${uuid}/cancel`)).json()).toMatchObject({ status: 'CANCELLED' });
    expect((await departure(5)).vacancies).toBe(slot.vacancies);
    expect((await owner.get(`/api/orders/${order.id}/`)).json()).toMatchObject({ status: 'Canceled' });
  });

  it('a reservation expires as a cart does: its seats are free again and it cannot be confirmed; extend holds it longer', async () => {
    const slot = await departure(6);
    const uuid = randomUUID();
    const held = await reserve({ uuid, availabilityId: slot.id, unitItems: adults(2) });
    expect(held.statusCode, held.body).toBe(200);
    const first = Date.parse(held.json().utcExpiresAt);
    const extended = await octo.post(`${B}/bookings/${uuid}/extend`, { expirationMinutes: 60 });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(Date.parse(extended.json().utcExpiresAt)).toBeGreaterThan(first);
    expect(Date.parse(extended.json().utcExpiresAt)).toBeGreaterThan(Date.now() + 59 * 60_000);
    // The hold runs out (its line's time moved into the past, as the clock would).
    await t.database.asOwner((tx) => tx.execute(sql`update cart_line set expires_at = now() - interval '1 second' where id = (select cart_line_id from octo_booking where uuid = ${uuid})`));
    expect((await octo.get(`${B}/bookings/${uuid}`)).json()).toMatchObject({ status: 'EXPIRED', utcExpiresAt: null });
    expect((await departure(6)).vacancies).toBe(slot.vacancies);
    expect(octoError(await octo.post(`${B}/bookings/${uuid}/confirm`, { contact }))).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    expect(octoError(await octo.post(`${B}/bookings/${uuid}/extend`, {}))).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
  });

  it('changes a reservation’s units and date (the new hold first) and cancels a reservation, giving its seats back', async () => {
    const slot = await departure(7);
    const later = await departure(8);
    const uuid = randomUUID();
    await reserve({ uuid, availabilityId: slot.id, unitItems: adults(1) });
    // OCTO's "change date": the seats move to the other departure.
    const moved = await octo.patch(`${B}/bookings/${uuid}`, { availabilityId: later.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ availabilityId: later.id, status: 'ON_HOLD' });
    expect((await departure(8)).vacancies).toBe(later.vacancies - 1);
    expect((await departure(7)).vacancies).toBe(slot.vacancies);
    expect(octoError(await octo.patch(`${B}/bookings/${uuid}`, { availabilityId: randomUUID() }))).toMatchObject({ status: 400, body: { error: 'INVALID_AVAILABILITY_ID' } });
    const changed = await octo.patch(`${B}/bookings/${uuid}`, { unitItems: adults(3), availabilityId: slot.id });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().unitItems).toHaveLength(3);
    expect((await departure(7)).vacancies).toBe(slot.vacancies - 3);
    expect((await octo.post(`${B}/bookings/${uuid}/cancel`)).json()).toMatchObject({ status: 'CANCELLED' });
    expect((await departure(7)).vacancies).toBe(slot.vacancies);
    expect((await departure(8)).vacancies).toBe(later.vacancies);
    // A confirmed booking keeps its date: the partner cancels and reserves again.
    const booked = randomUUID();
    await reserve({ uuid: booked, availabilityId: slot.id, unitItems: adults(1) });
    expect((await octo.post(`${B}/bookings/${booked}/confirm`, { contact })).statusCode).toBe(200);
    expect(octoError(await octo.patch(`${B}/bookings/${booked}`, { availabilityId: later.id }))).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
  });

  it('refuses unknown ids, no unit items and a sold-out departure as OCTO requires', async () => {
    const slot = await departure(8);
    expect(octoError(await reserve({ productId: randomUUID(), availabilityId: slot.id, unitItems: adults(1) }))).toMatchObject({ status: 400, body: { error: 'INVALID_PRODUCT_ID' } });
    expect(octoError(await reserve({ optionId: 'X', availabilityId: slot.id, unitItems: adults(1) }))).toMatchObject({ status: 400, body: { error: 'INVALID_OPTION_ID', optionId: 'X' } });
    const unknownSlot = randomUUID();
    expect(octoError(await reserve({ availabilityId: unknownSlot, unitItems: adults(1) }))).toMatchObject({ status: 400, body: { error: 'INVALID_AVAILABILITY_ID', availabilityId: unknownSlot } });
    const unit = randomUUID();
    expect(octoError(await reserve({ availabilityId: slot.id, unitItems: [{ unitId: unit }] }))).toMatchObject({ status: 400, body: { error: 'INVALID_UNIT_ID', unitId: unit } });
    expect(octoError(await reserve({ availabilityId: slot.id, unitItems: [] }))).toMatchObject({ status: 400, body: { error: 'UNPROCESSABLE_ENTITY' } });
    expect(octoError(await reserve({ availabilityId: slot.id, unitItems: adults(9) }))).toMatchObject({ status: 400, body: { error: 'UNPROCESSABLE_ENTITY' } });
    expect((await departure(8)).vacancies).toBe(slot.vacancies);
    const nobody = randomUUID();
    for (const path of [`/bookings/${nobody}`, `/bookings/not-a-uuid`]) {
      expect(octoError(await octo.get(`${B}${path}`))).toMatchObject({ status: 400, body: { error: 'INVALID_BOOKING_UUID' } });
    }
    expect(octoError(await octo.post(`${B}/bookings/${nobody}/confirm`, { contact }))).toMatchObject({ status: 400, body: { error: 'INVALID_BOOKING_UUID', uuid: nobody } });
    expect(octoError(await octo.post(`${B}/bookings/${nobody}/cancel`))).toMatchObject({ status: 400, body: { error: 'INVALID_BOOKING_UUID', uuid: nobody } });
    expect(octoError(await octo.post(`${B}/bookings`, { productId: tour.id }))).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
  });
});

describe('OCTO: an offer confirmed by hand', () => {
  it('a confirmed booking is PENDING (seats reserved, no voucher) until the supplier confirms the order; one the supplier cancels before confirming is REJECTED', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'hikeagency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
    const hike = await sellableExperience(owner, 'Glacier hike');
    const policy = (await owner.post('/api/cancellation-policies/', { name: 'Hike: free until a day before', rules: [{ hours_before: 24, refund_percent: 100 }, { hours_before: 0, refund_percent: 0 }] })).json().id;
    expect((await owner.patch(`/api/experiences/${hike.id}/`, { confirmation_mode: 'manual', cancellation_policy: policy, status: 'Active' })).statusCode).toBe(200);
    const agency = await makePartnership(t.database, { supplier: 'alpsupply', reseller: 'hikeagency', offers: [hike.id, tour.id] });
    const api = partnerClient(t.app, agency.key);
    const products = (await api.get(`${B}/products`)).json() as { id: string; instantConfirmation: boolean }[];
    expect(Object.fromEntries(products.map((x) => [x.id, x.instantConfirmation]))).toEqual({ [hike.id]: false, [tour.id]: true });

    const when = async () => (await api.post(`${B}/availability`, { productId: hike.id, optionId: 'DEFAULT', localDateStart: day(21), localDateEnd: day(21) })).json()[0] as { id: string; vacancies: number };
    const before = await when();
    const book = async (reference: string) => {
      const uuid = randomUUID();
      expect((await api.post(`${B}/bookings`, { uuid, productId: hike.id, optionId: 'DEFAULT', availabilityId: before.id, unitItems: [{ unitId: hike.category }, { unitId: hike.category }] })).statusCode).toBe(200);
      const confirmed = await api.post(`${B}/bookings/${uuid}/confirm`, { contact, resellerReference: reference });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      return { uuid, booking: ZOctoBooking.parse(confirmed.json()) };
    };
    const orderOf = async (uuid: string) =>
      ((await t.database.asOwner((tx) => tx.execute(sql`select order_id from octo_booking where uuid = ${uuid}`))) as unknown as { rows: { order_id: string }[] }).rows[0]!.order_id;

    const first = await book('HIKE-1');
    expect(first.booking).toMatchObject({ status: 'PENDING', utcConfirmedAt: null, voucher: { deliveryOptions: [] }, utcExpiresAt: null, cancellable: true });
    expect(first.booking.supplierReference).toBeTruthy();
    expect(first.booking.unitItems.map((u) => u.status)).toEqual(['PENDING', 'PENDING']);
    // The seats are the order's while it waits (the back office shows it Unconfirmed).
    expect((await when()).vacancies).toBe(before.vacancies - 2);
    expect((await api.get(`${B}/bookings/${first.uuid}`)).json()).toMatchObject({ status: 'PENDING' });
    // A second confirm answers the same pending booking.
    expect((await api.post(`${B}/bookings/${first.uuid}/confirm`, { contact })).json()).toMatchObject({ status: 'PENDING', supplierReference: first.booking.supplierReference });
    // Its contact can still change, as a confirmed booking's can.
    expect((await api.patch(`${B}/bookings/${first.uuid}`, { contact: { phoneNumber: '+41 79 222 22 22' } })).json()).toMatchObject({ status: 'PENDING', contact: { phoneNumber: '+41 79 222 22 22' } });

    // The supplier confirms the order: CONFIRMED, with its voucher.
    const order = await orderOf(first.uuid);
    expect((await owner.post(`/api/orders/${order}/confirm/`)).statusCode).toBe(200);
    const now = (await api.get(`${B}/bookings/${first.uuid}`)).json();
    expect(now).toMatchObject({ status: 'CONFIRMED', voucher: { deliveryOptions: [expect.objectContaining({ deliveryFormat: 'QRCODE' })] } });
    expect(now.utcConfirmedAt).toBeTruthy();

    // Another one the supplier declines (cancels the waiting order): REJECTED, and a partner's cancel leaves it so.
    const second = await book('HIKE-2');
    expect(second.booking.status).toBe('PENDING');
    expect((await owner.post(`/api/orders/${await orderOf(second.uuid)}/cancel/`, {})).statusCode).toBe(200);
    expect((await api.get(`${B}/bookings/${second.uuid}`)).json()).toMatchObject({ status: 'REJECTED', cancellable: false, voucher: { deliveryOptions: [] } });
    expect((await api.post(`${B}/bookings/${second.uuid}/cancel`, { reason: 'too late' })).json()).toMatchObject({ status: 'REJECTED' });
    expect((await when()).vacancies).toBe(before.vacancies - 2);

    // A pending booking the partner cancels is CANCELLED and gives its seats back.
    const third = await book('HIKE-3');
    expect((await api.post(`${B}/bookings/${third.uuid}/cancel`, { reason: 'changed plans' })).json()).toMatchObject({ status: 'CANCELLED' });
    expect((await when()).vacancies).toBe(before.vacancies - 2);

    // The public booking API says the same: booked and waiting for the supplier.
    const uuid = randomUUID();
    expect((await api.post('/api/public/reserve/', { uuid, product: hike.id, availability: before.id, quantities: { [hike.category]: 1 } })).statusCode).toBe(201);
    const booked = await api.post('/api/public/book/', { uuid, customer: { email: 'ada@example.com', first_name: 'Ada' } });
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json()).toMatchObject({ status: 'PENDING', ticket_code: null });
    expect((await api.post('/api/public/cancel-reservation/', { uuid })).statusCode).toBe(409);
    expect((await api.post('/api/public/cancel-booking/', { uuid })).json()).toMatchObject({ status: 'CANCELLED' });
  });
});

describe('OCTO: units that take no seat', () => {
  it('a lap infant (a category that does not occupy a seat) is not counted in vacancies, in whether the units fit, or in a reservation', async () => {
    const infant = (await owner.post('/api/pricing-categories/', { type: 'Infant', label: 'Lap infant', occupies_seat: false })).json().id as string;
    expect((await owner.post('/api/pricing-rates/', { experience: tour.id, pricing_category: infant, retail_price: 0 })).statusCode).toBe(201);
    // The key's contract and the supplier's categories are read again (they are kept 2 s).
    forgetPartnerKeys();
    const ask = async (units: { id: string; quantity: number }[]) =>
      (await octo.post(`${B}/availability`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(22), localDateEnd: day(22), units })).json()[0] as { id: string; status: string; available: boolean; vacancies: number };
    const full = await ask([]);
    expect(full.vacancies).toBe(8);
    // Eight adults and two lap infants fit eight seats; nine adults do not.
    expect(await ask([{ id: tour.category, quantity: 8 }, { id: infant, quantity: 2 }])).toMatchObject({ status: 'AVAILABLE', available: true });
    expect(await ask([{ id: tour.category, quantity: 9 }])).toMatchObject({ status: 'SOLD_OUT', available: false });
    expect(await ask([{ id: tour.category, quantity: 7 }, { id: child, quantity: 2 }])).toMatchObject({ status: 'SOLD_OUT', available: false });
    // The calendar counts the same way.
    const cal = await octo.post(`${B}/availability/calendar`, { productId: tour.id, optionId: 'DEFAULT', localDateStart: day(22), localDateEnd: day(22), units: [{ id: tour.category, quantity: 8 }, { id: infant, quantity: 3 }] });
    expect(cal.json()[0]).toMatchObject({ status: 'AVAILABLE', available: true });

    // Reserving them takes eight seats, not ten; the ninth adult is sold out.
    const uuid = randomUUID();
    const held = await reserve({ uuid, availabilityId: full.id, unitItems: [...adults(8), { unitId: infant }, { unitId: infant }] });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json().unitItems).toHaveLength(10);
    expect((await ask([])).vacancies).toBe(0);
    expect(octoError(await reserve({ availabilityId: full.id, unitItems: adults(1) }))).toMatchObject({ status: 400, body: { error: 'UNPROCESSABLE_ENTITY' } });
    const confirmed = await octo.post(`${B}/bookings/${uuid}/confirm`, { contact });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const seats = (await t.database.asOwner((tx) => tx.execute(sql`select b.seats from booking b join octo_booking o on o.booking_id = b.id where o.uuid = ${uuid}`))) as unknown as { rows: { seats: number }[] };
    expect(seats.rows[0]!.seats).toBe(8);
    expect((await octo.post(`${B}/bookings/${uuid}/cancel`)).json()).toMatchObject({ status: 'CANCELLED' });
    expect((await ask([])).vacancies).toBe(8);
  });
});

describe('OCTO: an offer sold by opening hours', () => {
  it('is an OPENING_HOURS product: each day one all-day availability with its opening hours, the same in the calendar and the booking', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'museumagency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
    const museum = await sellableExperience(owner, 'Glacier museum');
    expect((await owner.delete(`/api/schedule-rules/${museum.rule}/`)).statusCode).toBe(200);
    const rule = await owner.post('/api/schedule-rules/', { experience: museum.id, kind: 'opening_hours', valid_from: todayIn(ZONE), start_times: ['09:00'], closing_time: '17:00', capacity: 30 });
    expect(rule.statusCode, rule.body).toBe(201);
    expect((await owner.patch(`/api/experiences/${museum.id}/`, { status: 'Active' })).statusCode).toBe(200);
    const agency = await makePartnership(t.database, { supplier: 'alpsupply', reseller: 'museumagency', offers: [museum.id, tour.id] });
    const api = partnerClient(t.app, agency.key);
    const products = (await api.get(`${B}/products`)).json() as { id: string; availabilityType: string; options: { availabilityLocalStartTimes: string[] }[] }[];
    const byId = Object.fromEntries(products.map((x) => [x.id, x]));
    expect(byId[museum.id]).toMatchObject({ availabilityType: 'OPENING_HOURS', options: [{ availabilityLocalStartTimes: [] }] });
    expect(byId[tour.id]).toMatchObject({ availabilityType: 'START_TIME', options: [{ availabilityLocalStartTimes: ['10:00'] }] });

    const body = { productId: museum.id, optionId: 'DEFAULT', localDateStart: day(23), localDateEnd: day(23) };
    const res = await api.post(`${B}/availability`, body);
    expect(res.statusCode, res.body).toBe(200);
    const [open] = (res.json() as unknown[]).map((a) => ZOctoAvailability.parse(a));
    expect(open).toMatchObject({ allDay: true, openingHours: [{ from: '09:00', to: '17:00' }], status: 'AVAILABLE', vacancies: 30, capacity: 30 });
    expect(open!.localDateTimeStart).toMatch(new RegExp(`^${day(23)}T00:00:00\\+0[12]:00$`));
    expect(open!.localDateTimeEnd).toMatch(new RegExp(`^${day(24)}T00:00:00\\+0[12]:00$`));
    // The hot call's text is the typed shape of the same departure.
    const p = (await partnerOfSecret(t.database.db, agency.key))!;
    expect(res.json()).toEqual((await availability({ db: t.database.db, holds: t.app.holds }, p, body)).map((x) => availabilityOf(p, museum.id, x, true)));
    expect((await api.post(`${B}/availability/calendar`, body)).json()[0]).toMatchObject({ localDate: day(23), openingHours: [{ from: '09:00', to: '17:00' }], vacancies: 30 });
    // A day without a departure (before the schedule starts) is CLOSED and still says the usual opening hours, as OCTO asks of every day.
    const closed = (await api.post(`${B}/availability/calendar`, { ...body, localDateStart: day(-1) })).json()[0];
    expect(closed).toMatchObject({ localDate: day(-1), status: 'CLOSED', available: false, openingHours: [{ from: '09:00', to: '17:00' }] });

    const uuid = randomUUID();
    expect((await api.post(`${B}/bookings`, { uuid, productId: museum.id, optionId: 'DEFAULT', availabilityId: open!.id, unitItems: [{ unitId: museum.category }] })).statusCode).toBe(200);
    const done = await api.post(`${B}/bookings/${uuid}/confirm`, { contact });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'CONFIRMED', availability: { id: open!.id, allDay: true, localDateTimeStart: open!.localDateTimeStart, openingHours: [{ from: '09:00', to: '17:00' }] } });
    // No cancellation policy on this offer: a partner cannot cancel it (the supplier's rule).
    expect(done.json().cancellable).toBe(false);
  });
});

describe('OCTO: a net-rate contract that leaves a category blank', () => {
  it('shows the pricing rate’s net price (of the departure’s date; of the rate that gives the from price) wherever it shows a net, as the sale records it', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'glacieragency', kind: 'affiliate', currency: 'EUR', time_zone: ZONE });
    const hike = await sellableExperience(owner, 'Net-rate hike');
    // The adult's rate: 4900 (net price 4000) until day 10, then 5500 (net price 4500).
    expect((await owner.patch(`/api/pricing-rates/${hike.rate}/`, { valid_to: day(10), net_price: 4000 })).statusCode).toBe(200);
    const later = await owner.post('/api/pricing-rates/', { experience: hike.id, pricing_category: hike.category, retail_price: 5500, net_price: 4500, valid_from: day(11) });
    expect(later.statusCode, later.body).toBe(201);
    // The child's rate has a net price too, but the contract's own net rate wins.
    expect((await owner.post('/api/pricing-rates/', { experience: hike.id, pricing_category: child, retail_price: 2500, net_price: 2200 })).statusCode).toBe(201);
    expect((await owner.patch(`/api/experiences/${hike.id}/`, { status: 'Active' })).statusCode).toBe(200);
    // The adult left blank in the contract: owed at the rate's net price (the contract form's placeholder).
    const agency = await makePartnership(t.database, { supplier: 'alpsupply', reseller: 'glacieragency', offers: [hike.id], pricing: 'net', netRates: { [child]: 2000 } });
    const api = partnerClient(t.app, agency.key);
    const price = (retail: number, net: number) => ({ original: retail, retail, net, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] });

    // The product's from price: the adult's 4900 and the net of that same rate.
    const product = ZOctoProduct.parse((await api.get(`${B}/products/${hike.id}`)).json());
    const units = Object.fromEntries(product.options[0]!.units.map((u) => [u.id, u.pricingFrom]));
    expect(units[hike.category]).toEqual([price(4900, 4000)]);
    expect(units[child]).toEqual([price(2500, 2000)]);

    // Availability: each departure at its date's rate, the hot call's text as the typed shape.
    const body = { productId: hike.id, optionId: 'DEFAULT', localDateStart: day(5), localDateEnd: day(12) };
    const res = await api.post(`${B}/availability`, body);
    expect(res.statusCode, res.body).toBe(200);
    const list = (res.json() as unknown[]).map((a) => ZOctoAvailability.parse(a));
    const pricingOn = (n: number) => list.find((a) => a.localDateTimeStart.startsWith(day(n)))!.unitPricing;
    expect(pricingOn(5)).toEqual(expect.arrayContaining([{ ...price(4900, 4000), unitId: hike.category }, { ...price(2500, 2000), unitId: child }]));
    expect(pricingOn(12)).toEqual(expect.arrayContaining([{ ...price(5500, 4500), unitId: hike.category }, { ...price(2500, 2000), unitId: child }]));
    const p = (await partnerOfSecret(t.database.db, agency.key))!;
    expect(res.json()).toEqual((await availability({ db: t.database.db, holds: t.app.holds }, p, body)).map((x) => availabilityOf(p, hike.id, x, true)));
    const cal = await api.post(`${B}/availability/calendar`, { ...body, localDateStart: day(12) });
    expect(cal.json()[0].unitPricingFrom).toEqual(expect.arrayContaining([{ ...price(5500, 4500), unitId: hike.category }]));
    // The public booking API's prices: the same nets.
    const times = await api.get(`/api/public/get-availabilities/?product=${hike.id}&from=${day(12)}`);
    expect(times.statusCode, times.body).toBe(200);
    expect(times.json()[0].prices).toEqual(expect.arrayContaining([{ unit: hike.category, retail: 5500, net: 4500 }, { unit: child, retail: 2500, net: 2000 }]));

    // A reservation on day 12 (two adults, a child), then its confirmation: the net is what the sale records.
    const slotId = list.find((a) => a.localDateTimeStart.startsWith(day(12)))!.id;
    const uuid = randomUUID();
    const held = await api.post(`${B}/bookings`, { uuid, productId: hike.id, optionId: 'DEFAULT', availabilityId: slotId, unitItems: [{ unitId: hike.category }, { unitId: hike.category }, { unitId: child }] });
    expect(held.statusCode, held.body).toBe(200);
    const reservation = ZOctoBooking.parse(held.json());
    expect(reservation.pricing).toMatchObject({ retail: 13500, net: 2 * 4500 + 2000 });
    expect(reservation.unitItems.find((u) => u.unitId === hike.category)!.pricing).toMatchObject({ retail: 5500, net: 4500 });
    const publicHeld = await api.post('/api/public/reserve/', { product: hike.id, availability: slotId, quantities: { [hike.category]: 1 } });
    expect(publicHeld.statusCode, publicHeld.body).toBe(201);
    expect(publicHeld.json()).toMatchObject({ status: 'ON_HOLD', total: 5500, net: 4500 });
    expect((await api.post('/api/public/cancel-reservation/', { uuid: publicHeld.json().uuid })).statusCode).toBe(200);

    const confirmed = await api.post(`${B}/bookings/${uuid}/confirm`, { contact });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const done = ZOctoBooking.parse(confirmed.json());
    expect(done.pricing).toMatchObject({ retail: 13500, net: 11000 });
    expect(done.unitItems.find((u) => u.unitId === hike.category)!.pricing).toMatchObject({ retail: 5500, net: 4500 });
    const sold = (await t.database.asOwner((tx) => tx.execute(sql`select b.commission, b.total from booking b join octo_booking o on o.booking_id = b.id where o.uuid = ${uuid}`))) as unknown as {
      rows: { commission: number; total: number }[];
    };
    expect(sold.rows).toEqual([{ commission: 13500 - 11000, total: 13500 }]);
  });
});

describe('OCTO: keys and contracts', () => {
  it('refuses a request without a key or with an unknown or revoked key (401), a suspended partnership (403)', async () => {
    expect(octoError(await partnerClient(t.app, null).get(`${B}/products`))).toMatchObject({ status: 401, body: { error: 'UNAUTHORIZED' } });
    expect(octoError(await partnerClient(t.app, 'td_nothing').get(`${B}/products`))).toMatchObject({ status: 401, body: { error: 'UNAUTHORIZED' } });
    const spare = await makePartnership(t.database, { supplier: 'alpsupply', reseller: 'rivalsupply', offers: [tour.id] });
    const client = partnerClient(t.app, spare.key);
    expect((await client.get(`${B}/products`)).statusCode).toBe(200);
    await t.database.asOwner((tx) => tx.execute(sql`update partnership set status = 'Suspended' where id = ${spare.partnershipId}`));
    forgetPartnerKeys();
    expect(octoError(await client.get(`${B}/products`))).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } });
    await t.database.asOwner((tx) => tx.execute(sql`update partnership set status = 'Active' where id = ${spare.partnershipId}`));
    await t.database.asOwner((tx) => tx.execute(sql`update api_key set revoked_at = now() where id = ${spare.keyId}`));
    forgetPartnerKeys();
    expect(octoError(await client.get(`${B}/products`))).toMatchObject({ status: 401, body: { error: 'UNAUTHORIZED' } });
    const used = (await t.database.asOwner((tx) => tx.execute(sql`select last_used_at from api_key where id = ${spare.keyId}`))) as unknown as { rows: { last_used_at: Date | null }[] };
    expect(used.rows[0]!.last_used_at).not.toBeNull();
    await endPartnership(spare.partnershipId);
  });

  it('a suspension between reserve and confirm refuses the confirm (the contract is read again under its lock)', async () => {
    const spare = await makePartnership(t.database, { supplier: 'alpsupply', reseller: 'rivalsupply', offers: [tour.id] });
    const client = partnerClient(t.app, spare.key);
    const slot = await departure(9);
    const uuid = randomUUID();
    expect((await client.post(`${B}/bookings`, { uuid, productId: tour.id, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: adults(1) })).statusCode).toBe(200);
    await t.database.asOwner((tx) => tx.execute(sql`update partnership set status = 'Suspended' where id = ${spare.partnershipId}`));
    // Within the key's two seconds in this process the call passes authentication; the sale does not.
    const res = await client.post(`${B}/bookings/${uuid}/confirm`, { contact });
    expect([400, 403]).toContain(res.statusCode);
    expect(res.json().error).toMatch(/BAD_REQUEST|FORBIDDEN/);
    const orders = (await t.database.asOwner((tx) => tx.execute(sql`select count(*)::int as n from orders where partnership_id = ${spare.partnershipId}`))) as unknown as { rows: { n: number }[] };
    expect(orders.rows[0]!.n).toBe(0);
    await endPartnership(spare.partnershipId);
  });

  it('another supplier’s booking uuid is not found, and is free here: a UUID is unique per supplier (issue 29)', async () => {
    const rival = partnerClient(t.app, other.key);
    const rivalProduct = (await rival.get(`${B}/products`)).json()[0].id as string;
    const [slot] = (await rival.post(`${B}/availability`, { productId: rivalProduct, optionId: 'DEFAULT', localDateStart: day(5), localDateEnd: day(5) })).json();
    const uuid = randomUUID();
    expect((await rival.post(`${B}/bookings`, { uuid, productId: rivalProduct, optionId: 'DEFAULT', availabilityId: slot.id, unitItems: [{ unitId: (await rival.get(`${B}/products/${rivalProduct}`)).json().options[0].units[0].id }] })).statusCode).toBe(200);
    expect(octoError(await octo.get(`${B}/bookings/${uuid}`))).toMatchObject({ status: 400, body: { error: 'INVALID_BOOKING_UUID', uuid } });
    expect(octoError(await octo.post(`${B}/bookings/${uuid}/cancel`))).toMatchObject({ status: 400, body: { error: 'INVALID_BOOKING_UUID' } });
    // Whether another supplier uses the UUID is not told: this supplier's booking of it is made.
    const mine = await departure(5);
    const taken = await reserve({ uuid, availabilityId: mine.id, unitItems: adults(1) });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ uuid, productId: tour.id, status: 'ON_HOLD' });
    expect((await departure(5)).vacancies).toBe(mine.vacancies - 1);
    expect((await rival.get(`${B}/bookings/${uuid}`)).json()).toMatchObject({ productId: rivalProduct, status: 'ON_HOLD' });
    expect((await octo.post(`${B}/bookings/${uuid}/cancel`)).json()).toMatchObject({ status: 'CANCELLED' });
    expect((await rival.get(`${B}/bookings/${uuid}`)).json()).toMatchObject({ status: 'ON_HOLD' });
  });

  it('limits calls per key: over the window’s count, 429 with Retry-After', async () => {
    const spare = await makePartnership(t.database, { supplier: 'alpsupply', reseller: 'rivalsupply', offers: [tour.id] });
    const client = partnerClient(t.app, spare.key);
    expect((await client.get(`${B}/supplier`)).statusCode).toBe(200);
    // The key has made its window's allowance (1200 by default) — set its counter there.
    await t.database.asOwner((tx) => tx.execute(sql`update rate_limit set count = 1200 where key = ${`api-key:${spare.keyId}`}`));
    // Each process adds its calls to the shared count every 200 ms (or 20 calls): the next call after that reads it.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const res = await client.get(`${B}/supplier`);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS' });
    // Another key is not affected.
    expect((await octo.get(`${B}/supplier`)).statusCode).toBe(200);
  });
});

describe('OCTO: confirming one uuid at once', () => {
  async function heldBooking() {
    const slot = await departure(10);
    const uuid = randomUUID();
    expect((await reserve({ uuid, availabilityId: slot.id, unitItems: adults(1) })).statusCode).toBe(200);
    return uuid;
  }
  const ordersOf = async (uuid: string) =>
    ((await t.database.asOwner((tx) => tx.execute(sql`select count(*)::int as n from orders o where o.partnership_id = ${partner.partnershipId} and o.reseller_reference = ${uuid}`))) as unknown as { rows: { n: number }[] }).rows[0]!.n;

  it('five confirms of one uuid make one order and all answer it', async () => {
    const uuid = await heldBooking();
    const answers = await Promise.all(Array.from({ length: 5 }, () => octo.post(`${B}/bookings/${uuid}/confirm`, { contact, resellerReference: uuid })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().supplierReference)).size).toBe(1);
    expect(await ordersOf(uuid)).toBe(1);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('with the reservation’s lock switched off, concurrent confirms are not all answered with the booking', async () => {
    lock.off = true;
    try {
      const uuid = await heldBooking();
      const answers = await Promise.all(Array.from({ length: 5 }, () => octo.post(`${B}/bookings/${uuid}/confirm`, { contact, resellerReference: uuid })));
      // Without the lock the confirms all find it ON_HOLD: one books, the others meet checkout's
      // refusal (its line is gone) and answer an error for a booking that was confirmed.
      expect(answers.filter((a) => a.statusCode !== 200).length).toBeGreaterThan(0);
      expect(await ordersOf(uuid)).toBe(1);
    } finally {
      lock.off = false;
    }
  });
});

describe('OCTO: the offer’s booking questions', () => {
  it('with the questions capability, a confirm without a required answer names the question (answers.<id>); with it, the booking is made', async () => {
    const octo = partnerClient(t.app, partner.key, 'octo/pricing, octo/questions');
    const question = await owner.post('/api/booking-questions/', { question: 'Can everyone swim?', answer_type: 'yes_no', required: true });
    expect(question.statusCode, question.body).toBe(201);
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { booking_questions: [question.json().id] })).statusCode).toBe(200);
    const slot = await departure(11);
    const uuid = randomUUID();
    expect((await reserve({ uuid, availabilityId: slot.id, unitItems: adults(1) })).statusCode).toBe(200);
    const refused = await octo.post(`${B}/bookings/${uuid}/confirm`, { contact });
    expect(octoError(refused)).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST', errorMessage: `answers.${question.json().id}: Please answer: Can everyone swim?` } });
    expect((await octo.get(`${B}/bookings/${uuid}`)).json()).toMatchObject({ status: 'ON_HOLD' });
    const done = await octo.post(`${B}/bookings/${uuid}/confirm`, { contact, answers: { [question.json().id]: 'yes' } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'CONFIRMED' });
  });
});
