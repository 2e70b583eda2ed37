import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { baseAccount, calendarFeed, experience, meetingPoint, role, slot, subscriptionTier, users } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';

/** A member's feed row, if they have one. */
export async function feedOf(ctx: TenantCtx, userId: string) {
  const [row] = await ctx.tx
    .select()
    .from(calendarFeed)
    .where(and(eq(calendarFeed.account_id, ctx.accountId), eq(calendarFeed.user_id, userId)));
  return row;
}

/** Replaces the member's feed with a new one (a new id): the old address stops answering. */
export async function replaceFeed(ctx: TenantCtx, userId: string) {
  await deleteFeed(ctx, userId);
  const [row] = await ctx.tx.insert(calendarFeed).values({ account_id: ctx.accountId, user_id: userId }).returning();
  return row!;
}

export async function deleteFeed(ctx: TenantCtx, userId: string) {
  const rows = await ctx.tx
    .delete(calendarFeed)
    .where(and(eq(calendarFeed.account_id, ctx.accountId), eq(calendarFeed.user_id, userId)))
    .returning({ id: calendarFeed.id });
  return rows.length > 0;
}

/** The organisation's subdomain (for the feed's address). */
export async function subdomainOf(ctx: TenantCtx) {
  const [row] = await ctx.tx.select({ subdomain: baseAccount.subdomain }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return row!.subdomain;
}

/**
 * A feed by its id, outside any tenant (the address is all a calendar app brings), with what decides
 * what it may show: its member (active?), their role and their organisation's plan. One query.
 */
export async function serverFeed(db: Db, id: string) {
  const [row] = await db
    .select({
      id: calendarFeed.id,
      account_id: calendarFeed.account_id,
      user_id: calendarFeed.user_id,
      is_active: users.is_active,
      language: users.language,
      is_owner: role.is_owner,
      permission_set_ids: role.permission_set_ids,
      subdomain: baseAccount.subdomain,
      organisation: baseAccount.name,
      languages: baseAccount.languages,
      time_zone: baseAccount.time_zone,
      features: subscriptionTier.features,
    })
    .from(calendarFeed)
    .innerJoin(users, eq(users.id, calendarFeed.user_id))
    .innerJoin(baseAccount, eq(baseAccount.id, calendarFeed.account_id))
    .leftJoin(role, eq(role.id, users.role_id))
    .leftJoin(subscriptionTier, eq(subscriptionTier.id, baseAccount.subscription_tier_id))
    .where(eq(calendarFeed.id, id));
  return row;
}

/**
 * The departures of a feed: open (not closed) slots with at least one seat booked, whose local day
 * is within `daysBack` before and `daysAhead` after today in `timeZone`, the earliest first, at most
 * `limit`; each with its offer's title and first meeting point. One statement, served by
 * slot_account_day_idx (account_id, local_date).
 */
export function departures(ctx: TenantCtx, window: { timeZone: string; daysBack: number; daysAhead: number; limit: number }) {
  const today = sql`(now() at time zone ${window.timeZone})::date`;
  return ctx.tx
    .select({
      id: slot.id,
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
      capacity: slot.capacity,
      booked: slot.booked,
      updated_at: slot.updated_at,
      title: experience.title,
      meeting_point: meetingPoint.name,
      meeting_address: meetingPoint.address,
    })
    .from(slot)
    .innerJoin(experience, and(eq(experience.account_id, slot.account_id), eq(experience.id, slot.experience_id)))
    .leftJoin(meetingPoint, and(eq(meetingPoint.account_id, slot.account_id), sql`${meetingPoint.id} = ${experience.meeting_point_ids}[1]`))
    .where(
      and(
        eq(slot.account_id, ctx.accountId),
        sql`${slot.local_date} between ${today} - ${window.daysBack}::int and ${today} + ${window.daysAhead}::int`,
        eq(slot.closed, false),
        gt(slot.booked, 0),
      ),
    )
    .orderBy(asc(slot.starts_at), asc(slot.id))
    .limit(window.limit);
}
