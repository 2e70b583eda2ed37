import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZOidcCallback, ZOidcStart, ZSessionResult } from '@tourdesk/contracts';
import { isLocalHost, requestHost } from '../../lib/host';
import { answerSignIn, signInCaller } from '../auth/routes';
import { beginOidc, completeOidc, FLOW_COOKIE, FLOW_TTL_SECONDS, openFlow } from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 404: ZErrorEnvelope, 503: ZErrorEnvelope };
const access = { access: { public: true as const, reason: 'sign-in with an OpenID Connect provider' } };

/** The spec's generic OAuth retrieve (start) and create (finish), for the provider "oidc". */
export const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/o/oidc/',
    {
      config: access,
      schema: { tags: ['auth'], summary: 'Start signing in with the OpenID Connect provider', response: { 200: ZOidcStart, ...errors } },
    },
    async (request, reply) => {
      const { authorization_url, flow } = await beginOidc(app.config, app.signingKeys);
      reply.setCookie(FLOW_COOKIE, flow, {
        httpOnly: true,
        sameSite: 'lax',
        secure: !isLocalHost(requestHost(request).hostname),
        path: '/api/o/',
        maxAge: FLOW_TTL_SECONDS,
      });
      return { authorization_url };
    },
  );
  app.post(
    '/api/o/oidc/',
    {
      config: access,
      schema: {
        tags: ['auth'],
        summary: 'Finish signing in with the code the provider returned',
        body: ZOidcCallback,
        response: { 200: ZSessionResult, ...errors },
      },
    },
    async (request, reply) => {
      const opened = await openFlow(app.config, app.signingKeys, request.cookies[FLOW_COOKIE]);
      reply.clearCookie(FLOW_COOKIE, { path: '/api/o/' });
      return answerSignIn(request, reply, await completeOidc(signInCaller(request), opened, request.body));
    },
  );
};
