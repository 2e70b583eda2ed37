import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { TPaymentLinkSent } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import type { Jobs } from '../../lib/jobs';
import { inTenant } from '../../lib/tenancy';
import { queueOrderMail } from '../order-mail/service';
import { recordAudit } from '../orders/order-basics';
import { finishPaidSession } from './online';
import { newPaymentLink, paymentLinkPath } from './new-link';
import * as q from './queries';
import { feeToStripe, toStripe } from './stripe-amounts';

/**
 * Payment links: staff e-mail a customer a link to pay what is left of an order (its balance) by
 * card. The link's address carries a secret (only its hash is kept). Opening it shows what is due
 * at that moment; paying makes a Stripe Checkout session for that amount, then, on the
 * organisation's connected account as a direct charge with the plan's fee (as the web store's
 * online payments, online.ts). An online_checkout row (with `payment_link_id` and the order) stands
 * for each session, and the payment is recorded by the one path every online payment takes:
 * finishPaidSession(), from Stripe's signed event or the customer's return, whoever is first. A
 * payment that finds less due than it paid (the balance was paid meanwhile at the desk) is
 * refunded whole with the platform's fee.
 */

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export { PAYMENT_LINK_ROUTE, paymentLinkPath, newPaymentLink } from './new-link';

/** E-mails the order's customer a link to pay its balance (order-mail's job `payment-link`), with an entry in the order's audit trail. */
export async function sendPaymentLink(ctx: TenantCtx, config: Config, jobs: Jobs, orderId: string): Promise<TPaymentLinkSent> {
  const { link, url, email, due, currency } = await newPaymentLink(ctx, config, orderId);
  await queueOrderMail(jobs, ctx.tx, { account: ctx.accountId, store: null, order: orderId, kind: 'payment-link', pay: url, to: email, subject: 'Payment link' });
  await recordAudit(ctx, { order: orderId, subject: 'order', subjectId: orderId, action: 'payment link sent', changes: { email, amount: due, currency } });
  return { id: link.id, order: orderId, email, amount: due, currency, created_at: link.created_at.toISOString() };
}

/** What the customer's page says: the order, what is due now, and how things stand. */
export interface LinkView {
  language: string;
  organisation: string;
  reference: string;
  currency: string;
  due: number;
  state: 'due' | 'paid' | 'partly_paid' | 'nothing_due' | 'cancelled' | 'unavailable' | 'processing' | 'refunded';
}

type LinkCtx = TenantCtx & { link: NonNullable<Awaited<ReturnType<typeof q.paymentLinkByHash>>> };

/** The link at this address on this organisation's host (404 for any other), in its organisation. */
function inLink<T>(db: Db, subdomain: string | null, token: string, fn: (ctx: LinkCtx) => Promise<T>, lock = false): Promise<T> {
  const gone = () => notFound('No payment link at this address.');
  return (async () => {
    const account = subdomain ? await q.accountAtSubdomain(db, subdomain) : undefined;
    if (!account) throw gone();
    return inTenant(db, account.id, async (tx) => {
      const ctx: TenantCtx = { tx, accountId: account.id, currency: account.currency };
      const link = await q.paymentLinkByHash(ctx, sha256(token), lock);
      if (!link) throw gone();
      return fn({ ...ctx, currency: link.currency, link });
    });
  })();
}

async function viewOf(ctx: LinkCtx) {
  const o = await q.orderForLink(ctx, ctx.link.order_id);
  if (!o) throw notFound('No payment link at this address.');
  const due = o.total - o.paid;
  const view: LinkView = {
    language: o.language,
    organisation: o.organisation,
    reference: o.reference,
    currency: o.currency,
    due,
    state: o.status === 'Canceled' ? 'cancelled' : due > 0 ? 'due' : 'nothing_due',
  };
  return { o, view };
}

/** The link's page: what is due on the order now. */
export function paymentLinkPage(db: Db, subdomain: string | null, token: string): Promise<LinkView> {
  return inLink(db, subdomain, token, async (ctx) => (await viewOf(ctx)).view);
}

/**
 * The customer pays: a Stripe Checkout session for what is due now (the answer is its address), or
 * the page when nothing is due. One open session per order's balance: one still open for this very
 * amount is used again; one Stripe says is paid is recorded first (finishPaidSession()); any other
 * is expired at Stripe, so it can no longer be paid. The link's row lock, then the order's links'
 * advisory lock (lockOrderLinks()), serialise them — never the order's row lock: finishPaidSession()
 * takes the checkout's lock, then the order's.
 */
