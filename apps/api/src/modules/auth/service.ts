import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSessionResult } from '@tourdesk/contracts';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import { bareOrigin, requestHost, tenantOrigin } from '../../lib/host';
import { hit, peek, reset, ThrottledError } from '../../lib/throttle';
import { issueActionToken, redeemActionToken } from './action-tokens';
import { clearHomeCookie, clearSessionCookies, REFRESH_COOKIE, setHomeCookie, setSessionCookies } from './cookies';
import { newSecret, sameHash, sha256, splitToken, verifyPassword } from './crypto';
import { checkHost, notAuthenticated, signAccessToken } from './principal';
import * as q from './queries';

/** Seconds a replaced refresh secret is still honoured, for two tabs refreshing at once. */
const ROTATION_GRACE_SECONDS = 30;
const BAD_CREDENTIALS = 'No active account found with the given credentials.';

interface SessionUser {
  id: string;
  account_id: string;
}

async function createSession(request: FastifyRequest, reply: FastifyReply, user: SessionUser) {
  const { config, database, signingKeys } = request.server;
  const secret = newSecret();
  const session = await q.insertSession(database.db, {
    account_id: user.account_id,
    user_id: user.id,
    token_hash: sha256(secret),
    expires_at: new Date(Date.now() + config.REFRESH_TOKEN_TTL_DAYS * 86_400_000),
    user_agent: request.headers['user-agent']?.slice(0, 300) ?? null,
    ip: request.ip,
  });
  const access = await signAccessToken(
    signingKeys,
    { userId: user.id, accountId: user.account_id, sessionId: session.id },
    config.ACCESS_TOKEN_TTL_SECONDS,
  );
  setSessionCookies(request, reply, config, { access, refresh: `${session.id}.${secret}` });
  await q.touchLastLogin(database.db, user.id);
}

/**
 * Signs a verified user in. On their organisation's own host the session cookies are set here;
 * anywhere else (the bare host, another organisation) the answer is a one-time hand-off link to
 * their own host, which sets the cookies there: cookies cannot cross hosts on *.localhost, and
 * host-only cookies keep organisations apart on a real domain too.
 */
export async function beginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  user: SessionUser,
  subdomain: string,
): Promise<TSessionResult> {
  const host = requestHost(request);
  if (host.subdomain === subdomain) {
    await createSession(request, reply, user);
    return { redirect_url: '/dashboard', subdomain };
  }
  const code = await issueActionToken(request.server.database.db, user, 'handoff');
  if (!host.subdomain) setHomeCookie(request, reply, subdomain);
  const url = new URL('/auth/handoff', tenantOrigin(request.server.config, subdomain));
  url.searchParams.set('code', code);
  return { redirect_url: url.toString(), subdomain };
}

export async function login(request: FastifyRequest, reply: FastifyReply, email: string, password: string) {
  const { config, database } = request.server;
  const db = database.db;
  const window = config.LOGIN_LIMIT_WINDOW_SECONDS;
  const ipKey = `login:ip:${request.ip}`;
  const emailKey = `login:email:${email.toLowerCase()}`;
  const byIp = await hit(db, ipKey, window);
  if (byIp.count > config.LOGIN_LIMIT_PER_IP) throw new ThrottledError(byIp.retryAfter);
  const byEmail = await peek(db, emailKey, window);
  if (byEmail.count >= config.LOGIN_LIMIT_PER_EMAIL) throw new ThrottledError(byEmail.retryAfter);

  const found = await q.findUserByEmail(db, email);
  const ok = await verifyPassword(found?.user.password_hash, password);
  if (!found || !ok) {
    await hit(db, emailKey, window);
    throw new AppError('authentication_failed', BAD_CREDENTIALS);
  }
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
  await reset(db, emailKey);
  return beginSession(request, reply, found.user, found.subdomain);
}

export async function redeemHandoff(request: FastifyRequest, reply: FastifyReply, code: string) {
  const db = request.server.database.db;
  const host = requestHost(request);
  const token = await redeemActionToken(db, code, 'handoff');
  const found = await q.findUserById(db, token.user_id);
  if (!found || !found.user.is_active || found.subdomain !== host.subdomain) {
    throw new AppError('invalid', 'This sign-in link is not for this organisation.', 'code');
  }
  await createSession(request, reply, found.user);
  return { redirect_url: '/dashboard', subdomain: found.subdomain };
}

/**
 * Rotates the refresh token. Presenting a replaced one is a replay: the whole session is revoked
 * (unless it was replaced seconds ago by a concurrent refresh from the same browser).
 */
export async function refresh(request: FastifyRequest, reply: FastifyReply) {
  const { config, database, signingKeys } = request.server;
  const db = database.db;
  const parts = splitToken(request.cookies[REFRESH_COOKIE]);
  const fail = (detail: string) => {
    clearSessionCookies(request, reply);
    return notAuthenticated(detail);
  };
  if (!parts) throw fail('No refresh token.');
  const session = await q.findSession(db, parts.id);
  if (!session || session.revoked_at || session.expires_at < new Date()) throw fail('Refresh token expired.');
  const presented = sha256(parts.secret);
  const found = await q.findUserById(db, session.user_id);
  if (!found?.user.is_active) throw fail('Refresh token expired.');
  // Only on the session's own host (the cookie is host-only; a copied one elsewhere is refused).
  checkHost(request, found.subdomain);

  const sign = () =>
    signAccessToken(signingKeys, { userId: session.user_id, accountId: session.account_id, sessionId: session.id }, config.ACCESS_TOKEN_TTL_SECONDS);

  if (sameHash(session.token_hash, presented)) {
    const secret = newSecret();
    if (await q.rotateSession(db, session.id, presented, sha256(secret))) {
      setSessionCookies(request, reply, config, { access: await sign(), refresh: `${session.id}.${secret}` });
      return;
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
    setSessionCookies(request, reply, config, { access: await sign() });
    return;
  }
  await q.revokeSession(db, session.id, 'refresh_token_reuse');
  request.log.warn({ sessionId: session.id }, 'refresh token re-used: session revoked');
  throw fail('Refresh token expired.');
}

export async function logout(request: FastifyRequest, reply: FastifyReply) {
  const db = request.server.database.db;
  const parts = splitToken(request.cookies[REFRESH_COOKIE]);
  if (parts) {
    const session = await q.findSession(db, parts.id);
    if (session && sameHash(session.token_hash, sha256(parts.secret))) await q.revokeSession(db, session.id, 'logout');
  }
  if (request.principal) await q.revokeSession(db, request.principal.sessionId, 'logout');
  clearSessionCookies(request, reply);
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

export function forgetHome(request: FastifyRequest, reply: FastifyReply) {
  clearHomeCookie(request, reply);
}
