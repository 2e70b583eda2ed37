import { PERMISSION_SETS } from '@tourdesk/contracts';
import type { Principal } from '../modules/auth/principal';
import { AppError } from './errors';

/**
 * Nobody grants more than they hold. An Owner holds everything; anyone else with "Manage users"
 * may put into a role, or give someone a role with, only permission sets whose every codename
 * they hold themselves; may not change the role they hold, nor their own role; and only an Owner
 * gives the Owner role or changes, deactivates or removes an Owner.
 */
export function assertMayGrant(me: Principal, setIds: readonly string[], attr: string) {
  if (me.isOwner) return;
  const beyond = PERMISSION_SETS.filter((s) => setIds.includes(s.id) && !s.codenames.every((c) => me.codenames.has(c)));
  if (beyond.length > 0) {
    throw new AppError('permission_denied', `You cannot grant what you do not hold yourself: ${beyond.map((s) => s.title).join(', ')}.`, attr);
  }
}

/** Giving someone a role: never the Owner role unless you are an Owner, never more sets than you hold. */
export function assertMayAssign(me: Principal, target: { is_owner: boolean; permission_set_ids: string[] }, attr = 'role') {
  if (target.is_owner && !me.isOwner) throw new AppError('permission_denied', 'Only an Owner can make someone an Owner.', attr);
  assertMayGrant(me, target.permission_set_ids, attr);
}

/** Changing, deactivating or removing a member: an Owner only by an Owner; your own role not by yourself. */
export function assertMayChangeMember(me: Principal, member: { id: string; isOwner: boolean }, changesRole: boolean) {
  if (member.isOwner && !me.isOwner) throw new AppError('permission_denied', 'Only an Owner can change or remove an Owner.');
  if (changesRole && member.id === me.userId && !me.isOwner) throw new AppError('permission_denied', 'You cannot change your own role: ask an Owner.', 'role');
}
