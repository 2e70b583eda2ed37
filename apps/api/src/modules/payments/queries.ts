import { and, eq, inArray, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../db/client';
import { baseAccount, cart, cartLine, customer, experience, onlineCheckout, order, paymentAccount, paymentLink, slot, store, stripeEvent, subscriptionTier } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { execute, transaction } from '../../db/execute';

/** The payments module's only access to the database. */

type PaymentAccountRow = typeof paymentAccount.$inferSelect;
type CheckoutRow = typeof onlineCheckout.$inferSelect;

/**
 * The row of an online payment, locked: whoever finishes a payment (Stripe's event, the customer's
 * page asking, an expiry) holds it, so a paid session makes one order, never an order and a refund.
 */
export async function lockCheckout(ctx: TenantCtx, where: { id?: string; session?: string }) {
  const [row] = await ctx.tx
    .select()
    .from(onlineCheckout)
    .where(and(eq(onlineCheckout.account_id, ctx.accountId), where.id ? eq(onlineCheckout.id, where.id) : eq(onlineCheckout.session_id, where.session!)))
    .for('update');
  return row;
}

/** Runs `fn` in a savepoint of the transaction: a refusal inside it leaves the transaction usable. */
export function inSavepoint<C extends TenantCtx, T>(ctx: C, fn: (sp: C) => Promise<T>): Promise<T> {
  return transaction(ctx.tx, (sp) => fn({ ...ctx, tx: sp }));
}

// --- the connected account (connect.ts) --------------------------------------------------------

/** The platform's fee on the organisation's online payments, in basis points (its plan's; 0 without one). */
export async function applicationFeeBp(ctx: TenantCtx) {
  const [row] = await ctx.tx
    .select({ fee: subscriptionTier.application_fee_bp })
    .from(baseAccount)
    .leftJoin(subscriptionTier, eq(subscriptionTier.id, baseAccount.subscription_tier_id))
    .where(eq(baseAccount.id, ctx.accountId));
  return row?.fee ?? 0;
}

/** The organisation's connected Stripe account. */
export async function connectedAccount(ctx: TenantCtx): Promise<PaymentAccountRow | undefined> {
  const [row] = await ctx.tx.select().from(paymentAccount).where(eq(paymentAccount.account_id, ctx.accountId));
  return row;
}

/** The organisation's subdomain, billing e-mail and name (what Stripe's onboarding is given). */
export async function organisationOf(ctx: TenantCtx) {
  const [org] = await ctx.tx.select({ subdomain: baseAccount.subdomain, email: baseAccount.billing_email, name: baseAccount.name }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return org;
}

/** Records the organisation's connected account once; undefined when it was recorded meanwhile. */
export async function insertConnectedAccount(ctx: TenantCtx, values: Omit<typeof paymentAccount.$inferInsert, 'account_id'>) {
  const [row] = await ctx.tx
    .insert(paymentAccount)
    .values({ account_id: ctx.accountId, ...values })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Writes what Stripe says of the organisation's connected account, and answers it. */
export async function updateConnectedAccount(ctx: TenantCtx, set: Partial<PaymentAccountRow>) {
  const [row] = await ctx.tx.update(paymentAccount).set(set).where(eq(paymentAccount.account_id, ctx.accountId)).returning();
  return row;
}

/** Forgets the organisation's connected account; answers the rows deleted. */
export function deleteConnectedAccount(ctx: TenantCtx) {
  return ctx.tx.delete(paymentAccount).where(eq(paymentAccount.account_id, ctx.accountId)).returning();
}

/** Writes what Stripe says of an account to whichever organisation has it (outside any tenant). */
export async function updateAccountByExternalId(db: Db, externalId: string, set: Partial<PaymentAccountRow>) {
  await db.update(paymentAccount).set(set).where(and(eq(paymentAccount.external_id, externalId)));
}

/** Forgets a Stripe account, whichever organisation had it (outside any tenant). */
export async function deleteAccountByExternalId(db: Db, externalId: string) {
  await db.delete(paymentAccount).where(eq(paymentAccount.external_id, externalId));
}

/** The organisation whose connected account a Stripe account id is. */
export async function accountOfStripeAccount(db: Db, stripeAccount: string) {
  const [row] = await db.select({ id: paymentAccount.account_id }).from(paymentAccount).where(eq(paymentAccount.external_id, stripeAccount));
  return row?.id ?? null;
}

// --- a cart paid online (online.ts) ------------------------------------------------------------

/** The lines of a cart. */
export function cartLines(ctx: TenantCtx, cartId: string) {
  return ctx.tx.select().from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId)));
}

