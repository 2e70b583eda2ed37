import { createHash, randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { z } from 'zod';
import type { ZVoucherPurchase } from '@tourdesk/contracts';
import { negotiateLanguage, type Language } from '@tourdesk/contracts/i18n';
import type { Config } from '../../config';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import type { Jobs } from '../../lib/jobs';
import { addDays, todayIn } from '../../lib/local-time';
import { checkPurchaseAmount, organisationVoucherSettings, type VoucherPurchasePayload } from '../gift-vouchers/service';
import type { WebCtx } from '../stores/scope';
import { afterFinish, finishPaidSession } from './online';
import * as q from './queries';
import { feeToStripe, toStripe } from './stripe-amounts';

/**
 * Buying a gift voucher in the web store: paid online only, through the machinery of the store's
 * online payments (online.ts) — a Stripe Checkout session as a direct charge on the organisation's
 * connected account with the plan's fee, an online_checkout row with no cart and the purchase in
 * `voucher`, finished by finishPaidSession() from Stripe's event or the customer's return (whoever
 * first takes the row's lock), which issues the voucher (gift-vouchers) or refunds the payment.
 */

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export async function startVoucherPurchase(ctx: WebCtx, config: Config, stripe: Stripe | null, input: z.output<typeof ZVoucherPurchase>, acceptLanguage: string | undefined) {
  const offer = await checkPurchaseAmount(ctx, ctx.store.id, input.amount);
  const account = await q.connectedAccount(ctx);
  if (!stripe || !offer.online || !account?.charges_enabled) throw new AppError('invalid', 'Gift vouchers are paid online, which this store does not offer now.', 'payment_option');
  const s = await organisationVoucherSettings(ctx);
  const today = todayIn(s.zone);
  if (input.deliver_on && input.deliver_on < today) throw new AppError('invalid', 'Choose today or a later day.', 'deliver_on');
  // Within a year: a voucher e-mailed later could arrive close to (or past) its expiry.
  if (input.deliver_on && input.deliver_on > addDays(today, 365)) throw new AppError('invalid', 'Choose a day within a year.', 'deliver_on');
  const language = negotiateLanguage(acceptLanguage, (s.languages.length ? s.languages : ['en']) as Language[]);
  const payload: VoucherPurchasePayload = {
    value: input.amount,
    buyer_name: input.buyer_name,
    buyer_email: input.buyer_email,
    recipient_name: input.recipient_name,
    recipient_email: input.recipient_email,
    message: input.message,
    deliver_on: input.deliver_on ?? today,
    language,
  };
  const expires = new Date(Date.now() + config.ONLINE_PAYMENT_MINUTES * 60_000);
  const fee = Math.round((input.amount * (await q.applicationFeeBp(ctx))) / 10_000);
  const token = randomBytes(24).toString('base64url');
  const row = await q.insertCheckout(ctx, {
    account_id: ctx.accountId,
    store_id: ctx.store.id,
    cart_id: null,
    lines: [],
    customer: { email: input.buyer_email, first_name: input.buyer_name },
    // Stored as jsonb (a record to the schema); read back as VoucherPurchasePayload below and in gift-vouchers.
    voucher: payload as unknown as Record<string, unknown>,
    amount: input.amount,
    currency: ctx.currency,
    application_fee: fee,
    connected_account: account.external_id,
    manage_token_hash: sha256(token),
    expires_at: expires,
  });
  const origin = tenantOrigin(config, ctx.subdomain);
  const metadata = { tourdesk_checkout: row!.id, tourdesk_account: ctx.accountId, tourdesk_voucher: 'purchase' };
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: ctx.currency.toLowerCase(), unit_amount: toStripe(input.amount, ctx.currency), product_data: { name: `${s.name} — gift voucher` } } }],
      payment_intent_data: { application_fee_amount: feeToStripe(fee, ctx.currency), metadata },
      customer_email: input.buyer_email,
      client_reference_id: row!.id,
      metadata,
      expires_at: Math.floor(expires.getTime() / 1000),
      success_url: `${origin}/s/${ctx.store.slug}/gift-voucher?purchase=${row!.id}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/s/${ctx.store.slug}/gift-voucher`,
    },
    { stripeAccount: account.external_id, idempotencyKey: `checkout-${row!.id}` },
  );
  await q.updateCheckout(ctx, row!.id, { session_id: session.id });
  return { checkout: row!.id, payment_url: session.url!, token };
}

/**
 * Where a voucher purchase stands, for the customer's page (proof: the session id of Stripe's
 * return address): finished here when Stripe's event has not come yet.
 */
export async function voucherPurchaseState(ctx: TenantCtx, stripe: Stripe | null, jobs: Jobs, config: Config, id: string, session: string | undefined) {
  const row = await q.checkoutById(ctx, id);
  if (!row || !row.voucher || !session || row.session_id !== session) throw new AppError('not_found', 'No gift voucher purchase with this id.');
  if (row.status === 'open' && stripe) {
    const done = await finishPaidSession({ ...ctx, jobs }, stripe, { id: row.id });
    if (done?.outcome) await afterFinish({ ...ctx, jobs }, jobs, config, row.id, done);
  }
  const now = await q.checkoutById(ctx, id);
  // What this file stored above (jsonb, a record to the schema).
  const p = now!.voucher as unknown as VoucherPurchasePayload;
  return { status: now!.status as 'open' | 'paid' | 'expired' | 'failed' | 'refunded', code_sent_to: now!.status === 'paid' ? p.recipient_email || p.buyer_email : null };
}
