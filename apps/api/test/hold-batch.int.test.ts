import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, cartLine, slot, users } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * tourdesk_hold_many (migrations 0016, 0018), called as the API calls it: several holds for one
 * slot in one statement, each with its own outcome; and what replaced cart_line's foreign keys.
 */
const ZONE = 'Europe/Zurich';
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let accountId: string;
let exp: { id: string; category: string; rule: string };
let slots: { id: string }[];
const buyers: string[] = [];

interface Row {
  item: number;
  error_code: string | null;
  error_message: string | null;
  error_hint: string | null;
  id: string | null;
  cart_id: string | null;
  seats: number | null;
}

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'batch' });
  const me = (await owner.get('/api/users/me/')).json();
  accountId = me.base_account.id;
  await t.database.db.update(baseAccount).set({ time_zone: ZONE }).where(eq(baseAccount.id, accountId));
  exp = await sellableExperience(owner, 'Batch tour');
  await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' });
  await owner.delete(`/api/schedule-rules/${exp.rule}/`);
  await owner.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['09:00', '12:00', '15:00'], capacity: 8 });
  slots = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(ZONE), 3)}`)).json();
  const made = await t.database.db
    .insert(users)
    .values(['a', 'b', 'c'].map((n) => ({ account_id: accountId, email: `buyer-${n}@batch.test`, is_active: true })))
    .returning({ id: users.id });
  buyers.push(...made.map((u) => u.id));
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function holdMany(slotId: string, items: { user: string; quantities: Record<string, number> }[]) {
  const result = (await t.database.db.execute(sql`select * from tourdesk_hold_many(${accountId}::uuid, ${slotId}::uuid, ${JSON.stringify(items)}::jsonb)`)) as unknown as { rows: Row[] };
  return result.rows;
}
const seatsOf = async (slotId: string) => {
  const [s] = await t.database.db.select({ held: slot.held }).from(slot).where(eq(slot.id, slotId));
  const lines = (await t.database.db.execute(sql`select coalesce(sum(seats), 0)::int as n from ${cartLine} where slot_id = ${slotId}::uuid`)) as unknown as { rows: { n: number }[] };
  return { held: s!.held, lines: Number(lines.rows[0]!.n) };
};

describe('holds gathered in one statement', () => {
  it('gives each hold its own outcome: granted in order while seats remain, errors on their own', async () => {
    const [a, b, c] = buyers as [string, string, string];
    const rows = await holdMany(slots[0]!.id, [
      { user: a, quantities: { [exp.category]: 3 } },
      { user: b, quantities: { [crypto.randomUUID()]: 1 } },
      { user: c, quantities: { [exp.category]: 4 } },
      { user: a, quantities: { [exp.category]: 2 } },
    ]);
    const of = (item: number) => rows.filter((r) => r.item === item);
    // 3 + 4 + 2 = 9 seats asked for 8: the first two fit, the third is refused with what was left.
    expect(of(0).map((r) => r.seats)).toEqual([3]);
    expect(of(1)).toMatchObject([{ error_code: 'TD400', error_message: 'Unknown pricing category.', error_hint: 'quantities' }]);
    expect(of(2).map((r) => r.seats)).toEqual([4]);
    expect(of(3)).toMatchObject([{ error_code: 'TD409', error_message: 'Sold out: only 1 seat left in this time slot.', error_hint: 'quantities' }]);
    // The refused line is gone, and slot.held is exactly the seats of the lines that stayed.
    expect(await seatsOf(slots[0]!.id)).toEqual({ held: 7, lines: 7 });
  });

  it('answers each hold with its new line; a cart keeps its lines in the order they were made', async () => {
    const [, b] = buyers as [string, string];
    const first = await holdMany(slots[1]!.id, [{ user: b, quantities: { [exp.category]: 1 } }]);
    const second = await holdMany(slots[1]!.id, [
      { user: b, quantities: { [exp.category]: 2 } },
      { user: b, quantities: { [exp.category]: 3 } },
    ]);
    expect(first.map((r) => r.seats)).toEqual([1]);
    expect(second.map((r) => [r.item, r.seats])).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(new Set([...first, ...second].map((r) => r.cart_id)).size).toBe(1);
    const cart = (await t.database.db.execute(sql`select id, seats from cart_line_api where cart_id = ${first[0]!.cart_id}::uuid and slot_id = ${slots[1]!.id}::uuid order by created_at, id`)) as unknown as { rows: { id: string; seats: number }[] };
    expect(cart.rows).toEqual([first[0]!, ...second].map((r) => ({ id: r.id, seats: r.seats })));
    expect(await seatsOf(slots[1]!.id)).toEqual({ held: 6, lines: 6 });
  });

  it('makes the carts of many new callers in one batch, each its own', async () => {
    const made = await t.database.db
      .insert(users)
      .values(Array.from({ length: 70 }, (_, i) => ({ account_id: accountId, email: `many-${i}@batch.test`, is_active: true })))
      .returning({ id: users.id });
    await t.database.db.update(slot).set({ capacity: 100 }).where(eq(slot.id, slots[2]!.id));
    const rows = await holdMany(slots[2]!.id, made.map((u) => ({ user: u.id, quantities: { [exp.category]: 1 } })));
    expect(rows.filter((r) => r.error_code)).toEqual([]);
    expect(rows.map((r) => r.item)).toEqual(made.map((_, i) => i));
    const owners = (await t.database.db.execute(sql`select c.user_id from cart_line l join cart c on c.id = l.cart_id where l.id in ${rows.map((r) => r.id!)}`)) as unknown as { rows: { user_id: string }[] };
    expect(new Set(owners.rows.map((r) => r.user_id))).toEqual(new Set(made.map((u) => u.id)));
    expect(new Set(rows.map((r) => r.cart_id)).size).toBe(70);
    await t.database.db.delete(cartLine).where(eq(cartLine.slot_id, slots[2]!.id));
    await t.database.db.update(slot).set({ capacity: 8 }).where(eq(slot.id, slots[2]!.id));
    expect(await seatsOf(slots[2]!.id)).toEqual({ held: 0, lines: 0 });
  });

  it('gives the seats of expired lines to the holds that need them', async () => {
    const [a, , c] = buyers as [string, string, string];
    const target = slots[2]!.id;
    expect((await holdMany(target, [{ user: a, quantities: { [exp.category]: 8 } }])).find((r) => r.error_code)).toBeUndefined();
    await t.database.db.update(cartLine).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(cartLine.slot_id, target));
    const rows = await holdMany(target, [{ user: c, quantities: { [exp.category]: 5 } }]);
    expect(rows.find((r) => r.error_code)).toBeUndefined();
    expect(await seatsOf(target)).toEqual({ held: 5, lines: 5 });
  });

  it('refuses a line written around the hold function that does not fit, or whose slot does not exist (its foreign key)', async () => {
    const cartId = ((await t.database.db.execute(sql`select id from cart where user_id = ${buyers[0]}::uuid`)) as unknown as { rows: { id: string }[] }).rows[0]!.id;
    const line = (slotId: string, seats: number) =>
      t.database.db.insert(cartLine).values({ account_id: accountId, cart_id: cartId, slot_id: slotId, quantities: {}, seats, total: 0, currency: 'EUR', expires_at: new Date(Date.now() + 600_000) });
    await expect(line(slots[0]!.id, 2)).rejects.toMatchObject({ cause: { code: 'TD409' } });
    await expect(line(crypto.randomUUID(), 1)).rejects.toMatchObject({ cause: { code: '23503', constraint: 'cart_line_slot_fk' } });
    await line(slots[0]!.id, 1);
    expect(await seatsOf(slots[0]!.id)).toEqual({ held: 8, lines: 8 });
  });

  it('deletes a slot’s lines with the slot (the foreign key’s cascade)', async () => {
    const target = slots[1]!.id;
    expect((await seatsOf(target)).lines).toBeGreaterThan(0);
    await t.database.db.delete(slot).where(eq(slot.id, target));
    expect(await seatsOf(target).catch(() => null)).toBeNull();
    const left = (await t.database.db.execute(sql`select count(*)::int as n from ${cartLine} where slot_id = ${target}::uuid`)) as unknown as { rows: { n: number }[] };
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});
