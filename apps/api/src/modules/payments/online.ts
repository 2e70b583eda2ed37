import { createHash, randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { z } from 'zod';
import type { ZWebOrderInput } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { onlineCheckout } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import { inTenant } from '../../lib/tenancy';
import { holdAlone } from '../availability/holds';
import { lockSlot } from '../availability/slots';
import { checkout } from '../orders/bookings';
import { checkAnswers } from '../orders/records';
import { recordPayment, settleProviderRefund, type PaymentSettlement } from '../orders/service';
import { onAccountUpdated, onDeauthorized } from './connect';
import * as q from './queries';
import { QUEUES, type Jobs } from '../../lib/jobs';
import { queueMail } from '../../lib/mailer';
import { mailMoney, translateFor } from '../../lib/customer-text';
import { queueOrderMail } from '../order-mail/service';
import { contractOfCart, contractOfSlots, markResale } from '../partners/resale';
import { assertWithinLimit, onSubscription } from '../plans/service';
import type { WebCtx } from '../stores/scope';
import { feeToStripe, fromStripe, toStripe } from './stripe-amounts';
import { onlineAmount } from './amount';
import { newPaymentLink } from './new-link';
import { issuePurchasedVoucher, redeemVoucher } from '../gift-vouchers/service';

/**
 * Paying online in the web store: Stripe Checkout (the hosted payment page) as a direct charge on
 * the seller's connected account, the platform's fee from its plan. The seller is the store's
 * organisation, or, for a partner's offers in a reseller's store, the supplier whose books the cart
 * is in — only when the contract says the supplier collects; the paid order is then named as the
 * reseller's resale, the contract read again under its lock when the payment arrives.
 *
 * 1. The customer's details are checked and the cart's lines stay held while they pay (their holds
 *    are extended to the session's expiry); an online_checkout row remembers what to book.
 * 2. The order is written only when Stripe says the session is paid: by its signed event (a job,
 *    once per event), or by asking Stripe for the session when the customer's page comes back
 *    first — never on the browser's word. Both take the row's lock; the first writes the order.
 * 3. A payment that comes after its hold ran out still books the seats if they are free (held
 *    again first); if they are gone it is refunded at once and the customer told.
 * 4. A session that expires unpaid gives the seats back.
 */

type CheckoutRow = typeof onlineCheckout.$inferSelect;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface OnlineStart {
  checkout: string;
  payment_url: string;
  /** The secret of the customer's booking page, kept by their page while they pay. */
  token: string;
}

/** Starts paying online for the guest cart's lines. */
export async function startOnlinePayment(
  ctx: WebCtx,
  config: Config,
  stripe: Stripe | null,
  input: z.output<typeof ZWebOrderInput>,
): Promise<OnlineStart> {
  if (!stripe) throw new AppError('invalid', 'Online payment is not available in this store.', 'payment_option');
  const account = await q.connectedAccount(ctx);
  if (!account?.charges_enabled) throw new AppError('invalid', 'Online payment is not available in this store yet.', 'payment_option');
  const now = new Date();
  const inCart = await q.cartLines(ctx, input.cart);
  const wanted = [...new Set(input.lines ?? inCart.filter((l) => l.expires_at > now).map((l) => l.id))];
  const lines = wanted.map((id) => inCart.find((l) => l.id === id));
  const gone = wanted.filter((_, i) => !lines[i] || lines[i]!.expires_at <= now);
  if (wanted.length === 0) throw new AppError('invalid', 'The cart is empty: nothing is held.');
  if (gone.length) {
    const [first, ...rest] = gone.map((id) => ({ code: 'hold_expired', detail: 'This line is no longer held: remove it and choose the time again.', attr: `lines.${id}` }));
    throw new AppError('hold_expired', first!.detail, first!.attr, rest);
  }
  const held = lines as (typeof inCart)[number][];
  await checkAnswers(ctx, [...new Set(held.map((l) => l.slot_id))], input.answers);
  // A partner's offers (a reseller's store): sold under the contract, paid to the supplier only when
  // the contract says the supplier collects (this account is the supplier's).
  if (ctx.partner) {
    const resold = await contractOfCart(ctx, ctx.partner.partnershipId, input.cart, wanted);
    if (resold?.contract.payment_collector !== 'supplier') throw new AppError('invalid', `Pay on site: ${ctx.partner.supplier} takes the payment for its offers sold here.`, 'payment_option');
  }
  // Refused before the customer pays, not after (a paid session is refunded when its order is refused).
  await assertWithinLimit(ctx, 'bookings_per_month', held.length);
  // A partner's offers are sold at the partner's contract: no promo code there (as placeOrder()).
  if (ctx.partner && input.promo_code) throw new AppError('promo_not_for_store', `The promo code ${input.promo_code} is not valid for a partner’s offers.`, 'promo_code');
  // What Stripe charges now: the order's total less a promo code, or its deposit (amount.ts). A
  // refused code is refused here, before the customer pays.
  // A partner's offers are the supplier's sale: this organisation's vouchers do not pay them (as placeOrder()).
  if (ctx.partner && input.voucher_code) throw new AppError('voucher_unknown', 'A gift voucher is not valid for a partner’s offers.', 'voucher_code');
  const due = await onlineAmount(ctx, { storeId: ctx.store.id, lines: held, promoCode: input.promo_code, email: input.customer.email, deposits: !ctx.partner, voucherCode: input.voucher_code, voucherAmount: input.voucher_amount });
  if (due.pay_now <= 0) {
    throw due.voucher > 0
      ? new AppError('invalid', 'Your gift voucher pays all of it: nothing is left to pay by card. Choose to pay on site to book with the voucher.', 'payment_option')
      : new AppError('invalid', 'Nothing is left to pay online: choose to pay on site.', 'payment_option');
  }
  // One payment at a time per cart: a retried start (a double click, a lost answer) gets the open
  // one back instead of a second session that could charge the customer twice.
  const again = await closeOpenPayments(ctx, stripe, input.cart, wanted, { amount: due.pay_now, promoCode: due.promo_code, total: due.total, voucher: due.voucher, voucherCode: due.voucher_code });
  if (again) return again;
  const minutes = config.ONLINE_PAYMENT_MINUTES;
  const expires = new Date(now.getTime() + minutes * 60_000);
  // The seats stay held while the customer pays (the lines' holds reach the session's expiry).
  await q.holdLinesUntil(ctx, wanted, expires);
  const amount = due.pay_now;
  const fee = Math.round((amount * (await q.applicationFeeBp(ctx))) / 10_000);
  const token = randomBytes(24).toString('base64url');
  const row = await q.insertCheckout(ctx, {
    account_id: ctx.accountId,
    store_id: ctx.store.id,
    cart_id: input.cart,
    partnership_id: ctx.partner?.partnershipId ?? null,
    lines: wanted,
    held: held.map((l) => ({ line: l.id, slot: l.slot_id, quantities: l.quantities, extras: l.extras })),
    // Stored as jsonb (a record to the schema), read back as the checkout's customer.
    customer: input.customer as unknown as Record<string, unknown>,
    answers: input.answers,
    amount,
    order_total: due.total,
    promo_code: due.promo_code,
    voucher_code: due.voucher_code,
    voucher_amount: due.voucher > 0 ? due.voucher : null,
    balance_due_on: due.due_on,
    currency: ctx.currency,
    application_fee: fee,
    connected_account: account.external_id,
    manage_token_hash: sha256(token),
    manage_token: token,
    expires_at: expires,
  });
  const titles = new Map((await q.slotTitles(ctx, held.map((l) => l.slot_id))).map((r) => [r.slot, `${r.title}, ${r.local}`]));
  const origin = tenantOrigin(config, ctx.subdomain);
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'payment',
      // Each line at what it is charged now (less its promo share, or its deposit).
      line_items: due.lines.filter((l) => l.charge > 0).map((l) => ({ quantity: 1, price_data: { currency: ctx.currency.toLowerCase(), unit_amount: toStripe(l.charge, ctx.currency), product_data: { name: titles.get(l.slot_id) ?? 'Booking' } } })),
      payment_intent_data: { application_fee_amount: feeToStripe(fee, ctx.currency), metadata: { tourdesk_checkout: row!.id, tourdesk_account: ctx.accountId } },
      customer_email: input.customer.email,
      client_reference_id: row!.id,
      metadata: { tourdesk_checkout: row!.id, tourdesk_account: ctx.accountId },
      expires_at: Math.floor(expires.getTime() / 1000),
      success_url: `${origin}/s/${ctx.store.slug}/payment/${row!.id}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/s/${ctx.store.slug}/checkout`,
    },
    { stripeAccount: account.external_id, idempotencyKey: `checkout-${row!.id}` },
  );
  await q.updateCheckout(ctx, row!.id, { session_id: session.id });
  return { checkout: row!.id, payment_url: session.url!, token };
}