/** Some lines of a cart are held until `expires`. */
export function holdLinesUntil(ctx: TenantCtx, lineIds: string[], expires: Date) {
  return ctx.tx.update(cartLine).set({ expires_at: expires }).where(and(eq(cartLine.account_id, ctx.accountId), inArray(cartLine.id, lineIds)));
}

/** Which of some lines are still in the cart. */
export function presentLines(ctx: TenantCtx, lineIds: string[]) {
  return ctx.tx.select({ id: cartLine.id }).from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), inArray(cartLine.id, lineIds)));
}

/** Some lines still in the cart, with their slots. */
export function linesWithSlots(ctx: TenantCtx, lineIds: string[]) {
  return ctx.tx.select({ id: cartLine.id, slot: cartLine.slot_id }).from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), inArray(cartLine.id, lineIds)));
}

/** Deletes a cart's line (its seats go back). */
export function deleteLine(ctx: TenantCtx, lineId: string) {
  return ctx.tx.delete(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.id, lineId)));
}

/** A cart's row, locked: the cart's online payments are settled one at a time. */
export function lockCart(ctx: TenantCtx, cartId: string) {
  return ctx.tx.select({ id: cart.id }).from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId))).for('update');
}

/** The names of some slots on Stripe's payment page: the offer's title, the local date and time. One read. */
export function slotTitles(ctx: TenantCtx, slotIds: string[]) {
  return ctx.tx
    .select({ slot: slot.id, title: experience.title, local: sql<string>`${slot.local_date}::text || ' ' || ${slot.local_time}` })
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .where(inArray(slot.id, slotIds));
}

/** An order's total (its row's `total`). */
export async function orderTotal(ctx: TenantCtx, orderId: string) {
  const [o] = await ctx.tx.select({ total: order.total }).from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  return o;
}

/** An order's row, locked (a refund recorded once). */
export function lockOrder(ctx: TenantCtx, orderId: string) {
  return ctx.tx.select({ id: order.id }).from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId))).for('update');
}

// --- online payments (online.ts) ---------------------------------------------------------------

/** Records an online payment. */
export async function insertCheckout(ctx: TenantCtx, values: typeof onlineCheckout.$inferInsert) {
  const [row] = await ctx.tx.insert(onlineCheckout).values(values).returning();
  return row;
}

/** Changes an online payment's row (by id). */
export function updateCheckout(ctx: TenantCtx, id: string, set: Partial<CheckoutRow>) {
  return ctx.tx.update(onlineCheckout).set(set).where(eq(onlineCheckout.id, id));
}

/** A cart's online payments still open. */
export function openCheckouts(ctx: TenantCtx, cartId: string) {
  return ctx.tx.select().from(onlineCheckout).where(and(eq(onlineCheckout.account_id, ctx.accountId), eq(onlineCheckout.cart_id, cartId), eq(onlineCheckout.status, 'open')));
}

/** An online payment by id. */
export async function checkoutById(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(onlineCheckout).where(and(eq(onlineCheckout.account_id, ctx.accountId), eq(onlineCheckout.id, id)));
  return row;
}

/** An online payment by id, locked. */
export async function lockCheckoutById(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(onlineCheckout).where(and(eq(onlineCheckout.account_id, ctx.accountId), eq(onlineCheckout.id, id))).for('update');
  return row;
}

/** The customer's language chosen in a cart (null once the cart is gone). */
export async function cartLanguage(ctx: TenantCtx, cartId: string) {
  const [row] = await ctx.tx.select({ language: cart.language }).from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
  return row?.language ?? null;
}

/** The id of the online payment of a Stripe session (by session only). */
export async function checkoutIdOfSession(ctx: TenantCtx, sessionId: string) {
  return (await ctx.tx.select({ id: onlineCheckout.id }).from(onlineCheckout).where(eq(onlineCheckout.session_id, sessionId)))[0]!.id;
}

/** The connected account that took a payment intent. */
export async function connectedAccountOfPayment(ctx: TenantCtx, paymentIntent: string) {
  const [row] = await ctx.tx.select({ acct: onlineCheckout.connected_account }).from(onlineCheckout).where(and(eq(onlineCheckout.account_id, ctx.accountId), eq(onlineCheckout.payment_intent, paymentIntent)));
  return row;
}

