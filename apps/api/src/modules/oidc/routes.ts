import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZOidcCallback, ZOidcStart, ZSessionResult } from '@tourdesk/contracts';
import { beginOidc, completeOidc } from './service';

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
    (request, reply) => beginOidc(request, reply),
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
    (request, reply) => completeOidc(request, reply, request.body),
  );
};
