import { fractionDigits, type TOrganization, type ZOrganizationPatch } from '@tourdesk/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
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

/** The caller as a change of details needs it: its tenant's transaction, and the server's connection (partners' names). */
export interface OrganizationCaller {
  run: <R>(fn: (ctx: TenantCtx) => Promise<R>) => Promise<R>;
  db: Db;
}

type Partnerships = Awaited<ReturnType<typeof q.livePartnershipsIn>>;

/**
 * One source for the currency: the organisation's. It can change until the first sale: once an
 * order exists, or seats are held in a cart, amounts in the old currency are on record, so the
 * change is refused (409). A live partnership in the old currency also refuses it: its contract
 * (prices, net rates, settlements) is in that currency, agreed with another organisation, and OCTO
 * and the partner's counter sell in it; the refusal answers those partnerships for the caller to
 * name. Otherwise prices and extras move to the new currency keeping what people read (49.00 EUR →
 * 49 JPY), and every store with them (a store sells at the organisation's prices), in the same
 * transaction.
 */
async function changeCurrency(ctx: TenantCtx, from: string, to: string): Promise<Partnerships | null> {
  // The organisation's row first: a sale or hold that starts now reads the currency after this commits.
  await q.lockAccount(ctx);
  if (await q.hasSold(ctx)) {
    throw new AppError('conflict', `The currency cannot change after the first sale: orders and carts are recorded in ${from}.`, 'currency');
  }
  const partnerships = await q.livePartnershipsIn(ctx, from);
  if (partnerships.length > 0) return partnerships;
  const factor = 10 ** (fractionDigits(to) - fractionDigits(from));
  await q.repriceAll(ctx, to, factor);
  await q.moveStores(ctx, to);
  return null;
}

/** The 409 naming the partnerships in the way: "1 partnership sells in EUR: Alpine Agency (Active, you supply its offers)." */
async function partnershipsInTheWay(db: Db, accountId: string, from: string, partnerships: Partnerships) {
  const other = (p: Partnerships[number]) => (p.supplier === accountId ? p.reseller : p.supplier);
  const names = await q.serverAccountNames(db, partnerships.map(other).filter((id): id is string => id !== null));
  const named = partnerships.map((p) => {
    const id = other(p);
    const who = (id && names.get(id)) || p.email || 'an invited organisation';
    return `${who} (${p.status}, ${p.supplier === accountId ? 'you supply its offers' : `you resell its offers in ${p.currency}`})`;
  });
  const n = partnerships.length;
  return new AppError(
    'conflict',
    `The currency cannot change while ${n} partnership${n === 1 ? ' sells' : 's sell'} in ${from}: ${named.join(', ')}. A contract's prices and settlements stay in its currency: end ${n === 1 ? 'it' : 'them'} under Stores and sales › Partners first.`,
    'currency',
  );
}

/** Changes the organisation's details, all or nothing; a currency change moves its prices and stores (changeCurrency). */
export async function updateOrganization(c: OrganizationCaller, patch: z.output<typeof ZOrganizationPatch>): Promise<TOrganization> {
  type Outcome = { organization: TOrganization } | { inTheWay: Partnerships; accountId: string; from: string };
  const outcome = await c.run(async (ctx): Promise<Outcome> => {
    const before = await organization(ctx);
    if (patch.currency && patch.currency !== before.currency) {
      const inTheWay = await changeCurrency(ctx, before.currency, patch.currency);
      // Nothing written: the refusal is named after the transaction, from the server's connection.
      if (inTheWay) return { inTheWay, accountId: ctx.accountId, from: before.currency };
    }
    await q.updateAccount(ctx, { ...patch, updated_at: new Date() });
    if (patch.time_zone && patch.time_zone !== before.time_zone) {
      // Start times are local: every scheduled experience's future slots follow the new zone
      // (slots with bookings keep their instant and are closed, as on any rule change).
      const scheduled = await q.scheduledExperiences(ctx);
      for (const { id } of scheduled) await regenerateSlots(ctx, id);
    }
    return { organization: await organization(ctx) };
  });
  if ('inTheWay' in outcome) throw await partnershipsInTheWay(c.db, outcome.accountId, outcome.from, outcome.inTheWay);
  return outcome.organization;
}
