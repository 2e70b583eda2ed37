import { and, asc, eq, sql } from 'drizzle-orm';
import { execute } from '../../db/execute';
import { pgError } from '../../lib/db-errors';
import { experience, guide, guideAssignment, guideDayOff, slot, users } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';

/** The guides module's only database access: who guides, days off, assignments, and what auto-assignment reads. */

/** A member's name as the guides' pages show it (no name: the e-mail), as tourdesk_guides_of() writes it. */
const nameOf = sql<string>`coalesce(nullif(trim(${users.first_name} || ' ' || ${users.last_name}), ''), ${users.email})`;

/** Active team members, whether each guides, and their days off that end on or after `since`. */
export async function members(ctx: TenantCtx, since: string) {
  return ctx.tx
    .select({
      id: users.id,
      name: nameOf,
      email: users.email,
      guides: sql<boolean>`exists (select 1 from guide g where g.account_id = users.account_id and g.user_id = users.id)`,
      days_off: sql<{ id: string; starts_on: string; ends_on: string; note: string }[]>`coalesce((select json_agg(json_build_object('id', d.id, 'starts_on', d.starts_on, 'ends_on', d.ends_on, 'note', d.note) order by d.starts_on, d.id)
        from guide_day_off d where d.account_id = users.account_id and d.user_id = users.id and d.ends_on >= ${since}::date), '[]')`,
    })
    .from(users)
    .where(and(eq(users.account_id, ctx.accountId), eq(users.is_active, true)))
    .orderBy(asc(nameOf), asc(users.id));
}

/** A team member of the organisation (undefined: none with this id), and whether they guide. */
export async function member(ctx: TenantCtx, userId: string) {
  const [row] = await ctx.tx
    .select({
      id: users.id,
      name: nameOf,
      is_active: users.is_active,
      guides: sql<boolean>`exists (select 1 from guide g where g.account_id = users.account_id and g.user_id = users.id)`,
    })
    .from(users)
    .where(and(eq(users.account_id, ctx.accountId), eq(users.id, userId)));
  return row;
}

export async function setGuides(ctx: TenantCtx, userId: string, on: boolean) {
  if (on) await ctx.tx.insert(guide).values({ account_id: ctx.accountId, user_id: userId }).onConflictDoNothing();
  else await ctx.tx.delete(guide).where(and(eq(guide.account_id, ctx.accountId), eq(guide.user_id, userId)));
}

export async function insertDayOff(ctx: TenantCtx, userId: string, d: { starts_on: string; ends_on: string; note: string }) {
  await ctx.tx.insert(guideDayOff).values({ account_id: ctx.accountId, user_id: userId, ...d });
}

export async function deleteDayOff(ctx: TenantCtx, userId: string, id: string) {
  const gone = await ctx.tx
    .delete(guideDayOff)
    .where(and(eq(guideDayOff.account_id, ctx.accountId), eq(guideDayOff.user_id, userId), eq(guideDayOff.id, id)))
    .returning({ id: guideDayOff.id });
  return gone.length > 0;
}

/** The member's day off covering a local date, if any. */
export async function dayOffOn(ctx: TenantCtx, userId: string, date: string) {
  const [row] = await ctx.tx
    .select({ starts_on: guideDayOff.starts_on, ends_on: guideDayOff.ends_on })
    .from(guideDayOff)
    .where(and(eq(guideDayOff.account_id, ctx.accountId), eq(guideDayOff.user_id, userId), sql`${date}::date between ${guideDayOff.starts_on} and ${guideDayOff.ends_on}`))
    .limit(1);
  return row;
}

/** A departure as the guides see it: its window, offer, seats and guides (the slot locked by the caller). */
export async function departure(ctx: TenantCtx, slotId: string) {
  const [row] = await ctx.tx
    .select({
      id: slot.id,
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
      local_date: slot.local_date,
      local_time: slot.local_time,
      booked: slot.booked,
      held: slot.held,
      guide_seats: slot.guide_seats,
      title: experience.title,
      guests_per_guide: experience.guests_per_guide,
      guides: sql<{ id: string; name: string }[]>`tourdesk_guides_of(${slot.id})`,
    })
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.id, slotId)));
  return row;
}

/** Guides who could take a departure: not on it, not off that day, free over its window. */
export async function availableFor(ctx: TenantCtx, d: { id: string; starts_at: Date; ends_at: Date; local_date: string }) {
  return ctx.tx
    .select({ id: users.id, name: nameOf })
    .from(guide)
    .innerJoin(users, eq(users.id, guide.user_id))
    .where(
      and(
        eq(guide.account_id, ctx.accountId),
        eq(users.is_active, true),
        sql`not exists (select 1 from ${guideDayOff} o where o.account_id = ${guide.account_id} and o.user_id = ${guide.user_id} and ${d.local_date}::date between o.starts_on and o.ends_on)`,
        sql`not exists (select 1 from ${guideAssignment} a where a.account_id = ${guide.account_id} and a.user_id = ${guide.user_id}
              and (a.slot_id = ${d.id}::uuid or tstzrange(a.starts_at, a.ends_at) && tstzrange(${d.starts_at.toISOString()}::timestamptz, ${d.ends_at.toISOString()}::timestamptz)))`,
      ),
    )
    .orderBy(asc(nameOf), asc(users.id));
}

export type InsertOutcome = 'made' | 'overlap' | 'already';

