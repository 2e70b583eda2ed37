import type { z } from 'zod';
import type { TPoolDay, TPoolUsage, ZPoolUsageInput } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import * as q from './queries';

/**
 * Resource pools (issue 34): what an offer's bookings take from which pools, and a pool's use over
 * a day. The rules that make a pool's overuse impossible live in the database (02-pools.sql): what
 * a line or a booking takes is worked out there when it is written, every hold and sale checks it
 * with the pool locked after its slots, and a deferred constraint trigger checks every write at
 * commit, whoever writes.
 */

/** An offer's usage rules. */
export async function usage(ctx: TenantCtx, experienceId: string): Promise<TPoolUsage> {
  if (!(await q.offer(ctx, experienceId))) throw notFound('No experience with this id.');
  return present(experienceId, await q.usageOf(ctx, experienceId));
}

function present(experienceId: string, rows: Awaited<ReturnType<typeof q.usageOf>>): TPoolUsage {
  return {
    experience: experienceId,
    rules: rows.map((r) => ({
      id: r.id,
      pool: { id: r.pool_id, name: r.pool_name },
      per: r.per as TPoolUsage['rules'][number]['per'],
      pricing_category: r.pricing_category,
      extra: r.extra,
      units: r.units,
    })),
  };
}

/**
 * Replaces an offer's usage rules. Each pool is the organisation's Equipment item with a stock;
 * each per-seat rule names one of its pricing categories, each per-extra rule one of its extras.
 * The bookings and holds of its departures to come take what the new rules say; a change that
 * would put a pool over its stock at some moment is refused, naming the departure.
 */
export async function setUsage(ctx: TenantCtx, experienceId: string, input: z.output<typeof ZPoolUsageInput>): Promise<TPoolUsage> {
  if (!(await q.offer(ctx, experienceId))) throw notFound('No experience with this id.');
  const items = new Map((await q.itemsByIds(ctx, [...new Set(input.rules.flatMap((r) => [r.pool, ...(r.extra ? [r.extra] : [])]))])).map((i) => [i.id, i]));
  const categories = new Set((await q.categoriesByIds(ctx, [...new Set(input.rules.flatMap((r) => (r.pricing_category ? [r.pricing_category] : [])))])).map((c) => c.id));
  input.rules.forEach((r, i) => {
    const pool = items.get(r.pool);
    if (!pool) throw new AppError('invalid', `Rule ${i + 1}: no inventory item with this id.`, `rules.${i}.pool`);
    if (pool.type !== 'Equipment' || pool.stock === null) throw new AppError('invalid', `Rule ${i + 1}: ${pool.name} is not a pool (an Equipment item with a stock).`, `rules.${i}.pool`);
    if (r.per === 'seat' && !categories.has(r.pricing_category!)) throw new AppError('invalid', `Rule ${i + 1}: no pricing category with this id.`, `rules.${i}.pricing_category`);
    if (r.per !== 'seat' && r.pricing_category !== null) throw new AppError('invalid', `Rule ${i + 1}: only a rule per seat names a pricing category.`, `rules.${i}.pricing_category`);
    if (r.per === 'extra') {
      const extra = items.get(r.extra!);
      if (!extra || extra.type !== 'Extras') throw new AppError('invalid', `Rule ${i + 1}: no extra with this id (an inventory item of type Extras).`, `rules.${i}.extra`);
    } else if (r.extra !== null) throw new AppError('invalid', `Rule ${i + 1}: only a rule per extra names an extra.`, `rules.${i}.extra`);
  });
  const over = await q.replaceUsage(ctx, experienceId, input.rules);
  if (over) {
    throw new AppError('conflict', `The departure of ${over.local_date} at ${over.local_time} would need ${-over.free} more ${over.pool} than the pool has free: lower the usage, raise the stock, or move or cancel bookings first.`, 'rules');
  }
  return present(experienceId, await q.usageOf(ctx, experienceId));
}

/** Each pool's use over one local day, and the departures of that day a pool limits. */
export async function poolDay(ctx: TenantCtx, date: string): Promise<TPoolDay> {
  const day = await q.poolDay(ctx, date);
  return { date, time_zone: day.time_zone, pools: day.pools, limited: day.limited };
}
