import type { FastifyBaseLogger } from 'fastify';
import type { TSessionResult, TWebChallenge } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { challengeDetail, challengeSecret, newChallenge, solved, type ChallengeSettings } from '../../lib/challenge';
import { AppError } from '../../lib/errors';
import { bareOrigin, tenantOrigin } from '../../lib/host';
import { attemptWithBackoff, countAttempt, hit, reset, ThrottledError } from '../../lib/throttle';
import { issueActionToken, redeemActionToken } from './action-tokens';
import type { SessionTokens, SignInCookies } from './cookies';
import { newSecret, sameHash, sha256, splitToken, verifyPassword } from './crypto';
import type { SigningKeys } from './keys';
import { assertSessionHost, signAccessToken } from './principal';
import * as q from './queries';

/**
 * Who signs in and what signing in needs of the server; the route builds it from the request
 * (`signInCaller()` in routes.ts). `host` is the subdomain of the host asked (null: the bare host).
 */
export interface SignInCaller {
  db: Db;
  config: Config;
  signingKeys: SigningKeys;
  log: FastifyBaseLogger;
  host: string | null;
  userAgent: string | null;
  ip: string;
}

/** A sign-in decided: the answer, and the cookies the route sets (setSignInCookies() in cookies.ts). */
export interface SignIn {
  answer: TSessionResult;
  cookies: SignInCookies;
}

/** Seconds a replaced refresh secret is still honoured, for two tabs refreshing at once. */
const ROTATION_GRACE_SECONDS = 30;
const BAD_CREDENTIALS = 'No active account found with the given credentials.';

interface SessionUser {
  id: string;
  account_id: string;
}

/** A new session for the user: its tokens, for the session cookies. */
async function createSession(c: SignInCaller, user: SessionUser): Promise<SessionTokens> {
  const { config, db, signingKeys } = c;
  const secret = newSecret();
  const session = await q.insertSession(db, {
    account_id: user.account_id,
    user_id: user.id,
    token_hash: sha256(secret),
    expires_at: new Date(Date.now() + config.REFRESH_TOKEN_TTL_DAYS * 86_400_000),
    user_agent: c.userAgent,
    ip: c.ip,
  });
  const access = await signAccessToken(
    signingKeys,
    { userId: user.id, accountId: user.account_id, sessionId: session.id },
    config.ACCESS_TOKEN_TTL_SECONDS,
  );
  await q.touchLastLogin(db, user.id);
  return { access, refresh: `${session.id}.${secret}` };
}

/**
 * Signs a verified user in. On their organisation's own host the session cookies are set here;
 * anywhere else (the bare host, another organisation) the answer is a one-time hand-off link to
 * their own host, which sets the cookies there: cookies cannot cross hosts on *.localhost, and
 * host-only cookies keep organisations apart on a real domain too.
 */
export async function beginSession(c: SignInCaller, user: SessionUser, subdomain: string): Promise<SignIn> {
  if (c.host === subdomain) {
    const session = await createSession(c, user);
    return { answer: { redirect_url: '/dashboard', subdomain }, cookies: { session } };
  }
  const code = await issueActionToken(c.db, user, 'handoff');
  const url = new URL('/auth/handoff', tenantOrigin(c.config, subdomain));
  url.searchParams.set('code', code);
  return { answer: { redirect_url: url.toString(), subdomain }, cookies: c.host ? {} : { home: subdomain } };
}

/** Sign-in's challenges: their own secret, the web store's work (STORE_CHALLENGE_COST, STORE_CHALLENGE_DIGITS). */
const challengeSettings = (c: SignInCaller): ChallengeSettings => ({
  secret: challengeSecret(c.signingKeys.current.key, 'sign-in'),
  cost: c.config.STORE_CHALLENGE_COST,
  digits: c.config.STORE_CHALLENGE_DIGITS,
});

