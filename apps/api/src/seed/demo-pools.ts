import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { experience, inventoryItem, pricingRate, scheduleRule } from '../db/schema';
import { todayIn } from '../lib/local-time';
import { regenerateSlots } from '../modules/availability/slots';
import { setUsage } from '../modules/pools/service';

/**
 * Resource pools' demo (issue 34): the sunrise kayak and a shorter kayak taster (10:00 and 14:00,
 * 8 seats, not in the store) share one pool of 12 kayaks, one per adult or child (infants ride
 * along); wetsuits are rented as an extra of both, each taking one of 10 wetsuits, which need 30
 * minutes to dry after use. The taster at 10:00 meets the sunrise kayak's 09:30 departure, so on a
 * day with bookings at 09:30 (tomorrow's check-in demo) it is limited by the kayaks rather than its
 * own 8 seats: the capacity page marks it and draws the pool's day. Run after the bookings: the
 * usage is set as the offer editor sets it, and the bookings already sold then take their kayaks.
 */
export async function seedPoolsDemo(tx: Db, accountId: string, kayak: { id: string; adult: string; child: string }) {
  const ctx = { tx, accountId, currency: 'CHF' };
  const [kayaks, wetsuits, rental] = await tx
    .insert(inventoryItem)
    .values([
      { account_id: accountId, type: 'Equipment', name: 'Kayaks', description: 'Single sit-on-top kayaks at pier 3.', price: 0, currency: 'CHF', tags: ['water'], stock: 12 },
      { account_id: accountId, type: 'Equipment', name: 'Wetsuits', description: 'Rinsed and dried after each use.', price: 0, currency: 'CHF', tags: ['water'], stock: 10, buffer_after_minutes: 30 },
      { account_id: accountId, type: 'Extras', name: 'Wetsuit rental', price: 1000, currency: 'CHF', tags: ['water'], translations: { de: { name: 'Neoprenanzug-Miete' }, fr: { name: 'Location de combinaison' } } },
    ])
    .returning();
  const [taster] = await tx
    .insert(experience)
    .values({
      account_id: accountId,
      title: 'Kayak Taster on Lake Lucerne',
      status: 'Active',
      type: 'Ticket & Passes',
      short_description: 'An hour on the water to try a kayak.',
      long_description: '<p>A first paddle close to the shore with a guide: the basics, a loop of the bay, back in an hour.</p>',
      duration_minutes: 60,
      languages: ['en', 'de'],
      max_participants: 8,
      extra_item_ids: [rental!.id],
    })
    .returning();
  for (const [category, retail, net] of [[kayak.adult, 3900, 3100], [kayak.child, 2500, 2000]] as const) {
    await tx.insert(pricingRate).values({ account_id: accountId, experience_id: taster!.id, pricing_category_id: category, retail_price: retail, net_price: net, currency: 'CHF' });
  }
  await tx.insert(scheduleRule).values({ account_id: accountId, experience_id: taster!.id, valid_from: todayIn('Europe/Zurich'), start_times: ['10:00', '14:00'], capacity: 8 });
  await regenerateSlots(ctx, taster!.id);
  const [sunrise] = await tx.select({ extras: experience.extra_item_ids }).from(experience).where(eq(experience.id, kayak.id));
  await tx.update(experience).set({ extra_item_ids: [...(sunrise?.extras ?? []), rental!.id] }).where(eq(experience.id, kayak.id));
  for (const id of [kayak.id, taster!.id]) {
    await setUsage(ctx, id, {
      rules: [
        { pool: kayaks!.id, per: 'seat', pricing_category: kayak.adult, extra: null, units: 1 },
        { pool: kayaks!.id, per: 'seat', pricing_category: kayak.child, extra: null, units: 1 },
        { pool: wetsuits!.id, per: 'extra', pricing_category: null, extra: rental!.id, units: 1 },
      ],
    });
  }
}
