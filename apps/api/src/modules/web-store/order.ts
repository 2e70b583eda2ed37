import type Stripe from 'stripe';
import type { z } from 'zod';
import type { TWebPayRest, TOnlineAmount, TPromoPreview, TVoucherPreview, ZOnlineAmountQuery, ZPromoTry, ZVoucherTry, ZWebOrderInput } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { cartDue, checkout, promoPreview } from '../orders/bookings';
import { redeemVoucher, voucherPreview } from '../gift-vouchers/service';
import { cancelOrder } from '../orders/service';
import { cartOnlineAmount } from '../payments/amount';
import { newPaymentLink } from '../payments/links';
import type { Config } from '../../config';
import { closeOpenPayments } from '../payments/online';
import { contractOfCart, markResale } from '../partners/resale';
import { type WebCtx } from '../stores/scope';
import { presentWebOrder } from '../orders/web-order';
import { ownCart } from './cart';
import { secret, sha256 } from './scope';

/**
 * The customer's order from the guest cart (the orders module's checkout, then the e-mails), cancelled by the customer under the policy, and the secret of its private link renewed.
 */

/**
 * A promo code tried in the cart: what it would take off (orders' promoPreview(), the checkout's
 * rule), in this store; a partner's offers take none. The uses per customer are left to the order.
 */
export async function tryPromoCode(ctx: WebCtx, cartId: string, input: z.output<typeof ZPromoTry>, token: string | undefined): Promise<TPromoPreview> {
  await ownCart(ctx, cartId, token);
  if (ctx.partner) throw new AppError('promo_not_for_store', `The promo code ${input.code} is not valid for a partner’s offers.`, 'promo_code');
  // Without the e-mail: an anonymous preview must not tell whether an address has used the code
  // (whether it is a customer). Its uses per customer are checked when the order is placed.
  return promoPreview(ctx, cartId, { ...input, email: undefined, storeId: ctx.store.id });
}

/**
 * What paying online would charge now (payments' onlineAmount(): the total less a promo code and a
 * gift voucher, or the deposit the offers or the store ask for) and what is left, due on site or by a date.
 */
export async function onlineAmountOfCart(ctx: WebCtx, cartId: string, input: z.output<typeof ZOnlineAmountQuery>, token: string | undefined): Promise<TOnlineAmount> {
  await ownCart(ctx, cartId, token);
  if (ctx.partner && input.promo_code) throw new AppError('promo_not_for_store', `The promo code ${input.promo_code} is not valid for a partner’s offers.`, 'promo_code');
  if (ctx.partner && input.voucher_code) throw new AppError('voucher_unknown', 'A gift voucher is not valid for a partner’s offers.', 'voucher_code');
  return cartOnlineAmount(ctx, { storeId: ctx.store.id, cartId, lines: input.lines, promoCode: input.promo_code, voucherCode: input.voucher_code, voucherAmount: input.voucher_amount, deposits: !ctx.partner });
}

/**
 * A gift voucher tried in the cart: its balance and expiry and what it would pay of the cart (after
 * a promo code typed too); nothing is taken. A partner's offers take none.
 */
export async function tryVoucher(ctx: WebCtx, cartId: string, input: z.output<typeof ZVoucherTry>, token: string | undefined): Promise<TVoucherPreview> {
  await ownCart(ctx, cartId, token);
  if (ctx.partner) throw new AppError('voucher_unknown', 'A gift voucher is not valid for a partner’s offers.', 'voucher_code');
  const due = await cartDue(ctx, cartId, { lines: input.lines, promo_code: input.promo_code, storeId: ctx.store.id });
  return voucherPreview(ctx, input.code, due);
}

/**
 * The customer's order from their guest cart: exactly the lines they saw (checkout, the same rule
 * as the counter's), in the store, without a seller; terms accepted and a payment option the store
 * offers. Queues its confirmation (and the organisation's new-booking e-mail) in the same
 * transaction. Answers the order and the secret of its "my booking" page.
 */
