import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ZPricingRate, ZPricingRateInput, ZPricingRatePatch, type TPricingRate } from '@tourdesk/contracts';
import { experience, pricingCategory, pricingRate } from '../../db/schema';
import { registerCrud, type TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { manageCatalog, viewCatalog } from './access';

type RateRow = typeof pricingRate.$inferSelect;

export const presentRate = (r: RateRow): TPricingRate => ({
  id: r.id,
  experience: r.experience_id,
  pricing_category: r.pricing_category_id,
  retail_price: r.retail_price,
  net_price: r.net_price,
  currency: r.currency,
  valid_from: r.valid_from,
  valid_to: r.valid_to,
  weekdays: r.weekdays,
});

const WEEKDAY_NAMES = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const describe = (r: { valid_from: string | null; valid_to: string | null; weekdays: number[] }) =>
  `${r.valid_from ?? 'always'}${r.valid_to ? ` to ${r.valid_to}` : r.valid_from ? ' onwards' : ''}${r.weekdays.length ? ` (${r.weekdays.map((d) => WEEKDAY_NAMES[d]).join(', ')})` : ''}`;

/**
 * The rules of a price: its experience and category are the organisation's own, it is in the
 * organisation's currency, and no two prices of one category cover the same day. The
 * experience row is locked first, so two concurrent changes cannot both slip past the overlap check.
 */
async function checkRate(ctx: TenantCtx, rate: Omit<RateRow, 'id' | 'account_id' | 'created_at' | 'updated_at'>, selfId?: string) {
  const [exp] = await ctx.tx
    .select({ id: experience.id })
    .from(experience)
    .where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, rate.experience_id)))
    .for('update');
  if (!exp) throw new AppError('invalid', 'No experience with this id in your organisation.', 'experience');
  const [cat] = await ctx.tx
    .select({ id: pricingCategory.id })
    .from(pricingCategory)
    .where(and(eq(pricingCategory.account_id, ctx.accountId), eq(pricingCategory.id, rate.pricing_category_id)));
  if (!cat) throw new AppError('invalid', 'Unknown pricing category: it is not one of your organisation’s.', 'pricing_category');
  if (rate.net_price !== null && rate.net_price > rate.retail_price) {
    throw new AppError('invalid', 'The net (reseller) price cannot be above the retail price.', 'net_price');
  }
  if (rate.valid_from && rate.valid_to && rate.valid_from > rate.valid_to) {
    throw new AppError('invalid', 'The end of the validity comes before its start.', 'valid_to');
  }
  const weekdays = `{${rate.weekdays.join(',')}}`;
  const [clash] = await ctx.tx
    .select()
    .from(pricingRate)
    .where(
      and(
        eq(pricingRate.account_id, ctx.accountId),
        eq(pricingRate.experience_id, rate.experience_id),
        eq(pricingRate.pricing_category_id, rate.pricing_category_id),
        selfId ? ne(pricingRate.id, selfId) : undefined,
        sql`daterange(coalesce(${pricingRate.valid_from}, '-infinity'::date), coalesce(${pricingRate.valid_to}, 'infinity'::date), '[]')
            && daterange(coalesce(${rate.valid_from}::date, '-infinity'::date), coalesce(${rate.valid_to}::date, 'infinity'::date), '[]')`,
        sql`(cardinality(${pricingRate.weekdays}) = 0 or cardinality(${weekdays}::int[]) = 0 or ${pricingRate.weekdays} && ${weekdays}::int[])`,
      ),
    )
    .limit(1);
  if (clash) {
    throw new AppError('invalid', `This overlaps another price of the same category (${describe(clash)}).`, 'valid_from');
  }
}

export function registerPricingRates(app: FastifyInstance) {
  registerCrud(app, {
    path: '/api/pricing-rates/',
    tag: 'pricing-rates',
    noun: 'pricing rate',
    table: pricingRate,
    read: viewCatalog,
    write: manageCatalog,
    input: ZPricingRateInput,
    patch: ZPricingRatePatch,
    output: ZPricingRate,
    filters: {
      experience: { schema: z.uuid(), where: (v) => eq(pricingRate.experience_id, v) },
      pricing_category: { schema: z.uuid(), where: (v) => eq(pricingRate.pricing_category_id, v) },
      /** Several experiences at once (comma-separated ids): the pricing catalogue's page. */
      experiences: {
        schema: z.string().regex(/^[0-9a-f-]{36}(,[0-9a-f-]{36}){0,49}$/, { error: 'A comma-separated list of at most 50 ids.' }),
        where: (v) => inArray(pricingRate.experience_id, v.split(',')),
      },
    },
    orderBy: [asc(pricingRate.experience_id), asc(pricingRate.pricing_category_id), asc(pricingRate.valid_from), asc(pricingRate.id)],
    values: async (ctx, input, existing) => {
      if (input.currency !== undefined && input.currency !== ctx.currency) {
        throw new AppError('invalid', `Prices are in ${ctx.currency}, the organisation’s currency.`, 'currency');
      }
      const merged = {
        experience_id: (input as { experience?: string }).experience ?? existing?.experience_id ?? '',
        pricing_category_id: (input as { pricing_category?: string }).pricing_category ?? existing?.pricing_category_id ?? '',
        retail_price: input.retail_price ?? existing?.retail_price ?? 0,
        net_price: input.net_price !== undefined ? input.net_price : existing?.net_price ?? null,
        currency: ctx.currency,
        valid_from: input.valid_from !== undefined ? input.valid_from : existing?.valid_from ?? null,
        valid_to: input.valid_to !== undefined ? input.valid_to : existing?.valid_to ?? null,
        weekdays: [...new Set(input.weekdays ?? existing?.weekdays ?? [])].sort(),
      };
      await checkRate(ctx, merged, existing?.id);
      return merged;
    },
    present: async (_ctx, rows) => rows.map(presentRate),
  });
}