export interface Finished {
  status: CheckoutRow['status'];
  orderId: string | null;
  /** Set when this call wrote the order (its confirmation is to be sent), issued a gift voucher, or refunded a late payment. */
  outcome?: 'booked' | 'refunded' | 'voucher';
}

/**
 * Settles the cart's online payments still open before another start or a booking to pay on site,
 * one rule for both: one whose page can still be paid for exactly `reuse`'s lines is answered, to be
 * used again; one Stripe says is complete (paid, or a delayed payment on its way) refuses with a
 * 409, as the order comes from it; every other is expired at Stripe first, then here, so it can no
 * longer be paid. The cart's row lock serialises them.
 */
export async function closeOpenPayments(ctx: TenantCtx, stripe: Stripe | null, cartId: string, reuse?: string[], charge?: { amount: number; promoCode: string | null; total: number; voucher: number; voucherCode: string | null }): Promise<OnlineStart | null> {
  await q.lockCart(ctx, cartId);
  const open = await q.openCheckouts(ctx, cartId);
  const paidAlready = () => new AppError('conflict', 'These seats have been paid for online already: the confirmation is on its way by e-mail.');
  const sameLines = (lines: string[]) => reuse !== undefined && [...lines].sort().join() === [...reuse].sort().join();
  // The same charge too: a promo code applied (or a deposit changed) since makes a new session.
  const sameCharge = (row: CheckoutRow) => !charge || (row.amount === charge.amount && (row.promo_code ?? null) === charge.promoCode && (row.order_total ?? row.amount) === charge.total && (row.voucher_amount ?? 0) === charge.voucher && (row.voucher_code ?? null) === charge.voucherCode);
  let kept: OnlineStart | null = null;
  for (const row of open) {
    if (row.session_id && stripe) {
      const at = { stripeAccount: row.connected_account };
      let session = await stripe.checkout.sessions.retrieve(row.session_id, {}, at);
      if (session.status === 'complete') throw paidAlready();
      const longEnough = row.expires_at.getTime() > Date.now() + 2 * 60_000;
      if (!kept && session.status === 'open' && session.url && row.manage_token && longEnough && sameLines(row.lines) && sameCharge(row)) {
        kept = { checkout: row.id, payment_url: session.url, token: row.manage_token };
        continue;
      }
      if (session.status === 'open') {
        // Paid in the very moment it is expired: Stripe refuses, and the payment wins.
        session = await stripe.checkout.sessions.expire(row.session_id, {}, at).catch(async (error: unknown) => {
          const now = await stripe.checkout.sessions.retrieve(row.session_id!, {}, at);
          if (now.status === 'complete') throw paidAlready();
          throw error;
        });
      }
    }
    await q.updateCheckout(ctx, row.id, { status: 'expired', updated_at: new Date() });
  }
  return kept;
}

