import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { ZBillingPortal, ZErrorEnvelope, ZSubscription, ZSubscriptionChange, ZSubscriptionCreate } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope, type TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { principalOf } from '../auth/principal';
import * as plans from './service';

/** The organisation's plan (the spec's subscription create and manage); choosing one is its Owners'. */
const account: RouteAccess = { permissions: ['Manage account'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };
const ownerScope = <T>(request: FastifyRequest, fn: (ctx: TenantCtx) => Promise<T>) => {
  if (!principalOf(request).isOwner) throw new AppError('permission_denied', 'Only an Owner chooses the organisation’s plan.');
  return tenantScope(request, fn);
};

export const planRoutes: FastifyPluginAsyncZod = async (app) => {
  const stripe = () => app.onlinePayments.stripe;
  app.get(
    '/api/subscription/',
    { config: { access: account }, schema: { tags: ['plans'], summary: 'The organisation’s plan, how it is paid, and what it uses of its limits', response: { 200: ZSubscription, ...errors } } },
    (request) => tenantScope(request, (ctx) => plans.currentSubscription(ctx, app.config)),
  );
  app.post(
    '/api/subscription/',
    { config: { access: account }, schema: { tags: ['plans'], summary: 'Choose a plan: a free one at once, a paid one through Stripe Checkout (a trial the first time)', body: ZSubscriptionCreate, response: { 200: ZSubscriptionChange, ...errors } } },
    (request) => ownerScope(request, (ctx) => plans.choosePlan(ctx, app.config, stripe(), request.body.tier, request.body.interval)),
  );
  app.post(
    '/api/subscription/manage/',
    { config: { access: account }, schema: { tags: ['plans'], summary: 'Stripe’s customer portal: the card, invoices, change or cancel the plan', response: { 200: ZBillingPortal, ...errors } } },
    (request) => ownerScope(request, (ctx) => plans.managePlan(ctx, app.config, stripe())),
  );
};
