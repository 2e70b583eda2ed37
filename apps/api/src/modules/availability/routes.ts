import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAvailabilityQuery,
  ZBookingConfig,
  ZBookingOptions,
  ZBookingsCalendarDay,
  ZBookingsCalendarQuery,
  ZCapacityByDateQuery,
  ZCapacityCalendarQuery,
  ZCapacitySlot,
  ZCart,
  ZCartLineInput,
  ZClosedDateInput,
  ZDayCapacity,
  ZErrorEnvelope,
  ZHeldLine,
  ZIdParam,
  ZScheduleChange,
  ZScheduleRule,
  ZScheduleRuleInput,
  ZScheduleRuleListQuery,
  ZSlot,
  ZSlotUpdate,
  paginated,
  ZPaginationQuery,
} from '@tourdesk/contracts';
import { paginate } from '../../lib/pagination';
import { plainJson } from '../../lib/plain-json';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { principalOf } from '../auth/principal';
import { manageCatalog, viewCatalog } from '../catalog/access';
import * as capacity from './capacity';
import * as holds from './holds';
import * as schedules from './schedules';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 503: ZErrorEnvelope };
const manageCart: RouteAccess = { permissions: ['Manage cart'], features: ['bookings'] };
const viewBookings: RouteAccess = { permissions: ['View experiences'], features: ['bookings'] };