/** The organisation and order of a booked payment intent of a connected account (outside any tenant). */
export async function bookedCheckoutOfPayment(db: Db, paymentIntent: string, stripeAccount: string) {
  const found = (await execute<{ account_id: string; order_id: string }>(db, 
    sql`select account_id, order_id from online_checkout where payment_intent = ${paymentIntent} and connected_account = ${stripeAccount} and order_id is not null`,
  ));
  return found.rows[0];
}

/**
 * The recorded payment of a payment intent, with how much of it is recorded as refunded through the
 * provider — the refunds that carry its reference (a refund id, or a charge's), not failed — and
 * those references. Refunds in cash or any other way do not count: the provider knows nothing of them.
 */
export async function paymentWithProviderRefunds(ctx: TenantCtx, paymentIntent: string) {
  const rows = (await execute<{ id: string; refunded: number; refs: string[] | string }>(ctx.tx, sql`
      select p.id,
        coalesce((select -sum(r.amount) from order_payment r where r.refund_of = p.id and r.provider_ref is not null and r.status <> 'failed'), 0)::int as refunded,
        coalesce((select json_agg(r.provider_ref) from order_payment r where r.refund_of = p.id and r.provider_ref is not null), '[]'::json) as refs
      from order_payment p where p.account_id = ${ctx.accountId} and p.provider_ref = ${paymentIntent}`));
  const row = rows.rows[0];
  return row && { id: row.id, refunded: Number(row.refunded), refs: new Set<string>(typeof row.refs === 'string' ? (JSON.parse(row.refs) as string[]) : row.refs) };
}

// --- Stripe's events ---------------------------------------------------------------------------

/** Stores a Stripe event once (its id is the key) and, when it is new, runs `then` in the same transaction (its job). */
export function storeStripeEvent(db: Db, event: Stripe.Event, then: (tx: Db) => Promise<unknown>) {
  return transaction(db, async (tx) => {
    const fresh = await tx
      .insert(stripeEvent)
      // jsonb, a record to the schema; read back as a Stripe.Event (payments/online.ts).
      .values({ id: event.id, type: event.type, stripe_account: event.account ?? null, payload: event as unknown as Record<string, unknown> })
      .onConflictDoNothing()
      .returning({ id: stripeEvent.id });
    if (fresh.length) await then(tx);
  });
}

/** A stored Stripe event. */
export async function storedStripeEvent(db: Db, eventId: string) {
  const [stored] = await db.select().from(stripeEvent).where(eq(stripeEvent.id, eventId));
  return stored;
}

/** Marks a stored Stripe event handled. */
export async function markStripeEventProcessed(db: Db, eventId: string) {
  await db.update(stripeEvent).set({ processed_at: new Date() }).where(eq(stripeEvent.id, eventId));
}

// --- payment links (links.ts) ------------------------------------------------------------------

/** The organisation at a subdomain (outside any tenant: a payment link's address is all the customer brings). */
export async function accountAtSubdomain(db: Db, subdomain: string) {
  const [row] = await db.select({ id: baseAccount.id, currency: baseAccount.currency }).from(baseAccount).where(eq(baseAccount.subdomain, subdomain));
  return row;
}

/** An order as a payment link needs it: what is due, its language, its customer and the organisation; locked when asked. */
export async function orderForLink(ctx: TenantCtx, orderId: string, lock = false) {
  const query = ctx.tx
    .select({
      id: order.id,
      reference: order.reference,
      status: order.status,
      payment_status: order.payment_status,
      total: order.total,
      paid: order.paid,
      currency: order.currency,
      language: order.language,
      // The customer's details as given with this order (orders.customer_*), else their record's.
      email: sql<string | null>`coalesce(${order.customer_email}, ${customer.email})`,
      organisation: baseAccount.name,
      subdomain: baseAccount.subdomain,
    })
    .from(order)
    .innerJoin(baseAccount, eq(baseAccount.id, order.account_id))
    .leftJoin(customer, eq(customer.id, order.customer_id))
    .where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  const [row] = lock ? await query.for('update', { of: order }) : await query;
  return row;
}

/** Records a payment link sent. */
export async function insertPaymentLink(ctx: TenantCtx, values: Omit<typeof paymentLink.$inferInsert, 'account_id'>) {
  const [row] = await ctx.tx.insert(paymentLink).values({ account_id: ctx.accountId, ...values }).returning();
  return row!;
}

