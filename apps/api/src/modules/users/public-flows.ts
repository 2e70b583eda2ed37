import type { FastifyBaseLogger } from 'fastify';
import { PERMISSION_SETS, ZSubdomain, type TRegisterInput } from '@tourdesk/contracts';
import type { Config } from '../../config';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError } from '../../lib/errors';
import type { Db } from '../../db/client';
import { QUEUES, type Jobs } from '../../lib/jobs';
import { queueMail, type Mail, type QueuedLinkMail } from '../../lib/mailer';
import { requireRecaptcha } from '../../lib/recaptcha';
import { staffLanguage } from '../../lib/staff-text';
import { hit, ThrottledError } from '../../lib/throttle';
import { DEFAULT_TIER, TRIAL_DAYS } from '../plans/tiers';
import { invalidLink, redeemActionToken } from '../auth/action-tokens';
import { hashPassword } from '../auth/crypto';
import { sellingLanguages } from '../organization/queries';
import { findUserByEmail, findUserById, revokeUserSessions } from '../auth/queries';
import { accountExistsMail, emailChangedMail, emailChangeRequestedMail, type Recipient } from './emails';
import { accountLinkMail } from './link-mails';
import * as q from './queries';
import { emailTaken } from './queries';

/**
 * The flows of people who are not signed in: sign-up, activation, password and e-mail resets,
 * accepting an invitation. They run as the system (no tenant is known until the token or the
 * e-mail names the user) and answer the same whether or not an e-mail address exists.
 */

/** What the flows need of the server and of the caller (its address, the request's log); the route builds it from the request. */
export interface FlowEnv {
  db: Db;
  config: Config;
  jobs: Jobs;
  ip: string;
  log: FastifyBaseLogger;
}

/** Queues e-mails in the caller's transaction (sent once it commits), or alone when there is none. */
async function queue(env: FlowEnv, tx: Db | null, outbox: (Mail | QueuedLinkMail)[]) {
  const { jobs, db, config } = env;
  if (outbox.length === 0) return;
  if (tx) await queueMail(jobs, config, tx, outbox);
  else await q.inSystemTransaction(db, (own) => queueMail(jobs, config, own, outbox));
}
const wakeMail = (env: FlowEnv) => env.jobs.wake(QUEUES.email);

/** A user as an e-mail's recipient: at `email` (their address unless given), in their back-office language. */
const recipient = async (db: Db, user: { email: string; language: string | null; account_id: string }, email = user.email): Promise<Recipient> => ({
  email,
  language: staffLanguage(user.language, await sellingLanguages(db, { id: user.account_id })),
});

/** The note that an address already has an account, in that account's user's language. */
async function accountExists(env: FlowEnv, tx: Db, email: string): Promise<Mail> {
  const found = await findUserByEmail(tx, email);
  return accountExistsMail(env.config, found ? await recipient(tx, found.user, email) : { email, language: 'en' });
}

async function throttleIp(env: FlowEnv, action: string) {
  const { config, db } = env;
  const { count, retryAfter } = await hit(db, `${action}:ip:${env.ip}`, config.LOGIN_LIMIT_WINDOW_SECONDS);
  if (count > config.LOGIN_LIMIT_PER_IP) throw new ThrottledError(retryAfter);
}

export async function subdomainAvailability(db: Db, raw: string) {
  const parsed = ZSubdomain.safeParse(raw);
  if (!parsed.success) return { subdomain: raw, available: false, reason: parsed.error.issues[0]!.message };
  const taken = await q.subdomainTaken(db, parsed.data);
  return { subdomain: parsed.data, available: !taken, reason: taken ? 'This subdomain is taken.' : null };
}

/**
 * Sign-up answers alike whether or not the e-mail address has an account, in content and in the
 * work done before answering (a password hash, one transaction, one e-mail): a new address gets
 * its organisation and an activation link; a known one gets, in its own inbox, a note that it
 * already has an account, and the form the same "check your e-mail". A taken subdomain is public
 * anyway (the form checks it as the user types): it is refused for both alike.
 */
