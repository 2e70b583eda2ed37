import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  paginated,
  slotIds,
  ZBooking,
  ZCheckIn,
  ZCheckInBatch,
  ZCheckInBatchResult,
  ZCheckInDepartures,
  ZCheckInDeparturesQuery,
  ZCheckInTicket,
  ZCheckInTicketsQuery,
  ZCheckInUndo,
  ZErrorEnvelope,
  ZIdParam,
} from '@tourdesk/contracts';
import type { FastifyRequest } from 'fastify';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import { getBooking } from '../orders/booking-rows';
import * as checkIn from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 503: ZErrorEnvelope };
/**
 * Door staff: any role that holds View experiences (the demo's Guide) may check in. What they see
 * of a customer beyond the name depends on their role (see service.ts); admitting a ticket of
 * another departure needs Manage orders.
 */
const atTheDoor: RouteAccess = { permissions: ['View experiences'], features: ['bookings'] };
const viewer = (request: FastifyRequest): checkIn.Viewer => {
  const me = principalOf(request);
  return { userId: me.userId, codenames: me.codenames, timeZone: me.timeZone, timeFormat: me.timeFormat };
};

export const checkInRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/check-in/departures/',
    {
      config: { access: atTheDoor },
      schema: {
        tags: ['check-in'],
        summary: "The departures of a local day (today in the organisation's zone by default) that have bookings, with how many arrived",
        querystring: ZCheckInDeparturesQuery,
        response: { 200: ZCheckInDepartures, ...errors },
      },
    },
    (request) => tenantScope(request, (ctx) => checkIn.departures(ctx, viewer(request), request.query.date)),
  );
  app.get(
    '/api/check-in/tickets/',
    {
      config: { access: atTheDoor },
      schema: {
        tags: ['check-in'],
        summary: 'The tickets of some departures (`slots`, comma-separated), every status, for a device to keep and decide scans offline',
        querystring: ZCheckInTicketsQuery,
        response: { 200: paginated(ZCheckInTicket), ...errors },
      },
    },
    (request) =>
      tenantScope(request, (ctx) => {
        const slots = slotIds(request.query.slots);
        return paginate(
          request,
          request.query,
          () => checkIn.countTickets(ctx, slots),
          (limit, offset) => checkIn.ticketPage(ctx, viewer(request), slots, limit, offset),
        );
      }),
  );
  app.post(
    '/api/check-in/scans/',
    {
      config: { access: atTheDoor },
      schema: {
        tags: ['check-in'],
        summary:
          "A device's scans (each with the device's own id and the time it was read; a batch sent again changes nothing): the first scan of a ticket admits it, later ones are told when and by whom",
        body: ZCheckInBatch,
        response: { 200: ZCheckInBatchResult, ...errors },
      },
    },
    (request) => tenantScope(request, async (ctx) => ({ results: await checkIn.scanBatch(ctx, viewer(request), request.body) })),
  );
  app.post(
    '/api/check-in/tickets/:id/undo/',
    {
      config: { access: atTheDoor },
      schema: { tags: ['check-in'], summary: 'Undo a check-in (attendance back to Open), with the reason in the audit trail', params: ZIdParam, body: ZCheckInUndo, response: { 200: ZCheckInTicket, ...errors } },
    },
    (request) => tenantScope(request, (ctx) => checkIn.undo(ctx, viewer(request), request.params.id, request.body.reason)),
  );
  app.post(
    '/api/bookings/check-in/',
    {
      config: { access: { permissions: ['Manage orders'], features: ['bookings'] } },
      schema: { tags: ['bookings'], summary: 'Scan a ticket in the back office: marks the booking Arrived (the check-in settlement, any departure)', body: ZCheckIn, response: { 200: ZBooking, ...errors } },
    },
    (request) => tenantScope(request, async (ctx) => getBooking(ctx, await checkIn.checkInCode(ctx, viewer(request), request.body.ticket_code, request.body.override))),
  );
};
