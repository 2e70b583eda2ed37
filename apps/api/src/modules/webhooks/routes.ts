import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paginated,
  ZErrorEnvelope,
  ZIdParam,
  ZPaginationQuery,
  ZWebhookDelivery,
  ZWebhookDeliveryParams,
  ZWebhookEndpoint,
  ZWebhookEndpointInput,
  ZWebhookEndpointPatch,
  ZWebhookEndpointWithSecret,
} from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope, type TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { QUEUES } from '../../lib/jobs';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import * as service from './service';

/**
 * Settings → Webhooks: the organisation's endpoints, for its Owners (like the payment providers
 * and the failed e-mails): a new endpoint's secret is answered once (and again only when rotated),
 * its deliveries are listed newest first and one can be sent again.
 */
const owners: RouteAccess = { permissions: ['Manage account'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const tags = ['webhooks'];

const ownerScope = <T>(request: FastifyRequest, fn: (ctx: TenantCtx) => Promise<T>) => {
  if (!principalOf(request).isOwner) throw new AppError('permission_denied', 'Only an Owner manages the organisation’s webhooks.');
  return tenantScope(request, fn);
};

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = (): service.WebhookSettings => ({
    allowPrivate: app.config.WEBHOOKS_ALLOW_PRIVATE,
    retryLimit: app.config.WEBHOOK_RETRY_LIMIT,
    retryDelaySeconds: app.config.WEBHOOK_RETRY_DELAY_SECONDS,
  });

  app.get(
    '/api/webhooks/endpoints/',
    { config: { access: owners }, schema: { tags, summary: 'The organisation’s webhook endpoints, oldest first; Owners only', querystring: ZPaginationQuery, response: { 200: paginated(ZWebhookEndpoint), ...errors } } },
    (request) => ownerScope(request, (ctx) => paginate(request, request.query, () => service.countEndpoints(ctx), (limit, offset) => service.pageEndpoints(ctx, limit, offset))),
  );
  app.post(
    '/api/webhooks/endpoints/',
    { config: { access: owners }, schema: { tags, summary: 'Add a webhook endpoint: its signing secret (whsec_…) is answered this once', body: ZWebhookEndpointInput, response: { 201: ZWebhookEndpointWithSecret, ...errors } } },
    async (request, reply) => reply.status(201).send(await ownerScope(request, (ctx) => service.createEndpoint(ctx, app.jobs, settings(), request.body))),
  );
  app.get(
    '/api/webhooks/endpoints/:id/',
    { config: { access: owners }, schema: { tags, summary: 'A webhook endpoint (without its secret)', params: ZIdParam, response: { 200: ZWebhookEndpoint, ...errors } } },
    (request) => ownerScope(request, (ctx) => service.getEndpoint(ctx, request.params.id)),
  );
  app.patch(
    '/api/webhooks/endpoints/:id/',
    { config: { access: owners }, schema: { tags, summary: 'Change a webhook endpoint: its address, description, events, or enable/disable it', params: ZIdParam, body: ZWebhookEndpointPatch, response: { 200: ZWebhookEndpoint, ...errors } } },
    (request) => ownerScope(request, (ctx) => service.updateEndpoint(ctx, settings(), request.params.id, request.body)),
  );
  app.delete(
    '/api/webhooks/endpoints/:id/',
    { config: { access: owners }, schema: { tags, summary: 'Delete a webhook endpoint and its deliveries', params: ZIdParam, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await ownerScope(request, (ctx) => service.deleteEndpoint(ctx, request.params.id));
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/webhooks/endpoints/:id/rotate-secret/',
    { config: { access: owners }, schema: { tags, summary: 'Give the endpoint a new signing secret (answered this once); the old one signs nothing more', params: ZIdParam, response: { 200: ZWebhookEndpointWithSecret, ...errors } } },
    (request) => ownerScope(request, (ctx) => service.rotateSecret(ctx, app.jobs, request.params.id)),
  );
  app.get(
    '/api/webhooks/endpoints/:id/deliveries/',
    { config: { access: owners }, schema: { tags, summary: 'The endpoint’s deliveries, newest first: status, HTTP status, the start of the answer, duration, attempts', params: ZIdParam, querystring: ZPaginationQuery, response: { 200: paginated(ZWebhookDelivery), ...errors } } },
    (request) =>
      ownerScope(request, (ctx) =>
        paginate(request, request.query, () => service.countDeliveries(ctx, request.params.id), (limit, offset) => service.pageDeliveries(ctx, request.params.id, limit, offset)),
      ),
  );
  app.post(
    '/api/webhooks/endpoints/:id/deliveries/:delivery/resend/',
    { config: { access: owners }, schema: { tags, summary: 'Send a delivery’s message again (a new delivery, same message id)', params: ZWebhookDeliveryParams, response: { 201: ZWebhookDelivery, ...errors } } },
    async (request, reply) => {
      const sent = await ownerScope(request, (ctx) => service.resendDelivery(ctx, app.jobs, request.params.id, request.params.delivery));
      app.jobs.wake(QUEUES.webhook);
      return reply.status(201).send(sent);
    },
  );
};
