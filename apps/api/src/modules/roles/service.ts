import { PERMISSION_SETS, type TRole, type TRoleInput } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, notFound } from '../../lib/errors';
import { listCsv } from '../../lib/list-export';
import type { Principal } from '../auth/principal';
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

function validSets(ids: string[]) {
  const unknown = ids.filter((id) => !KNOWN.has(id));
  if (unknown.length > 0) {
    throw new AppError('invalid', `Unknown permission set(s): ${unknown.join(', ')}.`, 'permission_sets');
  }
  return [...new Set(ids)];
}

const nameTaken = () => new AppError('invalid', 'A role with this name already exists.', 'name');

/** How many roles the organisation has. */
export function countRoles(ctx: TenantCtx) {
  return q.countRoles(ctx.tx, ctx.accountId);
}

/** One page of roles, Owner first, then by name. */
export async function rolePage(ctx: TenantCtx, limit: number, offset: number) {
  return (await q.listRoles(ctx.tx, ctx.accountId, limit, offset)).map(toRole);
}

/** The roles as CSV: what each may do and how many members hold it. */
export function rolesCsv(ctx: TenantCtx) {
  return listCsv<TRole>(
    [
      { header: 'name', value: (r) => r.name },
      { header: 'owner', value: (r) => (r.is_owner ? 'yes' : 'no') },
      { header: 'permission_sets', value: (r) => r.permission_sets.map((p) => p.title).join('; ') },
      { header: 'members', value: (r) => r.member_count },
      { header: 'created_at', value: (r) => r.created_at },
    ],
    (limit, offset) => rolePage(ctx, limit, offset),
  );
}

async function roleOr404(tx: Db, accountId: string, id: string) {
  const row = await q.findRole(tx, accountId, id);
  if (!row) throw notFound('No role with this id.');
  return row;
}

export async function getRole(ctx: TenantCtx, id: string) {
  return toRole(await roleOr404(ctx.tx, ctx.accountId, id));
}

/** `me` is who asks: nobody grants more than they hold. */
export async function createRole(ctx: TenantCtx, me: Principal, input: TRoleInput) {
  const sets = validSets(input.permission_sets);
  assertMayGrant(me, sets, 'permission_sets');
  try {
    const created = await q.insertRole(ctx.tx, ctx.accountId, { name: input.name, permission_set_ids: sets });
    return toRole({ role: created, member_count: 0 });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function updateRole(ctx: TenantCtx, me: Principal, id: string, patch: Partial<TRoleInput>) {
  const sets = patch.permission_sets ? validSets(patch.permission_sets) : undefined;
  const { tx, accountId } = ctx;
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
    await q.updateRole(tx, accountId, id, { ...(patch.name !== undefined ? { name: patch.name } : {}), ...(sets ? { permission_set_ids: sets } : {}) });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  return toRole((await q.findRole(tx, accountId, id))!);
}

export async function deleteRole(ctx: TenantCtx, id: string) {
  const { tx, accountId } = ctx;
  const current = await roleOr404(tx, accountId, id);
  if (current.role.is_owner) throw new AppError('conflict', 'The Owner role cannot be deleted.');
  const members = Number(current.member_count);
  if (members > 0) {
    throw new AppError(
      'conflict',
      `This role is assigned to ${members} member${members === 1 ? '' : 's'}. Give ${members === 1 ? 'them' : 'each of them'} another role first.`,
    );
  }
  await q.deleteRole(tx, accountId, id);
}
