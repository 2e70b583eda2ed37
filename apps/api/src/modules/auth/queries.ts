import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { actionToken, authSession, baseAccount, role, subscriptionTier, systemSetting, users } from '../../db/schema';

/**
 * System queries of the auth module. They run outside any tenant because they find the tenant:
 * sign-in by e-mail, a session by its id, a one-time link by its id. Nothing else may do this.
 */

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ user: users, subdomain: baseAccount.subdomain })
    .from(users)
    .innerJoin(baseAccount, eq(baseAccount.id, users.account_id))
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db
    .select({ user: users, subdomain: baseAccount.subdomain })
    .from(users)
    .innerJoin(baseAccount, eq(baseAccount.id, users.account_id))
    .where(eq(users.id, id));
  return row;
}

export async function insertSession(db: Db, values: typeof authSession.$inferInsert) {
  const [row] = await db.insert(authSession).values(values).returning();
  return row!;
}

export async function findSession(db: Db, id: string) {
  const [row] = await db.select().from(authSession).where(eq(authSession.id, id));
  return row;
}

/** Replaces the refresh secret only if it is still the one presented (two racing refreshes: one wins). */
export async function rotateSession(db: Db, id: string, presentedHash: string, nextHash: string) {
  const rows = await db
    .update(authSession)
    .set({ token_hash: nextHash, previous_token_hash: presentedHash, rotated_at: new Date(), last_used_at: new Date() })
    .where(and(eq(authSession.id, id), eq(authSession.token_hash, presentedHash), isNull(authSession.revoked_at)))
    .returning({ id: authSession.id });
  return rows.length === 1;
}

export async function revokeSession(db: Db, id: string, reason: string) {
  await db
    .update(authSession)
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where(and(eq(authSession.id, id), isNull(authSession.revoked_at)));
}

export async function revokeUserSessions(db: Db, userId: string, reason: string, exceptSessionId?: string) {
  const rows = await db
    .update(authSession)
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where(
      and(
        eq(authSession.user_id, userId),
        isNull(authSession.revoked_at),
        exceptSessionId ? ne(authSession.id, exceptSessionId) : undefined,
      ),
    )
    .returning({ id: authSession.id });
  return rows.length;
}

/**
 * Everything a request needs to know about its caller, in one query, by session (when not
 * cached). Not a named prepared statement: behind a pooler in transaction mode (PgBouncer) the
 * next query may reach another server connection, where the name is unknown; the statement is
 * sent unnamed (parse, bind, execute in one round trip) like every other.
 */
export async function loadPrincipalRow(db: Db, sessionId: string, userId: string) {
  const [row] = await db
    .select({
      user_id: users.id,
      email: users.email,
      is_active: users.is_active,
      account_id: users.account_id,
      subdomain: baseAccount.subdomain,
      currency: baseAccount.currency,
      time_zone: baseAccount.time_zone,
      time_format: baseAccount.time_format,
      role_id: role.id,
      is_owner: role.is_owner,
      permission_set_ids: role.permission_set_ids,
      features: subscriptionTier.features,
      revoked_at: authSession.revoked_at,
      expires_at: authSession.expires_at,
    })
    .from(authSession)
    .innerJoin(users, eq(users.id, authSession.user_id))
    .innerJoin(baseAccount, eq(baseAccount.id, users.account_id))
    .leftJoin(role, eq(role.id, users.role_id))
    .leftJoin(subscriptionTier, eq(subscriptionTier.id, baseAccount.subscription_tier_id))
    .where(and(eq(authSession.id, sessionId), eq(authSession.user_id, userId)));
  return row;
}

export async function touchLastLogin(db: Db, userId: string) {
  await db.update(users).set({ last_login: new Date() }).where(eq(users.id, userId));
}

export async function insertActionToken(db: Db, values: typeof actionToken.$inferInsert) {
  const [row] = await db.insert(actionToken).values(values).returning({ id: actionToken.id });
  return row!.id;
}

export async function findActionToken(db: Db, id: string) {
  const [row] = await db.select().from(actionToken).where(eq(actionToken.id, id));
  return row;
}

/** Marks a one-time token used; false when it was used (or expired) meanwhile. */
export async function consumeActionToken(db: Db, id: string) {
  const rows = await db
    .update(actionToken)
    .set({ used_at: new Date() })
    .where(and(eq(actionToken.id, id), isNull(actionToken.used_at), gt(actionToken.expires_at, new Date())))
    .returning({ id: actionToken.id });
  return rows.length === 1;
}

/** Earlier unused links of the same kind stop working when a new one is sent. */
export async function expireActionTokens(db: Db, userId: string, purpose: string) {
  await db
    .update(actionToken)
    .set({ used_at: new Date() })
    .where(and(eq(actionToken.user_id, userId), eq(actionToken.purpose, purpose), isNull(actionToken.used_at)));
}

/** The JWT signing key kept in system_setting, written first with `generated` if there is none (as the database's owner: the application's role cannot read it). */
export function ownerSigningKey(database: Database, name: string, generated: string) {
  return database.asOwner(async (tx) => {
    await tx
      .insert(systemSetting)
      .values({ key: name, value: generated })
      .onConflictDoNothing();
    const [row] = await tx.select().from(systemSetting).where(eq(systemSetting.key, name));
    return row!.value;
  });
}