/**
 * Assigns a guide, the departure's window copied from its slot. In a savepoint, so a refusal by the
 * exclusion constraint (`guide_assignment_no_overlap`: another departure of theirs overlaps) or
 * the unique key (already on it) leaves the caller's transaction usable to say what is in the way.
 */
export async function insertAssignment(ctx: TenantCtx, slotId: string, userId: string): Promise<InsertOutcome> {
  try {
    await ctx.tx.transaction(async (sp) => {
      await execute(sp, sql`insert into ${guideAssignment} (account_id, slot_id, user_id, starts_at, ends_at)
        select s.account_id, s.id, ${userId}::uuid, s.starts_at, s.ends_at from ${slot} s where s.account_id = ${ctx.accountId} and s.id = ${slotId}::uuid`);
    });
    return 'made';
  } catch (error) {
    const pg = pgError(error);
    if (pg?.code === '23P01') return 'overlap';
    if (pg?.code === '23505') return 'already';
    throw error;
  }
}

/** The member's departure that overlaps a window (the one the exclusion constraint met). */
export async function overlapping(ctx: TenantCtx, userId: string, startsAt: Date, endsAt: Date) {
  const [row] = await ctx.tx
    .select({ title: experience.title, local_date: slot.local_date, local_time: slot.local_time, starts_at: slot.starts_at, ends_at: slot.ends_at })
    .from(guideAssignment)
    .innerJoin(slot, eq(slot.id, guideAssignment.slot_id))
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .where(
      and(
        eq(guideAssignment.account_id, ctx.accountId),
        eq(guideAssignment.user_id, userId),
        sql`tstzrange(${guideAssignment.starts_at}, ${guideAssignment.ends_at}) && tstzrange(${startsAt.toISOString()}::timestamptz, ${endsAt.toISOString()}::timestamptz)`,
      ),
    )
    .limit(1);
  return row;
}

export async function deleteAssignment(ctx: TenantCtx, slotId: string, userId: string) {
  const gone = await ctx.tx
    .delete(guideAssignment)
    .where(and(eq(guideAssignment.account_id, ctx.accountId), eq(guideAssignment.slot_id, slotId), eq(guideAssignment.user_id, userId)))
    .returning({ id: guideAssignment.id });
  return gone.length > 0;
}

/**
 * The open departures of a range of local dates, by start, each locked (FOR NO KEY UPDATE, in id
 * order as every writer of slots) so their seats and guides hold still while guides are given.
 */
export async function departuresToStaff(ctx: TenantCtx, from: string, to: string) {
  await execute(ctx.tx, sql`select 1 from ${slot} where account_id = ${ctx.accountId} and local_date between ${from}::date and ${to}::date and not closed order by id for no key update`);
  return (
    await execute<{ id: string; starts_at: Date; ends_at: Date; local_date: string; local_time: string; title: string; per: number | null; taken: number; assigned: string[] }>(
      ctx.tx,
      sql`select s.id, s.starts_at, s.ends_at, s.local_date::text as local_date, s.local_time, e.title, e.guests_per_guide as per, s.booked + s.held as taken,
            coalesce((select array_agg(a.user_id::text) from ${guideAssignment} a where a.slot_id = s.id), '{}') as assigned
          from ${slot} s join ${experience} e on e.id = s.experience_id
          where s.account_id = ${ctx.accountId} and s.local_date between ${from}::date and ${to}::date and not s.closed
          order by s.starts_at, e.title, s.id`,
    )
  ).rows.map((r) => ({ ...r, starts_at: new Date(r.starts_at), ends_at: new Date(r.ends_at) }));
}

/** Every active guide, with their days off and their assignments between two local dates. */
export async function guidesBetween(ctx: TenantCtx, from: string, to: string) {
  return (
    await execute<{ id: string; name: string; days_off: { starts_on: string; ends_on: string }[]; work: { slot: string; local_date: string; starts_at: string; ends_at: string }[] }>(
      ctx.tx,
      sql`select u.id, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) as name,
            coalesce((select json_agg(json_build_object('starts_on', o.starts_on, 'ends_on', o.ends_on)) from ${guideDayOff} o
                      where o.account_id = g.account_id and o.user_id = g.user_id and o.ends_on >= ${from}::date and o.starts_on <= ${to}::date), '[]') as days_off,
            coalesce((select json_agg(json_build_object('slot', s.id, 'local_date', s.local_date, 'starts_at', a.starts_at, 'ends_at', a.ends_at))
                      from ${guideAssignment} a join ${slot} s on s.id = a.slot_id
                      where a.account_id = g.account_id and a.user_id = g.user_id and s.local_date between ${from}::date and ${to}::date), '[]') as work
          from ${guide} g join ${users} u on u.id = g.user_id
          where g.account_id = ${ctx.accountId} and u.is_active
          order by 2, u.id`,
    )
  ).rows;
}

/** The member's departures between two local dates, by start. */
export async function mySlots(ctx: TenantCtx, userId: string, from: string, to: string) {
  const rows = await ctx.tx
    .select({ id: slot.id })
    .from(guideAssignment)
    .innerJoin(slot, eq(slot.id, guideAssignment.slot_id))
    .where(and(eq(guideAssignment.account_id, ctx.accountId), eq(guideAssignment.user_id, userId), sql`${slot.local_date} between ${from}::date and ${to}::date`))
    .orderBy(asc(slot.starts_at));
  return rows.map((r) => r.id);
}
