import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/execute';
import { experience, inventoryItem, poolUsage, pricingCategory } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';

/** The pools module's only database access: an offer's usage rules, and a pool's use over a day (02-pools.sql). */

const isoOf = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The offer (undefined: not the organisation's). */
export async function offer(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select({ id: experience.id, title: experience.title }).from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, id)));
  return row;
}

/** An offer's usage rules with their pools' names, in the order they were given. */
export async function usageOf(ctx: TenantCtx, experienceId: string) {
  return ctx.tx
    .select({ id: poolUsage.id, pool_id: poolUsage.pool_id, pool_name: inventoryItem.name, per: poolUsage.per, pricing_category: poolUsage.pricing_category_id, extra: poolUsage.extra_id, units: poolUsage.units })
    .from(poolUsage)
    .innerJoin(inventoryItem, eq(inventoryItem.id, poolUsage.pool_id))
    .where(and(eq(poolUsage.account_id, ctx.accountId), eq(poolUsage.experience_id, experienceId)))
    .orderBy(asc(poolUsage.created_at), asc(poolUsage.id));
}

/** The organisation's inventory items among these ids, with what makes one a pool or an extra. */
export async function itemsByIds(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return [];
  return ctx.tx
    .select({ id: inventoryItem.id, name: inventoryItem.name, type: inventoryItem.type, stock: inventoryItem.stock })
    .from(inventoryItem)
    .where(and(eq(inventoryItem.account_id, ctx.accountId), inArray(inventoryItem.id, ids)));
}

/** The organisation's pricing categories among these ids. */
export async function categoriesByIds(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return [];
  return ctx.tx.select({ id: pricingCategory.id }).from(pricingCategory).where(and(eq(pricingCategory.account_id, ctx.accountId), inArray(pricingCategory.id, ids)));
}

/**
 * Replaces an offer's usage rules, under the lock order of every writer: its departures to come
 * first (id order), then the pools it took from and takes from now (id order, tourdesk_lock_pools
 * after the new rules are written). What its bookings not cancelled and live holds on departures
 * to come take is then worked out again (the BEFORE triggers recompute `pools` when their
 * quantities are written), and the first departure a pool would then be over at some moment is
 * answered (undefined: none), for the caller to refuse the change.
 */
export async function replaceUsage(
  ctx: TenantCtx,
  experienceId: string,
  rules: { pool: string; per: string; pricing_category: string | null; extra: string | null; units: number }[],
) {
  await rowsOf(ctx.tx, sql`select 1 from slot s where s.account_id = ${ctx.accountId} and s.experience_id = ${experienceId}::uuid and s.ends_at > now() order by s.id for no key update`);
  const before = await ctx.tx.selectDistinct({ pool: poolUsage.pool_id }).from(poolUsage).where(and(eq(poolUsage.account_id, ctx.accountId), eq(poolUsage.experience_id, experienceId)));
  const pools = [...new Set([...before.map((b) => b.pool), ...rules.map((r) => r.pool)])].sort();
  if (pools.length > 0) {
    await rowsOf(ctx.tx, sql`select 1 from inventory_item i where i.account_id = ${ctx.accountId} and i.id in ${pools.length ? sql`(${sql.join(pools.map((p) => sql`${p}::uuid`), sql`, `)})` : sql`(null)`} order by i.id for no key update`);
  }
  await ctx.tx.delete(poolUsage).where(and(eq(poolUsage.account_id, ctx.accountId), eq(poolUsage.experience_id, experienceId)));
  if (rules.length > 0) {
    const now = Date.now();
    await ctx.tx.insert(poolUsage).values(
      rules.map((r, i) => ({
        account_id: ctx.accountId,
        experience_id: experienceId,
        pool_id: r.pool,
        per: r.per,
        pricing_category_id: r.pricing_category,
        extra_id: r.extra,
        units: r.units,
        // Kept in the order given: created_at one millisecond apart.
        created_at: new Date(now + i),
      })),
    );
  }
  await rowsOf(ctx.tx, sql`update booking b set quantities = b.quantities from slot s
    where b.account_id = ${ctx.accountId} and b.experience_id = ${experienceId}::uuid and b.status <> 'Canceled' and s.id = b.slot_id and s.ends_at > now()
    returning b.id`);
  await rowsOf(ctx.tx, sql`update cart_line l set quantities = l.quantities from slot s
    where l.account_id = ${ctx.accountId} and s.id = l.slot_id and s.experience_id = ${experienceId}::uuid and l.expires_at > now()
    returning l.id`);
  const [over] = await rowsOf<{ pool: string; free: number; local_date: string; local_time: string }>(
    ctx.tx,
    sql`select i.name as pool, tourdesk_pool_free(i.id, s.id) as free, s.local_date::text as local_date, s.local_time
      from slot s
      join pool_usage u on u.account_id = s.account_id and u.experience_id = s.experience_id
      join inventory_item i on i.id = u.pool_id
      where s.account_id = ${ctx.accountId} and s.experience_id = ${experienceId}::uuid and s.ends_at > now()
        and tourdesk_pool_free(i.id, s.id) < 0
      order by s.starts_at limit 1`,
  );
  return over;
}

