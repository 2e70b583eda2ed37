import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { PERMISSION_SETS, type TPaginationQuery, type TRole, type TRoleInput } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import { role } from '../../db/schema';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, notFound } from '../../lib/errors';
import { listCsv } from '../../lib/list-export';
import { paginate } from '../../lib/pagination';
import { inTenant } from '../../lib/tenancy';
import { principalOf, type Principal } from '../auth/principal';
import { assertMayGrant } from '../../lib/grants';
import { permissionSetsOf } from '../users/service';
import * as q from './queries';

const KNOWN = new Set(PERMISSION_SETS.map((s) => s.id));

function toRole({ role: r, member_count }: q.RoleRow): TRole {
  return {
    id: r.id,
    name: r.name,
    is_owner: r.is_owner,
    permission_sets: permissionSetsOf(r.permission_set_ids),
    member_count: Number(member_count),
    created_at: r.created_at.toISOString(),
  };
}

function scoped<T>(request: FastifyRequest, fn: (tx: Db, accountId: string, me: Principal) => Promise<T>) {
  const me = principalOf(request);
  return inTenant(request.server.database.db, me.accountId, (tx) => fn(tx, me.accountId, me));
}

function validSets(ids: string[]) {
  const unknown = ids.filter((id) => !KNOWN.has(id));
  if (unknown.length > 0) {
    throw new AppError('invalid', `Unknown permission set(s): ${unknown.join(', ')}.`, 'permission_sets');
  }
  return [...new Set(ids)];
}

const nameTaken = () => new AppError('invalid', 'A role with this name already exists.', 'name');

export function listRoles(request: FastifyRequest, page: TPaginationQuery) {
  return scoped(request, (tx, accountId) =>
    paginate(
      request,
      page,
      () => q.countRoles(tx, accountId),
      async (limit, offset) => (await q.listRoles(tx, accountId, limit, offset)).map(toRole),
    ),
  );
}

/** The roles as CSV: what each may do and how many members hold it. */
export function rolesCsv(request: FastifyRequest) {
  const me = principalOf(request);
  return inTenant(
    request.server.database.db,
    me.accountId,
    (tx) =>
      listCsv<TRole>(
        [
          { header: 'name', value: (r) => r.name },
          { header: 'owner', value: (r) => (r.is_owner ? 'yes' : 'no') },
          { header: 'permission_sets', value: (r) => r.permission_sets.map((p) => p.title).join('; ') },
          { header: 'members', value: (r) => r.member_count },
          { header: 'created_at', value: (r) => r.created_at },
        ],
        async (limit, offset) => (await q.listRoles(tx, me.accountId, limit, offset)).map(toRole),
      ),
    { snapshot: true },
  );
}

async function roleOr404(tx: Db, accountId: string, id: string) {
  const row = await q.findRole(tx, accountId, id);
  if (!row) throw notFound('No role with this id.');
  return row;
}

export function getRole(request: FastifyRequest, id: string) {
  return scoped(request, async (tx, accountId) => toRole(await roleOr404(tx, accountId, id)));
}

export function createRole(request: FastifyRequest, input: TRoleInput) {
  const sets = validSets(input.permission_sets);
  return scoped(request, async (tx, accountId, me) => {
    assertMayGrant(me, sets, 'permission_sets');
    try {
      const [created] = await tx.insert(role).values({ account_id: accountId, name: input.name, permission_set_ids: sets }).returning();
      return toRole({ role: created!, member_count: 0 });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
  });
}

export function updateRole(request: FastifyRequest, id: string, patch: Partial<TRoleInput>) {
  const sets = patch.permission_sets ? validSets(patch.permission_sets) : undefined;
  return scoped(request, async (tx, accountId, me) => {
    const current = await roleOr404(tx, accountId, id);
    if (sets && !me.isOwner) {
      if (me.roleId === id) throw new AppError('permission_denied', 'You cannot change the permission sets of a role you hold: ask an Owner.', 'permission_sets');
      if (current.role.is_owner) throw new AppError('permission_denied', 'Only an Owner can change the Owner role.', 'permission_sets');
      assertMayGrant(me, sets, 'permission_sets');
    }
    if (current.role.is_owner && sets && sets.length !== KNOWN.size) {
      throw new AppError('invalid', 'The Owner role always holds every permission set.', 'permission_sets');
    }
    try {
      await tx
        .update(role)
        .set({ ...(patch.name !== undefined ? { name: patch.name } : {}), ...(sets ? { permission_set_ids: sets } : {}), updated_at: new Date() })
        .where(and(eq(role.account_id, accountId), eq(role.id, id)));
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    return toRole((await q.findRole(tx, accountId, id))!);
  });
}

export function deleteRole(request: FastifyRequest, id: string) {
  return scoped(request, async (tx, accountId) => {
    const current = await roleOr404(tx, accountId, id);
    if (current.role.is_owner) throw new AppError('conflict', 'The Owner role cannot be deleted.');
    const members = Number(current.member_count);
    if (members > 0) {
      throw new AppError(
        'conflict',
        `This role is assigned to ${members} member${members === 1 ? '' : 's'}. Give ${members === 1 ? 'them' : 'each of them'} another role first.`,
      );
    }
    await tx.delete(role).where(and(eq(role.account_id, accountId), eq(role.id, id)));
  });
}
