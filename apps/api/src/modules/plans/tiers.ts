import { SUBSCRIPTION_FEATURES, type SubscriptionFeature } from '@tourdesk/contracts';

/** The plans' definitions: the rules read them, and seed/reference.ts writes them to subscription_tier at every start. */

const ALL = [...SUBSCRIPTION_FEATURES];
const without = (...features: SubscriptionFeature[]) => ALL.filter((f) => !features.includes(f));

/** The plans. A new account gets its kind's default plan, which makes every core feature work. */
export const SUBSCRIPTION_TIERS = [
  {
    id: 'supplier-starter',
    name: 'Starter',
    kind: 'supplier',
    features: without('resales', 'partners', 'analytics'),
    monthly_price: 0,
    yearly_price: 0,
    trial_days: 0,
    limits: { offers: 3, stores: 1, team_members: 2, bookings_per_month: 200 },
    sort_order: 1,
    application_fee_bp: 300,
  },
  {
    id: 'supplier-standard',
    name: 'Standard',
    kind: 'supplier',
    features: ALL,
    monthly_price: 4900,
    yearly_price: 49000,
    trial_days: 14,
    limits: { offers: 50, stores: 5, team_members: 25 },
    sort_order: 2,
    application_fee_bp: 150,
  },
  {
    id: 'supplier-pro',
    name: 'Pro',
    kind: 'supplier',
    features: ALL,
    monthly_price: 14900,
    yearly_price: 149000,
    trial_days: 14,
    limits: {},
    sort_order: 3,
    application_fee_bp: 50,
  },
  {
    id: 'affiliate-standard',
    name: 'Affiliate',
    kind: 'affiliate',
    features: ['bookings', 'orders', 'customers', 'stores', 'team', 'resales', 'partners', 'qr_codes'],
    monthly_price: 0,
    yearly_price: 0,
    trial_days: 0,
    limits: { stores: 1, team_members: 3 },
    sort_order: 4,
    application_fee_bp: 0,
  },
  {
    id: 'affiliate-plus',
    name: 'Affiliate Plus',
    kind: 'affiliate',
    features: ['bookings', 'orders', 'customers', 'stores', 'team', 'resales', 'partners', 'qr_codes', 'analytics'],
    monthly_price: 2900,
    yearly_price: 29000,
    trial_days: 14,
    limits: { stores: 10, team_members: 15 },
    sort_order: 5,
    application_fee_bp: 0,
  },
] as const;

/** The free plan of each kind: where an account goes when its paid subscription ends. */
export const FREE_TIER = { supplier: 'supplier-starter', affiliate: 'affiliate-standard' } as const;

/** A new account's plan: suppliers try Standard for TRIAL_DAYS (then Starter unless they buy it). */
export const DEFAULT_TIER = { supplier: 'supplier-standard', affiliate: 'affiliate-standard' } as const;
export const TRIAL_DAYS = 14;