/**
 * A proof-of-work challenge for a sign-in past its longest wait (`GET /api/jwt/challenge/`),
 * counted per client address like sign-in itself (LOGIN_LIMIT_PER_IP in the window).
 */
export async function signInChallenge(c: SignInCaller): Promise<TWebChallenge> {
  const byIp = await hit(c.db, `login:challenge:ip:${c.ip}`, c.config.LOGIN_LIMIT_WINDOW_SECONDS);
  if (byIp.count > c.config.LOGIN_LIMIT_PER_IP) throw new ThrottledError(byIp.retryAfter);
  return newChallenge(challengeSettings(c));
}

/**
 * Signs in with a password. Attempts are counted per client address and per e-mail address before
 * the password is checked, each in one atomic statement (lib/throttle.ts), so a burst from many
 * addresses is counted exactly. Past LOGIN_LIMIT_PER_EMAIL failures an e-mail address is slowed
 * down, not locked: each further attempt waits a delay that doubles with each failure (1 s, 2 s,
 * 4 s … up to LOGIN_DELAY_MAX_SECONDS; 429 with Retry-After meanwhile), so its owner signs in
 * once the short wait has passed. Once the wait is the longest, a script firing as each wait ends
 * could take every turn: then an attempt carrying a solved challenge (`altcha`, the X-Altcha header;
 * each solution good once) goes through at once, still counted, and one without is answered 429
 * `challenge_required` (the sign-in page solves one and sends the attempt again). The right password
 * clears the count.
 */
export async function login(c: SignInCaller, email: string, password: string, altcha?: string): Promise<SignIn> {
  const { config, db } = c;
  const window = config.LOGIN_LIMIT_WINDOW_SECONDS;
  const ipKey = `login:ip:${c.ip}`;
  const emailKey = `login:email:${email.toLowerCase()}`;
  const byIp = await hit(db, ipKey, window);
  if (byIp.count > config.LOGIN_LIMIT_PER_IP) throw new ThrottledError(byIp.retryAfter);
  const byEmail = await attemptWithBackoff(db, emailKey, {
    free: config.LOGIN_LIMIT_PER_EMAIL,
    maxDelaySeconds: config.LOGIN_DELAY_MAX_SECONDS,
    forgetAfterSeconds: window,
  });
  if (!byEmail.allowed) {
    if (!byEmail.atMaxDelay) throw new ThrottledError(byEmail.retryAfter);
    if (!(await solved(db, challengeSettings(c), altcha))) throw new ThrottledError(byEmail.retryAfter, { detail: challengeDetail(altcha) });
    await countAttempt(db, emailKey, window);
  }

  const found = await q.findUserByEmail(db, email);
  const ok = await verifyPassword(found?.user.password_hash, password);
  if (!found || !ok) throw new AppError('authentication_failed', BAD_CREDENTIALS);
  await reset(db, emailKey);
  if (!found.user.is_active) {
    // Only said after the password proved who is asking.
    throw new AppError(
      'authentication_failed',
      found.user.invited_at
        ? 'Accept your invitation first: follow the link in the e-mail you received.'
        : found.user.activated_at
          ? 'This account has been deactivated. Ask an owner of your organisation.'
          : 'Your account is not active yet. Follow the activation link we e-mailed you.',
    );
  }
  return beginSession(c, found.user, found.subdomain);
}

export async function redeemHandoff(c: SignInCaller, code: string): Promise<SignIn> {
  const { db } = c;
  const token = await redeemActionToken(db, code, 'handoff');
  const found = await q.findUserById(db, token.user_id);
  if (!found || !found.user.is_active || found.subdomain !== c.host) {
    throw new AppError('invalid', 'This sign-in link is not for this organisation.', 'code');
  }
  const session = await createSession(c, found.user);
  return { answer: { redirect_url: '/dashboard', subdomain: found.subdomain }, cookies: { session } };
}