export const availabilityRoutes: FastifyPluginAsyncZod = async (app) => {
  // --- schedules --------------------------------------------------------------------------
  app.get(
    '/api/schedule-rules/',
    { config: { access: viewCatalog }, schema: { tags: ['schedules'], summary: 'An experience’s recurring rules', querystring: ZScheduleRuleListQuery, response: { 200: z.array(ZScheduleRule), ...errors } } },
    (request) =>
      tenantScope(request, (ctx) => schedules.listRules(ctx, request.query.experience)),
  );
  app.post(
    '/api/schedule-rules/',
    { config: { access: manageCatalog }, schema: { tags: ['schedules'], summary: 'Add a recurring rule; its slots are created at once', body: ZScheduleRuleInput, response: { 201: ZScheduleRule, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await tenantScope(request, (ctx) => schedules.createRule(ctx, request.body))),
  );
  app.put(
    '/api/schedule-rules/:id/',
    { config: { access: manageCatalog }, schema: { tags: ['schedules'], summary: 'Change a rule; slots with bookings are kept, and the answer says how many', params: ZIdParam, body: ZScheduleRuleInput, response: { 200: ZScheduleRule.extend(ZScheduleChange.shape), ...errors } } },
    (request) => tenantScope(request, (ctx) => schedules.replaceRule(ctx, request.params.id, request.body)),
  );
  app.delete(
    '/api/schedule-rules/:id/',
    { config: { access: manageCatalog }, schema: { tags: ['schedules'], summary: 'Remove a rule; slots with bookings are kept (closed), and the answer says how many', params: ZIdParam, response: { 200: ZScheduleChange, ...errors } } },
    (request) => tenantScope(request, (ctx) => schedules.deleteRule(ctx, request.params.id)),
  );
  app.post(
    '/api/closed-dates/',
    { config: { access: manageCatalog }, schema: { tags: ['schedules'], summary: 'Close a date (slots with bookings on it are kept but closed)', body: ZClosedDateInput, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => schedules.closeDate(ctx, request.body));
      return reply.status(204).send();
    },
  );

  // --- availability and capacity ----------------------------------------------------------
  app.get(
    '/api/bookings/check-availability/',
    { config: { access: viewBookings }, schema: { tags: ['availability'], summary: 'Slots of an experience on a date or between two dates, with seats and prices', querystring: ZAvailabilityQuery, response: { 200: z.array(ZSlot), ...errors } } },
    async (request, reply) => {
      // JSON text in the Slot schema (the view slot_api and slotTexts()), sent as it is.
      const json = await capacity.checkAvailability(request.server.database.db, principalOf(request).accountId, request.query);
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );
  app.get(
    '/api/bookings/calendar/',
    {
      config: { access: viewBookings },
      schema: {
        tags: ['availability'],
        summary: 'Per day of an experience: how many slots, seats left, and the best status (for a month calendar)',
        querystring: ZBookingsCalendarQuery,
        response: { 200: z.array(ZBookingsCalendarDay), ...errors },
      },
    },
    (request) => tenantScope(request, (ctx) => capacity.bookingsCalendar(ctx, request.query)),
  );
  app.get(
    '/api/capacity/calendar/',
    {
      config: { access: viewBookings },
      schema: {
        tags: ['availability'],
        summary: 'Per day: capacity, booked, held and remaining seats',
        querystring: ZCapacityCalendarQuery,
        response: { 200: z.array(ZDayCapacity), ...errors },
      },
    },
    (request) => tenantScope(request, (ctx) => capacity.capacityCalendar(ctx, request.query)),
  );
  app.get(
    '/api/capacity/by-date/',
    { config: { access: viewBookings }, schema: { tags: ['availability'], summary: 'Every slot of one day, with its seats', querystring: ZCapacityByDateQuery, response: { 200: z.array(ZCapacitySlot), ...errors } } },
    (request) => tenantScope(request, (ctx) => capacity.slotsOnDay(ctx, request.query.date)),
  );
  app.patch(
    '/api/start-times/:id/',
    { config: { access: manageCatalog }, schema: { tags: ['availability'], summary: 'Change one slot: its capacity (never below booked and held seats), or close and reopen it', params: ZIdParam, body: ZSlotUpdate, response: { 200: ZSlot, ...errors } } },
    (request) => tenantScope(request, (ctx) => capacity.updateSlot(ctx, request.params.id, request.body)),
  );
  app.put(
    '/api/start-times/:id/',
    { config: { access: manageCatalog }, schema: { tags: ['availability'], summary: 'Set one slot’s capacity and closed flag', params: ZIdParam, body: ZSlotUpdate.required(), response: { 200: ZSlot, ...errors } } },
    (request) => tenantScope(request, (ctx) => capacity.updateSlot(ctx, request.params.id, request.body)),
  );

  app.get(
    '/api/bookings/options/',
    { config: { access: viewBookings }, schema: { tags: ['availability'], summary: 'The extras offered with experiences (names, prices) and the booking questions, for selling', response: { 200: ZBookingOptions, ...errors } } },
    (request) => tenantScope(request, (ctx) => capacity.bookingOptions(ctx)),
  );
  app.get(
    '/api/bookings/config/',
    { config: { access: viewBookings }, schema: { tags: ['availability'], summary: 'The organisation’s booking settings', response: { 200: ZBookingConfig, ...errors } } },
    (request) => tenantScope(request, (ctx) => capacity.bookingConfig(ctx)),
  );
  app.patch(
    '/api/bookings/config/',
    {
      config: { access: { permissions: ['Manage account'] } },
      schema: { tags: ['availability'], summary: 'Change the hold time (10 to 60 minutes) and the default cutoff', body: ZBookingConfig.omit({ time_zone: true }).partial(), response: { 200: ZBookingConfig, ...errors } },
    },
    (request) => tenantScope(request, (ctx) => capacity.updateBookingConfig(ctx, request.body)),
  );

  // --- the back-office cart ---------------------------------------------------------------
  app.get(
    '/api/cart/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'Your cart and its holds', response: { 200: ZCart, ...errors } } },
    (request) => tenantScope(request, async (ctx) => holds.readCart(ctx, (await holds.userCart(ctx, principalOf(request).userId)).id)),
  );
  app.get(
    '/api/carts/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'The organisation’s carts that hold seats right now (who holds what), newest first', querystring: ZPaginationQuery, response: { 200: paginated(ZCart), ...errors } } },
    (request) => tenantScope(request, (ctx) => paginate(request, request.query, () => holds.countCarts(ctx), (limit, offset) => holds.pageCarts(ctx, limit, offset))),
  );
  app.get(
    '/api/carts/:id/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'One cart with its unexpired lines', params: ZIdParam, response: { 200: ZCart, ...errors } } },
    (request) => tenantScope(request, (ctx) => holds.getCart(ctx, request.params.id)),
  );
  app.post(
    '/api/cart/lines/',
    {
      config: { access: manageCart },
      schema: { tags: ['cart'], summary: 'Hold seats in a slot for a new line of your cart (409 when sold out); answers with the line', body: ZCartLineInput, response: { 201: ZHeldLine, ...errors } },
      ...plainJson,
    },
    async (request, reply) => reply.status(201).send(await request.server.holds.hold(principalOf(request), request.body.slot, request.body)),
  );
  app.patch(
    '/api/cart/lines/:id/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'Change a held line (capacity is checked again)', params: ZIdParam, body: ZCartLineInput.omit({ slot: true }), response: { 200: ZCart, ...errors } }, ...plainJson },
    (request) =>
      holds.changeHold(request.server.database.db, principalOf(request), request.params.id, request.body),
  );
  app.delete(
    '/api/cart/lines/:id/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'Release a held line', params: ZIdParam, response: { 200: ZCart, ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const c = await holds.userCart(ctx, principalOf(request).userId);
        await holds.releaseLine(ctx, c.id, request.params.id);
        return holds.readCart(ctx, c.id);
      }),
  );
};
