import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import * as q from './queries';

/** Making a payment link (links.ts serves it; online.ts puts one in a deposit's confirmation). */

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A payment link's page on the organisation's host (lib/secret-paths.ts redacts `:token` from every log line). */
export const PAYMENT_LINK_ROUTE = '/pay/:token';
export const paymentLinkPath = (token: string) => `/pay/${token}`;

/**
 * A new payment link for the order's balance (its address answered, never kept): refused for a
 * cancelled or fully paid order, a customer without an e-mail, or without a connected account that
 * takes charges. The caller sends it (staff's e-mail, the confirmation of a deposit, the balance's
 * reminder) or sends the customer to it (the store's "Pay the rest").
 */
export async function newPaymentLink(ctx: TenantCtx, config: Config, orderId: string) {
  // Locked: a payment recorded meanwhile is seen.
  const o = await q.orderForLink(ctx, orderId, true);
  if (!o) throw notFound('No order with this id.');
  if (o.status === 'Canceled') throw new AppError('invalid', 'This order is cancelled: there is nothing to pay.');
  const due = o.total - o.paid;
  if (due <= 0) throw new AppError('invalid', 'This order is fully paid: nothing is left to pay.');
  if (!o.email) throw new AppError('invalid', 'This order’s customer has no e-mail address: add one to send a payment link.');
  const account = await q.connectedAccount(ctx);
  if (!account?.charges_enabled) throw new AppError('invalid', 'Payment links need a Stripe account that takes payments: connect one in Settings → Payment providers.');
  const token = randomBytes(24).toString('base64url');
  const link = await q.insertPaymentLink(ctx, { order_id: orderId, token_hash: sha256(token), email: o.email, amount: due, currency: o.currency, sent_by: ctx.userId ?? null });
  return { link, url: `${tenantOrigin(config, o.subdomain)}${paymentLinkPath(token)}`, email: o.email, due, currency: o.currency };
}
