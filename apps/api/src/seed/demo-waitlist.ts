import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { slot, store, waitlistEntry } from '../db/schema';
import { addDays, todayIn } from '../lib/local-time';

/**
 * The demo's waiting list (issue 32): the kayak tour's first departure six weeks ahead is sold out
 * — its boats are away for repair, so staff set its capacity to the seats taken (none) — and two
 * customers wait for it in the "kayak" store: Nora (two seats, English) and Jonas (one, German).
 * Raising its capacity on the capacity page offers them the seats (Nora first, if two fit). Out of
 * the way of every other demo figure: no order, no booking, no hold.
 */
export async function seedWaitlistDemo(tx: Db, accountId: string, kayak: { id: string }) {
  const [shop] = await tx.select().from(store).where(and(eq(store.account_id, accountId), eq(store.slug, 'kayak')));
  if (!shop) return;
  const day = addDays(todayIn('Europe/Zurich'), 42);
  const [departure] = await tx
    .select()
    .from(slot)
    .where(and(eq(slot.account_id, accountId), eq(slot.experience_id, kayak.id), eq(slot.local_date, day)))
    .orderBy(asc(slot.starts_at))
    .limit(1);
  if (!departure) return;
  await tx
    .update(slot)
    .set({ capacity: sql`${slot.booked} + ${slot.held}`, capacity_by_hand: true, updated_at: new Date() })
    .where(eq(slot.id, departure.id));
  await tx.insert(waitlistEntry).values([
    { account_id: accountId, slot_id: departure.id, store_id: shop.id, email: 'nora.lind@example.com', name: 'Nora Lind', seats: 2, language: 'en', created_at: sql`now() - interval '3 days'` },
    { account_id: accountId, slot_id: departure.id, store_id: shop.id, email: 'jonas.keller@example.com', name: 'Jonas Keller', seats: 1, language: 'de', created_at: sql`now() - interval '1 day'` },
  ]);
}
