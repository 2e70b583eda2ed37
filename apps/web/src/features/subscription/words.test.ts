import { SUBSCRIPTION_FEATURES, type TSubscription, type TSubscriptionTier } from '@tourdesk/contracts';
import { createTranslate } from '@tourdesk/contracts/i18n';
import { de } from '@tourdesk/contracts/i18n/catalogs/backoffice/subscription/de';
import { en, type SubscriptionKey } from '@tourdesk/contracts/i18n/catalogs/backoffice/subscription/en';
import { describe, expect, it } from 'vitest';
import { statusLines } from './CurrentPlan';
import { bestYearlySaving, daysLeft, featureWords, feeWords, intervalFor, limitWords, planAction, priceWords, usageLevel, usageWords, whatIsLost } from './words';

// The catalogs arrive parsed (vite-catalogs.ts), as in the browser.
const t = createTranslate<SubscriptionKey>('en', {}, en);
const tDe = createTranslate<SubscriptionKey>('de', de, en);

const base: TSubscriptionTier = { id: 'x', name: 'X', kind: 'supplier', features: [...SUBSCRIPTION_FEATURES], monthly_price: 0, yearly_price: 0, currency: 'EUR', trial_days: 0, limits: {}, application_fee_bp: 0 };
const STARTER = { ...base, id: 'starter', name: 'Starter', features: base.features.filter((f) => f !== 'analytics'), limits: { offers: 3 } };
const STANDARD = { ...base, id: 'standard', name: 'Standard', monthly_price: 4900, yearly_price: 49000 };
const PRO = { ...base, id: 'pro', name: 'Pro', monthly_price: 14900, yearly_price: 149000 };
const MONTHLY_ONLY = { ...base, id: 'monthly', name: 'Monthly', monthly_price: 1000, yearly_price: 0 };
const TIERS = [STARTER, STANDARD, PRO];
const sub = (s: Partial<TSubscription>): TSubscription => ({
  tier: STANDARD,
  status: 'active',
  interval: 'month',
  trial_ends_at: null,
  current_period_end: null,
  billing_available: true,
  can_manage: true,
  usage: { offers: 4, stores: 1, team_members: 1, bookings_per_month: 0 },
  ...s,
});

