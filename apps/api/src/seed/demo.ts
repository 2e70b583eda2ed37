import { sql } from 'drizzle-orm';
import { PERMISSION_SETS } from '@tourdesk/contracts';
import type { Db } from '../db/client';
import { baseAccount, role, systemNotification, users } from '../db/schema';
import { hashPassword } from '../modules/auth/crypto';
import { DEFAULT_TIER } from './reference';

export const DEMO = {
  accountName: 'Alpine Trails & Tours',
  subdomain: 'demo',
  email: 'owner@demo.tourdesk.test',
  password: 'tourdesk-demo',
} as const;

const NOTIFICATIONS = [
  {
    title: 'Welcome to Tourdesk',
    body: 'Your back office for tours and activities: offers, schedules, bookings and orders in one place.',
    level: 'info',
    days_ago: 0,
  },
  {
    title: 'Start times stay in local time',
    body: 'Across daylight-saving changes a 09:00 tour stays at 09:00 in its own time zone.',
    level: 'warning',
    days_ago: 2,
  },
  {
    title: 'Scheduled maintenance completed',
    body: 'The database upgrade finished without downtime.',
    level: 'info',
    days_ago: 9,
  },
] as const;

const ALL_SETS = PERMISSION_SETS.map((s) => s.id);

/**
 * Seeds the demo organisation once: its owner (the printed sign-in), two more roles, a guide who
 * can only view offers, and a pending invitation. The organisation is keyed on its subdomain and
 * skipped on conflict, so running this on every start changes nothing the second time.
 * Returns true when it created the organisation.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO.password);
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(baseAccount)
      .values({
        name: DEMO.accountName,
        subdomain: DEMO.subdomain,
        kind: 'supplier',
        time_zone: 'Europe/Zurich',
        currency: 'CHF',
        subscription_tier_id: DEFAULT_TIER.supplier,
      })
      .onConflictDoNothing({ target: baseAccount.subdomain })
      .returning({ id: baseAccount.id });
    const account = inserted[0];
    if (!account) return false;

    const [owner, frontDesk, guide] = await tx
      .insert(role)
      .values([
        { account_id: account.id, name: 'Owner', is_owner: true, permission_set_ids: ALL_SETS },
        {
          account_id: account.id,
          name: 'Front desk',
          permission_set_ids: ['manage_orders', 'manage_customers', 'manage_cart', 'view_experiences'],
        },
        { account_id: account.id, name: 'Guide', permission_set_ids: ['view_experiences'] },
      ])
      .returning();

    const now = new Date();
    await tx.insert(users).values([
      {
        account_id: account.id,
        email: DEMO.email,
        first_name: 'Dana',
        last_name: 'Demo',
        password_hash: passwordHash,
        role_id: owner!.id,
        is_active: true,
        activated_at: now,
      },
      {
        account_id: account.id,
        email: 'guide@demo.tourdesk.test',
        first_name: 'Gian',
        last_name: 'Guide',
        password_hash: passwordHash,
        role_id: guide!.id,
        is_active: true,
        activated_at: now,
      },
      {
        account_id: account.id,
        email: 'frontdesk@demo.tourdesk.test',
        first_name: 'Fiona',
        last_name: 'Front',
        role_id: frontDesk!.id,
        is_active: false,
        invited_at: now,
      },
    ]);

    await tx.insert(systemNotification).values(
      NOTIFICATIONS.map((n) => ({
        title: n.title,
        body: n.body,
        level: n.level,
        published_at: sql`now() - make_interval(days => ${n.days_ago})`,
      })),
    );
    return true;
  });
}
