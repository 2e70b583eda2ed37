import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { subscriptionTier } from '../db/schema';
import { SUBSCRIPTION_TIERS } from '../modules/plans/tiers';

/** Upserts reference data (the plans of modules/plans/tiers.ts); run at every start (and before tests snapshot the database). */
export async function ensureReferenceData(db: Db) {
  await db
    .insert(subscriptionTier)
    .values(SUBSCRIPTION_TIERS.map((t) => ({ ...t, features: [...t.features], limits: { ...t.limits }, currency: 'EUR' })))
    .onConflictDoUpdate({
      target: subscriptionTier.id,
      set: {
        name: sql`excluded.name`,
        kind: sql`excluded.kind`,
        features: sql`excluded.features`,
        monthly_price: sql`excluded.monthly_price`,
        sort_order: sql`excluded.sort_order`,
        application_fee_bp: sql`excluded.application_fee_bp`,
        yearly_price: sql`excluded.yearly_price`,
        trial_days: sql`excluded.trial_days`,
        limits: sql`excluded.limits`,
      },
    });
}