/** A refresh: the tokens to set, or why it is refused (the route then clears the session cookies and answers 401). */
export type Refreshed = { tokens: SessionTokens } | { refused: string };

/**
 * Rotates the refresh token (`presented`: the refresh cookie). Presenting a replaced one is a
 * replay: the whole session is revoked (unless it was replaced seconds ago by a concurrent refresh
 * from the same browser).
 */
export async function refresh(c: SignInCaller, cookie: string | undefined): Promise<Refreshed> {
  const { config, db, signingKeys } = c;
  const parts = splitToken(cookie);
  const fail = (detail: string): Refreshed => ({ refused: detail });
  if (!parts) return fail('No refresh token.');
  const session = await q.findSession(db, parts.id);
  if (!session || session.revoked_at || session.expires_at < new Date()) return fail('Refresh token expired.');
  const presented = sha256(parts.secret);
  const found = await q.findUserById(db, session.user_id);
  if (!found?.user.is_active) return fail('Refresh token expired.');
  // Only on the session's own host (the cookie is host-only; a copied one elsewhere is refused).
  assertSessionHost(c.host, found.subdomain);

  const sign = () =>
    signAccessToken(signingKeys, { userId: session.user_id, accountId: session.account_id, sessionId: session.id }, config.ACCESS_TOKEN_TTL_SECONDS);

  if (sameHash(session.token_hash, presented)) {
    const secret = newSecret();
    if (await q.rotateSession(db, session.id, presented, sha256(secret))) {
      return { tokens: { access: await sign(), refresh: `${session.id}.${secret}` } };
    }
    // Lost a race with a concurrent refresh: fall through to the grace rule.
  }
  const current = (await q.findSession(db, session.id))!;
  const withinGrace =
    current.previous_token_hash !== null &&
    sameHash(current.previous_token_hash, presented) &&
    current.rotated_at !== null &&
    Date.now() - current.rotated_at.getTime() < ROTATION_GRACE_SECONDS * 1000;
  if (withinGrace && !current.revoked_at) {
    // The browser already holds the new refresh cookie from the winning response.
    return { tokens: { access: await sign() } };
  }
  await q.revokeSession(db, session.id, 'refresh_token_reuse');
  c.log.warn({ sessionId: session.id }, 'refresh token re-used: session revoked');
  return fail('Refresh token expired.');
}

/** Revokes the session of the refresh cookie, and the caller's (`sessionId`, when signed in); the route clears the cookies. */
export async function logout(db: Db, refreshCookie: string | undefined, sessionId: string | undefined) {
  const parts = splitToken(refreshCookie);
  if (parts) {
    const session = await q.findSession(db, parts.id);
    if (session && sameHash(session.token_hash, sha256(parts.secret))) await q.revokeSession(db, session.id, 'logout');
  }
  if (sessionId) await q.revokeSession(db, sessionId, 'logout');
}

/**
 * A visitor of an organisation's host without a session is sent here (on the bare host) once:
 * if this browser signed in to another organisation, it goes to its own; otherwise back to the
 * sign-in page it came from. `next` must be a page of one of our hosts (no open redirect).
 */
export function ssoResume(config: Config, home: string | undefined, next: string): string {
  let target: URL;
  try {
    target = new URL(next);
  } catch {
    return `${bareOrigin(config)}/auth/login`;
  }
  const base = config.publicUrl;
  const ours =
    target.protocol === base.protocol &&
    target.port === base.port &&
    (target.hostname === base.hostname || target.hostname.endsWith(`.${base.hostname}`));
  if (!ours) return `${bareOrigin(config)}/auth/login`;
  const wanted = target.hostname.slice(0, -(base.hostname.length + 1));
  if (home && /^[a-z0-9-]{3,63}$/.test(home) && home !== wanted) return `${tenantOrigin(config, home)}/dashboard`;
  const back = new URL('/auth/login', target.origin);
  back.searchParams.set('sso', 'checked');
  return back.toString();
}