/** A payment link by its secret's hash; locked when asked (its sessions are made one at a time). */
export async function paymentLinkByHash(ctx: TenantCtx, tokenHash: string, lock = false) {
  const query = ctx.tx.select().from(paymentLink).where(and(eq(paymentLink.account_id, ctx.accountId), eq(paymentLink.token_hash, tokenHash)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The open online payments of an order's balance (its payment links' sessions). */
/**
 * Serialises the payment links of one order while one of them makes a Checkout session (each link's
 * own row lock serialises only that link): a transaction-level advisory lock on the order, taken
 * while holding the link's lock and never while waiting for another lock, so no cycle can form.
 */
export async function lockOrderLinks(ctx: TenantCtx, orderId: string) {
  await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payment-links:${orderId}`}, 0))`);
}

export function openLinkCheckouts(ctx: TenantCtx, orderId: string) {
  return ctx.tx
    .select()
    .from(onlineCheckout)
    .where(and(eq(onlineCheckout.account_id, ctx.accountId), eq(onlineCheckout.order_id, orderId), eq(onlineCheckout.status, 'open'), sql`${onlineCheckout.payment_link_id} is not null`));
}

// --- deposits (amount.ts) ----------------------------------------------------------------------

/** Each slot's offer, local departure date and the offer's deposit rule; the organisation's time zone. */
export async function depositSlots(ctx: TenantCtx, slotIds: string[]) {
  if (slotIds.length === 0) return new Map<string, { experience_id: string; local_date: string; deposit: typeof experience.$inferSelect.deposit }>();
  const rows = await ctx.tx
    .select({ id: slot.id, experience_id: slot.experience_id, local_date: slot.local_date, deposit: experience.deposit })
    .from(slot)
    .innerJoin(experience, and(eq(experience.account_id, slot.account_id), eq(experience.id, slot.experience_id)))
    .where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, slotIds)));
  return new Map(rows.map((r) => [r.id, r]));
}

/** A store's deposit rule (null: none, or no store). */
export async function storeDeposit(ctx: TenantCtx, storeId: string | null) {
  if (!storeId) return null;
  const [row] = await ctx.tx.select({ deposit: store.deposit }).from(store).where(and(eq(store.account_id, ctx.accountId), eq(store.id, storeId)));
  return row?.deposit ?? null;
}

/** The organisation's time zone (its local "today"). */
export async function accountZone(ctx: TenantCtx) {
  const [row] = await ctx.tx.select({ zone: baseAccount.time_zone }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return row?.zone ?? 'UTC';
}

/** The order's balance due date, fixed at sale (a deposit paid online). */
export function setBalanceDueOn(ctx: TenantCtx, orderId: string, dueOn: string) {
  return ctx.tx.update(order).set({ balance_due_on: dueOn }).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
}

/**
 * The orders (of every organisation) whose deposit's balance is due within their store's
 * reminder days (by the organisation's local date), not reminded yet, not cancelled, not fully paid;
 * at most 500 a run.
 */
export async function ordersDueBalanceReminders(db: Db) {
  const due = (await execute<{ account_id: string; order_id: string }>(db, sql`
    select o.account_id, o.id as order_id
    from ${order} o join ${baseAccount} a on a.id = o.account_id left join ${store} st on st.id = o.store_id
    where o.balance_due_on is not null and o.balance_reminder_sent_at is null and o.status <> 'Canceled' and o.total > o.paid
      -- Not on the heels of the confirmation, which carries the link already.
      and o.created_at < now() - interval '1 day'
      and o.balance_due_on - coalesce(st.balance_reminder_days, 3) <= (now() at time zone a.time_zone)::date
    order by o.balance_due_on
    limit 500`));
  return due.rows;
}

/** Marks the order's balance reminder sent, once: answers whether this call marked it (the order still due, not cancelled). */
export async function markBalanceReminderSent(ctx: TenantCtx, orderId: string) {
  const rows = await ctx.tx
    .update(order)
    .set({ balance_reminder_sent_at: new Date() })
    .where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId), sql`${order.balance_reminder_sent_at} is null`, sql`${order.status} <> 'Canceled'`, sql`${order.total} > ${order.paid}`))
    .returning({ id: order.id, store_id: order.store_id, email: order.customer_email });
  return rows[0];
}
