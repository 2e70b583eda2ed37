import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { guide, guideDayOff, users } from '../db/schema';
import { addDays, todayIn } from '../lib/local-time';
import { autoAssign } from '../modules/guides/service';

/**
 * Guides' demo (issue 34): the owner Dana and Gian (the guide's sign-in) guide; Gian is off three
 * days from now; the coming week's departures are given guides as "Assign automatically" does
 * (fewest hours that week first). Gian's My departures and the manifests name them.
 */
export async function seedGuidesDemo(tx: Db, accountId: string, ownerId: string) {
  const [gian] = await tx.select({ id: users.id }).from(users).where(and(eq(users.account_id, accountId), eq(users.email, 'guide@demo.tourdesk.test')));
  if (!gian) return;
  await tx.insert(guide).values([
    { account_id: accountId, user_id: ownerId },
    { account_id: accountId, user_id: gian.id },
  ]);
  const today = todayIn('Europe/Zurich');
  await tx.insert(guideDayOff).values({ account_id: accountId, user_id: gian.id, starts_on: addDays(today, 3), ends_on: addDays(today, 3), note: 'Mountain rescue course' });
  await autoAssign({ tx, accountId, currency: 'CHF', userId: ownerId }, today, addDays(today, 6));
}
