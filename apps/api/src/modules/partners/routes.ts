import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paginated,
  ZApiKey,
  ZApiKeyCreated,
  ZApiKeyInput,
  ZApiKeyParams,
  ZErrorEnvelope,
  ZIdParam,
  ZInvitationTokenParam,
  ZPaginationQuery,
  ZPartnerContractPatch,
  ZPartnerInvitation,
  ZPartnerInviteInput,
  ZPartnerListQuery,
  ZPartnerOffers,
  ZPartnership,
} from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { sendCsv } from '../../lib/list-export';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import * as svc from './service';

/** /api/partners/ and /api/partner-invitations/: partnerships, their contract, status and API keys. */
const managePartners: RouteAccess = { permissions: ['Manage stores'], features: ['partners'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const tags = ['partners'];
const config = { access: managePartners };

/** The caller as the service needs it: its tenant's transaction, the server's connection, who it is. */
const caller = (request: FastifyRequest): svc.Caller => ({
  run: (fn, options) => tenantScope(request, fn, options),
  db: request.server.database.db,
  me: principalOf(request),
});

export async function partnerRoutes(untyped: FastifyInstance) {
  const app = untyped.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/partners/',
    { config, schema: { tags, summary: 'The organisation’s partnerships from its side: Resellers (it supplies) or Suppliers (it resells)', querystring: ZPartnerListQuery, response: { 200: paginated(ZPartnership), ...errors } } },
    async (request) => {
      const c = caller(request);
      const filter = await svc.listFilter(c, request.query);
      const page = await c.run((ctx) =>
        paginate(
          request,
          request.query,
          () => svc.countPartnerships(ctx, filter),
          async (limit, offset) => [await svc.gatherPage(ctx, filter, limit, offset)],
        ),
      );
      return { ...page, results: page.results[0] ? await svc.presentPartnerships(c.db, page.results[0]) : [] };
    },
  );
  app.get(
    '/api/partners/export.csv',
    { config, schema: { tags, summary: 'The partnerships of one side (filtered as the list) as CSV, with their contracts', querystring: ZPartnerListQuery.omit({ page: true, page_size: true }), response: { 200: z.string(), ...errors } } },
    async (request, reply) => sendCsv(reply, 'partners', await svc.partnershipsCsv(caller(request), request.query)),
  );
  app.post(
    '/api/partners/',
    { config, schema: { tags, summary: 'Invite an organisation as a partner, by its subdomain or an e-mail address, with the contract', body: ZPartnerInviteInput, response: { 201: ZPartnership, ...errors } } },
    async (request, reply) => reply.status(201).send(await svc.invite(caller(request), app.config, app.jobs, request.body)),
  );
  app.get(
    '/api/partners/:id/',
    { config, schema: { tags, summary: 'A partnership and its contract (both sides read the same)', params: ZIdParam, response: { 200: ZPartnership, ...errors } } },
    (request) => svc.getPartnership(caller(request), request.params.id),
  );
  app.patch(
    '/api/partners/:id/',
    { config, schema: { tags, summary: 'Change the contract and the offers it shares (the supplier side)', params: ZIdParam, body: ZPartnerContractPatch, response: { 200: ZPartnership, ...errors } } },
    (request) => svc.updateContract(caller(request), request.params.id, request.body),
  );
  for (const action of ['accept', 'decline', 'suspend', 'resume', 'end'] as const) {
    const summary = {
      accept: 'Accept an invitation (the invited side)',
      decline: 'Decline an invitation (the invited side)',
      suspend: 'Suspend an active partnership (the supplier): nothing is sold under it meanwhile',
      resume: 'Resume a suspended partnership (the supplier)',
      end: 'End the partnership (final), or withdraw one’s own invitation',
    }[action];
    app.post(`/api/partners/:id/${action}/`, { config, schema: { tags, summary, params: ZIdParam, response: { 200: ZPartnership, ...errors } } }, (request) =>
      svc.transition(caller(request), request.params.id, action),
    );
  }
  app.get(
    '/api/partners/:id/offers/',
    { config, schema: { tags, summary: 'The supplier’s offers, whether the contract shares each, its net rates, and the pricing rates’ retail and net prices', params: ZIdParam, response: { 200: ZPartnerOffers, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.offerChoices(ctx, request.params.id)),
  );
  app.get(
    '/api/partners/:id/api-keys/',
    { config, schema: { tags, summary: 'The API keys issued for this partner (the supplier side)', params: ZIdParam, querystring: ZPaginationQuery, response: { 200: paginated(ZApiKey), ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        await svc.supplierOf(ctx, request.params.id);
        return paginate(
          request,
          request.query,
          () => svc.countApiKeys(ctx, request.params.id),
          (limit, offset) => svc.apiKeyPage(ctx, request.params.id, limit, offset),
        );
      }),
  );
  app.post(
    '/api/partners/:id/api-keys/',
    { config, schema: { tags, summary: 'Issue an API key for this partner; its secret is in this answer only', params: ZIdParam, body: ZApiKeyInput, response: { 201: ZApiKeyCreated, ...errors } } },
    async (request, reply) => reply.status(201).send(await tenantScope(request, (ctx) => svc.createApiKey(ctx, principalOf(request), request.params.id, request.body.name))),
  );
  app.post(
    '/api/partners/:id/api-keys/:keyId/revoke/',
    { config, schema: { tags, summary: 'Revoke an API key', params: ZApiKeyParams, response: { 200: ZApiKey, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.revokeApiKey(ctx, principalOf(request), request.params.id, request.params.keyId)),
  );

  app.get(
    '/api/partner-invitations/:token/',
    { config, schema: { tags, summary: 'An e-mail invitation, as the invitee reads it before answering', params: ZInvitationTokenParam, response: { 200: ZPartnerInvitation, ...errors } } },
    (request) => svc.invitation(app.database.db, request.params.token),
  );
  app.post(
    '/api/partner-invitations/:token/accept/',
    { config, schema: { tags, summary: 'Accept an e-mail invitation for the signed-in organisation', params: ZInvitationTokenParam, response: { 200: ZPartnership, ...errors } } },
    async (request) => (await svc.answerInvitation(caller(request), request.params.token, true))!,
  );
  app.post(
    '/api/partner-invitations/:token/decline/',
    { config, schema: { tags, summary: 'Decline an e-mail invitation', params: ZInvitationTokenParam, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await svc.answerInvitation(caller(request), request.params.token, false);
      return reply.status(204).send(null);
    },
  );
}
