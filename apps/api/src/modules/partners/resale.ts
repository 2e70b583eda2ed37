import type { TenantCtx } from '../../lib/crud';
import { recordAudit } from '../orders/records';
import { commissionOf, netRatesOf, sharedOffer, type Contract, type SharedOffer } from './contract';
import * as q from './queries';

/**
 * What the contract `partnershipId` says of the offers a cart's `lines` hold (all its lines when
 * not given), in the supplier's books (`ctx`): each offer on each of its slots' days goes through
 * `sharedOffer`, which locks the contract FOR SHARE until the order is written, so a suspended or
 * ended partnership, or a day outside its validity, sells nothing (409). The contract and the net
 * rates per offer that `markResale` needs. The reseller's store, paying on site or online, calls it.
 */
export async function contractOfCart(ctx: TenantCtx, partnershipId: string, cartId: string, lines?: string[]) {
  return contractOfSlots(ctx, partnershipId, await q.cartSlots(ctx, cartId, lines));
}

/** The same for the slots a sale is about (a paid checkout's, whose holds may have run out). */
export async function contractOfSlots(ctx: TenantCtx, partnershipId: string, slotIds: string[]) {
  if (slotIds.length === 0) return null;
  const held = await q.offerDaysOfSlots(ctx, slotIds);
  const rates: Record<string, Record<string, number>> = {};
  let contract: SharedOffer['contract'] | null = null;
  for (const h of held) {
    const shared = await sharedOffer(ctx, partnershipId, h.experience, h.day);
    contract = shared.contract;
    rates[h.experience] = shared.netRates;
  }
  return contract ? { contract, rates } : null;
}

/**
 * Names an order of the supplier's (`ctx`) as the partner's resale, in the transaction that sold
 * it: the order and each of its lines carry the partnership and the reseller, and each line's
 * commission is fixed now by the contract's rule (`commissionOf`, a blank net rate read as the
 * pricing rate's net price), never computed again. One
 * statement for the order and one for all its lines. Every channel that resells calls it (OCTO and
 * the public booking API, the reseller's web store); `audit` adds what the channel knows (the API
 * key, the store) to the order's `resold` entry. Answers the commission of the whole order.
 */
export async function markResale(
  ctx: TenantCtx,
  orderId: string,
  contract: Contract,
  /** The contract's net rates per offer (experience id), for a contract priced by net rates. */
  netRates: Record<string, Record<string, number>>,
  reference: string | null,
  audit?: Record<string, unknown>,
): Promise<number> {
  await q.markOrderResold(ctx, orderId, contract.id, contract.reseller_account_id, reference);
  const lines = await q.orderLineItems(ctx, orderId);
  // A category the contract leaves blank falls back to its pricing rate's net price (netRatesOf).
  const commissions = lines.map((l) => ({ id: l.id, commission: commissionOf(contract, l.items, netRatesOf(netRates[l.experience_id], l.rate_net)) }));
  if (commissions.length) {
    await q.markLinesResold(ctx, contract.id, contract.reseller_account_id, commissions);
  }
  const total = commissions.reduce((s, c) => s + c.commission, 0);
  await recordAudit(ctx, { order: orderId, subject: 'order', subjectId: orderId, action: 'resold', changes: { partnership: contract.id, reseller_reference: reference, commission: total, ...audit } });
  return total;
}