describe('plan words', () => {
  it('names every feature codename in words, and keeps an unknown one readable', () => {
    for (const f of SUBSCRIPTION_FEATURES) expect(featureWords(f, t)).not.toMatch(/_/);
    expect(featureWords('web_store', t)).toBe('Online booking web store');
    expect(featureWords('web_store', tDe)).toBe('Online-Buchungsshop');
    expect(featureWords('gift_cards', t)).toBe('Gift cards');
  });

  it('reads limits, usage and the fee', () => {
    expect(limitWords('offers', 3, t)).toBe('Up to 3 offers');
    expect(limitWords('stores', 1, t)).toBe('Up to 1 store');
    expect(limitWords('stores', undefined, t)).toBe('Unlimited stores');
    expect(limitWords('bookings_per_month', 1000, t)).toBe('Up to 1,000 bookings a month');
    expect(limitWords('bookings_per_month', 1000, tDe)).toBe('Bis zu 1.000 Buchungen pro Monat');
    expect(usageWords('offers', 2, 3, t)).toBe('2 of 3 offers');
    expect(usageWords('offers', 2, 3, tDe)).toBe('2 von 3 Angeboten');
    expect(usageWords('team_members', 1, undefined, t)).toBe('1 team member');
    expect(usageWords('bookings_per_month', 120, 200, t)).toBe('120 of 200 bookings this month');
    expect([usageLevel(1, 3), usageLevel(4, 5), usageLevel(3, 3), usageLevel(4, 3), usageLevel(99, undefined)]).toEqual(['ok', 'near', 'full', 'over', 'ok']);
    expect(feeWords(150, t)).toBe('1.5 % fee on online payments');
    expect(feeWords(150, tDe)).toBe('1,5 % Gebühr auf Online-Zahlungen');
    expect(feeWords(0, t)).toBe('No fee on online payments');
  });

  it('prices by the month or the year, with the yearly saving', () => {
    expect(priceWords(STANDARD, 'month', t)).toMatchObject({ amount: '€49.00', per: 'a month', saving: null });
    expect(priceWords(STANDARD, 'year', t)).toMatchObject({ amount: '€490.00', per: 'a year', note: '€40.83 a month, billed yearly', saving: 'Save €98.00 (17 %) against monthly' });
    expect(priceWords(STANDARD, 'year', tDe)).toMatchObject({ amount: '490,00\u00a0€', per: 'pro Jahr', note: '40,83\u00a0€ pro Monat, jährlich abgerechnet' });
    expect(priceWords(MONTHLY_ONLY, 'year', t)).toMatchObject({ amount: '€10.00', per: 'a month', note: 'Billed monthly only' });
    expect(intervalFor(MONTHLY_ONLY, 'year')).toBe('month');
    expect(intervalFor(STARTER, 'year')).toBe('month');
    expect(priceWords(STARTER, 'year', t).amount).toBe('Free');
    expect(bestYearlySaving(TIERS)).toEqual({ percent: 17, upTo: false });
    expect(bestYearlySaving([STANDARD, { ...PRO, yearly_price: 160000 }])).toEqual({ percent: 17, upTo: true });
    expect(bestYearlySaving([STARTER, MONTHLY_ONLY])).toBeNull();
  });

  it('labels each plan’s button from where the organisation stands', () => {
    const running = sub({ tier: STANDARD, status: 'active', interval: 'month' });
    expect(planAction(STANDARD, running, 'month', TIERS, t)).toEqual({ kind: 'current', label: 'Current plan' });
    expect(planAction(STANDARD, running, 'year', TIERS, t)).toEqual({ kind: 'switch', label: 'Switch to yearly billing', interval: 'year' });
    expect(planAction(PRO, running, 'year', TIERS, t)).toEqual({ kind: 'upgrade', label: 'Upgrade to Pro', interval: 'year' });
    expect(planAction(STARTER, running, 'year', TIERS, t)).toEqual({ kind: 'downgrade', label: 'Downgrade to Starter', interval: 'month' });
    // The platform's own trial (no Stripe subscription): the plan tried is there to be paid for.
    const ownTrial = sub({ status: 'trialing', interval: null });
    expect(planAction(STANDARD, ownTrial, 'month', TIERS, t)).toEqual({ kind: 'subscribe', label: 'Subscribe to Standard', interval: 'month' });
    const free = sub({ tier: STARTER, status: 'none', interval: null });
    expect(planAction(STARTER, free, 'year', TIERS, t)).toEqual({ kind: 'current', label: 'Current plan' });
  });

  it('tells what a downgrade takes away', () => {
    expect(whatIsLost(STARTER, sub({ tier: PRO }), t)).toEqual({ features: ['Sales analytics'], over: ['You have 4 offers; Starter allows up to 3 offers.'] });
    expect(whatIsLost(STARTER, sub({ tier: PRO }), tDe)).toEqual({ features: ['Verkaufsanalysen'], over: ['Sie haben 4 Angebote; Starter erlaubt bis zu 3 Angebote.'] });
    expect(whatIsLost(PRO, sub({ tier: STARTER }), t)).toEqual({ features: [], over: [] });
  });

  it('says where a trial or a subscription stands, with dates in the user’s language and the organisation’s zone', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(daysLeft('2026-03-03T11:00:00Z', now)).toBe(2);
    expect(daysLeft('2026-02-03T11:00:00Z', now)).toBe(0);
    expect(statusLines(sub({ status: 'trialing', interval: null, trial_ends_at: '2026-03-14T23:30:00Z' }), STARTER, t, 'Europe/Zurich', now)).toEqual([
      'Free trial: 14 days left, until 15 March 2026.',
      'Subscribe before it ends to keep Standard; otherwise your organisation moves to Starter (free).',
    ]);
    expect(statusLines(sub({ status: 'active', interval: 'year', current_period_end: '2027-03-01T10:00:00Z' }), STARTER, t, 'Europe/Zurich', now)).toEqual(['€490.00 a year.', 'Renews on 1 March 2027.']);
    expect(statusLines(sub({ status: 'active', interval: 'year', current_period_end: '2027-03-01T10:00:00Z' }), STARTER, tDe, 'Europe/Zurich', now)).toEqual([
      '490,00\u00a0€ pro Jahr.',
      'Verlängert sich am 1. März 2027.',
    ]);
    expect(statusLines(sub({ status: 'trialing', interval: null, trial_ends_at: '2026-03-02T11:00:00Z' }), STARTER, tDe, 'Europe/Zurich', now)[0]).toBe('Kostenloser Test: noch 1 Tag, bis 2. März 2026.');
    expect(statusLines(sub({ tier: STARTER, status: 'canceled', interval: null }), STARTER, t)).toEqual(['Your paid subscription has ended: your organisation is on Starter, free of charge.']);
    expect(statusLines(sub({ tier: STARTER, status: 'none', interval: null }), STARTER, t)).toEqual(['A free plan: nothing is billed.']);
    expect(statusLines(sub({ status: 'none', interval: null }), STARTER, t)).toEqual(['Nothing is billed for Standard: it runs without a subscription.']);
  });
});
