import { eq, sql } from 'drizzle-orm';
import { baseAccount, bookingQuestion, cartLine, experience, inventoryItem, slot } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { execute } from '../../../db/execute';

/** The capacity calendar, editing a slot, and the organisation's booking settings and options. */

/** Per day across the organisation (or one experience): capacity, booked, held, remaining — one query. */
export async function capacityByDay(ctx: TenantCtx, q: { from: string; to: string; experience?: string }) {
  const rows = (await execute<{ date: string; slots: number; capacity: number; booked: number; held: number; remaining: number }>(ctx.tx, sql`
    select s.local_date::text as date, count(*)::int as slots, sum(s.capacity)::int as capacity, sum(s.booked)::int as booked,
           (sum(s.held) - coalesce(sum(x.seats), 0))::int as held,
           sum(tourdesk_seats_left(s.capacity, s.guide_seats, s.booked, s.held, coalesce(x.seats, 0)::int))::int as remaining
    from ${slot} s
    left join lateral (select sum(l.seats) as seats from ${cartLine} l where l.slot_id = s.id and l.expires_at <= now()) x on true
    where s.account_id = ${ctx.accountId} and s.local_date between ${q.from} and ${q.to} and not s.closed
      ${q.experience ? sql`and s.experience_id = ${q.experience}` : sql``}
    group by s.local_date order by s.local_date`));
  return rows.rows;
}

/** Sets a slot's capacity and closed flag, marking what is set as set by hand (regeneration keeps it). */
export async function setSlotByHand(ctx: TenantCtx, id: string, body: { capacity?: number; closed?: boolean }) {
  await ctx.tx
    .update(slot)
    .set({
      ...body,
      ...(body.capacity !== undefined ? { capacity_by_hand: true } : {}),
      ...(body.closed !== undefined ? { closed_by_hand: body.closed } : {}),
      updated_at: new Date(),
    })
    .where(eq(slot.id, id));
}

/** The organisation's default capacity for new schedules. */
export async function defaultCapacity(ctx: TenantCtx) {
  const [a] = await ctx.tx.select({ capacity: baseAccount.default_capacity }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return a!.capacity;
}

/** Changes the organisation's hold time and default cutoff. */
export async function updateBookingSettings(ctx: TenantCtx, patch: { hold_minutes?: number; default_cutoff_minutes?: number }) {
  await ctx.tx.update(baseAccount).set({ ...patch, updated_at: new Date() }).where(eq(baseAccount.id, ctx.accountId));
  // A hold never outlives its departure's cut-off: a default raised now ends the holds already made.
  if (patch.default_cutoff_minutes !== undefined) await ctx.tx.execute(sql`select tourdesk_cut_holds(${ctx.accountId}::uuid, null)`);
}

/** The inventory items some experience of the organisation offers as extras, by name. */
export async function offeredExtras(ctx: TenantCtx) {
  const extras = (await execute<{ id: string; name: string; price: number; currency: string }>(ctx.tx, sql`
    select i.id, i.name, i.price, i.currency from ${inventoryItem} i
    where i.account_id = ${ctx.accountId}
      and exists (select 1 from ${experience} e where e.account_id = i.account_id and i.id = any(e.extra_item_ids))
    order by lower(i.name), i.id`));
  return extras.rows;
}

/** The organisation's booking questions, oldest first. */
export async function bookingQuestions(ctx: TenantCtx) {
  return ctx.tx
    .select({ id: bookingQuestion.id, question: bookingQuestion.question, answer_type: bookingQuestion.answer_type, choices: bookingQuestion.choices, required: bookingQuestion.required, per_participant: bookingQuestion.per_participant })
    .from(bookingQuestion)
    .where(eq(bookingQuestion.account_id, ctx.accountId))
    .orderBy(bookingQuestion.created_at, bookingQuestion.id);
}
