import { and, asc, count, eq, ilike, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { baseAccount, role, subscriptionTier, users } from '../../db/schema';

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
    .select({ user: users, role, account: baseAccount, tier: subscriptionTier })
    .from(users)
    .innerJoin(baseAccount, eq(baseAccount.id, users.account_id))
    .leftJoin(role, eq(role.id, users.role_id))
    .leftJoin(subscriptionTier, eq(subscriptionTier.id, baseAccount.subscription_tier_id))
    .where(and(eq(users.account_id, accountId), eq(users.id, userId)));
  return row;
}
