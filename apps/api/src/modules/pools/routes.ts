import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZIdParam, ZPoolDay, ZPoolDayQuery, ZPoolUsage, ZPoolUsageInput } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const tags = ['pools'];
/** An offer's resources: read and written as the offer is (its neighbours in the catalogue). */
const viewOffer: RouteAccess = { permissions: ['View experiences'], features: ['experiences'] };
const manageOffer: RouteAccess = { permissions: ['Manage experiences'], features: ['experiences'] };
/** A pool's use over a day: beside the capacity page's slots (GET /api/capacity/by-date/). */
const viewCapacity: RouteAccess = { permissions: ['View experiences'], features: ['bookings'] };

/** Resource pools (issue 34): an offer's usage of pools; each pool's use over a day. Pools themselves are inventory items (/api/inventory-items/). */
export const poolRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/experiences/:id/pools/',
    { config: { access: viewOffer }, schema: { tags, summary: 'What a booking of the offer takes from which resource pools', params: ZIdParam, response: { 200: ZPoolUsage, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.usage(ctx, request.params.id)),
  );
  app.put(
    '/api/experiences/:id/pools/',
    {
      config: { access: manageOffer },
      schema: {
        tags,
        summary: 'Replace what a booking of the offer takes from resource pools (refused when a departure to come would be over a pool)',
        params: ZIdParam,
        body: ZPoolUsageInput,
        response: { 200: ZPoolUsage, ...errors },
      },
    },
    (request) => tenantScope(request, (ctx) => svc.setUsage(ctx, request.params.id, request.body)),
  );
  app.get(
    '/api/pools/day/',
    { config: { access: viewCapacity }, schema: { tags, summary: 'Each resource pool’s use over a day, and the departures a pool limits', querystring: ZPoolDayQuery, response: { 200: ZPoolDay, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.poolDay(ctx, request.query.date)),
  );
};
