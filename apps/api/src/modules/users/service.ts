import {
  PERMISSION_SETS,
  type TPermissionSet,
  type TTeamMember,
  type TTeamMemberUpdate,
  type TUser,
} from '@tourdesk/contracts';
import type { BackOfficeLanguage, Language } from '@tourdesk/contracts/i18n';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, notFound } from '../../lib/errors';
import { QUEUES, type Jobs } from '../../lib/jobs';
import { queueMail, type Mail, type QueuedLinkMail } from '../../lib/mailer';
import { listCsv } from '../../lib/list-export';
import { staffLanguage } from '../../lib/staff-text';
import type { TenantOptions } from '../../lib/tenancy';
import { hashPassword, verifyPassword } from '../auth/crypto';
import type { Principal } from '../auth/principal';
import { assertMayAssign, assertMayChangeMember } from '../../lib/grants';
import { revokeUserSessions } from '../auth/queries';
import { sellingLanguages } from '../organization/queries';
import { emailChangeRequestedMail, passwordChangedMail } from './emails';
import { accountLinkMail } from './link-mails';
import * as q from './queries';
import { assertWithinLimit } from '../plans/service';

export const permissionSetsOf = (ids: readonly string[]): TPermissionSet[] =>
  PERMISSION_SETS.filter((s) => ids.includes(s.id)).map(({ id, title, codenames }) => ({ id, title, codenames }));

/**
 * Who calls and what the services need of the server; the route builds it from the request.
 * `run` runs a function in the caller's organisation (query filter + row-level security), `db` is
 * the server's connection (e-mail addresses are checked across organisations), `me` the caller.
 */
export interface Caller {
  run: <R>(fn: (ctx: TenantCtx) => Promise<R>, options?: TenantOptions) => Promise<R>;
  db: Db;
  me: Principal;
  config: Config;
  jobs: Jobs;
}

/**
 * Runs `fn` in the caller's organisation; the e-mails it adds to its outbox are queued in the same
 * transaction and sent once it commits.
 */
async function tenantWork<T>(c: Caller, fn: (tx: Db, me: Principal, outbox: (Mail | QueuedLinkMail)[]) => Promise<T>) {
  const { me, jobs } = c;
  const result = await c.run(async ({ tx }) => {
    const outbox: (Mail | QueuedLinkMail)[] = [];
    const done = await fn(tx, me, outbox);
    await queueMail(jobs, c.config, tx, outbox.map((m) => ({ ...m, account: me.accountId })));
    return done;
  });
  jobs.wake(QUEUES.email);
  return result;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toMember(row: q.MemberRow): TTeamMember {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    is_active: row.is_active,
    status: row.is_active ? 'active' : row.invited_at ? 'invited' : 'deactivated',
    role: row.role_id ? { id: row.role_id, name: row.role_name!, is_owner: row.role_is_owner! } : null,
    last_login: iso(row.last_login),
    created_at: row.created_at.toISOString(),
  };
}

/** How many members match the filter. */
export function countTeam(ctx: TenantCtx, filter: q.MemberFilter) {
  return q.countMembers(ctx.tx, ctx.accountId, filter);
}

/** A page of members, filtered and ordered as the list. */
export async function teamPage(ctx: TenantCtx, filter: q.MemberFilter, limit: number, offset: number): Promise<TTeamMember[]> {
  return (await q.listMembers(ctx.tx, ctx.accountId, filter, limit, offset)).map(toMember);
}

/** The members as CSV, filtered and ordered as the list. */
export function teamCsv(ctx: TenantCtx, filter: q.MemberFilter) {
  return listCsv<TTeamMember>(
    [
      { header: 'first_name', value: (m) => m.first_name },
      { header: 'last_name', value: (m) => m.last_name },
      { header: 'email', value: (m) => m.email },
      { header: 'role', value: (m) => m.role?.name ?? '' },
      { header: 'status', value: (m) => m.status },
      { header: 'last_login', value: (m) => m.last_login ?? '' },
      { header: 'created_at', value: (m) => m.created_at },
    ],
    (limit, offset) => teamPage(ctx, filter, limit, offset),
  );
}

async function memberOr404(tx: Db, accountId: string, id: string) {
  const row = await q.findMember(tx, accountId, id);
  if (!row) throw notFound('No team member with this id.');
  return row;
}

export function getTeamMember(c: Caller, id: string) {
  return tenantWork(c, async (tx, me) => toMember(await memberOr404(tx, me.accountId, id)));
}

async function roleOr400(tx: Db, accountId: string, roleId: string) {
  const found = await q.findRole(tx, accountId, roleId);
  if (!found) throw new AppError('invalid', 'No role with this id in your organisation.', 'role');
  return found;
}

