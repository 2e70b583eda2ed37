import type { TProductConfiguration, TProductConfigurationPatch } from '@tourdesk/contracts';
import type { Language } from '@tourdesk/contracts/i18n';
import type { baseAccount } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import * as q from './queries';

/**
 * The organisation's product configuration: how its times read, new offers' defaults (capacity of
 * a new schedule, cancellation policy), the booking cut-off and hold, VAT per offer type (read by
 * vatRates(), the one place an offer's rate is decided), what its tickets show (ticketsPdf()) and
 * the languages it sells in (its first the main one, the fallback of every offer text).
 */
export async function productConfiguration(ctx: TenantCtx): Promise<TProductConfiguration> {
  const a = await q.accountRow(ctx);
  return {
    time_zone: a.time_zone,
    currency: a.currency,
    time_format: a.time_format as TProductConfiguration['time_format'],
    default_capacity: a.default_capacity,
    booking_cutoff_minutes: a.default_cutoff_minutes,
    hold_minutes: a.hold_minutes,
    voucher_validity_months: a.voucher_validity_months,
    default_cancellation_policy: a.default_cancellation_policy_id,
    vat_rates_by_type: a.vat_rates_by_type,
    vat_rate_bp: a.vat_rate_bp,
    ticket_fields: a.ticket_fields as TProductConfiguration['ticket_fields'],
    languages: a.languages as Language[],
  };
}

export async function updateProductConfiguration(ctx: TenantCtx, patch: TProductConfigurationPatch): Promise<TProductConfiguration> {
  const set: Partial<typeof baseAccount.$inferInsert> = { updated_at: new Date() };
  if (patch.time_format !== undefined) set.time_format = patch.time_format;
  if (patch.default_capacity !== undefined) set.default_capacity = patch.default_capacity;
  if (patch.booking_cutoff_minutes !== undefined) set.default_cutoff_minutes = patch.booking_cutoff_minutes;
  if (patch.hold_minutes !== undefined) set.hold_minutes = patch.hold_minutes;
  if (patch.voucher_validity_months !== undefined) set.voucher_validity_months = patch.voucher_validity_months;
  if (patch.default_cancellation_policy !== undefined) {
    await q.assertOwnCancellationPolicy(ctx, patch.default_cancellation_policy);
    set.default_cancellation_policy_id = patch.default_cancellation_policy;
  }
  if (patch.vat_rates_by_type !== undefined) {
    const rates = { ...(await q.lockVatRatesByType(ctx)) };
    for (const [type, bp] of Object.entries(patch.vat_rates_by_type)) {
      if (bp === null || bp === undefined) delete rates[type];
      else rates[type] = bp;
    }
    set.vat_rates_by_type = rates;
  }
  if (patch.ticket_fields !== undefined) set.ticket_fields = [...new Set(patch.ticket_fields)];
  // The languages sold in, the first the main one. One taken out keeps its offers' translations (not served).
  if (patch.languages !== undefined) set.languages = patch.languages;
  await q.updateAccount(ctx, set);
  // A hold never outlives its departure's cut-off: a default raised now ends the holds already made.
  if (patch.booking_cutoff_minutes !== undefined) await q.cutHolds(ctx);
  return productConfiguration(ctx);
}
