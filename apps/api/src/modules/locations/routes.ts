import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZLocationList, ZLocationQuery } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope };
/** Places are looked up where meeting points are made: the catalogue's permission set and plan feature. */
const access: RouteAccess = { permissions: ['Manage experiences'], features: ['experiences'] };

export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/locations/autocomplete/',
    { config: { access }, schema: { tags: ['locations'], summary: 'Places whose name starts with what was typed (the geocoder when configured, else the embedded towns and cities)', querystring: ZLocationQuery, response: { 200: ZLocationList, ...errors } } },
    async (request) => ({ results: await svc.autocomplete(app.config, request.log, request.query.q, request.query.limit) }),
  );
  app.get(
    '/api/locations/forward-geocode/',
    { config: { access }, schema: { tags: ['locations'], summary: 'The position of an address (the geocoder’s best match, else the town or city it names)', querystring: ZLocationQuery, response: { 200: ZLocationList, ...errors } } },
    async (request) => ({ results: await svc.forwardGeocode(app.config, request.log, request.query.q) }),
  );
};
