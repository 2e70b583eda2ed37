import { fractionDigits, type TOrganization, type ZOrganizationPatch } from '@tourdesk/contracts';
import type { z } from 'zod';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { regenerateSlots } from '../availability/slots';
import { nextInvoiceNumber } from '../orders/invoices';
import * as q from './queries';

/** The organisation's contact, legal and billing details (/settings/organization/*). */

export async function organization(ctx: TenantCtx): Promise<TOrganization> {
  const a = await q.accountRow(ctx);
  return {
    id: a.id,
    name: a.name,
    subdomain: a.subdomain,
    kind: a.kind as TOrganization['kind'],
    currency: a.currency,
    time_zone: a.time_zone,
    legal_name: a.legal_name,
    vat_number: a.vat_number,
    billing_address: a.billing_address,
    billing_email: a.billing_email,
    vat_rate_bp: a.vat_rate_bp,
    next_invoice_number: await nextInvoiceNumber(ctx),
  };
}

/**
 * The currency can change until the first sale: once an order exists, or seats are held in a
 * cart, amounts in the old currency are on record, so the change is refused (409). Prices and
 * extras move to the new currency keeping what people read (49.00 EUR → 49 JPY).
 */
async function changeCurrency(ctx: TenantCtx, from: string, to: string) {
  // The organisation's row first: a sale or hold that starts now reads the currency after this commits.
  await q.lockAccount(ctx);
  if (await q.hasSold(ctx)) {
    throw new AppError('conflict', `The currency cannot change after the first sale: orders and carts are recorded in ${from}.`, 'currency');
  }
  const factor = 10 ** (fractionDigits(to) - fractionDigits(from));
  await q.repriceAll(ctx, to, factor);
}

export async function updateOrganization(ctx: TenantCtx, patch: z.output<typeof ZOrganizationPatch>): Promise<TOrganization> {
  const before = await organization(ctx);
  if (patch.currency && patch.currency !== before.currency) await changeCurrency(ctx, before.currency, patch.currency);
  await q.updateAccount(ctx, { ...patch, updated_at: new Date() });
  if (patch.time_zone && patch.time_zone !== before.time_zone) {
    // Start times are local: every scheduled experience's future slots follow the new zone
    // (slots with bookings keep their instant and are closed, as on any rule change).
    const scheduled = await q.scheduledExperiences(ctx);
    for (const { id } of scheduled) await regenerateSlots(ctx, id);
  }
  return organization(ctx);
}
