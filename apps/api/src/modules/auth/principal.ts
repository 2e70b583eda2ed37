import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import type { SigningKeys } from './keys';
import { holdsPermissionSets as holdsSets, PERMISSION_SETS, type TTimeFormat } from '@tourdesk/contracts';
import { AppError } from '../../lib/errors';
import { requestHost } from '../../lib/host';
import { ACCESS_COOKIE } from './cookies';
import { loadPrincipalRow } from './queries';

/** Who is calling: the signed-in user, their organisation, role codenames and plan features. */
export interface Principal {
  userId: string;
  accountId: string;
  sessionId: string;
  email: string;
  subdomain: string;
  /** The organisation's currency: every price it sets is in it. */
  currency: string;
  timeZone: string;
  /** How the organisation reads times: '24h' or '12h' (Settings → Product configuration). */
  timeFormat: TTimeFormat;
  roleId: string | null;
  isOwner: boolean;
  codenames: Set<string>;
  features: Set<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyInstance {
    signingKeys: SigningKeys;
  }
}

const ISSUER = 'tourdesk';
const SETS_BY_ID = new Map(PERMISSION_SETS.map((s) => [s.id, s]));

export const codenamesOf = (permissionSetIds: readonly string[]) =>
  new Set(permissionSetIds.flatMap((id) => SETS_BY_ID.get(id)?.codenames ?? []));

/** The spec's rule (the contracts' holdsPermissionSets) over the product's permission sets. */
export const holdsPermissionSets = (codenames: ReadonlySet<string>, titles: readonly string[]) => holdsSets(codenames, titles, PERMISSION_SETS);

/**
 * What a role sees of a customer where staff work from lists of guests (check-in, manifests): the
 * name, seats, extras, answers and notes always; e-mail and phone with Manage customers; what was
 * paid and is left to pay with Manage orders. The one rule both the door and the manifests apply.
 */
export function customerVisibility(codenames: Set<string>) {
  return { contact: holdsPermissionSets(codenames, ['Manage customers']), payment: holdsPermissionSets(codenames, ['Manage orders']) };
}
export type CustomerVisibility = ReturnType<typeof customerVisibility>;

export async function signAccessToken(
  keys: SigningKeys,
  claims: { userId: string; accountId: string; sessionId: string },
  ttlSeconds: number,
) {
  return keys.sign(new SignJWT({ acc: claims.accountId, sid: claims.sessionId }).setSubject(claims.userId).setIssuer(ISSUER).setIssuedAt().setExpirationTime(`${ttlSeconds}s`));
}

export const notAuthenticated = (detail = 'Authentication credentials were not provided.') =>
  new AppError('not_authenticated', detail);

/**
 * Recently loaded callers, by session, for PRINCIPAL_TTL_MS: a burst of requests from one
 * session reads its user, role and plan once. Any write handled by the identity routes (sign-in
 * and out, users, roles, team members, sessions) empties it at once in this process (see
 * forgetPrincipalsAfterWrites); another process of the same deployment sees such a change within
 * the TTL. A session's own expiry is still checked on every request.
 */
const PRINCIPAL_TTL_MS = 2_000;
const recent = new Map<string, { principal: Principal; sessionExpires: number; loadedAt: number }>();

export function forgetPrincipals() {
  recent.clear();
}

/** Empties the principal cache after every write request handled inside `scope`. */
export function forgetPrincipalsAfterWrites(scope: FastifyInstance) {
  scope.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') forgetPrincipals();
  });
}

/** Reads the access cookie and loads the caller; 401 when there is no valid, live session. */
export async function authenticate(request: FastifyRequest): Promise<Principal> {
  if (request.principal) return request.principal;
  const token = request.cookies[ACCESS_COOKIE];
  if (!token) throw notAuthenticated();
  let claims: { sub?: string; sid?: unknown; exp?: number };
  const verified = request.server.signingKeys.checked;
  const known = verified.get(token);
  if (known && known.exp * 1000 > Date.now()) {
    claims = known;
  } else {
    try {
      ({ payload: claims } = await request.server.signingKeys.verify(token, { issuer: ISSUER }));
    } catch {
      throw notAuthenticated('Your session has expired. Please sign in again.');
    }
    if (verified.size > 10_000) verified.clear();
    if (typeof claims.exp === 'number') verified.set(token, claims as { exp: number });
  }
  if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') throw notAuthenticated();
  const now = Date.now();
  const cached = recent.get(claims.sid);
  if (cached && cached.principal.userId === claims.sub && now - cached.loadedAt < PRINCIPAL_TTL_MS && cached.sessionExpires > now) {
    checkHost(request, cached.principal.subdomain);
    request.principal = cached.principal;
    return cached.principal;
  }
  const row = await loadPrincipalRow(request.server.database.db, claims.sid, claims.sub);
  if (!row || row.revoked_at || row.expires_at < new Date() || !row.is_active) {
    throw notAuthenticated('Your session has ended. Please sign in again.');
  }
  checkHost(request, row.subdomain);
  request.principal = {
    userId: row.user_id,
    accountId: row.account_id,
    sessionId: claims.sid,
    email: row.email,
    subdomain: row.subdomain,
    currency: row.currency,
    timeZone: row.time_zone,
    timeFormat: row.time_format === '12h' ? '12h' : '24h',
    roleId: row.role_id,
    isOwner: row.is_owner ?? false,
    codenames: codenamesOf(row.permission_set_ids ?? []),
    features: new Set(row.features ?? []),
  };
  if (recent.size > 10_000) recent.clear();
  recent.set(claims.sid, { principal: request.principal, sessionExpires: row.expires_at.getTime(), loadedAt: now });
  return request.principal;
}

/**
 * A session belongs to its organisation's host: a token presented anywhere else — another
 * organisation's host, or the bare host, which only signs in and hands over — is refused.
 */
export function checkHost(request: FastifyRequest, subdomain: string) {
  assertSessionHost(requestHost(request).subdomain, subdomain);
}

/** checkHost() given the request's host: `hostSubdomain` null is the bare host. */
export function assertSessionHost(hostSubdomain: string | null, subdomain: string) {
  if (hostSubdomain !== subdomain) {
    throw notAuthenticated(hostSubdomain ? 'This session belongs to another organisation.' : 'Sign in on your organisation’s own address.');
  }
}

/** The principal of a route that declared permissions (the guard has authenticated it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw notAuthenticated();
  return request.principal;
}
