import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import * as oidc from 'openid-client';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import { isLocalHost, requestHost } from '../../lib/host';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { userIdentity } from '../../db/schema';
import { findUserByEmail, findUserById } from '../auth/queries';
import { beginSession } from '../auth/service';

/**
 * Sign-in with an OpenID Connect provider (authorization code flow with PKCE). The provider only
 * proves an e-mail address; the account must already exist here (sign-up or an invitation),
 * so no organisation is ever created from a provider's say-so.
 */
export const oidcEnabled = (config: Config) => Boolean(config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET);

const FLOW_COOKIE = 'oidc_flow';
const FLOW_TTL_SECONDS = 600;

let discovered: { issuer: string; promise: Promise<oidc.Configuration> } | undefined;

function providerConfig(config: Config) {
  if (!oidcEnabled(config)) throw new AppError('not_found', 'Single sign-on is not configured.');
  if (!discovered || discovered.issuer !== config.OIDC_ISSUER) {
    const issuer = new URL(config.OIDC_ISSUER!);
    const promise = oidc.discovery(issuer, config.OIDC_CLIENT_ID!, config.OIDC_CLIENT_SECRET!, undefined, {
      execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
    });
    discovered = { issuer: config.OIDC_ISSUER!, promise };
    promise.catch(() => {
      discovered = undefined; // try again on the next request
    });
  }
  return discovered.promise.catch(() => {
    throw new AppError('service_unavailable', 'The sign-on provider cannot be reached right now. Try again, or sign in with your password.');
  });
}

export const callbackUrl = (config: Config) => `${config.publicUrl.origin}/auth/oidc/callback`;

export async function beginOidc(request: FastifyRequest, reply: FastifyReply) {
  const config = request.server.config;
  const provider = await providerConfig(config);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(provider, {
    redirect_uri: callbackUrl(config),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const flow = await request.server.signingKeys.sign(new SignJWT({ verifier, state, nonce }).setExpirationTime(`${FLOW_TTL_SECONDS}s`));
  reply.setCookie(FLOW_COOKIE, flow, {
    httpOnly: true,
    sameSite: 'lax',
    secure: !isLocalHost(requestHost(request).hostname),
    path: '/api/o/',
    maxAge: FLOW_TTL_SECONDS,
  });
  return { authorization_url: url.toString() };
}

export async function completeOidc(
  request: FastifyRequest,
  reply: FastifyReply,
  params: { code: string; state: string; iss?: string },
) {
  const config = request.server.config;
  const provider = await providerConfig(config);
  let flow: Record<string, unknown>;
  try {
    ({ payload: flow } = await request.server.signingKeys.verify<Record<string, unknown>>(request.cookies[FLOW_COOKIE] ?? ''));
  } catch {
    throw failed('This sign-on attempt has expired. Start again.');
  }
  reply.clearCookie(FLOW_COOKIE, { path: '/api/o/' });
  const current = new URL(callbackUrl(config));
  for (const [key, value] of Object.entries(params)) if (value) current.searchParams.set(key, value);
  let claims: Record<string, unknown> | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(provider, current, {
      pkceCodeVerifier: String(flow.verifier),
      expectedState: String(flow.state),
      expectedNonce: String(flow.nonce),
    });
    const idToken = tokens.claims();
    claims = idToken;
    // Many providers keep the e-mail out of the ID token and answer it from the userinfo endpoint.
    if (idToken && typeof idToken.email !== 'string') {
      claims = await oidc.fetchUserInfo(provider, tokens.access_token, idToken.sub);
    }
  } catch (err) {
    request.log.warn({ err }, 'OpenID Connect code exchange failed');
    throw failed('The sign-on provider did not confirm this sign-in. Start again.');
  }
  const found = await matchOidcUser(request.server.database.db, {
    issuer: typeof claims?.iss === 'string' ? claims.iss : config.OIDC_ISSUER!,
    subject: typeof claims?.sub === 'string' ? claims.sub : '',
    email: typeof claims?.email === 'string' ? claims.email : undefined,
    emailVerified: claims?.email_verified === true,
  });
  if (!found.user.is_active) throw failed('This account is not active. Accept your invitation or activate the account first.');
  return beginSession(request, reply, found.user, found.subdomain);
}

/**
 * Who signs in: the account linked to the provider's issuer and subject — whatever e-mail the
 * provider shows today. The first time, the identity is linked to the account of the e-mail the
 * provider says it has verified (an unverified one is refused); an account already linked to
 * another subject of the same provider is never taken over by an e-mail.
 */
const failed = (detail: string) => new AppError('authentication_failed', detail);

export async function matchOidcUser(db: Db, who: { issuer: string; subject: string; email?: string; emailVerified: boolean }) {
  if (!who.subject) throw failed('The sign-on provider did not identify the user.');
  const [linked] = await db
    .select({ userId: userIdentity.user_id })
    .from(userIdentity)
    .where(and(eq(userIdentity.issuer, who.issuer), eq(userIdentity.subject, who.subject)));
  if (linked) {
    const found = await findUserById(db, linked.userId);
    if (found) return found;
  }
  const email = who.email?.toLowerCase();
  if (!email) throw failed('The sign-on provider did not share an e-mail address.');
  if (!who.emailVerified) throw failed('The sign-on provider has not verified this e-mail address.');
  const found = await findUserByEmail(db, email);
  if (!found) throw failed(`No Tourdesk account uses ${email}. Ask an owner of your organisation to invite you.`);
  const [other] = await db
    .select({ subject: userIdentity.subject })
    .from(userIdentity)
    .where(and(eq(userIdentity.user_id, found.user.id), eq(userIdentity.issuer, who.issuer)));
  if (other) throw failed('This account signs in with another identity at this provider. Sign in with that one, or with your password.');
  await db.insert(userIdentity).values({ account_id: found.user.account_id, user_id: found.user.id, issuer: who.issuer, subject: who.subject }).onConflictDoNothing();
  return found;
}
