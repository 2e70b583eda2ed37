import { PLAN_LIMITS, SUBSCRIPTION_FEATURES, type PlanLimit, type SubscriptionFeature, type TSubscription, type TSubscriptionTier } from '@tourdesk/contracts';
import { formatMoney, vatRate } from '../../shared/lib/money';

/**
 * What a plan gives, in the words an operator reads: its features (the contracts' codenames),
 * its limits, its fee on online payments and its price by the month or the year.
 */

export type Interval = 'month' | 'year';

/** Each feature codename of SUBSCRIPTION_FEATURES in words, in that order. */
export const FEATURE_WORDS: Record<SubscriptionFeature, string> = {
  experiences: 'Offers: your tours and activities',
  bookings: 'Bookings, calendar and capacity',
  orders: 'Orders, payments and invoices',
  customers: 'Customer records',
  stores: 'Stores',
  web_store: 'Online booking web store',
  inventory: 'Inventory of equipment',
  team: 'Team members and roles',
  resales: 'Resales of partners’ offers',
  partners: 'Partner network',
  qr_codes: 'QR codes and ticket check-in',
  analytics: 'Sales analytics',
};

/** A feature in words; a codename this version does not know yet, readable as it is ("gift_cards" → "Gift cards"). */
export function featureWords(code: string) {
  if (code in FEATURE_WORDS) return FEATURE_WORDS[code as SubscriptionFeature];
  const text = code.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The plan's features in the contracts' order (unknown ones after them), and the known ones it lacks. */
export function featureList(tier: TSubscriptionTier) {
  const known = SUBSCRIPTION_FEATURES as readonly string[];
  const included = [...known.filter((f) => tier.features.includes(f)), ...tier.features.filter((f) => !known.includes(f))];
  const missing = known.filter((f) => !tier.features.includes(f));
  return { included, missing };
}

/** The feature a limit counts things of: a plan without it has nothing of that kind to limit. */
const LIMIT_FEATURE: Record<PlanLimit, SubscriptionFeature> = {
  offers: 'experiences',
  stores: 'stores',
  team_members: 'team',
  bookings_per_month: 'bookings',
};
const LIMIT_NOUNS: Record<PlanLimit, { one: string; many: string; unlimited: string }> = {
  offers: { one: 'offer', many: 'offers', unlimited: 'Unlimited offers' },
  stores: { one: 'store', many: 'stores', unlimited: 'Unlimited stores' },
  team_members: { one: 'team member', many: 'team members', unlimited: 'Unlimited team members' },
  bookings_per_month: { one: 'booking a month', many: 'bookings a month', unlimited: 'Unlimited bookings' },
};

/** The limits that mean something for this plan (their feature is in it), in the contracts' order. */
export const limitsOf = (tier: TSubscriptionTier): PlanLimit[] => PLAN_LIMITS.filter((kind) => tier.features.includes(LIMIT_FEATURE[kind]));

const count = (n: number, locale: string) => n.toLocaleString(locale);

/** "Up to 3 offers", "Up to 1 store", "Unlimited stores". */
export function limitWords(kind: PlanLimit, limit: number | undefined, locale = 'en') {
  const nouns = LIMIT_NOUNS[kind];
  if (limit === undefined || limit === null) return nouns.unlimited;
  return `Up to ${count(limit, locale)} ${limit === 1 ? nouns.one : nouns.many}`;
}

/** "2 of 3 offers", "120 of 200 bookings this month", "12 offers" (no limit). */
export function usageWords(kind: PlanLimit, used: number, limit: number | undefined, locale = 'en') {
  const many = kind === 'bookings_per_month' ? 'bookings this month' : LIMIT_NOUNS[kind].many;
  const one = kind === 'bookings_per_month' ? 'booking this month' : LIMIT_NOUNS[kind].one;
  if (limit === undefined || limit === null) return `${count(used, locale)} ${used === 1 ? one : many}`;
  return `${count(used, locale)} of ${count(limit, locale)} ${limit === 1 ? one : many}`;
}

/** Where the organisation stands against one limit. */
export function usageLevel(used: number, limit: number | undefined): 'ok' | 'near' | 'full' | 'over' {
  if (limit === undefined || limit === null) return 'ok';
  if (used > limit) return 'over';
  if (used >= limit) return 'full';
  return used >= limit * 0.8 ? 'near' : 'ok';
}

/** "1.5 % fee on online payments"; "No fee on online payments". */
export const feeWords = (bp: number) => (bp > 0 ? `${vatRate(bp)} fee on online payments` : 'No fee on online payments');

export const isFree = (tier: TSubscriptionTier) => tier.monthly_price === 0 && tier.yearly_price === 0;
/** Sold by the year as well (a paid plan without a yearly price is sold by the month only). */
export const soldYearly = (tier: TSubscriptionTier) => isFree(tier) || tier.yearly_price > 0;
/** The interval a plan is bought with when the page shows `shown`: a plan sold by the month only is bought by the month. */
export const intervalFor = (tier: TSubscriptionTier, shown: Interval): Interval => (shown === 'year' && soldYearly(tier) && !isFree(tier) ? 'year' : 'month');

/** What a year by the year saves against twelve months, as a whole percentage (0 when nothing). */
export function yearlySavingPercent(tier: TSubscriptionTier) {
  if (tier.monthly_price <= 0 || tier.yearly_price <= 0) return 0;
  const twelve = tier.monthly_price * 12;
  return Math.max(0, Math.round(((twelve - tier.yearly_price) / twelve) * 100));
}

/** The best yearly saving among these plans: what the monthly/yearly switch promises ("save up to 17 %"). */
export function bestYearlySaving(tiers: TSubscriptionTier[]) {
  const savings = tiers.map(yearlySavingPercent).filter((p) => p > 0);
  if (!savings.length) return null;
  const best = Math.max(...savings);
  return { percent: best, upTo: savings.some((p) => p !== best) };
}

/** The price as a card shows it, in the plan's currency and the organisation's locale. */
export function priceWords(tier: TSubscriptionTier, shown: Interval, locale = 'en') {
  const money = (minor: number) => formatMoney(minor, tier.currency, locale);
  if (isFree(tier)) return { amount: 'Free', per: null, note: 'No card needed', saving: null };
  if (intervalFor(tier, shown) === 'year') {
    const saved = tier.monthly_price * 12 - tier.yearly_price;
    return {
      amount: money(tier.yearly_price),
      per: 'a year',
      note: `${money(Math.round(tier.yearly_price / 12))} a month, billed yearly`,
      saving: saved > 0 ? `Save ${money(saved)} (${yearlySavingPercent(tier)} %) against monthly` : null,
    };
  }
  return {
    amount: money(tier.monthly_price),
    per: 'a month',
    note: shown === 'year' ? 'Billed monthly only' : 'Billed monthly',
    saving: null,
  };
}

/** "€490.00 a year", for sentences. */
export function billedWords(tier: TSubscriptionTier, interval: Interval, locale = 'en') {
  if (isFree(tier)) return 'free';
  const minor = interval === 'year' ? tier.yearly_price : tier.monthly_price;
  return `${formatMoney(minor, tier.currency, locale)} a ${interval}`;
}

/** A paid subscription runs at Stripe (the platform's own trial has none: no interval). */
export const paidSubscriptionRuns = (s: TSubscription) => s.status === 'active' || s.status === 'past_due' || (s.status === 'trialing' && s.interval !== null);

/** Whole days left until `iso` (at least 0), counted up: 13.2 days left is "14 days". */
export function daysLeft(iso: string, now = Date.now()) {
  return Math.max(0, Math.ceil((new Date(iso).getTime() - now) / 86_400_000));
}

/** A date as the organisation reads it: its locale, in its time zone ("14 March 2026"). */
export function dateWords(iso: string, locale = 'en', timeZone?: string) {
  try {
    return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));
  }
}

