import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TWebOrder } from '@tourdesk/contracts';
import { booking, cancellationPolicy, customer, experience, meetingPoint, order, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { tenantOrigin } from '../../lib/host';
import { termsOf } from './cancellation';

/**
 * A web order as its customer sees it (the store's booking page and the order's e-mails): its
 * bookings in the seller's zone, what is paid, and whether and on what terms it may be cancelled
 * now; with the private link of its page.
 */
export async function presentWebOrder(ctx: Pick<TenantCtx, 'tx' | 'accountId'> & { timeZone: string }, orderId: string, manageUrl: (reference: string) => string): Promise<TWebOrder> {
  const [o] = await ctx.tx.select({ o: order, c: customer }).from(order).innerJoin(customer, eq(customer.id, order.customer_id)).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  const rows = await ctx.tx
    .select({ b: booking, title: experience.title, starts: slot.starts_at, points: experience.meeting_point_ids, policy: cancellationPolicy.rules })
    .from(booking)
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .leftJoin(cancellationPolicy, eq(cancellationPolicy.id, experience.cancellation_policy_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId)))
    .orderBy(asc(slot.starts_at), asc(booking.id));
  const pointIds = [...new Set(rows.flatMap((r) => r.points.slice(0, 1)))];
  const points = new Map(pointIds.length ? (await ctx.tx.select().from(meetingPoint).where(and(eq(meetingPoint.account_id, ctx.accountId), inArray(meetingPoint.id, pointIds)))).map((m) => [m.id, m]) : []);
  // The one rule (orders/cancellation.ts): the strictest policy of its open bookings decides (a customer cancels the whole order).
  const open = rows.filter((r) => r.b.status !== 'Canceled').map((r) => ({ starts: r.starts, rules: r.policy }));
  const cancellation = o!.o.status === 'Canceled' ? { allowed: false, refund: 0, fee: 0, reason: 'This order is cancelled.' } : termsOf(open, o!.o.paid, o!.o.total);
  return {
    reference: o!.o.reference,
    status: o!.o.status,
    payment_status: o!.o.payment_status,
    currency: o!.o.currency,
    total: o!.o.total,
    paid: o!.o.paid,
    refunded: o!.o.refunded,
    cancellation_fee: o!.o.cancellation_fee,
    customer: { first_name: o!.c.first_name, last_name: o!.c.last_name, email: o!.c.email },
    bookings: rows.map((r) => {
      const point = r.points[0] ? points.get(r.points[0]) : undefined;
      return {
        id: r.b.id,
        offer_title: r.title,
        starts_at: r.starts.toISOString(),
        time_zone: ctx.timeZone,
        status: r.b.status,
        ticket_code: r.b.ticket_code,
        items: r.b.items.map((i) => ({ kind: i.kind, label: i.label, quantity: i.quantity, unit_price: i.unit_price, total: i.total })),
        total: r.b.total,
        meeting_point: point ? [point.name, point.address].filter(Boolean).join(', ') : null,
      };
    }),
    manage_url: manageUrl(o!.o.reference),
    cancellation,
  };
}

/** The private link of an order's page: https://{org}/s/{store}/booking/{reference}#{secret}. */
export const manageUrlFor = (config: Parameters<typeof tenantOrigin>[0], ctx: { subdomain: string; store: { slug: string } }, token: string) => (reference: string) =>
  `${tenantOrigin(config, ctx.subdomain)}/s/${ctx.store.slug}/booking/${reference}#${token}`;
