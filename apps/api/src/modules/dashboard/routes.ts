import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDashboard, ZErrorEnvelope, ZOnboarding, ZOnboardingParams, ZOnboardingPatch, ZOnboardingStep } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantRead, tenantScope } from '../../lib/crud';
import { principalOf } from '../auth/principal';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };
/** Everyone signed in has a dashboard; each of its parts shows only what the caller's role may see. */
const anyone: RouteAccess = { permissions: [] };
/** The onboarding checklist is about setting the account up (the spec's onboardings and onboarding steps). */
const account: RouteAccess = { permissions: ['Manage account'] };
const viewer = (request: FastifyRequest): svc.Viewer => {
  const me = principalOf(request);
  return { codenames: me.codenames, features: me.features };
};
/** The organisation's one onboarding, by its name (not a row id: every organisation has its own). */

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/dashboard/',
    { config: { access: anyone }, schema: { tags: ['dashboard'], summary: 'Today’s departures, nearly full ones ahead, revenue, money due and the onboarding checklist: each part for a role that may see it (null otherwise)', response: { 200: ZDashboard, ...errors } } },
    (request) => tenantRead(request, (ctx) => svc.dashboard(ctx, viewer(request))),
  );
  app.get(
    '/api/onboardings/',
    { config: { access: account }, schema: { tags: ['dashboard'], summary: 'The organisation’s onboardings: its getting-started checklist, from what it has set up', response: { 200: z.array(ZOnboarding), ...errors } } },
    async (request) => [await tenantScope(request, (ctx) => svc.onboarding(ctx, viewer(request)))],
  );
  app.get(
    '/api/onboardings/:onboarding/',
    { config: { access: account }, schema: { tags: ['dashboard'], summary: 'One onboarding with its steps', params: ZOnboardingParams, response: { 200: ZOnboarding, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.onboarding(ctx, viewer(request))),
  );
  app.patch(
    '/api/onboardings/:onboarding/',
    { config: { access: account }, schema: { tags: ['dashboard'], summary: 'Put the checklist away (dismissed) or bring it back', params: ZOnboardingParams, body: ZOnboardingPatch, response: { 200: ZOnboarding, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.setDismissed(ctx, viewer(request), request.body.dismissed)),
  );
  app.get(
    '/api/onboarding-steps/',
    { config: { access: account }, schema: { tags: ['dashboard'], summary: 'The steps of the getting-started checklist, each done or not', response: { 200: z.array(ZOnboardingStep), ...errors } } },
    async (request) => (await tenantScope(request, (ctx) => svc.onboarding(ctx, viewer(request)))).steps,
  );
};
