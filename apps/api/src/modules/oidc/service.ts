import { SignJWT } from 'jose';
import * as oidc from 'openid-client';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import type { Db } from '../../db/client';
import type { SigningKeys } from '../auth/keys';
import { findUserByEmail, findUserById } from '../auth/queries';
import { beginSession, type SignIn, type SignInCaller } from '../auth/service';
import * as q from './queries';

/**
 * Sign-in with an OpenID Connect provider (authorization code flow with PKCE). The provider only
 * proves an e-mail address; the account must already exist here (sign-up or an invitation),
 * so no organisation is ever created from a provider's say-so.
 */
export const oidcEnabled = (config: Config) => Boolean(config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET);

/** The signed, short-lived cookie that carries a flow's verifier, state and nonce (path /api/o/). */
export const FLOW_COOKIE = 'oidc_flow';
export const FLOW_TTL_SECONDS = 600;

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

/** Starts a flow: the provider's page, and the flow the route keeps in FLOW_COOKIE. */
export async function beginOidc(config: Config, signingKeys: SigningKeys) {
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
  const flow = await signingKeys.sign(new SignJWT({ verifier, state, nonce }).setExpirationTime(`${FLOW_TTL_SECONDS}s`));
  return { authorization_url: url.toString(), flow };
}

/** A flow coming back (`cookie`: FLOW_COOKIE), checked: the provider and the flow's verifier, state and nonce. */
export async function openFlow(config: Config, signingKeys: SigningKeys, cookie: string | undefined) {
  const provider = await providerConfig(config);
  let flow: Record<string, unknown>;
  try {
    ({ payload: flow } = await signingKeys.verify<Record<string, unknown>>(cookie ?? ''));
  } catch {
    throw failed('This sign-on attempt has expired. Start again.');
  }
  return { provider, flow };
}
export type OpenFlow = Awaited<ReturnType<typeof openFlow>>;

/** Finishes a flow opened by openFlow() (the route has cleared its cookie) and signs the account in. */
export async function completeOidc(c: SignInCaller, { provider, flow }: OpenFlow, params: { code: string; state: string; iss?: string }): Promise<SignIn> {
  const { config } = c;
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
    c.log.warn({ err }, 'OpenID Connect code exchange failed');
    throw failed('The sign-on provider did not confirm this sign-in. Start again.');
  }
  const found = await matchOidcUser(c.db, {
    issuer: typeof claims?.iss === 'string' ? claims.iss : config.OIDC_ISSUER!,
    subject: typeof claims?.sub === 'string' ? claims.sub : '',
    email: typeof claims?.email === 'string' ? claims.email : undefined,
    emailVerified: claims?.email_verified === true,
  });
  if (!found.user.is_active) throw failed('This account is not active. Accept your invitation or activate the account first.');
  return beginSession(c, found.user, found.subdomain);
}

/**
 * Who signs in: the account linked to the provider's issuer and subject — whatever e-mail the
 * provider shows today. The first time, the identity is linked to the account of the e-mail the
 * provider says it has verified (an unverified one is refused), and only if that account's own
 * address is verified here too (`email_verified_at`); an account already linked to another subject
 * of the same provider is never taken over by an e-mail.
 */
const failed = (detail: string) => new AppError('authentication_failed', detail);

export async function matchOidcUser(db: Db, who: { issuer: string; subject: string; email?: string; emailVerified: boolean }) {
  if (!who.subject) throw failed('The sign-on provider did not identify the user.');
  const linked = await q.linkedUser(db, who.issuer, who.subject);
  if (linked) {
    const found = await findUserById(db, linked.userId);
    if (found) return found;
  }
  const email = who.email?.toLowerCase();
  if (!email) throw failed('The sign-on provider did not share an e-mail address.');
  if (!who.emailVerified) throw failed('The sign-on provider has not verified this e-mail address.');
  const found = await findUserByEmail(db, email);
  if (!found) throw failed(`No Tourdesk account uses ${email}. Ask an owner of your organisation to invite you.`);
  // Only an address proved to reach the account's owner (activation, invitation, a confirmed change):
  // an address merely typed in (a pending change, an account never activated) never links an identity.
  if (!found.user.email_verified_at) {
    throw failed('This account’s e-mail address has not been confirmed yet. Sign in with your password, or follow the link we e-mailed you, then try again.');
  }
  const other = await q.linkedSubject(db, found.user.id, who.issuer);
  if (other) throw failed('This account signs in with another identity at this provider. Sign in with that one, or with your password.');
  await q.linkIdentity(db, { account_id: found.user.account_id, user_id: found.user.id, issuer: who.issuer, subject: who.subject });
  return found;
}
