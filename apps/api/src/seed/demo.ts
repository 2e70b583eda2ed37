import { hash } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { baseAccount, systemNotification, users } from '../db/schema';

export const DEMO = {
  accountName: 'Alpine Trails & Tours',
  subdomain: 'demo',
  email: 'owner@demo.tourdesk.test',
  password: 'tourdesk-demo',
} as const;

/** argon2id with OWASP's recommended minimum cost (19 MiB, 2 passes). */
export const hashPassword = (password: string) =>
  hash(password, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });

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

/**
 * Seeds the demo organisation once. Every insert is keyed on a natural unique key and
 * skips on conflict, so running it on every start changes nothing the second time.
 * Returns true when it created the organisation.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(baseAccount)
      .values({
        name: DEMO.accountName,
        subdomain: DEMO.subdomain,
        kind: 'supplier',
        time_zone: 'Europe/Zurich',
        currency: 'CHF',
      })
      .onConflictDoNothing({ target: baseAccount.subdomain })
      .returning({ id: baseAccount.id });
    const created = inserted[0];
    if (!created) return false;

    await tx
      .insert(users)
      .values({
        account_id: created.id,
        email: DEMO.email,
        first_name: 'Dana',
        last_name: 'Demo',
        password_hash: await hashPassword(DEMO.password),
        is_active: true,
      })
      .onConflictDoNothing();

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
