import { and, asc, count, eq, ilike, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { baseAccount, role, subscriptionTier, users } from '../../db/schema';
import { transaction } from '../../db/execute';

/** Tenant queries: always inside `inTenant`, always filtered by account_id as well. */

export interface MemberFilter {
  search?: string;
  status?: 'invited' | 'active' | 'deactivated';
  role?: string;
}

const STATUS: Record<NonNullable<MemberFilter['status']>, SQL> = {
  active: sql`${users.is_active}`,
  invited: and(sql`not ${users.is_active}`, isNotNull(users.invited_at))!,
  deactivated: and(sql`not ${users.is_active}`, isNull(users.invited_at))!,
};

function memberWhere(accountId: string, filter: MemberFilter) {
  const term = filter.search ? `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(users.account_id, accountId),
    term ? or(ilike(users.email, term), ilike(users.first_name, term), ilike(users.last_name, term)) : undefined,
    filter.status ? STATUS[filter.status] : undefined,
    filter.role ? eq(users.role_id, filter.role) : undefined,
  );
}

const memberColumns = {
  id: users.id,
  email: users.email,
  first_name: users.first_name,
  last_name: users.last_name,
  is_active: users.is_active,
  invited_at: users.invited_at,
  last_login: users.last_login,
  created_at: users.created_at,
  role_id: role.id,
  role_name: role.name,
  role_is_owner: role.is_owner,
};

export type MemberRow = Awaited<ReturnType<typeof listMembers>>[number];

export async function countMembers(tx: Db, accountId: string, filter: MemberFilter) {
  const [row] = await tx.select({ n: count() }).from(users).where(memberWhere(accountId, filter));
  return row?.n ?? 0;
}

export function listMembers(tx: Db, accountId: string, filter: MemberFilter, limit: number, offset: number) {
  return tx
    .select(memberColumns)
    .from(users)
    .leftJoin(role, eq(role.id, users.role_id))
    .where(memberWhere(accountId, filter))
    .orderBy(asc(sql`lower(${users.email})`), asc(users.id))
    .limit(limit)
    .offset(offset);
}

export async function findMember(tx: Db, accountId: string, id: string) {
  const [row] = await tx
    .select(memberColumns)
    .from(users)
    .leftJoin(role, eq(role.id, users.role_id))
    .where(and(eq(users.account_id, accountId), eq(users.id, id)));
  return row;
}

export async function findUser(tx: Db, accountId: string, id: string) {
  const [row] = await tx.select().from(users).where(and(eq(users.account_id, accountId), eq(users.id, id)));
  return row;
}

export async function findRole(tx: Db, accountId: string, id: string) {
  const [row] = await tx.select().from(role).where(and(eq(role.account_id, accountId), eq(role.id, id)));
  return row;
}

/**
 * Locks the organisation's active owners (FOR UPDATE) so that two concurrent demotions can
 * never leave it without one, and answers who they are.
 */
export async function lockActiveOwners(tx: Db, accountId: string): Promise<string[]> {
  const query = tx
    .select({ id: users.id })
    .from(users)
    .innerJoin(role, eq(role.id, users.role_id))
    .where(and(eq(users.account_id, accountId), eq(role.is_owner, true), eq(users.is_active, true)))
    .orderBy(asc(users.id)); // always the same order: two lockers never deadlock
  const rows = await query.for('update', { of: users });
  return rows.map((r) => r.id);
}

export async function emailTaken(db: Db, email: string, exceptUserId?: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, exceptUserId ? ne(users.id, exceptUserId) : undefined));
  return Boolean(row);
}

/** The signed-in user with role, organisation and plan: the `me` payload, in one query. */
export async function loadMe(tx: Db, accountId: string, userId: string) {
  const [row] = await tx
    .select({
      user: users,
      role,
      account: baseAccount,
      tier: subscriptionTier,
      /** Whether the member guides (issue 34: the guides module's table). */
      guides: sql<boolean>`exists (select 1 from guide g where g.account_id = users.account_id and g.user_id = users.id)`,
    })
    .from(users)
    .innerJoin(baseAccount, eq(baseAccount.id, users.account_id))
    .leftJoin(role, eq(role.id, users.role_id))
    .leftJoin(subscriptionTier, eq(subscriptionTier.id, baseAccount.subscription_tier_id))
    .where(and(eq(users.account_id, accountId), eq(users.id, userId)));
  return row;
}

/** The organisation's row (its name and host, for an invitation). */
export async function accountRow(tx: Db, accountId: string) {
  const [account] = await tx.select().from(baseAccount).where(eq(baseAccount.id, accountId));
  return account!;
}

/** Adds a user; an e-mail address already taken raises the unique violation. */
export async function insertUser(tx: Db, values: typeof users.$inferInsert) {
  const [created] = await tx.insert(users).values(values).returning();
  return created!;
}

/** Changes columns of one of the organisation's users. */
export async function updateUser(tx: Db, accountId: string, id: string, set: Partial<typeof users.$inferInsert>) {
  await tx
    .update(users)
    .set(set)
    .where(and(eq(users.account_id, accountId), eq(users.id, id)));
}

/** Deletes one of the organisation's users. */
export async function deleteUser(tx: Db, accountId: string, id: string) {
  await tx.delete(users).where(and(eq(users.account_id, accountId), eq(users.id, id)));
}

// Flows of people who are not signed in: they run as the system, outside any tenant.

/** Runs `fn` in one transaction outside any tenant. */
/** Locks a user's row until the transaction ends (false: no such user). */
export async function lockUser(tx: Db, id: string) {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
  return rows.length > 0;
}

export function inSystemTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>) {
  return transaction(db, fn);
}

/** Whether an organisation has this subdomain. */
export async function subdomainTaken(db: Db, subdomain: string) {
  const [row] = await db.select({ id: baseAccount.id }).from(baseAccount).where(eq(baseAccount.subdomain, subdomain));
  return Boolean(row);
}

/** Adds an organisation. */
export async function insertAccount(tx: Db, values: typeof baseAccount.$inferInsert) {
  const [account] = await tx.insert(baseAccount).values(values).returning();
  return account!;
}

/** Adds an organisation's Owner role, holding every permission set. */
export async function insertOwnerRole(tx: Db, accountId: string, permissionSetIds: string[]) {
  const [owner] = await tx.insert(role).values({ account_id: accountId, name: 'Owner', is_owner: true, permission_set_ids: permissionSetIds }).returning();
  return owner!;
}

/** Changes columns of a user found by a token (any organisation). */
export async function updateUserById(tx: Db, userId: string, set: Partial<typeof users.$inferInsert>) {
  await tx.update(users).set(set).where(eq(users.id, userId));
}

/** Keeps a new address asked for as pending (found by a token, any organisation). */
export async function setPendingEmail(tx: Db, userId: string, email: string) {
  await tx.update(users).set({ pending_email: email, updated_at: new Date() }).where(eq(users.id, userId));
}

/**
 * Makes the pending address the user's sign-in address, verified (its link was followed), if it is
 * still the one asked for; answers the user's previous address, or nothing when it is not pending.
 */
export async function confirmPendingEmail(tx: Db, userId: string, email: string) {
  const [before] = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), sql`lower(${users.pending_email}) = lower(${email})`))
    .for('update');
  if (!before) return undefined;
  await tx.update(users).set({ email, pending_email: null, email_verified_at: new Date(), updated_at: new Date() }).where(eq(users.id, userId));
  return before.email;
}
