import { z } from 'zod';
import { ZDate } from './text';

/**
 * Resource pools (issue 34, apps/api/src/modules/pools): inventory items of type Equipment with a
 * stock, shared by offers. An offer's usage says what each booking takes from which pool; the
 * capacity page shows each pool's use over a day and the departures a pool limits.
 */

export const POOL_USAGE_PER = ['seat', 'booking', 'extra'] as const;
export type PoolUsagePer = (typeof POOL_USAGE_PER)[number];
/** An offer has at most this many usage rules; a rule takes at most this many units. */
export const POOL_USAGE_MAX_RULES = 50;
export const POOL_USAGE_MAX_UNITS = 1000;

export const ZPoolUsageRuleInput = z
  .strictObject({
    pool: z.uuid({ error: 'Choose a pool.' }),
    per: z.enum(POOL_USAGE_PER, { error: `Choose one of: ${POOL_USAGE_PER.join(', ')}.` }),
    /** Per seat: the pricing category whose seats take the units. */
    pricing_category: z.uuid({ error: 'Not a valid id.' }).nullable().default(null),
    /** Per extra: the extra (an inventory item of type Extras) whose each unit sold takes the units. */
    extra: z.uuid({ error: 'Not a valid id.' }).nullable().default(null),
    units: z.number({ error: 'Units must be a whole number.' }).int({ error: 'Units must be a whole number.' }).min(1, { error: 'A rule takes at least 1 unit.' }).max(POOL_USAGE_MAX_UNITS, { error: `A rule takes at most ${POOL_USAGE_MAX_UNITS} units.` }),
  })
  .refine((r) => r.per !== 'seat' || r.pricing_category !== null, { error: 'Per seat: choose the pricing category.', path: ['pricing_category'] })
  .refine((r) => r.per !== 'extra' || r.extra !== null, { error: 'Per extra: choose the extra.', path: ['extra'] });
export type TPoolUsageRuleInput = z.input<typeof ZPoolUsageRuleInput>;

export const ZPoolUsageInput = z.strictObject({
  rules: z.array(ZPoolUsageRuleInput).max(POOL_USAGE_MAX_RULES, { error: `At most ${POOL_USAGE_MAX_RULES} rules.` }),
});
export type TPoolUsageInput = z.input<typeof ZPoolUsageInput>;

export const ZPoolUsageRule = z
  .object({
    id: z.uuid(),
    pool: z.object({ id: z.uuid(), name: z.string() }),
    per: z.enum(POOL_USAGE_PER),
    pricing_category: z.uuid().nullable(),
    extra: z.uuid().nullable(),
    units: z.number().int(),
  })
  .meta({ id: 'PoolUsageRule' });
export type TPoolUsageRule = z.infer<typeof ZPoolUsageRule>;
export const ZPoolUsage = z.object({ experience: z.uuid(), rules: z.array(ZPoolUsageRule) }).meta({ id: 'PoolUsage' });
export type TPoolUsage = z.infer<typeof ZPoolUsage>;

export const ZPoolDayQuery = z.object({ date: ZDate });

/** A departure's use of a pool: its window (the departure widened by the pool's buffers), what it takes, the pool's peak over the window. */
export const ZPoolDeparture = z.object({
  slot: z.uuid(),
  experience: z.uuid(),
  experience_title: z.string(),
  starts_at: z.iso.datetime(),
  ends_at: z.iso.datetime(),
  window_from: z.iso.datetime(),
  window_to: z.iso.datetime(),
  used: z.number().int(),
  peak: z.number().int(),
});
export type TPoolDeparture = z.infer<typeof ZPoolDeparture>;

export const ZPoolOfDay = z.object({
  id: z.uuid(),
  name: z.string(),
  stock: z.number().int(),
  buffer_before_minutes: z.number().int(),
  buffer_after_minutes: z.number().int(),
  departures: z.array(ZPoolDeparture),
});
export type TPoolOfDay = z.infer<typeof ZPoolOfDay>;

/** A departure whose seats left are set by a pool rather than by its own capacity. */
export const ZPoolLimited = z.object({ slot: z.uuid(), pool_seats: z.number().int(), own_seats: z.number().int() });
export type TPoolLimited = z.infer<typeof ZPoolLimited>;

export const ZPoolDay = z
  .object({ date: z.string(), time_zone: z.string(), pools: z.array(ZPoolOfDay), limited: z.array(ZPoolLimited) })
  .meta({ id: 'PoolDay' });
export type TPoolDay = z.infer<typeof ZPoolDay>;
