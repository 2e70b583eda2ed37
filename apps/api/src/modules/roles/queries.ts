import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { role } from '../../db/schema';

const memberCount = sql<number>`(select count(*)::int from users m where m.role_id = "role"."id")`;

export async function countRoles(tx: Db, accountId: string) {
  const [row] = await tx.select({ n: count() }).from(role).where(eq(role.account_id, accountId));
  return row?.n ?? 0;
}

/** Owner first, then by name; member counts come from a correlated count (one query, indexed). */
export function listRoles(tx: Db, accountId: string, limit: number, offset: number) {
  return tx
    .select({ role, member_count: memberCount })
    .from(role)
    .where(eq(role.account_id, accountId))
    .orderBy(sql`${role.is_owner} desc`, asc(sql`lower(${role.name})`), asc(role.id))
    .limit(limit)
    .offset(offset);
}

export async function findRole(tx: Db, accountId: string, id: string) {
  const [row] = await tx
    .select({ role, member_count: memberCount })
    .from(role)
    .where(and(eq(role.account_id, accountId), eq(role.id, id)));
  return row;
}

export type RoleRow = NonNullable<Awaited<ReturnType<typeof findRole>>>;

/** Adds a role; a name already taken raises the unique violation. */
export async function insertRole(tx: Db, accountId: string, values: { name: string; permission_set_ids: string[] }) {
  const [created] = await tx.insert(role).values({ account_id: accountId, name: values.name, permission_set_ids: values.permission_set_ids }).returning();
  return created!;
}

/** Renames a role and/or replaces its permission sets. */
export async function updateRole(tx: Db, accountId: string, id: string, changes: { name?: string; permission_set_ids?: string[] }) {
  await tx
    .update(role)
    .set({ ...changes, updated_at: new Date() })
    .where(and(eq(role.account_id, accountId), eq(role.id, id)));
}

/** Deletes a role. */
export async function deleteRole(tx: Db, accountId: string, id: string) {
  await tx.delete(role).where(and(eq(role.account_id, accountId), eq(role.id, id)));
}
