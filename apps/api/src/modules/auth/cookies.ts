import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { isLocalHost, requestHost } from '../../lib/host';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';
/** On the bare host only: which organisation this browser signed in to last (not a credential). */
export const HOME_COOKIE = 'home_org';

const base = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  // Secure in production, and wherever the host is not plain-http localhost development.
  secure: request.server.config.NODE_ENV === 'production' || !isLocalHost(requestHost(request).hostname),
});

/** A session's tokens as cookies carry them: the access token, and the refresh token when it was replaced. */
export interface SessionTokens {
  access: string;
  refresh?: string;
}

/** The cookies a sign-in sets (auth/service.ts decides): the session's, or on the bare host the organisation to remember. */
export interface SignInCookies {
  session?: SessionTokens;
  home?: string;
}

/** Host-only cookies: an organisation's session is never sent to another organisation's host. */
export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, config: Config, tokens: SessionTokens) {
  reply.setCookie(ACCESS_COOKIE, tokens.access, { ...base(request), path: '/', maxAge: config.ACCESS_TOKEN_TTL_SECONDS });
  if (tokens.refresh) {
    reply.setCookie(REFRESH_COOKIE, tokens.refresh, {
      ...base(request),
      path: '/api/',
      maxAge: config.REFRESH_TOKEN_TTL_DAYS * 86_400,
    });
  }
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(ACCESS_COOKIE, { ...base(request), path: '/' });
  reply.clearCookie(REFRESH_COOKIE, { ...base(request), path: '/api/' });
}

export function setHomeCookie(request: FastifyRequest, reply: FastifyReply, subdomain: string) {
  reply.setCookie(HOME_COOKIE, subdomain, { ...base(request), path: '/api/', maxAge: 365 * 86_400 });
}

export function clearHomeCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(HOME_COOKIE, { ...base(request), path: '/api/' });
}

/** Sets the cookies a sign-in decided. */
export function setSignInCookies(request: FastifyRequest, reply: FastifyReply, config: Config, cookies: SignInCookies) {
  if (cookies.session) setSessionCookies(request, reply, config, cookies.session);
  if (cookies.home) setHomeCookie(request, reply, cookies.home);
}
