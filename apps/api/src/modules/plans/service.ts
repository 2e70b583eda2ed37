import type Stripe from 'stripe';
import type { PlanLimit, TSubscription, TSubscriptionTier } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { baseAccount, subscriptionTier } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { toStripe } from '../payments/stripe-amounts';
import { tenantOrigin } from '../../lib/host';
import { localToUtc, todayIn } from '../../lib/local-time';
import * as q from './queries';
import { FREE_TIER } from './tiers';

/**
 * Plans: what an organisation may use (features, checked by the guard on every call) and how much
 * (limits, checked here by every call that adds: offers, stores, team members, bookings in a
 * month), and how it pays for them: Stripe Billing on the platform's own account — Checkout to
 * start a paid plan (with a trial the first time), the customer portal to change or cancel it,
 * and Stripe's events to keep the plan current. A downgrade takes effect at once; nothing is
 * deleted: what is over a limit stays and stays readable, only adding more is refused.
 */

type TierRow = typeof subscriptionTier.$inferSelect;
type AccountRow = typeof baseAccount.$inferSelect;

export const presentTier = (t: TierRow): TSubscriptionTier => ({
  id: t.id,
  name: t.name,
  kind: t.kind as TSubscriptionTier['kind'],
  features: t.features,
  monthly_price: t.monthly_price,
  yearly_price: t.yearly_price,
  currency: t.currency,
  trial_days: t.trial_days,
  limits: t.limits,
  application_fee_bp: t.application_fee_bp,
});

const LIMIT_WORDS: Record<PlanLimit, [string, string]> = {
  offers: ['offer', 'offers'],
  stores: ['store', 'stores'],
  team_members: ['team member', 'team members'],
  bookings_per_month: ['booking a month', 'bookings a month'],
};

async function accountAndTier(ctx: TenantCtx) {
  const row = await q.accountAndTier(ctx);
  if (!row) throw notFound('No such organisation.');
  return row;
}

/** How much of one limit the organisation uses now (one count, on an index). */
async function used(ctx: TenantCtx, kind: PlanLimit, zone: string) {
  switch (kind) {
    case 'offers':
      return q.countOffers(ctx);
    case 'stores':
      return q.countStores(ctx);
    case 'team_members':
      return q.countTeamMembers(ctx);
    case 'bookings_per_month': {
      const monthStart = localToUtc(`${todayIn(zone).slice(0, 7)}-01`, '00:00', zone);
      return q.countBookingsSince(ctx, monthStart);
    }
  }
}

/** How much of each limit the organisation uses now. */
export async function usage(ctx: TenantCtx, zone: string): Promise<Record<PlanLimit, number>> {
  return {
    offers: await used(ctx, 'offers', zone),
    stores: await used(ctx, 'stores', zone),
    team_members: await used(ctx, 'team_members', zone),
    bookings_per_month: await used(ctx, 'bookings_per_month', zone),
  };
}

/**
 * Refuses (403 plan_limit) adding `adding` more of a kind than the plan allows. Runs in the
 * caller's transaction before it writes; two additions at once may each pass the last free place
 * (the limit is a plan's promise, not a capacity: at worst one over).
 */
export async function assertWithinLimit(ctx: TenantCtx, kind: PlanLimit, adding = 1) {
  const { a, t } = await accountAndTier(ctx);
  const limit = t?.limits[kind];
  if (limit === undefined || limit === null) return;
  if ((await used(ctx, kind, a.time_zone)) + adding > limit) {
    const [one, many] = LIMIT_WORDS[kind];
    throw new AppError('plan_limit', `Your ${t!.name} plan allows ${limit} ${limit === 1 ? one : many}. Upgrade your plan to add more.`);
  }
}

export async function currentSubscription(ctx: TenantCtx, config: Config): Promise<TSubscription> {
  const { a, t } = await accountAndTier(ctx);
  return {
    tier: presentTier(t!),
    status: a.subscription_status as TSubscription['status'],
    interval: (a.subscription_interval as TSubscription['interval']) ?? null,
    trial_ends_at: a.trial_ends_at?.toISOString() ?? null,
    current_period_end: a.subscription_period_end?.toISOString() ?? null,
    billing_available: Boolean(config.STRIPE_SECRET_KEY),
    can_manage: Boolean(config.STRIPE_SECRET_KEY && a.stripe_customer_id),
    usage: await usage(ctx, a.time_zone),
  };
}

