import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartLine, idempotencyKey, slot } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Checkout books exactly the lines the cart showed: a line whose hold ran out is re-held under its
 * slot's lock when its seats are still there and the slot open for sale, or refused with a 409 that
 * names it; and checkout honours an Idempotency-Key as Stripe does.
 */

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let member: Browser;
let exp: { id: string; category: string; rule: string };
const customer = { email: 'walk-in@example.com', first_name: 'Wanda', last_name: 'Walker' };
type Item = { code: string; detail: string; attr: string | null };
const items = (res: { json(): unknown }) => (res.json() as { errors: Item[] }).errors;
let day = 2;
/** A fresh 4-seat slot for each test: its own day, so tests do not share seats. */
async function freshSlot() {
  const date = addDays(todayIn('UTC'), day++);
  const res = await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${date}`);
  expect(res.statusCode, res.body).toBe(200);
  const [s] = res.json() as { id: string }[];
  await t.database.db.update(slot).set({ capacity: 4 }).where(eq(slot.id, s!.id));
  return s!.id;
}
const hold = (who: Browser, slotId: string, n: number) => who.post('/api/cart/lines/', { slot: slotId, quantities: { [exp.category]: n } });
const expire = (lineId: string) => t.database.db.update(cartLine).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(cartLine.id, lineId));
async function seats(slotId: string) {
  const [row] = await t.database.db.select({ booked: slot.booked, held: slot.held, capacity: slot.capacity }).from(slot).where(eq(slot.id, slotId));
  return row!;
}
async function cartIds(who: Browser) {
  const cart = (await who.get('/api/cart/')).json() as { lines: { id: string }[] };
  return cart.lines.map((l) => l.id);
}

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'till' });
  exp = await sellableExperience(owner, 'Harbour walk');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
  const roles = (await owner.get('/api/roles/')).json().results as { id: string; is_owner: boolean }[];
  member = (await inviteMember(t.app, sink, owner, 'till', 'second-till@example.com', roles.find((r) => r.is_owner)!.id)).member;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('checkout of held lines', () => {
  it('books only the lines it was shown: a line added since (another tab) stays in the cart', async () => {
    const s = await freshSlot();
    const a = (await hold(owner, s, 1)).json().id as string;
    const b = (await hold(owner, s, 2)).json().id as string;
    const res = await owner.post('/api/cart/checkout/', { customer, lines: [a] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().bookings.map((x: { seats: number }) => x.seats)).toEqual([1]);
    expect(await cartIds(owner)).toEqual([b]);
    expect(await seats(s)).toMatchObject({ booked: 1, held: 2 });
    await owner.delete(`/api/cart/lines/${b}/`);
  });

  it('re-holds a shown line whose hold ran out while its seats are still there, and says so in the audit trail', async () => {
    const s = await freshSlot();
    const line = (await hold(owner, s, 3)).json().id as string;
    await expire(line);
    expect(await cartIds(owner)).toEqual([]);
    const res = await owner.post('/api/cart/checkout/', { customer, lines: [line] });
    expect(res.statusCode, res.body).toBe(201);
    expect(await seats(s)).toMatchObject({ booked: 3, held: 0 });
    const audit = (await owner.get(`/api/orders/${res.json().id}/audit/`)).json() as { action: string; changes: Record<string, unknown> }[];
    expect(audit.find((e) => e.action === 'expired holds re-held')?.changes).toMatchObject({ lines: 1, seats: 3 });
  });

  it('never books a line whose hold ran out unless it was shown: without a list, only the lines the cart shows now', async () => {
    const s = await freshSlot();
    const line = (await hold(owner, s, 2)).json().id as string;
    await expire(line);
    const res = await owner.post('/api/cart/checkout/', { customer });
    expect(res.statusCode).toBe(409);
    expect(items(res)[0]).toMatchObject({ code: 'hold_expired', attr: 'lines' });
    expect(await seats(s)).toMatchObject({ booked: 0 });
    await owner.delete(`/api/cart/lines/${line}/`);
  });

  it('refuses with a 409 naming each line whose seats went to someone else, and books nothing', async () => {
    const s1 = await freshSlot();
    const s2 = await freshSlot();
    const kept = (await hold(owner, s1, 1)).json().id as string;
    const lost = (await hold(owner, s2, 3)).json().id as string;
    await expire(lost);
    // The colleague needs the seats: their hold sweeps the expired line and takes them.
    expect((await hold(member, s2, 4)).statusCode).toBe(201);
    const res = await owner.post('/api/cart/checkout/', { customer, lines: [kept, lost] });
    expect(res.statusCode).toBe(409);
    expect(items(res)).toEqual([{ code: 'hold_expired', detail: 'This line is no longer held: its hold ran out and the seats were released, or it was booked or removed in another window. Remove it and choose the time again.', attr: `lines.${lost}` }]);
    // Every line that cannot be booked is named at once: here a closed one beside the lost one.
    const s3 = await freshSlot();
    const closedLine = (await hold(owner, s3, 1)).json().id as string;
    await owner.patch(`/api/start-times/${s3}/`, { closed: true });
    const both = await owner.post('/api/cart/checkout/', { customer, lines: [closedLine, kept, lost] });
    expect(items(both).map((i) => i.attr)).toEqual([`lines.${closedLine}`, `lines.${lost}`]);
    await owner.delete(`/api/cart/lines/${closedLine}/`);
    expect(await seats(s1)).toMatchObject({ booked: 0, held: 1 });
    expect(await seats(s2)).toMatchObject({ booked: 0, held: 4 });
    // Removing the lost line is all it takes: the rest books.
    const again = await owner.post('/api/cart/checkout/', { customer, lines: [kept] });
    expect(again.statusCode, again.body).toBe(201);
    await member.delete(`/api/cart/lines/${(await cartIds(member))[0]}/`);
  });

  it('refuses a line whose slot was closed since the hold, naming it, whether or not its hold ran out', async () => {
    const s = await freshSlot();
    const fresh = (await hold(owner, s, 1)).json().id as string;
    const old = (await hold(owner, s, 1)).json().id as string;
    expect((await owner.patch(`/api/start-times/${s}/`, { closed: true })).statusCode).toBe(200);
    await expire(old);
    const res = await owner.post('/api/cart/checkout/', { customer, lines: [fresh, old] });
    expect(res.statusCode).toBe(409);
    expect(items(res).map((i) => i.attr)).toEqual([`lines.${fresh}`, `lines.${old}`]);
    expect(items(res)[0]!.detail).toMatch(/no longer open for sale/);
    expect(await seats(s)).toMatchObject({ booked: 0 });
    await owner.delete(`/api/cart/lines/${fresh}/`);
    await owner.delete(`/api/cart/lines/${old}/`);
  });

  it('refuses a departure past its booking cut-off whatever its hold says, and books a line whose hold ran out at today’s price', async () => {
    const s = await freshSlot();
    const live = (await hold(owner, s, 1)).json().id as string;
    // The offer now stops selling thirty days before a start: the departure is past its cut-off, the hold still live.
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { booking_cutoff_minutes: 30 * 24 * 60 })).statusCode).toBe(200);
    try {
      const res = await owner.post('/api/cart/checkout/', { customer, lines: [live] });
      expect(res.statusCode, res.body).toBe(409);
      expect(items(res)[0]).toMatchObject({ code: 'hold_expired', attr: `lines.${live}`, detail: expect.stringMatching(/no longer open for sale/) });
      expect(await seats(s)).toMatchObject({ booked: 0 });
    } finally {
      await owner.patch(`/api/experiences/${exp.id}/`, { booking_cutoff_minutes: 0 });
      await owner.delete(`/api/cart/lines/${live}/`);
    }
    // Held at 49.00, run out, the price raised meanwhile: booked at today's 55.00, as a new hold would be.
    const rate = (await owner.get(`/api/pricing-rates/?experience=${exp.id}`)).json().results[0] as { id: string; retail_price: number };
    const old = (await hold(owner, s, 2)).json() as { id: string; total: number };
    expect(old.total).toBe(2 * rate.retail_price);
    await expire(old.id);
    expect((await owner.patch(`/api/pricing-rates/${rate.id}/`, { retail_price: 5500 })).statusCode).toBe(200);
    try {
      // A promo code tried first is previewed on what the checkout will charge: today's 55.00, not the held 49.00.
      expect((await owner.post('/api/promo-codes/', { code: 'LATE10', kind: 'percent', percent_bp: 1000 })).statusCode).toBe(201);
      const preview = await owner.post('/api/cart/promo-code/', { code: 'LATE10', lines: [old.id] });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toMatchObject({ subtotal: 2 * 5500, total: 2 * 5500 - 1100, lines: [{ id: old.id, discount: 1100 }] });
      const res = await owner.post('/api/cart/checkout/', { customer, lines: [old.id] });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().total).toBe(2 * 5500);
    } finally {
      await owner.patch(`/api/pricing-rates/${rate.id}/`, { retail_price: rate.retail_price });
    }
  });

  it('re-holds atomically: an expired line raced by a hold that needs its seats is booked or taken, never both', async () => {
    for (let round = 0; round < 6; round++) {
      const s = await freshSlot();
      const line = (await hold(owner, s, 4)).json().id as string;
      await expire(line);
      const [checkedOut, taken] = await Promise.all([owner.post('/api/cart/checkout/', { customer, lines: [line] }), hold(member, s, 4)]);
      const wins = [checkedOut.statusCode === 201, taken.statusCode === 201].filter(Boolean).length;
      expect(wins, `${checkedOut.body} / ${taken.body}`).toBe(1);
      if (checkedOut.statusCode !== 201) expect(items(checkedOut)[0]).toMatchObject({ code: 'hold_expired', attr: `lines.${line}` });
      const after = await seats(s);
      expect(after.booked + after.held).toBeLessThanOrEqual(after.capacity);
      if (taken.statusCode === 201) await member.delete(`/api/cart/lines/${taken.json().id}/`);
    }
  });
});

describe('Idempotency-Key on checkout', () => {
  it('replays the first answer for the same key and body, refuses the key with another body (422), and forgets it after 24 hours', async () => {
    const s = await freshSlot();
    const line = (await hold(owner, s, 2)).json().id as string;
    const send = (body: object) => owner.request('POST', '/api/cart/checkout/', body, { 'idempotency-key': 'till-checkout-1' });
    const first = await send({ customer, lines: [line] });
    expect(first.statusCode, first.body).toBe(201);
    const retry = await send({ lines: [line], customer });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().id).toBe(first.json().id);
    expect(await seats(s)).toMatchObject({ booked: 2 });

    const other = await send({ customer: { ...customer, first_name: 'Other' }, lines: [line] });
    expect(other.statusCode).toBe(422);
    expect(items(other)[0]).toMatchObject({ code: 'idempotency_error', attr: 'Idempotency-Key' });

    // A day later the key is forgotten: the same key is a new request (here: nothing left to book).
    await t.database.db.update(idempotencyKey).set({ created_at: sql`now() - interval '24 hours 1 minute'` }).where(eq(idempotencyKey.key, 'till-checkout-1'));
    const later = await send({ customer: { ...customer, first_name: 'Other' }, lines: [line] });
    expect(later.statusCode).toBe(409);
    expect(items(later)[0]).toMatchObject({ code: 'hold_expired', attr: `lines.${line}` });
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });

  it('books once when retries of one checkout race', async () => {
    const s = await freshSlot();
    const line = (await hold(owner, s, 1)).json().id as string;
    const body = { customer, lines: [line] };
    const results = await Promise.all(Array.from({ length: 4 }, () => owner.request('POST', '/api/cart/checkout/', body, { 'idempotency-key': 'till-race' })));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect(await seats(s)).toMatchObject({ booked: 1, held: 0 });
  });
});
