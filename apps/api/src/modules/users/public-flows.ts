import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { PERMISSION_SETS, ZSubdomain, type TRegisterInput } from '@tourdesk/contracts';
import { baseAccount, role, users } from '../../db/schema';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError } from '../../lib/errors';
import type { Db } from '../../db/client';
import { QUEUES } from '../../lib/jobs';
import { queueMail, type Mail } from '../../lib/mailer';
import { requireRecaptcha } from '../../lib/recaptcha';
import { hit, ThrottledError } from '../../lib/throttle';
import { DEFAULT_TIER, TRIAL_DAYS } from '../plans/tiers';
import { issueActionToken, redeemActionToken } from '../auth/action-tokens';
import { hashPassword } from '../auth/crypto';
import { findUserByEmail, revokeUserSessions } from '../auth/queries';
import { accountExistsMail, activationMail, emailResetMail, passwordResetMail } from './emails';
import { emailTaken } from './queries';

/**
 * The flows of people who are not signed in: sign-up, activation, password and e-mail resets,
 * accepting an invitation. They run as the system (no tenant is known until the token or the
 * e-mail names the user) and answer the same whether or not an e-mail address exists.
 */

/** Queues e-mails in the caller's transaction (sent once it commits), or alone when there is none. */
async function queue(request: FastifyRequest, tx: Db | null, outbox: Mail[]) {
  const { jobs, database, config } = request.server;
  if (outbox.length === 0) return;
  if (tx) await queueMail(jobs, config, tx, outbox);
  else await database.db.transaction((own) => queueMail(jobs, config, own as unknown as Db, outbox));
}
const wakeMail = (request: FastifyRequest) => request.server.jobs.wake(QUEUES.email);

async function throttleIp(request: FastifyRequest, action: string) {
  const { config, database } = request.server;
  const { count, retryAfter } = await hit(database.db, `${action}:ip:${request.ip}`, config.LOGIN_LIMIT_WINDOW_SECONDS);
  if (count > config.LOGIN_LIMIT_PER_IP) throw new ThrottledError(retryAfter);
}

export async function subdomainAvailability(request: FastifyRequest, raw: string) {
  const parsed = ZSubdomain.safeParse(raw);
  if (!parsed.success) return { subdomain: raw, available: false, reason: parsed.error.issues[0]!.message };
  const [row] = await request.server.database.db
    .select({ id: baseAccount.id })
    .from(baseAccount)
    .where(eq(baseAccount.subdomain, parsed.data));
  return { subdomain: parsed.data, available: !row, reason: row ? 'This subdomain is taken.' : null };
}

/**
 * Sign-up answers alike whether or not the e-mail address has an account, in content and in the
 * work done before answering (a password hash, one transaction, one e-mail): a new address gets
 * its organisation and an activation link; a known one gets, in its own inbox, a note that it
 * already has an account, and the form the same "check your e-mail". A taken subdomain is public
 * anyway (the form checks it as the user types): it is refused for both alike.
 */
export async function register(request: FastifyRequest, input: TRegisterInput) {
  const { config, database } = request.server;
  await throttleIp(request, 'register');
  await requireRecaptcha(config, input.recaptcha_token, request.ip);
  const passwordHash = await hashPassword(input.password);
  const answer = { email: input.email, subdomain: input.subdomain };
  const subdomainTaken = () => new AppError('invalid', 'This subdomain is taken.', 'subdomain');
  try {
    await database.db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: baseAccount.id }).from(baseAccount).where(eq(baseAccount.subdomain, input.subdomain));
      if (taken) throw subdomainTaken();
      if (await emailTaken(tx, input.email)) {
        await queue(request, tx as unknown as Db, [accountExistsMail(config, input.email)]);
        return;
      }
      const [account] = await tx
        .insert(baseAccount)
        .values({
          name: input.organisation_name,
          subdomain: input.subdomain,
          kind: input.kind,
          currency: input.currency,
          time_zone: input.time_zone,
          subscription_tier_id: DEFAULT_TIER[input.kind],
          // A new supplier tries the Standard plan for its trial days (plans-end-trials ends it).
          ...(input.kind === 'supplier' ? { subscription_status: 'trialing', trial_ends_at: new Date(Date.now() + TRIAL_DAYS * 86_400_000), trial_used: true } : {}),
        })
        .returning();
      const [owner] = await tx
        .insert(role)
        .values({ account_id: account!.id, name: 'Owner', is_owner: true, permission_set_ids: PERMISSION_SETS.map((s) => s.id) })
        .returning();
      const [created] = await tx
        .insert(users)
        .values({
          account_id: account!.id,
          email: input.email,
          first_name: input.first_name,
          last_name: input.last_name,
          password_hash: passwordHash,
          role_id: owner!.id,
          is_active: false,
        })
        .returning();
      const token = await issueActionToken(tx, created!, 'activation');
      await queue(request, tx as unknown as Db, [activationMail(config, created!.email, created!.id, token)]);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Lost a race with another sign-up: the same answers as above, by which value was taken.
    const detail = String((error as { cause?: { detail?: string } }).cause?.detail ?? (error as { detail?: string }).detail ?? '');
    if (!/email/.test(detail)) throw subdomainTaken();
    await queue(request, null, [accountExistsMail(config, input.email)]);
  }
  wakeMail(request);
  return answer;
}