/** The plan's Stripe product on the platform's account, made on first use (once, by its idempotency key). */
async function productOf(db: Db, stripe: Stripe, tier: TierRow) {
  // In the caller's transaction (on PGlite's one connection a second one would wait for it).
  const known = await q.billingProductOfTier(db, tier.id);
  if (known) return known.stripe_product_id;
  const product = await stripe.products.create({ name: `Tourdesk ${tier.name}`, metadata: { tourdesk_tier: tier.id } }, { idempotencyKey: `tier-product-${tier.id}` });
  await q.insertBillingProduct(db, tier.id, product.id);
  return product.id;
}

/**
 * Chooses a plan (the spec's "subscription create"). A free plan of the organisation's kind takes
 * effect at once (a paid subscription is cancelled at Stripe: its events confirm). A paid plan
 * answers Stripe Checkout's page (a trial the first time); while a paid subscription runs, another
 * paid plan replaces its price (Stripe prorates) and takes effect with Stripe's event.
 */
export async function choosePlan(ctx: TenantCtx, config: Config, stripe: Stripe | null, tierId: string, interval: 'month' | 'year') {
  const { a, t: current } = await accountAndTier(ctx);
  const tier = await q.tierById(ctx.tx, tierId);
  if (!tier || tier.kind !== a.kind) throw new AppError('invalid', 'No such plan for your organisation.', 'tier');
  const price = interval === 'year' ? tier.yearly_price : tier.monthly_price;
  if (interval === 'year' && tier.monthly_price > 0 && !tier.yearly_price) throw new AppError('invalid', 'This plan is not sold by the year.', 'interval');
  if (price === 0) {
    if (a.stripe_subscription_id && stripe) await stripe.subscriptions.cancel(a.stripe_subscription_id);
    await q.setFreeTier(ctx, tier.id);
    return { url: null, subscription: await currentSubscription(ctx, config) };
  }
  if (!stripe) throw new AppError('invalid', 'Plans cannot be bought on this platform: its Stripe keys are not set.', 'tier');
  const product = await productOf(ctx.tx, stripe, tier);
  const recurring = { currency: tier.currency.toLowerCase(), unit_amount: toStripe(price, tier.currency), recurring: { interval }, product };
  if (a.stripe_subscription_id && a.subscription_status === 'past_due') {
    throw new AppError('conflict', 'The last payment for your plan failed: update your card under Manage billing, then change the plan.');
  }
  if (a.stripe_subscription_id && (a.subscription_status === 'active' || a.subscription_status === 'trialing')) {
    const sub = await stripe.subscriptions.retrieve(a.stripe_subscription_id);
    await stripe.subscriptions.update(a.stripe_subscription_id, {
      items: [{ id: sub.items.data[0]!.id, price_data: recurring }],
      metadata: { tourdesk_account: ctx.accountId, tourdesk_tier: tier.id },
      proration_behavior: 'create_prorations',
    });
    void current;
    return { url: null, subscription: await currentSubscription(ctx, config) };
  }
  let customer = a.stripe_customer_id;
  if (!customer) {
    const c = await stripe.customers.create({ name: a.legal_name || a.name, email: a.billing_email || undefined, metadata: { tourdesk_account: ctx.accountId } }, { idempotencyKey: `customer-${ctx.accountId}` });
    customer = c.id;
    await q.setStripeCustomer(ctx, customer);
  }
  const back = `${tenantOrigin(config, a.subdomain)}/settings/subscription/${a.kind === 'affiliate' ? 'affiliate' : 'supplier'}-plans`;
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    line_items: [{ quantity: 1, price_data: recurring }],
    subscription_data: { metadata: { tourdesk_account: ctx.accountId, tourdesk_tier: tier.id }, ...(tier.trial_days > 0 && !a.trial_used ? { trial_period_days: tier.trial_days } : {}) },
    metadata: { tourdesk_account: ctx.accountId, tourdesk_tier: tier.id },
    success_url: `${back}?subscribed=1`,
    cancel_url: back,
  });
  return { url: session.url, subscription: await currentSubscription(ctx, config) };
}