export async function placeOrder(
  ctx: WebCtx,
  input: z.output<typeof ZWebOrderInput>,
  token: string | undefined,
  queue: (tx: Db, job: { kind: 'confirmation' | 'store-notification'; order: string; manage?: string }) => Promise<void>,
  stripe: Stripe | null,
) {
  if (input.payment_option === 'online') throw new AppError('invalid', 'An online payment starts at POST …/payments/: the order is made once it is paid.', 'payment_option');
  if (!ctx.store.payment_options.includes(input.payment_option)) throw new AppError('invalid', 'This store does not offer this way to pay.', 'payment_option');
  await ownCart(ctx, input.cart, token);
  // An online payment still open for the cart ends first (its page in another tab could otherwise
  // book the same seats again once paid); one already paid refuses this booking.
  await closeOpenPayments(ctx, stripe, input.cart);
  const resold = ctx.partner ? await contractOfCart(ctx, ctx.partner.partnershipId, input.cart, input.lines) : null;
  // A partner's offers are sold at the partner's contract (its commission fixed on the gross): no promo code there.
  if (resold && input.promo_code) throw new AppError('promo_not_for_store', `The promo code ${input.promo_code} is not valid for a partner’s offers.`, 'promo_code');
  // A partner's offers are the supplier's sale: this organisation's vouchers do not pay them.
  if (resold && input.voucher_code) throw new AppError('voucher_unknown', 'A gift voucher is not valid for a partner’s offers.', 'voucher_code');
  const manage = secret();
  const orderId = await checkout(ctx, input.cart, null, {
    customer: { ...input.customer, country: input.customer.country ?? null },
    answers: input.answers,
    lines: input.lines,
    storeId: ctx.store.id,
    manageTokenHash: sha256(manage),
    promo_code: input.promo_code,
  } as Parameters<typeof checkout>[3]);
  // A partner's offers: the supplier's order, named as resold by the store's organisation, each line's commission fixed now.
  if (resold) await markResale(ctx, orderId, resold.contract, resold.rates, null, { store: ctx.store.id });
  // A gift voucher pays part or all of it (the rest on site), in this transaction: refused, nothing is booked.
  if (input.voucher_code) await redeemVoucher(ctx, { orderId, code: input.voucher_code, amount: input.voucher_amount });
  await queue(ctx.tx, { kind: 'confirmation', order: orderId, manage });
  if (ctx.store.notify_new_bookings && ctx.store.notify_email) await queue(ctx.tx, { kind: 'store-notification', order: orderId });
  return { orderId, manage };
}

/**
 * The customer cancels their order, when its policy allows it now: the organisation keeps what was
 * paid less the policy's refund as the order's cancellation fee (cancelOrder reads the same rule
 * again under the order's lock), the rest is due back to the customer. Queues the customer's
 * cancellation e-mail (in the order's language) in the same transaction.
 */
export async function cancelByCustomer(ctx: WebCtx, orderId: string, manageUrl: (reference: string) => string, queue: (tx: Db, job: { kind: 'cancellation'; order: string; to: string }) => Promise<void>) {
  const current = await presentWebOrder(ctx, orderId, manageUrl);
  if (!current.cancellation.allowed) throw new AppError('conflict', current.cancellation.reason);
  await cancelOrder(ctx, orderId, { keepCancellationFee: true });
  if (current.customer.email) await queue(ctx.tx, { kind: 'cancellation', order: orderId, to: current.customer.email });
  return presentWebOrder(ctx, orderId, manageUrl);
}


/** "Pay the rest" on the customer's booking page: a new payment link for what is left (payments/links.ts), its address answered. */
export async function payRestLink(ctx: WebCtx, config: Config, orderId: string): Promise<TWebPayRest> {
  // Only where the store takes card payments, and never for a partner's offers sold here: the
  // contract says who collects their money (the page shows no button then either).
  if (!ctx.store.payment_options.includes('online')) throw new AppError('invalid', 'This store takes no payments online: pay the rest on site.');
  if (ctx.partner) throw new AppError('invalid', `Pay the rest as agreed with ${ctx.partner.supplier}: it is not paid online here.`);
  const { url } = await newPaymentLink(ctx, config, orderId);
  return { url };
}
