import { and, asc, count, eq, gte, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { baseAccount, billingProduct, booking, experience, store, subscriptionTier, users } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { FREE_TIER } from './tiers';

/** The plans module's only access to the database. */

const n = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);

/** The organisation's row with its plan's (null when the tier is unknown). */
export async function accountAndTier(ctx: TenantCtx) {
  const [row] = await ctx.tx.select({ a: baseAccount, t: subscriptionTier }).from(baseAccount).leftJoin(subscriptionTier, eq(subscriptionTier.id, baseAccount.subscription_tier_id)).where(eq(baseAccount.id, ctx.accountId));
  return row;
}

/** How many offers (experiences) the organisation has. */
export function countOffers(ctx: TenantCtx) {
  return n(ctx.tx.select({ n: count() }).from(experience).where(eq(experience.account_id, ctx.accountId)));
}

/** How many stores the organisation has. */
export function countStores(ctx: TenantCtx) {
  return n(ctx.tx.select({ n: count() }).from(store).where(eq(store.account_id, ctx.accountId)));
}

/** How many team members (users) the organisation has. */
export function countTeamMembers(ctx: TenantCtx) {
  return n(ctx.tx.select({ n: count() }).from(users).where(eq(users.account_id, ctx.accountId)));
}

/**
 * How many bookings the organisation made since `since` that still stand (confirmed, or awaiting the
 * operator's confirmation): a cancelled booking gives its place in the quota back, so bookings made
 * and cancelled by a script cannot use up the month.
 */
export function countBookingsSince(ctx: TenantCtx, since: Date) {
  return n(ctx.tx.select({ n: count() }).from(booking).where(and(eq(booking.account_id, ctx.accountId), gte(booking.created_at, since), ne(booking.status, 'Canceled'))));
}

/** Every plan, in their order. */
export function allTiers(db: Db) {
  return db.select().from(subscriptionTier).orderBy(asc(subscriptionTier.sort_order));
}

/** One plan by id. */
export async function tierById(db: Db, id: string) {
  const [tier] = await db.select().from(subscriptionTier).where(eq(subscriptionTier.id, id));
  return tier;
}

/** The plan's Stripe product on the platform's account, if made. */
export async function billingProductOfTier(db: Db, tierId: string) {
  const [known] = await db.select().from(billingProduct).where(eq(billingProduct.tier_id, tierId));
  return known;
}

/** Records the plan's Stripe product (a second writer's row stands). */
export async function insertBillingProduct(db: Db, tierId: string, stripeProductId: string) {
  await db.insert(billingProduct).values({ tier_id: tierId, stripe_product_id: stripeProductId }).onConflictDoNothing();
}

/** The plan a Stripe product sells. */
export async function tierOfStripeProduct(db: Db, stripeProductId: string) {
  const [byProduct] = await db.select({ tier: billingProduct.tier_id }).from(billingProduct).where(eq(billingProduct.stripe_product_id, stripeProductId));
  return byProduct;
}

/** Puts the organisation on a free plan at once, with no subscription. */
export async function setFreeTier(ctx: TenantCtx, tierId: string) {
  await ctx.tx
    .update(baseAccount)
    .set({ subscription_tier_id: tierId, subscription_status: 'none', subscription_interval: null, subscription_period_end: null, stripe_subscription_id: null, updated_at: new Date() })
    .where(eq(baseAccount.id, ctx.accountId));
}

/** Records the Stripe customer the platform made for the organisation. */
export async function setStripeCustomer(ctx: TenantCtx, customer: string) {
  await ctx.tx.update(baseAccount).set({ stripe_customer_id: customer }).where(eq(baseAccount.id, ctx.accountId));
}

/** The organisation the platform made a Stripe customer for. */
export async function accountOfStripeCustomer(db: Db, customer: string) {
  const [a] = await db.select().from(baseAccount).where(eq(baseAccount.stripe_customer_id, customer));
  return a;
}

/** Writes an organisation's plan and subscription state. */
export async function updateSubscriptionState(db: Db, accountId: string, set: Partial<typeof baseAccount.$inferInsert>) {
  await db.update(baseAccount).set(set).where(eq(baseAccount.id, accountId));
}

/** Drops every organisation whose own trial is over without a subscription to its kind's free plan; their ids. */
export function endExpiredTrials(db: Db) {
  return db
    .update(baseAccount)
    .set({ subscription_tier_id: sql`case when ${baseAccount.kind} = 'affiliate' then ${FREE_TIER.affiliate} else ${FREE_TIER.supplier} end`, subscription_status: 'none', trial_ends_at: null, updated_at: new Date() })
    .where(and(eq(baseAccount.subscription_status, 'trialing'), isNotNull(baseAccount.trial_ends_at), sql`${baseAccount.trial_ends_at} <= now()`, sql`${baseAccount.stripe_subscription_id} is null`, ne(baseAccount.subscription_tier_id, FREE_TIER.supplier)))
    .returning({ id: baseAccount.id });
}