export async function activate(request: FastifyRequest, uid: string, token: string) {
  const db = request.server.database.db;
  await db.transaction(async (tx) => {
    const row = await redeemActionToken(tx, token, 'activation', uid);
    await tx.update(users).set({ is_active: true, activated_at: new Date(), updated_at: new Date() }).where(eq(users.id, row.user_id));
  });
}

export async function resendActivation(request: FastifyRequest, email: string) {
  const { config, database } = request.server;
  await throttleIp(request, 'resend');
  const found = await findUserByEmail(database.db, email);
  if (!found || found.user.is_active || found.user.invited_at || found.user.activated_at) return;
  await database.db.transaction(async (tx) => {
    const token = await issueActionToken(tx, found.user, 'activation');
    await queue(request, tx as unknown as Db, [activationMail(config, found.user.email, found.user.id, token)]);
  });
  wakeMail(request);
}

export async function resetPassword(request: FastifyRequest, email: string, recaptchaToken?: string) {
  const { config, database } = request.server;
  await throttleIp(request, 'reset');
  await requireRecaptcha(config, recaptchaToken, request.ip);
  // The same answer, at the same moment, for any address: the lookup and the e-mail happen after it.
  void (async () => {
    const found = await findUserByEmail(database.db, email);
    if (!found || !found.user.is_active) return;
    await database.db.transaction(async (tx) => {
      const token = await issueActionToken(tx, found.user, 'password_reset');
      await queue(request, tx as unknown as Db, [passwordResetMail(config, found.user.email, found.user.id, token)]);
    });
    wakeMail(request);
  })().catch((err: unknown) => request.log.error({ err }, 'password reset e-mail failed'));
}

export async function resetPasswordConfirm(request: FastifyRequest, uid: string, token: string, password: string) {
  const db = request.server.database.db;
  const hashed = await hashPassword(password);
  await db.transaction(async (tx) => {
    const row = await redeemActionToken(tx, token, 'password_reset', uid);
    await tx
      .update(users)
      .set({ password_hash: hashed, password_changed_at: new Date(), updated_at: new Date() })
      .where(eq(users.id, row.user_id));
    await revokeUserSessions(tx, row.user_id, 'password_reset');
  });
}

export async function acceptInvitation(request: FastifyRequest, uid: string, token: string, password: string) {
  const db = request.server.database.db;
  const hashed = await hashPassword(password);
  await db.transaction(async (tx) => {
    const row = await redeemActionToken(tx, token, 'invitation', uid);
    await tx
      .update(users)
      .set({ password_hash: hashed, is_active: true, invited_at: null, activated_at: new Date(), password_changed_at: new Date(), updated_at: new Date() })
      .where(eq(users.id, row.user_id));
  });
}

export async function resetEmail(request: FastifyRequest, email: string) {
  const { config, database } = request.server;
  await throttleIp(request, 'reset');
  const found = await findUserByEmail(database.db, email);
  if (!found || !found.user.is_active) return;
  await database.db.transaction(async (tx) => {
    const token = await issueActionToken(tx, found.user, 'email_reset');
    await queue(request, tx as unknown as Db, [emailResetMail(config, found.user.email, found.user.id, token)]);
  });
  wakeMail(request);
}

export async function resetEmailConfirm(request: FastifyRequest, uid: string, token: string, newEmail: string) {
  const db = request.server.database.db;
  if (await emailTaken(db, newEmail, uid)) {
    throw new AppError('invalid', 'A user with this e-mail address already exists.', 'new_email');
  }
  await db.transaction(async (tx) => {
    const row = await redeemActionToken(tx, token, 'email_reset', uid);
    await tx.update(users).set({ email: newEmail, updated_at: new Date() }).where(sql`${users.id} = ${row.user_id}`);
  });
}
