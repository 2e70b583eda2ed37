import type { partnership, SoldItem } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { lockContract, partnershipPlans, sharedOfferRates } from './queries';

/**
 * The contract between a supplier and a reseller, one rule for every channel that resells (the
 * OCTO and public booking APIs, the reseller's store and counter): may this partner sell this offer
 * on this day, and what does it earn of a line sold.
 */
export type Contract = typeof partnership.$inferSelect;
export interface SharedOffer {
  contract: Contract;
  /** Net rate per pricing category id (minor units), for a contract priced by net rates. */
  netRates: Record<string, number>;
}

/**
 * Why a contract does not let its reseller sell on `day` (the supplier's local date, YYYY-MM-DD),
 * or null when it does: active, and `day` within its validity.
 */
export function contractRefusal(contract: Pick<Contract, 'status' | 'valid_from' | 'valid_to'>, day: string): string | null {
  if (contract.status !== 'Active') return `The partnership is ${contract.status.toLowerCase()}: nothing can be sold under it.`;
  if (contract.valid_from && day < contract.valid_from) return `The contract is valid from ${contract.valid_from}.`;
  if (contract.valid_to && day > contract.valid_to) return `The contract ended on ${contract.valid_to}.`;
  return null;
}

/**
 * Why a partner sale may not be made under the two sides' plans, or null when it may: the supplier's
 * plan and the reseller's must both have the `partners` feature (a trial ended, a downgrade: the
 * partnership stays, nothing is sold under it until the feature is back).
 */
export function planRefusal(plans: { supplier: boolean; reseller: boolean }): string | null {
  if (!plans.supplier) return 'The supplier’s plan does not include partners: its offers cannot be sold through partners.';
  if (!plans.reseller) return 'The reseller’s plan does not include partners: it cannot sell its partners’ offers.';
  return null;
}

/**
 * The contract of `partnershipId` for `experienceId`, read in the supplier's tenant (`ctx`) and
 * locked (FOR SHARE: a suspension waits for the sale, and the sale sees the suspension after), or a
 * 409 that says why it may not be sold on `day`, or a 403 (plan_required) when either side's plan
 * lacks partners (`planRefusal`); an offer the contract does not share is a 404, as an offer of
 * another organisation is. Every channel's partner sale goes through it.
 */
export async function sharedOffer(ctx: TenantCtx, partnershipId: string, experienceId: string, day: string): Promise<SharedOffer> {
  const contract = await lockContract(ctx, partnershipId);
  if (!contract) throw new AppError('not_found', 'No partnership with this id.');
  const shared = await sharedOfferRates(ctx, partnershipId, experienceId);
  if (!shared) throw new AppError('not_found', 'The contract does not share this offer.');
  const refusal = contractRefusal(contract, day);
  if (refusal) throw new AppError('conflict', refusal);
  const noPlan = planRefusal(await partnershipPlans(ctx, partnershipId));
  if (noPlan) throw new AppError('plan_required', noPlan);
  return { contract, netRates: shared.net_rates };
}

/**
 * The net rates per pricing category that a net-rate contract owes an offer at, for a sale or a
 * price shown (one rule for the sale, `markResale`, and for what OCTO and the public booking API
 * show): the contract's own (`contractRates`, partnership_experience.net_rates), and a category it
 * leaves blank at the net price of the pricing rate that prices it (`rateNet`, per category: the
 * contract form's placeholder); the contract's own rate wins. What `commissionOf` takes.
 */
export function netRatesOf(contractRates: Record<string, number> | undefined, rateNet: Record<string, number | null | undefined> | undefined): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const [id, net] of Object.entries(rateNet ?? {})) if (typeof net === 'number') rates[id] = net;
  return Object.assign(rates, contractRates);
}

/**
 * What the reseller earns of a line sold under the contract, fixed at sale (booking.commission):
 * by commission, `commission_bp` of the line's gross, rounded down to the minor unit; by net
 * rates, the gross less what the supplier is owed — each pricing category at its net rate times
 * its quantity (`netRates`: `netRatesOf()`, the contract's with each blank category at its pricing
 * rate's net price; a category with neither, and every extra, at its retail price: the reseller
 * earns nothing on it). Never below 0 nor above the gross.
 */
export function commissionOf(contract: Pick<Contract, 'pricing' | 'commission_bp'>, items: Pick<SoldItem, 'kind' | 'id' | 'quantity' | 'unit_price'>[], netRates: Record<string, number>): number {
  const gross = items.reduce((s, i) => s + i.unit_price * i.quantity, 0);
  if (contract.pricing === 'commission') return Math.floor((gross * contract.commission_bp) / 10_000);
  const owed = items.reduce((s, i) => s + (i.kind === 'category' && netRates[i.id] !== undefined ? Math.min(netRates[i.id]!, i.unit_price) : i.unit_price) * i.quantity, 0);
  return Math.max(0, Math.min(gross, gross - owed));
}