/** Stripe's customer portal, to change the card, the plan or cancel (the spec's "manage"). */
export async function managePlan(ctx: TenantCtx, config: Config, stripe: Stripe | null) {
  const { a } = await accountAndTier(ctx);
  if (!stripe || !a.stripe_customer_id) throw new AppError('invalid', 'There is no paid plan to manage yet.');
  const back = `${tenantOrigin(config, a.subdomain)}/settings/subscription/${a.kind === 'affiliate' ? 'affiliate' : 'supplier'}-plans`;
  const portal = await stripe.billingPortal.sessions.create({ customer: a.stripe_customer_id, return_url: back });
  return { url: portal.url };
}

/** How Stripe's subscription statuses read here: a live plan, one whose payment is late, or over. */
function statusOf(sub: Stripe.Subscription, deleted: boolean): 'trialing' | 'active' | 'past_due' | 'ended' | 'not_started' {
  if (deleted) return 'ended';
  switch (sub.status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      return 'active';
    case 'past_due':
      return 'past_due';
    case 'incomplete':
      return 'not_started';
    default:
      // canceled, unpaid, incomplete_expired, paused (a trial ended without a card)
      return 'ended';
  }
}

/**
 * A subscription's state from Stripe (created, updated, deleted) on the platform's own account:
 * the plan follows at once. Whose it is comes from the Stripe customer the platform made for the
 * organisation (never from metadata, which anyone who can make a subscription could write); the
 * plan from the price's product (so a change in the customer portal counts). Events of an older
 * subscription change nothing; a second live one (paid in two tabs) replaces the first, which is
 * cancelled at Stripe. An ended one drops the organisation to its kind's free plan; one not paid
 * for yet (incomplete) changes nothing.
 */
export async function onSubscription(db: Db, stripe: Stripe | null, sub: Stripe.Subscription, deleted: boolean) {
  const customer = typeof sub.customer === 'string' ? sub.customer : sub.customer?.id;
  if (!customer) return;
  const a = await q.accountOfStripeCustomer(db, customer);
  if (!a) return;
  const state = statusOf(sub, deleted);
  if (state === 'not_started') return;
  if (a.stripe_subscription_id && a.stripe_subscription_id !== sub.id) {
    if (state === 'ended') return;
    if (stripe) await stripe.subscriptions.cancel(a.stripe_subscription_id, { prorate: true }).catch(() => undefined);
  }
  const ended = state === 'ended';
  const item = sub.items?.data?.[0];
  const productId = typeof item?.price?.product === 'string' ? item.price.product : item?.price?.product?.id;
  const byProduct = productId ? await q.tierOfStripeProduct(db, productId) : undefined;
  const tier = byProduct ? await q.tierById(db, byProduct.tier) : undefined;
  const paidTier = tier && tier.kind === a.kind ? tier.id : a.subscription_tier_id;
  const periodEnd = item?.current_period_end;
  await q.updateSubscriptionState(db, a.id, {
    subscription_tier_id: ended ? FREE_TIER[a.kind as 'supplier' | 'affiliate'] : paidTier,
    subscription_status: ended ? 'canceled' : state,
    subscription_interval: ended ? null : (item?.price?.recurring?.interval ?? a.subscription_interval),
    subscription_period_end: ended || !periodEnd ? null : new Date(periodEnd * 1000),
    trial_ends_at: sub.trial_end ? new Date(sub.trial_end * 1000) : null,
    trial_used: a.trial_used || Boolean(sub.trial_end),
    stripe_subscription_id: ended ? null : sub.id,
    updated_at: new Date(),
  });
}

/**
 * The platform's own trial: a new supplier starts on Standard for its days without paying; when
 * they are over and no subscription was bought, it drops to the free plan (the hourly job plans-end-trials).
 */
export async function endOwnTrials(db: Db) {
  const rows = await q.endExpiredTrials(db);
  return rows.length;
}

/** Every plan, as the public pages show them. */
export async function listTiers(db: Db): Promise<TSubscriptionTier[]> {
  return (await q.allTiers(db)).map(presentTier);
}

/** One plan, or 404. */
export async function getTier(db: Db, id: string): Promise<TSubscriptionTier> {
  const tier = await q.tierById(db, id);
  if (!tier) throw notFound('No plan with this id.');
  return presentTier(tier);
}

export type { AccountRow };
