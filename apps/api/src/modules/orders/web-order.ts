import { createHash, randomBytes } from 'node:crypto';
import type { TWebOrder } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { tenantOrigin } from '../../lib/host';
import { isLanguage } from '@tourdesk/contracts/i18n';
import { sellingLanguages } from '../organization/queries';
import { questionsOwed } from './answers';
import { termsOf } from './cancellation';
import { setManageTokenHash } from './queries/orders';
import { orderWithCustomer, webOrderBookingRows } from './queries/tickets';
import { bookingsAsShown } from './tickets';
import { orderDiscount } from './sale';

/**
 * A web order as its customer sees it (the store's booking page and the order's e-mails): its
 * bookings in the seller's zone, what is paid, and whether and on what terms it may be cancelled
 * now; with the private link of its page.
 */
export async function presentWebOrder(ctx: Pick<TenantCtx, 'tx' | 'accountId'> & { timeZone: string }, orderId: string, manageUrl: (reference: string) => string): Promise<TWebOrder> {
  const o = await orderWithCustomer(ctx, orderId);
  const rows = await webOrderBookingRows(ctx, orderId);
  const bookings = await bookingsAsShown(ctx, rows, ctx.timeZone);
  // The one rule (orders/cancellation.ts): the strictest policy of its open bookings decides (a customer cancels the whole order).
  const open = rows.filter((r) => r.b.status !== 'Canceled').map((r) => ({ starts: r.starts, rules: r.policy }));
  // A partner's booking through OCTO (no store of its own) is the partner's to change or cancel: the reseller collected it.
  const partnerBooking = o!.o.store_id === null && o!.o.partnership_id !== null;
  const cancellation =
    o!.o.status === 'Canceled'
      ? { allowed: false, refund: 0, fee: 0, reason: 'This order is cancelled.' }
      : partnerBooking
        ? { allowed: false, refund: 0, fee: 0, reason: 'Booked through a partner: ask them to change or cancel it.' }
        : termsOf(open, o!.o.paid, o!.o.total);
  const main = (await sellingLanguages(ctx.tx, { id: ctx.accountId }))[0]!;
  return {
    reference: o!.o.reference,
    status: o!.o.status,
    payment_status: o!.o.payment_status,
    currency: o!.o.currency,
    total: o!.o.total,
    paid: o!.o.paid,
    refunded: o!.o.refunded,
    cancellation_fee: o!.o.cancellation_fee,
    discount: orderDiscount(o!.o.promo_code, rows.map((r) => r.b)),
    balance_due_on: o!.o.balance_due_on,
    customer: { first_name: o!.c.first_name, last_name: o!.c.last_name, email: o!.c.email },
    bookings,
    manage_url: inLanguage(manageUrl(o!.o.reference), o!.o.language),
    cancellation,
    partner_booking: partnerBooking,
    questions_owed: await questionsOwed(ctx, orderId, isLanguage(o!.o.language) ? o!.o.language : main, main),
  };
}

/**
 * A store address that opens in the order's language: ?lang= (the store keeps it as the customer's
 * choice and goes to that language's address, web-store/language.ts; the fragment stays).
 */
const inLanguage = (url: string, language: string) => {
  if (!url) return url;
  const hash = url.indexOf('#');
  const [head, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${head}${head.includes('?') ? '&' : '?'}lang=${encodeURIComponent(language)}${fragment}`;
};

/** The private link of an order's page: https://{org}/s/{store}/booking/{reference}#{secret}. */
export const manageUrlFor = (config: Parameters<typeof tenantOrigin>[0], ctx: { subdomain: string; store: { slug: string } }, token: string) => (reference: string) =>
  `${tenantOrigin(config, ctx.subdomain)}/s/${ctx.store.slug}/booking/${reference}#${token}`;

/**
 * A new secret for an order's booking page (staff send the customer's confirmation again; a
 * partner's customer is asked for answers): its hash replaces the old one, so the link of earlier
 * e-mails stops working. Answers the secret.
 */
export async function renewManageSecret(ctx: TenantCtx, orderId: string) {
  const manage = randomBytes(24).toString('base64url');
  await setManageTokenHash(ctx, orderId, createHash('sha256').update(manage).digest('hex'));
  return manage;
}