/**
 * Finishes a paid session: the order from the held lines (held again if their holds ran out and
 * the seats are free), the payment recorded with its payment intent; or, the seats gone, the
 * money refunded. Asks Stripe for the session itself. Once only: a finished row is answered as is.
 */
export async function finishPaidSession(ctx: TenantCtx, stripe: Stripe, where: { id?: string; session?: string }): Promise<Finished | null> {
  const row = await q.lockCheckout(ctx, where);
  if (!row) return null;
  if (row.status !== 'open' || !row.session_id) return { status: row.status, orderId: row.order_id };
  const session = await stripe.checkout.sessions.retrieve(row.session_id, {}, { stripeAccount: row.connected_account });
  if (session.status === 'expired') {
    await expireRow(ctx, row);
    return { status: 'expired', orderId: null };
  }
  if (session.payment_status !== 'paid') return { status: 'open', orderId: null };
  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? '');
  const at = { stripeAccount: row.connected_account };
  const refunded = async () => {
    await q.updateCheckout(ctx, row.id, { status: 'refunded', payment_intent: paymentIntent, updated_at: new Date() });
    return { status: 'refunded' as const, orderId: null, outcome: 'refunded' as const };
  };
  // Refunded by an earlier try whose transaction did not commit (Stripe's refund stays): never book it now.
  const earlier = await stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 }, at);
  if (earlier.data.some((r) => r.metadata?.tourdesk_checkout === row.id && r.status !== 'failed' && r.status !== 'canceled')) return refunded();
  const customer = row.customer as z.output<typeof ZWebOrderInput>['customer'];
  const book = (lines: string[]) =>
    checkout(ctx, row.cart_id!, null, { customer: { ...customer, country: customer.country ?? null }, answers: row.answers, lines, storeId: row.store_id ?? undefined, manageTokenHash: row.manage_token_hash, promo_code: row.promo_code ?? undefined, now: true });
  let orderId: string | null = null;
  // What Stripe took must be what the order costs, in its currency: anything else goes back.
  const took = session.currency?.toUpperCase() === row.currency.toUpperCase() && session.amount_total !== null ? fromStripe(session.amount_total, row.currency) : null;
  if (row.voucher && took === row.amount) {
    // A gift voucher bought in the store (payments/vouchers.ts): issued now, in a savepoint (refused → refunded below).
    const issued = await q.inSavepoint(ctx, (sp) => issuePurchasedVoucher(sp, row)).catch((error: unknown) => {
      if (error instanceof AppError) return null;
      throw error;
    });
    if (issued) {
      await q.updateCheckout(ctx, row.id, { status: 'paid', payment_intent: paymentIntent, updated_at: new Date() });
      return { status: 'paid', orderId: null, outcome: 'voucher' };
    }
  }
  if (took === row.amount && row.payment_link_id && row.order_id) {
    // A payment link pays an existing order's balance (links.ts): recorded on it as every online
    // payment is; refused (more than is due now: paid meanwhile at the desk, or cancelled) → refunded.
    try {
      orderId = await q.inSavepoint(ctx, async (spCtx) => {
        await recordPayment(spCtx, row.order_id!, { amount: row.amount, currency: row.currency, method: 'online', reference: `Stripe ${paymentIntent}`, provider_ref: paymentIntent });
        return row.order_id!;
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  } else if (took === row.amount && !row.payment_link_id && !row.voucher) {
    try {
      // In a savepoint: a refused booking leaves the transaction usable for the refund. The order is
      // booked only for what was paid (a price changed since, when a line was held again, refuses it).
      orderId = await q.inSavepoint(ctx, async (spCtx) => {
        // Sold in a reseller's store: the contract, read again under its lock, must still allow it.
        const resold = row.partnership_id ? await contractOfSlots(spCtx, row.partnership_id, row.held.map((h) => h.slot)) : null;
        const id = await bookOrHoldAgain(spCtx, row, book);
        if (resold) await markResale(spCtx, id, resold.contract, resold.rates, null, { store: row.store_id, paid_online: true });
        // The order must cost what was agreed when the payment started (its total less a promo code;
        // the amount paid is that, or its deposit): a price or a code changed since refuses it.
        const expected = row.order_total ?? row.amount;
        const o = await q.orderTotal(spCtx, id);
        if (o!.total !== expected) throw new AppError('conflict', `The order would cost ${o!.total}, but ${expected} was agreed.`);
        if (row.balance_due_on) await q.setBalanceDueOn(spCtx, id, row.balance_due_on);
        // The gift voucher pays first, as agreed: spent meanwhile (its balance short now), the order is refused and the card refunded.
        if (row.voucher_code && row.voucher_amount) await redeemVoucher(spCtx, { orderId: id, code: row.voucher_code, amount: row.voucher_amount });
        await recordPayment(spCtx, id, { amount: row.amount, currency: row.currency, method: 'online', reference: `Stripe ${paymentIntent}`, provider_ref: paymentIntent });
        return id;
      });
    } catch (error) {
      // Any refusal (seats gone, a price changed, the plan's limit reached meanwhile): the money goes back.
      if (!(error instanceof AppError)) throw error;
    }
  }
  if (!orderId) {
    // The customer is not at fault: the platform's fee goes back with the payment.
    await stripe.refunds.create(
      { payment_intent: paymentIntent, reason: 'requested_by_customer', refund_application_fee: true, metadata: { tourdesk_checkout: row.id } },
      { ...at, idempotencyKey: `late-refund-${row.id}` },
    );
    return refunded();
  }
  await q.updateCheckout(ctx, row.id, { status: 'paid', order_id: orderId, payment_intent: paymentIntent, updated_at: new Date() });
  return { status: 'paid', orderId, outcome: 'booked' };
}

/**
 * Books the checkout's lines; a line swept since its hold ran out is held again first (in the
 * same cart, with the same quantities) when its slot still has the seats — else the whole
 * booking is refused (409), as at the counter.
 */
async function bookOrHoldAgain(ctx: TenantCtx, row: CheckoutRow, book: (lines: string[]) => Promise<string>) {
  const present = new Set((await q.presentLines(ctx, row.lines)).map((r) => r.id));
  const lines: string[] = [];
  for (const h of row.held) {
    if (present.has(h.line)) lines.push(h.line);
    else {
      // Swept: held again, with what it held, if its slot still has the seats (else a 409: refunded).
      const again = await holdAlone(ctx.tx, { accountId: ctx.accountId, cartId: row.cart_id! }, h.slot, { quantities: h.quantities, extras: h.extras });
      lines.push(again.id);
    }
  }
  return book(lines);
}

/** An unpaid session's lines give their seats back: each slot locked before its lines, as every writer does. */
async function expireRow(ctx: TenantCtx, row: CheckoutRow) {
  await q.updateCheckout(ctx, row.id, { status: 'expired', updated_at: new Date() });
  const still = await q.linesWithSlots(ctx, row.lines);
  for (const l of still.sort((a, b) => a.slot.localeCompare(b.slot))) {
    await lockSlot(ctx, l.slot);
    await q.deleteLine(ctx, l.id);
  }
}

/**
 * checkout.session.expired: the unpaid session gives its seats back; so does a session whose
 * payment failed after it was completed (checkout.session.async_payment_failed).
 */
export async function expireSession(ctx: TenantCtx, session: string, outcome: 'expired' | 'failed' = 'expired') {
  const row = await q.lockCheckout(ctx, { session });
  if (row && row.status === 'open') {
    await expireRow(ctx, row);
    if (outcome === 'failed') await q.updateCheckout(ctx, row.id, { status: 'failed', updated_at: new Date() });
  }
}

/**
 * The checkout a customer's page asks about: with the secret it was given, or with the Stripe
 * session id Stripe put in the return address (a page in a frame on another site may not find
 * the secret its tab kept: it then sees the order, and its booking page's link comes by e-mail).
 */
export async function checkoutOf(ctx: TenantCtx, id: string, proof: { token?: string; session?: string }) {
  const row = await q.checkoutById(ctx, id);
  const byToken = Boolean(row && proof.token && sha256(proof.token) === row.manage_token_hash);
  const bySession = Boolean(row && proof.session && row.session_id && proof.session === row.session_id);
  if (!row || (!byToken && !bySession)) throw new AppError('not_found', 'No payment with this id.');
  return { row, byToken };
}

/**
 * Refunds of online payments go back to the card through Stripe, on the account that took the
 * payment: recorded with Stripe's refund id, succeeded or pending as Stripe answers (a pending one
 * is finished by its refund.updated / charge.refund.updated / refund.failed: onRefundUpdated()).
 */
export function onlineRefunds(ctx: TenantCtx, stripe: Stripe | null, key: string | undefined): PaymentSettlement {
  return {
    async settle(paid, amount) {
      if (paid.method !== 'online' || !paid.provider_ref) throw new AppError('invalid', 'Only an online payment is refunded online: choose how you give this money back.', 'method');
      if (!stripe) throw new AppError('invalid', 'Online payments are not set up on this platform any more: refund this payment another way.', 'method');
      const row = await q.connectedAccountOfPayment(ctx, paid.provider_ref);
      if (!row) throw new AppError('invalid', 'This online payment cannot be found at the payment provider.', 'refund_of');
      const refund = await stripe.refunds.create(
        { payment_intent: paid.provider_ref, amount: toStripe(amount, ctx.currency), metadata: { tourdesk_payment: paid.id } },
        { stripeAccount: row.acct, ...(key ? { idempotencyKey: `refund-${ctx.accountId}-${key}` } : {}) },
      );
      if (refund.status === 'failed' || refund.status === 'canceled') throw new AppError('invalid', 'The payment provider could not make this refund: give this money back another way.', 'method');
      return { ref: refund.id, status: refund.status === 'succeeded' ? 'succeeded' : 'pending' };
    },
  };
}

/**
 * charge.refunded: the refunds made in Stripe that are not recorded here yet (one made in its
 * dashboard) are recorded as refunds of the payment, once. Stripe's refunded total (asked afresh:
 * an event may be old) is compared only with the refunds recorded with Stripe's reference — a refund
 * given in cash at the desk is none of Stripe's business. Each missing refund is recorded by its id
 * and its status (a pending one as pending); what Stripe counts beyond them (older refunds recorded
 * by the charge's total) by the charge's total, as succeeded.
 */
export async function onChargeRefunded(db: Db, stripe: Stripe | null, stripeAccount: string, charge: Stripe.Charge) {
  const paymentIntent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  if (!paymentIntent) return;
  const hit = await q.bookedCheckoutOfPayment(db, paymentIntent, stripeAccount);
  if (!hit) return;
  await inTenant(db, hit.account_id, async (tx) => {
    const ctx: TenantCtx = { tx, accountId: hit.account_id, currency: charge.currency.toUpperCase() };
    await q.lockOrder(ctx, hit.order_id);
    const paid = await q.paymentWithProviderRefunds(ctx, paymentIntent);
    if (!paid) return;
    const at = { stripeAccount };
    const now = stripe ? await stripe.charges.retrieve(charge.id, {}, at) : charge;
    const refundedThere = fromStripe(now.amount_refunded, now.currency);
    if (refundedThere === null) return;
    let beyond = refundedThere - paid.refunded;
    if (beyond <= 0) return;
    const refund = (amount: number, ref: string, status: 'succeeded' | 'pending') =>
      recordPayment(ctx, hit.order_id, { amount: -amount, currency: ctx.currency, method: 'online', reference: `Stripe ${ref}`, refund_of: paid.id, reason: 'Refunded at the payment provider', provider_ref: ref, status });
    if (stripe) {
      const made = await stripe.refunds.list({ charge: charge.id, limit: 100 }, at);
      for (const r of made.data) {
        if (paid.refs.has(r.id) || (r.status !== 'succeeded' && r.status !== 'pending')) continue;
        const amount = fromStripe(r.amount, r.currency);
        if (amount === null || amount > beyond) continue;
        await refund(amount, r.id, r.status === 'pending' ? 'pending' : 'succeeded');
        beyond -= amount;
        if (beyond === 0) return;
      }
    }
    await refund(beyond, `${charge.id}:${now.amount_refunded}`, 'succeeded');
  });
}

/**
 * refund.updated, charge.refund.updated, refund.failed: a refund recorded pending that Stripe
 * finished becomes final; one that failed (pending or not) is reversed in the books
 * (settleProviderRefund()). A refund not recorded here is left to charge.refunded.
 */
export async function onRefundUpdated(db: Db, jobs: Jobs, stripeAccount: string, refund: Stripe.Refund) {
  const paymentIntent = typeof refund.payment_intent === 'string' ? refund.payment_intent : refund.payment_intent?.id;
  const outcome = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : null;
  if (!paymentIntent || !outcome) return;
  const hit = await q.bookedCheckoutOfPayment(db, paymentIntent, stripeAccount);
  if (!hit) return;
  await inTenant(db, hit.account_id, async (tx) => {
    const settled = await settleProviderRefund({ tx, accountId: hit.account_id, currency: refund.currency.toUpperCase() }, hit.order_id, refund.id, outcome, refund.failure_reason ?? '');
    // A refund that waited on the card network is told to the customer once it has gone through (never when it failed).
    if (settled && settled.changed && outcome === 'succeeded') {
      await queueOrderMail(jobs, tx, { account: hit.account_id, store: null, order: hit.order_id, kind: 'refund', refund: { amount: -settled.amount, method: settled.method }, subject: 'Refund' });
    }
  });
}

/** The secret of a finished checkout's booking page, taken once (for its confirmation e-mail), and whom it is for. */
export async function takeManageToken(ctx: TenantCtx, checkoutId: string) {
  const row = await q.lockCheckoutById(ctx, checkoutId);
  if (!row) return null;
  await q.updateCheckout(ctx, checkoutId, { manage_token: null });
  const customer = row.customer as { email?: string; first_name?: string };
  return { store_id: row.store_id, cart_id: row.cart_id, payment_link: row.payment_link_id !== null, deposit: row.order_total !== null && row.order_total > row.amount, token: row.manage_token, email: String(customer.email ?? ''), first_name: String(customer.first_name ?? ''), amount: row.amount, currency: row.currency };
}

/**
 * After this process finished a payment (by its event or the customer's page): the confirmation
 * with the tickets, or, paid too late, the note that the money went back. In the same transaction.
 */
export async function afterFinish(ctx: TenantCtx, jobs: Jobs, config: Config, checkoutId: string, done: Finished) {
  const row = await takeManageToken(ctx, checkoutId);
  // A payment link's balance: no order was made, its confirmation went long ago; the customer's page says how it went.
  if (!row || row.payment_link) return;
  if (done.outcome === 'booked' && done.orderId) {
    // Paid by a deposit: the confirmation carries a link to pay the rest (when links can be paid).
    const pay = row.deposit ? await newPaymentLink(ctx, config, done.orderId).then((l) => l.url, (error: unknown) => (error instanceof AppError ? undefined : Promise.reject(error))) : undefined;
    await queueOrderMail(jobs, ctx.tx, { account: ctx.accountId, store: row.store_id, order: done.orderId, kind: 'confirmation', manage: row.token ?? undefined, pay, to: row.email, subject: 'Booking confirmation' });
    jobs.wake(QUEUES.orderMail);
  } else if (done.outcome === 'refunded') {
    // No order was made: the customer's language is their cart's (lib/customer-text.ts).
    const t = translateFor(row.cart_id ? await q.cartLanguage(ctx, row.cart_id) : null);
    await queueMail(jobs, config, ctx.tx, [
      {
        account: ctx.accountId,
        to: row.email,
        subject: t('mail.refunded.subject'),
        text: `${t('mail.greeting', { name: row.first_name })}\n\n${t('mail.refunded.body', { amount: mailMoney(t, row.amount, row.currency) })}`,
      },
    ]);
    jobs.wake(QUEUES.email);
  }
}

/**
 * The organisation a payment event is about: the one whose connected account it comes from, never
 * what its metadata says (an organisation writes metadata on its own Stripe account as it likes).
 * The platform's own events (plans) name theirs by the Stripe customer (onSubscription).
 */
export async function tourdeskAccountOf(db: Db, event: Stripe.Event): Promise<string | null> {
  const stripeAccount = event.account ?? null;
  if (!stripeAccount) return null;
  return q.accountOfStripeAccount(db, stripeAccount);
}

/**
 * A signed Stripe event received: stored once (its id is the key; a duplicate finds it and is only
 * acknowledged) with its job, in one transaction.
 */
export async function receiveStripeEvent(db: Db, jobs: Jobs, event: Stripe.Event) {
  const account = await tourdeskAccountOf(db, event);
  await q.storeStripeEvent(db, event, (tx) => jobs.sendIn(tx as never, QUEUES.stripeEvent, { event: event.id, type: event.type, ...(account ? { account } : {}), subject: event.type }));
}

/**
 * One stored Stripe event, handled once (its job runs once; each handler is idempotent as well:
 * a finished checkout is answered as it is, a refund recorded by its id).
 */
export async function handleStripeEvent(db: Db, stripe: Stripe | null, jobs: Jobs, config: Config, eventId: string) {
  const stored = await q.storedStripeEvent(db, eventId);
  if (!stored || stored.processed_at || !stripe) return { skipped: true };
  // The event as storeStripeEvent() stored it (jsonb, a record to the schema), checked by Stripe's signature then.
  const event = stored.payload as unknown as Stripe.Event;
  const account = await tourdeskAccountOf(db, event);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object as Stripe.Checkout.Session;
      if (session.mode === 'payment' && account) {
        await inTenant(db, account, async (tx) => {
          const ctx: TenantCtx = { tx, accountId: account, currency: (session.currency ?? '').toUpperCase(), jobs };
          const done = await finishPaidSession(ctx, stripe, { session: session.id });
          if (done?.outcome) await afterFinish(ctx, jobs, config, await q.checkoutIdOfSession(ctx, session.id), done);
        });
      }
      break;
    }
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object as Stripe.Checkout.Session;
      const outcome = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
      if (session.mode === 'payment' && account) await inTenant(db, account, (tx) => expireSession({ tx, accountId: account, currency: '' }, session.id, outcome));
      break;
    }
    case 'charge.refunded':
      if (event.account) await onChargeRefunded(db, stripe, event.account, event.data.object as Stripe.Charge);
      break;
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated':
      if (event.account) await onRefundUpdated(db, jobs, event.account, event.data.object as Stripe.Refund);
      break;
    case 'account.updated':
      if (event.account === (event.data.object as Stripe.Account).id) await onAccountUpdated(db, event.data.object as Stripe.Account);
      break;
    case 'account.application.deauthorized':
      if (event.account) await onDeauthorized(db, event.account);
      break;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      // Plans are sold on the platform's own account only: the same event from a connected account is the organisation's business.
      if (!event.account) await onSubscription(db, stripe, event.data.object as Stripe.Subscription, event.type === 'customer.subscription.deleted');
      break;
    default:
      break;
  }
  await q.markStripeEventProcessed(db, eventId);
  return { handled: event.type };
}