export async function register(env: FlowEnv, input: TRegisterInput) {
  const { config, db } = env;
  await throttleIp(env, 'register');
  await requireRecaptcha(config, input.recaptcha_token, env.ip);
  const passwordHash = await hashPassword(input.password);
  const answer = { email: input.email, subdomain: input.subdomain };
  const subdomainTaken = () => new AppError('invalid', 'This subdomain is taken.', 'subdomain');
  try {
    await q.inSystemTransaction(db, async (tx) => {
      if (await q.subdomainTaken(tx, input.subdomain)) throw subdomainTaken();
      if (await emailTaken(tx, input.email)) {
        await queue(env, tx, [await accountExists(env, tx, input.email)]);
        return;
      }
      const account = await q.insertAccount(tx, {
          name: input.organisation_name,
          subdomain: input.subdomain,
          kind: input.kind,
          currency: input.currency,
          time_zone: input.time_zone,
          subscription_tier_id: DEFAULT_TIER[input.kind],
          // A new supplier tries the Standard plan for its trial days (plans-end-trials ends it).
          ...(input.kind === 'supplier' ? { subscription_status: 'trialing', trial_ends_at: new Date(Date.now() + TRIAL_DAYS * 86_400_000), trial_used: true } : {}),
      });
      const owner = await q.insertOwnerRole(tx, account.id, PERMISSION_SETS.map((s) => s.id));
      const created = await q.insertUser(tx, {
        account_id: account.id,
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        password_hash: passwordHash,
        role_id: owner.id,
        is_active: false,
      });
      // Its link is made when the e-mail is sent (link-mails.ts): the queue keeps the user's id.
      const to = await recipient(tx, created);
      await queue(env, tx, [accountLinkMail(config, to, { kind: 'activation', user: created.id, language: to.language })]);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Lost a race with another sign-up: the same answers as above, by which value was taken.
    const detail = String((error as { cause?: { detail?: string } }).cause?.detail ?? (error as { detail?: string }).detail ?? '');
    if (!/email/.test(detail)) throw subdomainTaken();
    await q.inSystemTransaction(db, async (tx) => queue(env, tx, [await accountExists(env, tx, input.email)]));
  }
  wakeMail(env);
  return answer;
}

export async function activate(db: Db, uid: string, token: string) {
  await q.inSystemTransaction(db, async (tx) => {
    const row = await redeemActionToken(tx, token, 'activation', uid);
    // The link reached the address: it is verified.
    await q.updateUserById(tx, row.user_id, { is_active: true, activated_at: new Date(), email_verified_at: new Date(), updated_at: new Date() });
  });
}

export async function resendActivation(env: FlowEnv, email: string) {
  const { config, db } = env;
  await throttleIp(env, 'resend');
  const found = await findUserByEmail(db, email);
  if (!found || found.user.is_active || found.user.invited_at || found.user.activated_at) return;
  await q.inSystemTransaction(db, async (tx) => {
    const to = await recipient(tx, found.user);
    await queue(env, tx, [accountLinkMail(config, to, { kind: 'activation', user: found.user.id, language: to.language })]);
  });
  wakeMail(env);
}

export async function resetPassword(env: FlowEnv, email: string, recaptchaToken?: string) {
  const { config, db } = env;
  await throttleIp(env, 'reset');
  await requireRecaptcha(config, recaptchaToken, env.ip);
  // The same answer, at the same moment, for any address: the lookup and the e-mail happen after it.
  void (async () => {
    const found = await findUserByEmail(db, email);
    if (!found || !found.user.is_active) return;
    await q.inSystemTransaction(db, async (tx) => {
      const to = await recipient(tx, found.user);
      await queue(env, tx, [accountLinkMail(config, to, { kind: 'password_reset', user: found.user.id, language: to.language })]);
    });
    wakeMail(env);
  })().catch((err: unknown) => env.log.error({ err }, 'password reset e-mail failed'));
}

export async function resetPasswordConfirm(db: Db, uid: string, token: string, password: string) {
  const hashed = await hashPassword(password);
  await q.inSystemTransaction(db, async (tx) => {
    const row = await redeemActionToken(tx, token, 'password_reset', uid);
    await q.updateUserById(tx, row.user_id, { password_hash: hashed, password_changed_at: new Date(), updated_at: new Date() });
    await revokeUserSessions(tx, row.user_id, 'password_reset');
  });
}

export async function acceptInvitation(db: Db, uid: string, token: string, password: string) {
  const hashed = await hashPassword(password);
  await q.inSystemTransaction(db, async (tx) => {
    const row = await redeemActionToken(tx, token, 'invitation', uid);
    // Only a member still invited accepts: never one deactivated since, whatever link they hold.
    const found = await findUserById(tx, row.user_id);
    if (!found || found.user.is_active || !found.user.invited_at) throw invalidLink();
    await q.updateUserById(tx, row.user_id, {
      password_hash: hashed,
      is_active: true,
      invited_at: null,
      activated_at: new Date(),
      email_verified_at: new Date(), // the invitation reached the address
      password_changed_at: new Date(),
      updated_at: new Date(),
    });
  });
}

export async function resetEmail(env: FlowEnv, email: string) {
  const { config, db } = env;
  await throttleIp(env, 'reset');
  const found = await findUserByEmail(db, email);
  if (!found || !found.user.is_active) return;
  await q.inSystemTransaction(db, async (tx) => {
    const to = await recipient(tx, found.user);
    await queue(env, tx, [accountLinkMail(config, to, { kind: 'email_reset', user: found.user.id, language: to.language })]);
  });
  wakeMail(env);
}

const emailTakenError = (attr: string) => new AppError('invalid', 'A user with this e-mail address already exists.', attr);

/**
 * The address chosen from the reset-email link is kept as pending, like one asked for on the
 * profile: it becomes the account's once the link sent to it is followed (`confirmEmail()`).
 */
export async function resetEmailConfirm(env: FlowEnv, uid: string, token: string, newEmail: string) {
  const { config, db } = env;
  if (await emailTaken(db, newEmail, uid)) throw emailTakenError('new_email');
  await q.inSystemTransaction(db, async (tx) => {
    const row = await redeemActionToken(tx, token, 'email_reset', uid);
    const found = await findUserById(tx, row.user_id);
    if (!found) throw new AppError('invalid', 'This link is invalid or has expired. Ask for a new one.', 'token');
    await q.setPendingEmail(tx, row.user_id, newEmail);
    const to = await recipient(tx, found.user, newEmail);
    await queue(env, tx, [accountLinkMail(config, to, { kind: 'email_confirm', user: found.user.id, language: to.language, email: newEmail }), emailChangeRequestedMail(await recipient(tx, found.user), newEmail)]);
  });
  wakeMail(env);
}

/**
 * The link sent to a new address was followed: that address becomes the account's sign-in
 * address, verified, if it is still the one asked for and nobody took it meanwhile; the previous
 * address is told.
 */
export async function confirmEmail(env: FlowEnv, uid: string, token: string) {
  const { db } = env;
  try {
    await q.inSystemTransaction(db, async (tx) => {
      const row = await redeemActionToken(tx, token, 'email_confirm', uid);
      const email = row.payload.email;
      if (!email) throw new AppError('invalid', 'This link is invalid or has expired. Ask for a new one.', 'token');
      if (await emailTaken(tx, email, row.user_id)) throw emailTakenError('token');
      const previous = await q.confirmPendingEmail(tx, row.user_id, email);
      if (previous === undefined) throw new AppError('invalid', 'This link is for an address no longer asked for. Ask for a new one.', 'token');
      if (previous.toLowerCase() !== email.toLowerCase()) {
        const found = await findUserById(tx, row.user_id);
        await queue(env, tx, [emailChangedMail(found ? await recipient(tx, found.user, previous) : { email: previous, language: 'en' }, email)]);
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTakenError('token');
    throw error;
  }
  wakeMail(env);
}
