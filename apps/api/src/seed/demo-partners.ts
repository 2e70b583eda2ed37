import { randomBytes, createHash, randomUUID } from 'node:crypto';
import { and, asc, eq, ne } from 'drizzle-orm';
import { PERMISSION_SETS } from '@tourdesk/contracts';
import type { Db } from '../db/client';
import { baseAccount, experience, partnership, partnershipExperience, role, store, storeExperience, users } from '../db/schema';
import { DEFAULT_TIER } from '../modules/plans/tiers';

/** The demo's reseller: a travel agency that sells the demo supplier's offers. */
export const PARTNER_DEMO = {
  accountName: 'Alpine Agency',
  subdomain: 'alpine-agency',
  email: 'owner@alpine-agency.tourdesk.test',
  /** The demo's password (the supplier's too). */
  password: 'tourdesk-demo',
  pendingInvitation: 'bookings@lakeside-hotel.example',
} as const;

/**
 * The partners' demo, inside the demo's transaction, before anything enters the supplier's tenant:
 * the reseller organisation `alpine-agency` (kind affiliate) with its owner (skipped when it exists),
 * an Active partnership demo → alpine-agency at 15 % commission, the reseller collecting the
 * payment, sharing the kayak and one more offer; and a pending e-mail invitation of the demo to a
 * hotel desk (its token is random and not kept: only its hash, as every invitation). The agency's
 * web store `/s/tours/` on its own host sells the shared offers.
 */
export async function seedPartnerDemo(tx: Db, supplierAccountId: string, kayakId: string, passwordHash: string): Promise<void> {
  let [reseller] = await tx.select({ id: baseAccount.id }).from(baseAccount).where(eq(baseAccount.subdomain, PARTNER_DEMO.subdomain));
  if (!reseller) {
    [reseller] = await tx
      .insert(baseAccount)
      .values({
        name: PARTNER_DEMO.accountName,
        subdomain: PARTNER_DEMO.subdomain,
        kind: 'affiliate',
        legal_name: `${PARTNER_DEMO.accountName} GmbH`,
        billing_address: 'Bahnhofstrasse 5\n3800 Interlaken\nSwitzerland',
        billing_email: 'billing@alpine-agency.tourdesk.test',
        time_zone: 'Europe/Zurich',
        currency: 'CHF',
        languages: ['en', 'de'],
        subscription_tier_id: DEFAULT_TIER.affiliate,
      })
      .returning({ id: baseAccount.id });
    const [owner] = await tx
      .insert(role)
      .values({ account_id: reseller!.id, name: 'Owner', is_owner: true, permission_set_ids: PERMISSION_SETS.map((s) => s.id) })
      .returning();
    await tx.insert(users).values({
      id: randomUUID(),
      account_id: reseller!.id,
      email: PARTNER_DEMO.email,
      first_name: 'Alex',
      last_name: 'Agent',
      password_hash: passwordHash,
      role_id: owner!.id,
      is_active: true,
      activated_at: new Date(),
      email_verified_at: new Date(),
    });
  }
  const [live] = await tx
    .select({ id: partnership.id })
    .from(partnership)
    .where(and(eq(partnership.supplier_account_id, supplierAccountId), eq(partnership.reseller_account_id, reseller!.id)));
  if (live) return;
  const [contract] = await tx
    .insert(partnership)
    .values({
      supplier_account_id: supplierAccountId,
      reseller_account_id: reseller!.id,
      invited_by_account_id: supplierAccountId,
      status: 'Active',
      pricing: 'commission',
      commission_bp: 1500,
      payment_collector: 'reseller',
      currency: 'CHF',
      notes: 'Monthly settlement. The agency sells the shared offers at the retail price and keeps 15 %.',
      responded_at: new Date(),
    })
    .returning({ id: partnership.id });
  const [another] = await tx
    .select({ id: experience.id })
    .from(experience)
    .where(and(eq(experience.account_id, supplierAccountId), ne(experience.id, kayakId), eq(experience.status, 'Active')))
    .orderBy(asc(experience.title))
    .limit(1);
  const [fallback] = another
    ? [another]
    : await tx
        .select({ id: experience.id })
        .from(experience)
        .where(and(eq(experience.account_id, supplierAccountId), ne(experience.id, kayakId)))
        .orderBy(asc(experience.title))
        .limit(1);
  const shared = [kayakId, ...(fallback ? [fallback.id] : [])];
  await tx.insert(partnershipExperience).values(shared.map((id) => ({ partnership_id: contract!.id, account_id: supplierAccountId, experience_id: id })));
  // The agency's own web store sells the shared offers (the supplier's seats and prices).
  const [shop] = await tx
    .insert(store)
    .values({ account_id: reseller!.id, name: 'Alpine Agency tours', slug: 'tours', currency: 'CHF', intro: 'Hand-picked tours around Interlaken and Lucerne, run by local operators.' })
    .onConflictDoNothing()
    .returning({ id: store.id });
  if (shop) {
    await tx.insert(storeExperience).values(shared.map((id, position) => ({ account_id: reseller!.id, store_id: shop.id, experience_id: id, partnership_id: contract!.id, position })));
  }
  await tx.insert(partnership).values({
    supplier_account_id: supplierAccountId,
    invited_by_account_id: supplierAccountId,
    invite_email: PARTNER_DEMO.pendingInvitation,
    invite_token_hash: createHash('sha256').update(`td_${randomBytes(32).toString('base64url')}`).digest('hex'),
    status: 'Invited',
    pricing: 'commission',
    commission_bp: 1000,
    payment_collector: 'supplier',
    currency: 'CHF',
  });
}
