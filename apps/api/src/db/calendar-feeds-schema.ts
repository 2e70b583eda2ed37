import { pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId, userId } from './accounts-schema';
import { tenantPolicies } from './columns';

/**
 * A team member's calendar feed (modules/calendar-feeds): one per user at most. The feed's address
 * carries `{id}.{kid}.{mac}`, the MAC an HMAC of the id under a key derived from the server's
 * signing key, so the table holds no secret: the database alone gives no working address, and the
 * member can see theirs again. Resetting the link replaces the row (a new id), which revokes the old
 * address; deleting the user deletes it.
 */
export const calendarFeed = pgTable(
  'calendar_feed',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    user_id: userId(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [...tenantPolicies(), uniqueIndex('calendar_feed_user_key').on(t.account_id, t.user_id)],
);
