import { formatBp, PLAN_LIMITS, SUBSCRIPTION_FEATURES, type PlanLimit, type SubscriptionFeature, type TSubscription, type TSubscriptionTier } from '@tourdesk/contracts';
import { dateText } from '@tourdesk/contracts/date-format';
import { formatMoney } from '../../shared/lib/money';
import type { SubscriptionT } from './texts';

/**
 * What a plan gives, in the words an operator reads: its features (the contracts' codenames),
 * its limits, its fee on online payments and its price by the month or the year.
 */

export type Interval = 'month' | 'year';

/** Money in `t`'s language, as formatMoney() writes it for the language shown ("€49.00" in English, "49,00 €" in German). */
const moneyLocale = (t: SubscriptionT) => (t.language === 'en' ? 'en' : t.locale);

/** A feature in words; a codename this version does not know yet, readable as it is ("gift_cards" → "Gift cards"). */
export function featureWords(code: string, t: SubscriptionT) {
  if ((SUBSCRIPTION_FEATURES as readonly string[]).includes(code)) return t(`feature.${code as SubscriptionFeature}`);
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
/** The limits that mean something for this plan (their feature is in it), in the contracts' order. */
export const limitsOf = (tier: TSubscriptionTier): PlanLimit[] => PLAN_LIMITS.filter((kind) => tier.features.includes(LIMIT_FEATURE[kind]));

/** "Up to 3 offers", "Up to 1 store", "Unlimited stores". */
export function limitWords(kind: PlanLimit, limit: number | undefined, t: SubscriptionT) {
  if (limit === undefined || limit === null) return t(`unlimited.${kind}`);
  return t(`limit.${kind}`, { count: limit });
}

/** "2 of 3 offers", "120 of 200 bookings this month", "12 offers" (no limit). */
export function usageWords(kind: PlanLimit, used: number, limit: number | undefined, t: SubscriptionT) {
  if (limit === undefined || limit === null) return t(`used.${kind}`, { used });
  return t(`usedOf.${kind}`, { used, limit });
}

/** Where the organisation stands against one limit. */
export function usageLevel(used: number, limit: number | undefined): 'ok' | 'near' | 'full' | 'over' {
  if (limit === undefined || limit === null) return 'ok';
  if (used > limit) return 'over';
  if (used >= limit) return 'full';
  return used >= limit * 0.8 ? 'near' : 'ok';
}

/** "1.5 % fee on online payments"; "No fee on online payments". */
export const feeWords = (bp: number, t: SubscriptionT) =>
  bp > 0 ? t('fee', { rate: formatBp(bp, t.locale) }) : t('noFee');

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

/** The price as a card shows it, in the plan's currency and the user's language. */
export function priceWords(tier: TSubscriptionTier, shown: Interval, t: SubscriptionT) {
  const money = (minor: number) => formatMoney(minor, tier.currency, moneyLocale(t));
  if (isFree(tier)) return { amount: t('price.free'), per: null, note: t('price.noCard'), saving: null };
  if (intervalFor(tier, shown) === 'year') {
    const saved = tier.monthly_price * 12 - tier.yearly_price;
    return {
      amount: money(tier.yearly_price),
      per: t('price.perYear'),
      note: t('price.yearNote', { monthly: money(Math.round(tier.yearly_price / 12)) }),
      saving: saved > 0 ? t('price.saving', { amount: money(saved), percent: yearlySavingPercent(tier) }) : null,
    };
  }
  return {
    amount: money(tier.monthly_price),
    per: t('price.perMonth'),
    note: shown === 'year' ? t('price.monthlyOnly') : t('price.monthly'),
    saving: null,
  };
}

/** "€490.00 a year", for sentences. */
export function billedWords(tier: TSubscriptionTier, interval: Interval, t: SubscriptionT) {
  if (isFree(tier)) return t('billed.free');
  const minor = interval === 'year' ? tier.yearly_price : tier.monthly_price;
  return t(interval === 'year' ? 'billed.year' : 'billed.month', { price: formatMoney(minor, tier.currency, moneyLocale(t)) });
}

/** A paid subscription runs at Stripe (the platform's own trial has none: no interval). */
export const paidSubscriptionRuns = (s: TSubscription) => s.status === 'active' || s.status === 'past_due' || (s.status === 'trialing' && s.interval !== null);

/** Whole days left until `iso` (at least 0), counted up: 13.2 days left is "14 days". */
export function daysLeft(iso: string, now = Date.now()) {
  return Math.max(0, Math.ceil((new Date(iso).getTime() - now) / 86_400_000));
}

/** A date in the user's language (`t.locale`), in the organisation's time zone ("14 March 2026"). */
export function dateWords(iso: string, locale: string, timeZone?: string) {
  try {
    return dateText(iso, locale, timeZone);
  } catch {
    return dateText(iso, 'en');
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
export function planAction(tier: TSubscriptionTier, current: TSubscription, shown: Interval, tiers: TSubscriptionTier[], t: SubscriptionT): PlanAction {
  const name = tier.name;
  const interval = intervalFor(tier, shown);
  if (tier.id === current.tier.id) {
    if (isFree(tier)) return { kind: 'current', label: t('action.current') };
    if (!paidSubscriptionRuns(current)) return { kind: 'subscribe', label: t('action.subscribe', { name }), interval };
    if (current.interval === interval) return { kind: 'current', label: t('action.current') };
    return { kind: 'switch', label: interval === 'year' ? t('action.switchYearly') : t('action.switchMonthly'), interval };
  }
  const order = (t: TSubscriptionTier) => tiers.findIndex((x) => x.id === t.id);
  if (tier.monthly_price !== current.tier.monthly_price || (order(tier) >= 0 && order(current.tier) >= 0)) {
    const higher = tier.monthly_price !== current.tier.monthly_price ? tier.monthly_price > current.tier.monthly_price : order(tier) > order(current.tier);
    return higher ? { kind: 'upgrade', label: t('action.upgrade', { name }), interval } : { kind: 'downgrade', label: t('action.downgrade', { name }), interval };
  }
  return { kind: 'choose', label: t('action.choose', { name }), interval };
}

/** What moving to `target` takes away: features the plan lacks, and limits the organisation is over there. */
export function whatIsLost(target: TSubscriptionTier, current: TSubscription, t: SubscriptionT) {
  const features = current.tier.features.filter((f) => !target.features.includes(f)).map((f) => featureWords(f, t));
  const over = limitsOf(target)
    .filter((kind) => target.limits[kind] !== undefined && current.usage[kind] > target.limits[kind]!)
    .map((kind) => t('lost', { usage: usageWords(kind, current.usage[kind], undefined, t), name: target.name, limit: t(`lostLimit.${kind}`, { count: target.limits[kind]! }) }));
  return { features, over };
}
