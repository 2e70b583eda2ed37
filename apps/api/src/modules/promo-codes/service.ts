import type { z } from 'zod';
import type { TPromoCode, ZPromoCodeInput } from '@tourdesk/contracts';
import type { promoCode } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import * as q from './queries';

/** Promo codes as the back office keeps them: input → columns, rows → the list with uses and revenue. */

type Row = typeof promoCode.$inferSelect;
type Input = Partial<z.output<typeof ZPromoCodeInput>>;

/**
 * Input → columns (a PATCH sends some fields: the others are the row's). The store, offers and
 * pricing categories must be the organisation's (400 naming the field); a percentage and an amount
 * are exclusive (the other is 0); a changed kind needs its figure.
 */
export async function promoValues(ctx: TenantCtx, input: Input, existing?: Row): Promise<Partial<typeof promoCode.$inferInsert>> {
  const kind = input.kind ?? (existing?.kind as 'percent' | 'amount' | undefined) ?? 'percent';
  const percent = kind === 'percent' ? (input.percent_bp ?? existing?.percent_bp ?? 0) : 0;
  const amount = kind === 'amount' ? (input.amount ?? existing?.amount ?? 0) : 0;
  if (kind === 'percent' && (percent < 1 || percent > 10000)) throw new AppError('invalid', 'Give a percentage between 0.01 % and 100 %.', 'percent_bp');
  if (kind === 'amount' && amount < 1) throw new AppError('invalid', 'Give the amount off.', 'amount');
  if (input.store) await q.assertOwnStore(ctx, input.store);
  for (const field of ['experiences', 'categories'] as const) {
    const bad = input[field] ? await q.assertOwnAll(ctx, field, input[field]) : -1;
    if (bad !== undefined && bad >= 0) throw new AppError('invalid', field === 'experiences' ? 'No offer with this id in your organisation.' : 'No pricing category with this id in your organisation.', `${field}.${bad}`);
  }
  const values: Partial<typeof promoCode.$inferInsert> = { kind, percent_bp: percent, amount };
  if (input.code !== undefined) values.code = input.code;
  if (input.description !== undefined) values.description = input.description;
  if (input.experiences !== undefined) values.experience_ids = [...new Set(input.experiences)];
  if (input.categories !== undefined) values.category_ids = [...new Set(input.categories)];
  for (const k of ['valid_from', 'valid_until', 'departure_from', 'departure_until', 'min_order', 'max_uses', 'max_uses_per_customer', 'active'] as const) {
    if (input[k] !== undefined) (values as Record<string, unknown>)[k] = input[k];
  }
  if (input.store !== undefined) values.store_id = input.store;
  const from = values.valid_from !== undefined ? values.valid_from : existing?.valid_from;
  const until = values.valid_until !== undefined ? values.valid_until : existing?.valid_until;
  if (from && until && until < from) throw new AppError('invalid', 'The end of the booking window is before its start.', 'valid_until');
  const dFrom = values.departure_from !== undefined ? values.departure_from : existing?.departure_from;
  const dUntil = values.departure_until !== undefined ? values.departure_until : existing?.departure_until;
  if (dFrom && dUntil && dUntil < dFrom) throw new AppError('invalid', 'The end of the departure window is before its start.', 'departure_until');
  const maxUses = values.max_uses !== undefined ? values.max_uses : existing?.max_uses;
  if (existing && maxUses !== null && maxUses !== undefined && maxUses < existing.uses) throw new AppError('invalid', `This code has been used ${existing.uses} times: its limit cannot be lower.`, 'max_uses');
  return values;
}

/** Rows → the list: uses from the row, revenue from one aggregate over the page's orders, store names in one query. */
export async function presentPromoCodes(ctx: TenantCtx, rows: Row[]): Promise<TPromoCode[]> {
  if (rows.length === 0) return [];
  const revenue = await q.promoRevenue(ctx, rows.map((r) => r.id));
  const stores = await q.storeNames(ctx, [...new Set(rows.map((r) => r.store_id).filter((x): x is string => Boolean(x)))]);
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    description: r.description,
    kind: r.kind as TPromoCode['kind'],
    percent_bp: r.percent_bp,
    amount: r.amount,
    experiences: r.experience_ids,
    categories: r.category_ids,
    valid_from: r.valid_from,
    valid_until: r.valid_until,
    departure_from: r.departure_from,
    departure_until: r.departure_until,
    min_order: r.min_order,
    max_uses: r.max_uses,
    max_uses_per_customer: r.max_uses_per_customer,
    store: r.store_id,
    store_name: r.store_id ? (stores.get(r.store_id) ?? null) : null,
    active: r.active,
    uses: r.uses,
    revenue: revenue.get(r.id) ?? 0,
    currency: ctx.currency,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}
