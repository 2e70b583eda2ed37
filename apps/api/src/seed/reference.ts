import { sql } from 'drizzle-orm';
import { SUBSCRIPTION_FEATURES, type SubscriptionFeature } from '@tourdesk/contracts';
import type { Db } from '../db/client';
import { subscriptionTier } from '../db/schema';

const ALL = [...SUBSCRIPTION_FEATURES];
const without = (...features: SubscriptionFeature[]) => ALL.filter((f) => !features.includes(f));

/** The plans. A new account gets its kind's default plan, which makes every core feature work. */
export const SUBSCRIPTION_TIERS = [
  { id: 'supplier-starter', name: 'Starter', kind: 'supplier', features: without('resales', 'partners', 'analytics'), monthly_price: 0, sort_order: 1, application_fee_bp: 300 },
  { id: 'supplier-standard', name: 'Standard', kind: 'supplier', features: ALL, monthly_price: 4900, sort_order: 2, application_fee_bp: 150 },
  {
    id: 'affiliate-standard',
    name: 'Affiliate',
    kind: 'affiliate',
    features: ['bookings', 'orders', 'customers', 'stores', 'team', 'resales', 'partners', 'qr_codes'],
    monthly_price: 0,
    sort_order: 3,
    application_fee_bp: 0,
  },
] as const;

export const DEFAULT_TIER = { supplier: 'supplier-standard', affiliate: 'affiliate-standard' } as const;

/** Upserts reference data; run at every start (and before tests snapshot the database). */
export async function ensureReferenceData(db: Db) {
  await db
    .insert(subscriptionTier)
    .values(SUBSCRIPTION_TIERS.map((t) => ({ ...t, features: [...t.features], currency: 'EUR' })))
    .onConflictDoUpdate({
      target: subscriptionTier.id,
      set: {
        name: sql`excluded.name`,
        kind: sql`excluded.kind`,
        features: sql`excluded.features`,
        monthly_price: sql`excluded.monthly_price`,
        sort_order: sql`excluded.sort_order`,
        application_fee_bp: sql`excluded.application_fee_bp`,
      },
    });
}
