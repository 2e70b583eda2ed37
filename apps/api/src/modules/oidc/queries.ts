import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { userIdentity } from '../../db/schema';

/** The OIDC module's only access to the database (outside any tenant: it finds who signs in). */

/** The user linked to a provider's issuer and subject. */
export async function linkedUser(db: Db, issuer: string, subject: string) {
  const [linked] = await db
    .select({ userId: userIdentity.user_id })
    .from(userIdentity)
    .where(and(eq(userIdentity.issuer, issuer), eq(userIdentity.subject, subject)));
  return linked;
}

/** The subject a user is linked to at a provider (its issuer), if any. */
export async function linkedSubject(db: Db, userId: string, issuer: string) {
  const [other] = await db
    .select({ subject: userIdentity.subject })
    .from(userIdentity)
    .where(and(eq(userIdentity.user_id, userId), eq(userIdentity.issuer, issuer)));
  return other;
}

/** Links a user to a provider's issuer and subject (a link already made stands). */
export async function linkIdentity(db: Db, values: { account_id: string; user_id: string; issuer: string; subject: string }) {
  await db.insert(userIdentity).values(values).onConflictDoNothing();
}
