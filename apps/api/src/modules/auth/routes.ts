import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDetail, ZErrorEnvelope, ZHandoff, ZLoginInput, ZSessionResult, ZSsoResumeQuery } from '@tourdesk/contracts';
import { HOME_COOKIE } from './cookies';
import { authenticate } from './principal';
import { forgetHome, login, logout, redeemHandoff, refresh, ssoResume } from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 429: ZErrorEnvelope };
const pub = (reason: string) => ({ access: { public: true as const, reason } });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/jwt/create/',
    {
      config: pub('signs in'),
      schema: { tags: ['auth'], summary: 'Sign in with e-mail and password', body: ZLoginInput, response: { 200: ZSessionResult, ...errors } },
    },
    (request, reply) => login(request, reply, request.body.email, request.body.password),
  );

  app.post(
    '/api/jwt/refresh/',
    {
      config: pub('renews a session from its refresh cookie'),
      schema: { tags: ['auth'], summary: 'Rotate the refresh token and renew the access token', response: { 200: ZDetail, ...errors } },
    },
    async (request, reply) => {
      await refresh(request, reply);
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
    (request, reply) => redeemHandoff(request, reply, request.body.code),
  );

  app.post(
    '/api/logout/',
    {
      config: pub('ends the session, even an expired one'),
      schema: { tags: ['auth'], summary: 'Sign out: revoke the session and clear its cookies', response: { 204: z.undefined(), ...errors } },
    },
    async (request, reply) => {
      await authenticate(request).catch(() => undefined);
      await logout(request, reply);
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
      forgetHome(request, reply);
      return reply.redirect(ssoResume(app.config, undefined, request.query.next), 302);
    },
  );
};