export function payByLink(db: Db, config: Config, stripe: Stripe | null, subdomain: string | null, token: string): Promise<{ url: string } | { view: LinkView }> {
  return inLink(db, subdomain, token, async (ctx) => {
    let { o, view } = await viewOf(ctx);
    if (view.state !== 'due') return { view };
    const account = await q.connectedAccount(ctx);
    if (!stripe || !account?.charges_enabled) return { view: { ...view, state: 'unavailable' as const } };
    // Two links of one order (a link sent twice) opened at once: one session, not two.
    await q.lockOrderLinks(ctx, o.id);
    let recorded = false;
    for (const row of await q.openLinkCheckouts(ctx, o.id)) {
      const at = { stripeAccount: row.connected_account };
      let session = row.session_id ? await stripe.checkout.sessions.retrieve(row.session_id, {}, at) : null;
      if (session?.status === 'open' && session.url && row.amount === view.due && row.expires_at.getTime() > Date.now() + 2 * 60_000) return { url: session.url };
      if (session?.status === 'open') {
        // Paid in the very moment it is expired: Stripe refuses, and the payment is recorded.
        session = await stripe.checkout.sessions.expire(row.session_id!, {}, at).catch(async (error: unknown) => {
          const now = await stripe.checkout.sessions.retrieve(row.session_id!, {}, at);
          if (now.status === 'complete') return now;
          throw error;
        });
      }
      if (session?.status === 'complete') {
        await finishPaidSession(ctx, stripe, { id: row.id });
        recorded = true;
      } else await q.updateCheckout(ctx, row.id, { status: 'expired', updated_at: new Date() });
    }
    if (recorded) {
      ({ o, view } = await viewOf(ctx));
      if (view.state !== 'due') return { view: view.state === 'nothing_due' ? { ...view, state: 'paid' as const } : view };
    }
    const due = view.due;
    const expires = new Date(Date.now() + config.ONLINE_PAYMENT_MINUTES * 60_000);
    const fee = Math.round((due * (await q.applicationFeeBp(ctx))) / 10_000);
    const row = await q.insertCheckout(ctx, {
      account_id: ctx.accountId,
      store_id: null,
      cart_id: null,
      lines: [],
      customer: { email: o.email ?? '' },
      amount: due,
      currency: o.currency,
      application_fee: fee,
      connected_account: account.external_id,
      order_id: o.id,
      payment_link_id: ctx.link.id,
      manage_token_hash: ctx.link.token_hash,
      expires_at: expires,
    });
    const origin = tenantOrigin(config, o.subdomain);
    const metadata = { tourdesk_checkout: row!.id, tourdesk_account: ctx.accountId, tourdesk_order: o.id };
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [{ quantity: 1, price_data: { currency: o.currency.toLowerCase(), unit_amount: toStripe(due, o.currency), product_data: { name: `${o.organisation} — ${o.reference}` } } }],
        payment_intent_data: { application_fee_amount: feeToStripe(fee, o.currency), metadata },
        ...(o.email ? { customer_email: o.email } : {}),
        client_reference_id: row!.id,
        metadata,
        expires_at: Math.floor(expires.getTime() / 1000),
        success_url: `${origin}${paymentLinkPath(token)}/done?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${origin}${paymentLinkPath(token)}`,
      },
      { stripeAccount: account.external_id, idempotencyKey: `checkout-${row!.id}` },
    );
    await q.updateCheckout(ctx, row!.id, { session_id: session.id });
    return { url: session.url! };
  }, true);
}

/**
 * Stripe sends the customer back: their session is finished here if its event has not come yet
 * (the same finishPaidSession() as the event), and the page says how it went.
 */
export function paymentLinkReturn(db: Db, stripe: Stripe | null, subdomain: string | null, token: string, sessionId: string | undefined): Promise<LinkView> {
  return inLink(db, subdomain, token, async (ctx) => {
    const row = sessionId ? await q.lockCheckout(ctx, { session: sessionId }) : undefined;
    // Only this link's own session: another's id is not this page's business.
    const mine = row && row.payment_link_id === ctx.link.id ? row : null;
    const done = mine && stripe ? await finishPaidSession(ctx, stripe, { id: mine.id }) : null;
    const { view } = await viewOf(ctx);
    if (done?.status === 'refunded') return { ...view, state: 'refunded' };
    if (done?.status === 'paid') return { ...view, state: view.due > 0 ? 'partly_paid' : 'paid' };
    if (done?.status === 'open') return { ...view, state: 'processing' };
    return view;
  });
}