export type PlanAction =
  | { kind: 'current'; label: string }
  | { kind: 'subscribe' | 'upgrade' | 'downgrade' | 'choose' | 'switch'; label: string; interval: Interval };

/**
 * The button of a plan's card. The current plan is disabled, unless paying for it is what is left
 * to do (a trial of the platform's own, a plan held without a subscription) or its running
 * subscription is billed by the other interval than the one shown (switching is a change).
 */
export function planAction(tier: TSubscriptionTier, current: TSubscription, shown: Interval, tiers: TSubscriptionTier[]): PlanAction {
  const interval = intervalFor(tier, shown);
  if (tier.id === current.tier.id) {
    if (isFree(tier)) return { kind: 'current', label: 'Current plan' };
    if (!paidSubscriptionRuns(current)) return { kind: 'subscribe', label: `Subscribe to ${tier.name}`, interval };
    if (current.interval === interval) return { kind: 'current', label: 'Current plan' };
    return { kind: 'switch', label: interval === 'year' ? 'Switch to yearly billing' : 'Switch to monthly billing', interval };
  }
  const order = (t: TSubscriptionTier) => tiers.findIndex((x) => x.id === t.id);
  if (tier.monthly_price !== current.tier.monthly_price || (order(tier) >= 0 && order(current.tier) >= 0)) {
    const higher = tier.monthly_price !== current.tier.monthly_price ? tier.monthly_price > current.tier.monthly_price : order(tier) > order(current.tier);
    return higher ? { kind: 'upgrade', label: `Upgrade to ${tier.name}`, interval } : { kind: 'downgrade', label: `Downgrade to ${tier.name}`, interval };
  }
  return { kind: 'choose', label: `Choose ${tier.name}`, interval };
}

/** What moving to `target` takes away: features the plan lacks, and limits the organisation is over there. */
export function whatIsLost(target: TSubscriptionTier, current: TSubscription, locale = 'en') {
  const features = current.tier.features.filter((f) => !target.features.includes(f)).map(featureWords);
  const over = limitsOf(target)
    .filter((kind) => target.limits[kind] !== undefined && current.usage[kind] > target.limits[kind]!)
    .map((kind) => `You have ${usageWords(kind, current.usage[kind], undefined, locale)}; ${target.name} allows ${limitWords(kind, target.limits[kind], locale).replace(/^Up to/, 'up to')}.`);
  return { features, over };
}
