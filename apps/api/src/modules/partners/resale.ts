import { sql } from 'drizzle-orm';
import { booking, cartLine, order, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { recordAudit } from '../orders/records';
import { commissionOf, sharedOffer, type Contract, type SharedOffer } from './contract';

/**
 * What the contract `partnershipId` says of the offers a cart's `lines` hold (all its lines when
 * not given), in the supplier's books (`ctx`): each offer on each of its slots' days goes through
 * `sharedOffer`, which locks the contract FOR SHARE until the order is written, so a suspended or
 * ended partnership, or a day outside its validity, sells nothing (409). The contract and the net
 * rates per offer that `markResale` needs. The reseller's store, paying on site or online, calls it.
 */
export async function contractOfCart(ctx: TenantCtx, partnershipId: string, cartId: string, lines?: string[]) {
  const slots = (await ctx.tx.execute(sql`
    select distinct l.slot_id as slot from ${cartLine} l
    where l.account_id = ${ctx.accountId} and l.cart_id = ${cartId}::uuid ${lines ? sql`and l.id = any(${sql.param(lines)}::uuid[])` : sql``}`)) as unknown as { rows: { slot: string }[] };
  return contractOfSlots(ctx, partnershipId, slots.rows.map((r) => r.slot));
}

/** The same for the slots a sale is about (a paid checkout's, whose holds may have run out). */
export async function contractOfSlots(ctx: TenantCtx, partnershipId: string, slotIds: string[]) {
  if (slotIds.length === 0) return null;
  const held = (await ctx.tx.execute(sql`
    select distinct s.experience_id as experience, s.local_date::text as day from ${slot} s
    where s.account_id = ${ctx.accountId} and s.id = any(${sql.param(slotIds)}::uuid[])`)) as unknown as { rows: { experience: string; day: string }[] };
  const rates: Record<string, Record<string, number>> = {};
  let contract: SharedOffer['contract'] | null = null;
  for (const h of held.rows) {
    const shared = await sharedOffer(ctx, partnershipId, h.experience, h.day);
    contract = shared.contract;
    rates[h.experience] = shared.netRates;
  }
  return contract ? { contract, rates } : null;
}

/**
 * Names an order of the supplier's (`ctx`) as the partner's resale, in the transaction that sold
 * it: the order and each of its lines carry the partnership and the reseller, and each line's
 * commission is fixed now by the contract's rule (`commissionOf`), never computed again. One
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
  await ctx.tx.execute(sql`
    update ${order} set partnership_id = ${contract.id}, reseller_account_id = ${contract.reseller_account_id}, reseller_reference = ${reference}
    where account_id = ${ctx.accountId} and id = ${orderId}`);
  const lines = (await ctx.tx.execute(sql`select id, experience_id, items from ${booking} where account_id = ${ctx.accountId} and order_id = ${orderId}`)) as unknown as {
    rows: { id: string; experience_id: string; items: Parameters<typeof commissionOf>[1] }[];
  };
  const commissions = lines.rows.map((l) => ({ id: l.id, commission: commissionOf(contract, l.items, netRates[l.experience_id] ?? {}) }));
  if (commissions.length) {
    await ctx.tx.execute(sql`
      update ${booking} b set partnership_id = ${contract.id}, reseller_account_id = ${contract.reseller_account_id}, commission = c.commission
      from jsonb_to_recordset(${JSON.stringify(commissions)}::jsonb) as c(id uuid, commission integer)
      where b.account_id = ${ctx.accountId} and b.id = c.id`);
  }
  const total = commissions.reduce((s, c) => s + c.commission, 0);
  await recordAudit(ctx, { order: orderId, subject: 'order', subjectId: orderId, action: 'resold', changes: { partnership: contract.id, reseller_reference: reference, commission: total, ...audit } });
  return total;
}
