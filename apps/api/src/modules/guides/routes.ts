import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAssignGuide,
  ZAutoAssignInput,
  ZAutoAssignResult,
  ZDayOffParam,
  ZDepartureGuides,
  ZErrorEnvelope,
  ZGuideDayOffInput,
  ZGuideFlag,
  ZGuideMembers,
  ZIdParam,
  ZMyDepartures,
  ZMyDeparturesQuery,
  ZSlotGuideParam,
} from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { customerVisibility, principalOf } from '../auth/principal';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const tags = ['guides'];
/** Who guides and their days off: the team's managers (as team members are). */
const team: RouteAccess = { permissions: ['Manage users'], features: ['team'] };
/** Who guides which departure: those who schedule departures (their capacity and closures: start times). */
const schedule: RouteAccess = { permissions: ['Manage experiences'], features: ['bookings'] };
/** A member's own departures: any signed-in member; being assigned is what shows a departure. */
const mine: RouteAccess = { permissions: [], features: ['bookings'] };

/** Guides (issue 34): who guides, days off, assignments by hand and automatic, a guide's own departures. */
export const guideRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/guides/',
    { config: { access: schedule }, schema: { tags, summary: 'The active team members, whether each guides, and their days off from today on', response: { 200: ZGuideMembers, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.guideMembers(ctx, principalOf(request).timeZone)),
  );
  app.put(
    '/api/guides/:id/',
    { config: { access: team }, schema: { tags, summary: 'Make a team member a guide, or not (their departures already given stay)', params: ZIdParam, body: ZGuideFlag, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => svc.setGuides(ctx, request.params.id, request.body.guides));
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/guides/:id/days-off/',
    { config: { access: team }, schema: { tags, summary: 'A guide’s day off, or days from one date to another', params: ZIdParam, body: ZGuideDayOffInput, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => svc.addDayOff(ctx, request.params.id, request.body));
      return reply.status(204).send(null);
    },
  );
  app.delete(
    '/api/guides/:id/days-off/:dayOff/',
    { config: { access: team }, schema: { tags, summary: 'Remove a guide’s day off', params: ZDayOffParam, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => svc.removeDayOff(ctx, request.params.id, request.params.dayOff));
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/guides/auto-assign/',
    { config: { access: schedule }, schema: { tags, summary: 'Give guides to the open departures of a range of dates (at most 14 days): fewest hours that week first, skipping days off and overlaps', body: ZAutoAssignInput, response: { 200: ZAutoAssignResult, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.autoAssign(ctx, request.body.from, request.body.to)),
  );
  app.get(
    '/api/guides/me/departures/',
    { config: { access: mine }, schema: { tags, summary: 'My departures between two dates (at most a month), each with its manifest', querystring: ZMyDeparturesQuery, response: { 200: ZMyDepartures, ...errors } } },
    (request) => {
      const me = principalOf(request);
      return tenantScope(request, (ctx) => svc.myDepartures(ctx, me.userId, request.query.from, request.query.to, customerVisibility(me.codenames)));
    },
  );
  app.get(
    '/api/start-times/:id/guides/',
    { config: { access: schedule }, schema: { tags, summary: 'A departure’s guides, the seats they can take, and who else could guide it', params: ZIdParam, response: { 200: ZDepartureGuides, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.departureGuides(ctx, request.params.id)),
  );
  app.post(
    '/api/start-times/:id/guides/',
    { config: { access: schedule }, schema: { tags, summary: 'Assign a guide to a departure (409: off that day, or on an overlapping departure, named)', params: ZIdParam, body: ZAssignGuide, response: { 200: ZDepartureGuides, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.assignGuide(ctx, request.params.id, request.body.guide)),
  );
  app.delete(
    '/api/start-times/:id/guides/:guide/',
    { config: { access: schedule }, schema: { tags, summary: 'Take a guide off a departure (409 when the guides left could not take what is booked)', params: ZSlotGuideParam, response: { 200: ZDepartureGuides, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.unassignGuide(ctx, request.params.id, request.params.guide)),
  );
};
