import type { z } from 'zod';
import type { TPricingRate, ZPricingRateInput } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import * as q from './queries';

type RateRow = q.RateRow;

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
  const exp = await q.lockExperience(ctx, rate.experience_id);
  if (!exp) throw new AppError('invalid', 'No experience with this id in your organisation.', 'experience');
  const cat = await q.findPricingCategory(ctx, rate.pricing_category_id);
  if (!cat) throw new AppError('invalid', 'Unknown pricing category: it is not one of your organisation’s.', 'pricing_category');
  if (rate.net_price !== null && rate.net_price > rate.retail_price) {
    throw new AppError('invalid', 'The net (reseller) price cannot be above the retail price.', 'net_price');
  }
  if (rate.valid_from && rate.valid_to && rate.valid_from > rate.valid_to) {
    throw new AppError('invalid', 'The end of the validity comes before its start.', 'valid_to');
  }
  const clash = await q.overlappingRate(ctx, rate, selfId);
  if (clash) {
    throw new AppError('invalid', `This overlaps another price of the same category (${describe(clash)}).`, 'valid_from');
  }
}

/**
 * A price's columns from its input (create) or its input over the stored price (PUT, PATCH),
 * always in the organisation's currency, checked by checkRate().
 */
export async function rateValues(ctx: TenantCtx, input: Partial<z.output<typeof ZPricingRateInput>>, existing?: RateRow) {
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
}