/**
 * The invitation's link and e-mail: in the invitee's back-office language when they have one, else
 * in the inviter's (the invite form asks for none), else the organisation's (`staffLanguage()`).
 */
async function invitationFor(c: Caller, tx: Db, me: Principal, user: { id: string; account_id: string; email: string; language: string | null }) {
  const account = await q.accountRow(tx, me.accountId);
  const inviter = await q.findUser(tx, me.accountId, me.userId);
  const language = staffLanguage(user.language ?? inviter?.language, await sellingLanguages(tx, { id: me.accountId }));
  // Its link is made when the e-mail is sent (link-mails.ts): the queue keeps the user's id.
  return accountLinkMail(c.config, { email: user.email, language }, { kind: 'invitation', user: user.id, language, subdomain: account.subdomain, organisation: account.name, inviter: me.email });
}

/** The signed-in user as an e-mail's recipient (at `email`, their address unless given), in their back-office language. */
async function meAsRecipient(tx: Db, me: Principal, user: { email: string; language: string | null }, email = user.email) {
  return { email, language: staffLanguage(user.language, await sellingLanguages(tx, { id: me.accountId })) };
}

/**
 * E-mail addresses are unique across organisations, so this check runs outside the tenant
 * (and before its transaction: PGlite has one connection). The unique index is the final word.
 */
async function assertEmailFree(db: Db, email: string, attr: string, exceptUserId?: string) {
  if (await q.emailTaken(db, email, exceptUserId)) {
    throw new AppError('invalid', 'A user with this e-mail address already exists.', attr);
  }
}

