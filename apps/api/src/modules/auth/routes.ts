import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDetail, ZErrorEnvelope, ZHandoff, ZLoginInput, ZSessionResult, ZSsoResumeQuery, ZWebChallenge } from '@tourdesk/contracts';
import { requestHost } from '../../lib/host';
import { clearHomeCookie, clearSessionCookies, HOME_COOKIE, REFRESH_COOKIE, setSessionCookies, setSignInCookies } from './cookies';
import { authenticate, notAuthenticated } from './principal';
import { login, logout, redeemHandoff, refresh, signInChallenge, ssoResume, type SignIn, type SignInCaller } from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 429: ZErrorEnvelope };
const pub = (reason: string) => ({ access: { public: true as const, reason } });

/** What signing in needs of the server and the request (see SignInCaller); the OIDC routes use it too. */
export const signInCaller = (request: FastifyRequest): SignInCaller => ({
  db: request.server.database.db,
  config: request.server.config,
  signingKeys: request.server.signingKeys,
  log: request.log,
  host: requestHost(request).subdomain,
  userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
  ip: request.ip,
});

/** Sets a sign-in's cookies and answers it. */
export function answerSignIn(request: FastifyRequest, reply: FastifyReply, signIn: SignIn) {
  setSignInCookies(request, reply, request.server.config, signIn.cookies);
  return signIn.answer;
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/jwt/create/',
    {
      config: pub('signs in'),
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password. Past the longest wait, 429 `challenge_required`: a solved challenge in X-Altcha lets the attempt through',
        body: ZLoginInput,
        response: { 200: ZSessionResult, ...errors },
      },
    },
    async (request, reply) => {
      const altcha = request.headers['x-altcha'];
      const signIn = await login(signInCaller(request), request.body.email, request.body.password, typeof altcha === 'string' ? altcha : undefined);
      return answerSignIn(request, reply, signIn);
    },
  );

  app.get(
    '/api/jwt/challenge/',
    {
      config: pub('a proof-of-work challenge: its solution lets a slowed sign-in through (counted per address)'),
      schema: { tags: ['auth'], summary: 'A proof-of-work challenge (ALTCHA) for a sign-in past its longest wait; its solution goes in X-Altcha', response: { 200: ZWebChallenge, ...errors } },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await signInChallenge(signInCaller(request))),
  );

  app.post(
    '/api/jwt/refresh/',
    {
      config: pub('renews a session from its refresh cookie'),
      schema: { tags: ['auth'], summary: 'Rotate the refresh token and renew the access token', response: { 200: ZDetail, ...errors } },
    },
    async (request, reply) => {
      const refreshed = await refresh(signInCaller(request), request.cookies[REFRESH_COOKIE]);
      if ('refused' in refreshed) {
        clearSessionCookies(request, reply);
        throw notAuthenticated(refreshed.refused);
      }
      setSessionCookies(request, reply, app.config, refreshed.tokens);
      return { detail: 'Session renewed.' };
    },
  );

  app.post(
    '/api/jwt/verify/',
    {
      config: pub('answers whether the access cookie is valid'),
      schema: { tags: ['auth'], summary: 'Check the session (200 or 401)', response: { 200: ZDetail, ...errors } },
    },
    async (request) => {
      await authenticate(request);
      return { detail: 'Session is valid.' };
    },
  );

  app.post(
    '/api/jwt/handoff/',
    {
      config: pub('completes a sign-in started on another host'),
      schema: { tags: ['auth'], summary: 'Exchange a one-time sign-in code for a session on this host', body: ZHandoff, response: { 200: ZSessionResult, ...errors } },
    },
    async (request, reply) => answerSignIn(request, reply, await redeemHandoff(signInCaller(request), request.body.code)),
  );

  app.post(
    '/api/logout/',
    {
      config: pub('ends the session, even an expired one'),
      schema: { tags: ['auth'], summary: 'Sign out: revoke the session and clear its cookies', response: { 204: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      await authenticate(request).catch(() => undefined);
      await logout(app.database.db, request.cookies[REFRESH_COOKIE], request.principal?.sessionId);
      clearSessionCookies(request, reply);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/sso/resume/',
    {
      config: pub('sends a visitor to the organisation this browser signed in to'),
      schema: { tags: ['auth'], summary: 'Redirect to the organisation this browser uses', querystring: ZSsoResumeQuery, response: { 400: ZErrorEnvelope } },
    },
    async (request, reply) =>
      reply.redirect(ssoResume(app.config, request.cookies[HOME_COOKIE], request.query.next), 302),
  );

  app.get(
    '/api/sso/forget/',
    {
      config: pub('forgets which organisation this browser signed in to'),
      schema: { tags: ['auth'], summary: 'Forget the remembered organisation, then redirect', querystring: ZSsoResumeQuery, response: { 400: ZErrorEnvelope } },
    },
    async (request, reply) => {
      clearHomeCookie(request, reply);
      return reply.redirect(ssoResume(app.config, undefined, request.query.next), 302);
    },
  );
};
