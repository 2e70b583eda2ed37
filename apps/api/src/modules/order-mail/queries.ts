import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { baseAccount, booking, customer, order, slot } from '../../db/schema';
import { execute, transaction } from '../../db/execute';

/** The order-mail module's only access to the database. */

/** The organisation's name, zone, subdomain and currency (an order's e-mail without a store); undefined when there is none. */
export async function organisationForMail(tx: Db, accountId: string) {
  const [a] = await tx.select({ name: baseAccount.name, zone: baseAccount.time_zone, subdomain: baseAccount.subdomain, currency: baseAccount.currency }).from(baseAccount).where(eq(baseAccount.id, accountId));
  return a;
}

/**
 * The web orders (of every organisation) with a confirmed booking not reminded yet that starts
 * within the next 24 hours but not within 2, each once; at most 500 a run.
 */
export async function ordersDueReminders(db: Db) {
  const due = (await execute<{ account_id: string; store_id: string; order_id: string }>(db, sql`
    select distinct o.account_id, o.store_id, o.id as order_id
    from ${booking} b join ${slot} s on s.id = b.slot_id join ${order} o on o.id = b.order_id
    where b.status = 'Confirmed' and b.reminder_sent_at is null and o.store_id is not null
      and s.starts_at > now() + interval '2 hours' and s.starts_at <= now() + interval '24 hours'
    limit 500`));
  return due.rows;
}

/** Runs `fn` in a transaction of its own. */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return transaction(db, fn);
}

/** Marks the order's confirmed bookings not reminded yet as reminded now; answers those marked. */
export function markRemindersSent(tx: Db, orderId: string) {
  return tx
    .update(booking)
    .set({ reminder_sent_at: new Date() })
    .where(and(eq(booking.order_id, orderId), isNull(booking.reminder_sent_at), eq(booking.status, 'Confirmed')))
    .returning({ id: booking.id });
}

/** The e-mail of the order's customer. */
export async function customerEmailOfOrder(tx: Db, orderId: string) {
  const [c] = await tx.select({ email: customer.email }).from(order).innerJoin(customer, eq(customer.id, order.customer_id)).where(eq(order.id, orderId));
  return c?.email;
}