export async function inviteMember(c: Caller, input: { email: string; first_name: string; last_name: string; role: string }) {
  await assertEmailFree(c.db, input.email, 'email');
  return tenantWork(c, async (tx, me, outbox) => {
    assertMayAssign(me, await roleOr400(tx, me.accountId, input.role));
    await assertWithinLimit({ tx, accountId: me.accountId, currency: me.currency }, 'team_members');
    let created;
    try {
      created = await q.insertUser(tx, {
        account_id: me.accountId,
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        role_id: input.role,
        is_active: false,
        invited_at: new Date(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('invalid', 'A user with this e-mail address already exists.', 'email');
      throw error;
    }
    outbox.push(await invitationFor(c, tx, me, created));
    return toMember((await q.findMember(tx, me.accountId, created.id))!);
  });
}

export function resendInvitation(c: Caller, id: string) {
  return tenantWork(c, async (tx, me, outbox) => {
    const user = await q.findUser(tx, me.accountId, id);
    if (!user) throw notFound('No team member with this id.');
    if (user.is_active || !user.invited_at) throw new AppError('conflict', 'This member has already accepted the invitation.');
    outbox.push(await invitationFor(c, tx, me, user));
    return { detail: `Invitation sent again to ${user.email}.` };
  });
}

/** The last active owner can be neither demoted, deactivated nor removed. */
async function guardLastOwner(tx: Db, accountId: string, userId: string, stillOwnerAfter: boolean) {
  const owners = await q.lockActiveOwners(tx, accountId);
  if (owners.includes(userId) && !stillOwnerAfter && owners.length === 1) {
    throw new AppError('conflict', 'This is the last owner of the organisation: make someone else an owner first.');
  }
}

export function updateMember(c: Caller, id: string, patch: TTeamMemberUpdate) {
  return tenantWork(c, async (tx, me) => {
    const user = await q.findUser(tx, me.accountId, id);
    if (!user) throw notFound('No team member with this id.');
    const currentRole = user.role_id ? await q.findRole(tx, me.accountId, user.role_id) : undefined;
    const changesRole = patch.role !== undefined && patch.role !== user.role_id;
    assertMayChangeMember(me, { id, isOwner: Boolean(currentRole?.is_owner) }, changesRole);
    const nextRole = patch.role ? await roleOr400(tx, me.accountId, patch.role) : currentRole;
    if (changesRole) assertMayAssign(me, nextRole!);
    const willBeActive = patch.is_active ?? user.is_active;
    if (patch.is_active === true && user.invited_at) {
      throw new AppError('invalid', 'An invited member becomes active by accepting the invitation.', 'is_active');
    }
    await guardLastOwner(tx, me.accountId, id, Boolean(nextRole?.is_owner) && willBeActive);
    await q.updateUser(tx, me.accountId, id, {
      ...(patch.first_name !== undefined ? { first_name: patch.first_name } : {}),
      ...(patch.last_name !== undefined ? { last_name: patch.last_name } : {}),
      ...(patch.role !== undefined ? { role_id: patch.role } : {}),
      ...(patch.is_active !== undefined ? { is_active: patch.is_active } : {}),
      updated_at: new Date(),
    });
    if (patch.is_active === false) await revokeUserSessions(tx, id, 'deactivated');
    return toMember((await q.findMember(tx, me.accountId, id))!);
  });
}

export function removeMember(c: Caller, id: string) {
  return tenantWork(c, async (tx, me) => {
    await memberOr404(tx, me.accountId, id);
    const user = await q.findUser(tx, me.accountId, id);
    const currentRole = user?.role_id ? await q.findRole(tx, me.accountId, user.role_id) : undefined;
    assertMayChangeMember(me, { id, isOwner: Boolean(currentRole?.is_owner) }, false);
    await guardLastOwner(tx, me.accountId, id, false);
    await q.deleteUser(tx, me.accountId, id);
  });
}

export function getMe(c: Caller): Promise<TUser> {
  return tenantWork(c, async (tx, me) => {
    const row = await q.loadMe(tx, me.accountId, me.userId);
    if (!row) throw notFound();
    return {
      id: row.user.id,
      email: row.user.email,
      pending_email: row.user.pending_email,
      first_name: row.user.first_name,
      last_name: row.user.last_name,
      language: row.user.language === 'en' || row.user.language === 'de' ? row.user.language : null,
      is_active: row.user.is_active,
      guides: row.guides,
      role: row.role
        ? { id: row.role.id, name: row.role.name, is_owner: row.role.is_owner, permission_sets: permissionSetsOf(row.role.permission_set_ids) }
        : null,
      base_account: {
        id: row.account.id,
        name: row.account.name,
        subdomain: row.account.subdomain,
        kind: row.account.kind as 'supplier' | 'affiliate',
        time_zone: row.account.time_zone,
        currency: row.account.currency,
        locale: row.account.locale,
        time_format: row.account.time_format as '24h' | '12h',
        languages: row.account.languages as Language[],
        subscription_tier: row.tier ? { id: row.tier.id, name: row.tier.name } : null,
        active_subscription_features: row.tier?.features ?? [],
      },
      cart: null,
    };
  });
}

export async function updateMe(c: Caller, patch: { first_name?: string; last_name?: string; language?: BackOfficeLanguage | null }) {
  await tenantWork(c, (tx, me) => q.updateUser(tx, me.accountId, me.userId, { ...patch, updated_at: new Date() }));
  return getMe(c);
}

async function checkPassword(tx: Db, me: Principal, password: string) {
  const user = await q.findUser(tx, me.accountId, me.userId);
  if (!user || !(await verifyPassword(user.password_hash, password))) {
    throw new AppError('invalid', 'The current password is not correct.', 'current_password');
  }
  return user;
}

export function deleteMe(c: Caller, password: string) {
  return tenantWork(c, async (tx, me) => {
    await checkPassword(tx, me, password);
    await guardLastOwner(tx, me.accountId, me.userId, false);
    await q.deleteUser(tx, me.accountId, me.userId);
  });
}

export function setPassword(c: Caller, current: string, next: string) {
  return tenantWork(c, async (tx, me, outbox) => {
    const user = await checkPassword(tx, me, current);
    await q.updateUser(tx, me.accountId, me.userId, { password_hash: await hashPassword(next), password_changed_at: new Date(), updated_at: new Date() });
    await revokeUserSessions(tx, me.userId, 'password_changed', me.sessionId);
    outbox.push(passwordChangedMail(await meAsRecipient(tx, me, user)));
  });
}

/**
 * Asks for a new sign-in address: it is kept as pending and becomes the account's only once the
 * link sent to it is followed (`confirmEmail()` in public-flows.ts); the current address keeps
 * working and is told. Asking for the current address again drops a pending one.
 */
export async function setEmail(c: Caller, current: string, newEmail: string) {
  await assertEmailFree(c.db, newEmail, 'new_email', c.me.userId);
  return tenantWork(c, async (tx, me, outbox) => {
    const user = await checkPassword(tx, me, current);
    if (user.email.toLowerCase() === newEmail.toLowerCase()) {
      await q.updateUser(tx, me.accountId, me.userId, { pending_email: null, updated_at: new Date() });
      return;
    }
    await q.updateUser(tx, me.accountId, me.userId, { pending_email: newEmail, updated_at: new Date() });
    const to = await meAsRecipient(tx, me, user, newEmail);
    outbox.push(accountLinkMail(c.config, to, { kind: 'email_confirm', user: user.id, language: to.language, email: newEmail }), emailChangeRequestedMail(await meAsRecipient(tx, me, user), newEmail));
  });
}

export function logoutOtherSessions(c: Caller) {
  return tenantWork(c, async (tx, me) => {
    const n = await revokeUserSessions(tx, me.userId, 'logout_all', me.sessionId);
    return { detail: `Signed out of ${n} other session(s).` };
  });
}