export interface PoolDepartureRow {
  slot: string;
  experience: string;
  experience_title: string;
  starts_at: string;
  ends_at: string;
  window_from: string;
  window_to: string;
  used: number;
  peak: number;
}

/**
 * The pools (Equipment items with a stock that some offer takes from), each with its departures
 * whose window meets one local day of the organisation (tourdesk_pool_timeline), and the day's
 * departures whose seats left a pool sets rather than their own capacity.
 */
export async function poolDay(ctx: TenantCtx, date: string) {
  const [zone] = await rowsOf<{ time_zone: string }>(ctx.tx, sql`select time_zone from base_account where id = ${ctx.accountId}`);
  const pools = await rowsOf<{ id: string; name: string; stock: number; buffer_before_minutes: number; buffer_after_minutes: number; departures: PoolDepartureRow[] }>(
    ctx.tx,
    sql`select i.id, i.name, coalesce(i.stock, 0) as stock, i.buffer_before_minutes, i.buffer_after_minutes,
        coalesce((select json_agg(json_build_object('slot', t.slot_id, 'experience', t.experience_id, 'experience_title', t.experience_title,
            'starts_at', ${isoOf('t.starts_at')}, 'ends_at', ${isoOf('t.ends_at')}, 'window_from', ${isoOf('t.window_from')}, 'window_to', ${isoOf('t.window_to')},
            'used', t.used, 'peak', t.peak) order by t.starts_at, t.slot_id)
          from tourdesk_pool_timeline(${ctx.accountId}::uuid, i.id, d.day_from, d.day_to) t), '[]') as departures
      from inventory_item i
      cross join (select (${date}::date)::timestamp at time zone a.time_zone as day_from, (${date}::date + 1)::timestamp at time zone a.time_zone as day_to
                  from base_account a where a.id = ${ctx.accountId}) d
      where i.account_id = ${ctx.accountId} and i.type = 'Equipment' and i.stock is not null
        and exists (select 1 from pool_usage u where u.account_id = i.account_id and u.pool_id = i.id)
      order by i.name, i.id`,
  );
  const limited = await rowsOf<{ slot: string; pool_seats: number; own_seats: number }>(
    ctx.tx,
    sql`select x.id as slot, x.pool_seats, x.own_seats from (
        select s.id, s.starts_at, tourdesk_pool_seats(s.id) as pool_seats,
          tourdesk_seats_left(s.capacity, s.guide_seats, s.booked, s.held,
            (select coalesce(sum(l.seats), 0)::int from cart_line l where s.held > 0 and l.slot_id = s.id and l.expires_at <= now())) as own_seats
        from slot s
        where s.account_id = ${ctx.accountId} and s.local_date = ${date}::date and tourdesk_pooled(s.account_id, s.experience_id)
      ) x
      where x.pool_seats is not null and x.pool_seats < x.own_seats
      order by x.starts_at, x.id`,
  );
  return { time_zone: zone?.time_zone ?? 'UTC', pools, limited };
}
