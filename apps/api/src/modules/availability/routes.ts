import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAttendanceInput,
  ZAvailabilityQuery,
  ZBooking,
  ZBookingConfig,
  ZCart,
  ZCartLineInput,
  ZCheckIn,
  ZCheckoutInput,
  ZClosedDateInput,
  ZErrorEnvelope,
  ZIdParam,
  ZOrder,
  ZScheduleRule,
  ZScheduleRuleInput,
  ZSlot,
  ZSlotUpdate,
  BOOKING_STATUS_FILTERS,
  paginated,
  ZPaginationQuery,
  type TScheduleRule,
} from '@tourdesk/contracts';
import { paginate } from '../../lib/pagination';
import { baseAccount, cartLine, closedDate, experience, scheduleRule, slot } from '../../db/schema';
import type { RouteAccess } from '../../lib/access';
import { tenantScope, type TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { addDays } from '../../lib/local-time';
import { principalOf } from '../auth/principal';
import { manageCatalog, viewCatalog } from '../catalog/access';
import * as holds from './holds';
import { accountSettings, availability, heldBySlot, lockSlot, present, pricesOn, regenerateSlots } from './slots';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 503: ZErrorEnvelope };
const manageOrders: RouteAccess = { permissions: ['Manage orders'], features: ['bookings'] };
const manageCart: RouteAccess = { permissions: ['Manage cart'], features: ['bookings'] };
const viewBookings: RouteAccess = { permissions: ['View experiences'], features: ['bookings'] };

const presentRule = (r: typeof scheduleRule.$inferSelect): TScheduleRule => ({
  id: r.id,
  experience: r.experience_id,
  kind: r.kind as TScheduleRule['kind'],
  valid_from: r.valid_from,
  valid_to: r.valid_to,
  weekdays: r.weekdays,
  start_times: r.start_times,
  closing_time: r.closing_time,
  capacity: r.capacity,
});

async function experienceOr400(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select({ id: experience.id }).from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, id)));
  if (!row) throw new AppError('invalid', 'No experience with this id in your organisation.', 'experience');
}

export const availabilityRoutes: FastifyPluginAsyncZod = async (app) => {
  // --- schedules --------------------------------------------------------------------------
  app.get(
    '/api/schedule-rules/',
    { config: { access: viewCatalog }, schema: { tags: ['schedules'], summary: 'An experience’s recurring rules', querystring: z.object({ experience: z.uuid() }), response: { 200: z.array(ZScheduleRule), ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) =>
        (await ctx.tx.select().from(scheduleRule).where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.experience_id, request.query.experience))).orderBy(asc(scheduleRule.valid_from))).map(presentRule),
      ),
  );
  app.post(
    '/api/schedule-rules/',
    { config: { access: manageCatalog }, schema: { tags: ['schedules'], summary: 'Add a recurring rule; its slots are created at once', body: ZScheduleRuleInput, response: { 201: ZScheduleRule, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(
        await tenantScope(request, async (ctx) => {
          const b = request.body;
          await experienceOr400(ctx, b.experience);
          const [row] = await ctx.tx
            .insert(scheduleRule)
            .values({ account_id: ctx.accountId, experience_id: b.experience, kind: b.kind, valid_from: b.valid_from, valid_to: b.valid_to, weekdays: b.weekdays, start_times: [...new Set(b.start_times)].sort(), closing_time: b.closing_time, capacity: b.capacity })
            .returning();
          await regenerateSlots(ctx, b.experience);
          return presentRule(row!);
        }),
      ),
  );
  app.put(
    '/api/schedule-rules/:id/',
    { config: { access: manageCatalog }, schema: { tags: ['schedules'], summary: 'Change a rule (slots with bookings are kept)', params: ZIdParam, body: ZScheduleRuleInput, response: { 200: ZScheduleRule, ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const b = request.body;
        const [row] = await ctx.tx
          .update(scheduleRule)
          .set({ kind: b.kind, valid_from: b.valid_from, valid_to: b.valid_to, weekdays: b.weekdays, start_times: [...new Set(b.start_times)].sort(), closing_time: b.closing_time, capacity: b.capacity, updated_at: new Date() })
          .where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.id, request.params.id), eq(scheduleRule.experience_id, b.experience)))
          .returning();
        if (!row) throw notFound('No schedule rule with this id.');
        await regenerateSlots(ctx, row.experience_id);
        return presentRule(row);
      }),
  );
  app.delete(
    '/api/schedule-rules/:id/',
    { config: { access: manageCatalog }, schema: { tags: ['schedules'], summary: 'Remove a rule (slots with bookings are kept)', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, async (ctx) => {
        const [row] = await ctx.tx.delete(scheduleRule).where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.id, request.params.id))).returning();
        if (!row) throw notFound('No schedule rule with this id.');
        await regenerateSlots(ctx, row.experience_id);
      });
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/closed-dates/',
    { config: { access: manageCatalog }, schema: { tags: ['schedules'], summary: 'Close a date (slots with bookings on it are kept but closed)', body: ZClosedDateInput, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, async (ctx) => {
        await experienceOr400(ctx, request.body.experience);
        await ctx.tx.insert(closedDate).values({ account_id: ctx.accountId, experience_id: request.body.experience, date: request.body.date, reason: request.body.reason }).onConflictDoNothing();
        await regenerateSlots(ctx, request.body.experience);
      });
      return reply.status(204).send();
    },
  );

  // --- availability and capacity ----------------------------------------------------------
  app.get(
    '/api/bookings/check-availability/',
    { config: { access: viewBookings }, schema: { tags: ['availability'], summary: 'Slots of an experience on a date or between two dates, with seats and prices', querystring: ZAvailabilityQuery, response: { 200: z.array(ZSlot), ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const q = request.query;
        const from = q.date ?? q.from;
        const to = q.date ?? q.to ?? (from ? addDays(from, 31) : undefined);
        if (!from || !to) throw new AppError('invalid', 'Give a date, or from and to.', 'date');
        if (addDays(from, 93) < to) throw new AppError('invalid', 'Ask for at most three months at a time.', 'to');
        return availability(ctx, q.experience, from, to);
      }),
  );
  app.get(
    '/api/bookings/calendar/',
    {
      config: { access: viewBookings },
      schema: {
        tags: ['availability'],
        summary: 'Per day of an experience: how many slots, seats left, and the best status (for a month calendar)',
        querystring: z.object({ experience: z.uuid(), from: z.iso.date(), to: z.iso.date() }),
        response: { 200: z.array(z.object({ date: z.string(), slots: z.number().int(), remaining: z.number().int(), status: z.enum(['available', 'limited', 'sold_out', 'closed']) })), ...errors },
      },
    },
    (request) =>
      tenantScope(request, async (ctx) => {
        const q = request.query;
        if (addDays(q.from, 93) < q.to) throw new AppError('invalid', 'Ask for at most three months at a time.', 'to');
        const slots = await availability(ctx, q.experience, q.from, q.to);
        const days = new Map<string, { date: string; slots: number; remaining: number; status: 'available' | 'limited' | 'sold_out' | 'closed' }>();
        const rank = { available: 3, limited: 2, sold_out: 1, closed: 0 } as const;
        for (const s of slots) {
          const day = days.get(s.local_date) ?? { date: s.local_date, slots: 0, remaining: 0, status: 'closed' as const };
          day.slots += 1;
          day.remaining += s.bookable ? s.remaining : 0;
          if (rank[s.status] > rank[day.status]) day.status = s.status;
          days.set(s.local_date, day);
        }
        return [...days.values()];
      }),
  );
  app.get(
    '/api/capacity/calendar/',
    {
      config: { access: viewBookings },
      schema: {
        tags: ['availability'],
        summary: 'Per day: capacity, booked, held and remaining seats',
        querystring: z.object({ from: z.iso.date(), to: z.iso.date(), experience: z.uuid().optional() }),
        response: { 200: z.array(z.object({ date: z.string(), slots: z.number().int(), capacity: z.number().int(), booked: z.number().int(), held: z.number().int(), remaining: z.number().int() })), ...errors },
      },
    },
    (request) =>
      tenantScope(request, async (ctx) => {
        const q = request.query;
        if (addDays(q.from, 93) < q.to) throw new AppError('invalid', 'Ask for at most three months at a time.', 'to');
        const rows = (await ctx.tx.execute(sql`
          select s.local_date::text as date, count(*)::int as slots, sum(s.capacity)::int as capacity, sum(s.booked)::int as booked,
                 coalesce(sum(h.seats), 0)::int as held
          from ${slot} s
          left join lateral (select sum(l.seats) as seats from ${cartLine} l where l.slot_id = s.id and l.expires_at > now()) h on true
          where s.account_id = ${ctx.accountId} and s.local_date between ${q.from} and ${q.to} and not s.closed
            ${q.experience ? sql`and s.experience_id = ${q.experience}` : sql``}
          group by s.local_date order by s.local_date`)) as unknown as { rows: { date: string; slots: number; capacity: number; booked: number; held: number }[] };
        return rows.rows.map((r) => ({ ...r, remaining: Math.max(0, r.capacity - r.booked - r.held) }));
      }),
  );
  app.get(
    '/api/capacity/by-date/',
    { config: { access: viewBookings }, schema: { tags: ['availability'], summary: 'Every slot of one day, with its seats', querystring: z.object({ date: z.iso.date() }), response: { 200: z.array(ZSlot.extend({ experience_title: z.string() })), ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const settings = await accountSettings(ctx.tx, ctx.accountId);
        const rows = await ctx.tx
          .select({ s: slot, title: experience.title, status: experience.status })
          .from(slot)
          .innerJoin(experience, eq(experience.id, slot.experience_id))
          .where(and(eq(slot.account_id, ctx.accountId), eq(slot.local_date, request.query.date)))
          .orderBy(asc(slot.starts_at));
        const held = await heldBySlot(ctx.tx, rows.map((r) => r.s.id));
        return rows.map((r) => ({ ...present(r.s, held.get(r.s.id) ?? 0, settings.time_zone, r.status === 'Active' && r.s.starts_at.getTime() > Date.now(), []), experience_title: r.title }));
      }),
  );
  app.patch(
    '/api/start-times/:id/',
    { config: { access: manageCatalog }, schema: { tags: ['availability'], summary: 'Change one slot: its capacity (never below booked and held seats), or close and reopen it', params: ZIdParam, body: ZSlotUpdate, response: { 200: ZSlot, ...errors } } },
    (request) => updateSlot(request),
  );
  app.put(
    '/api/start-times/:id/',
    { config: { access: manageCatalog }, schema: { tags: ['availability'], summary: 'Set one slot’s capacity and closed flag', params: ZIdParam, body: ZSlotUpdate.required(), response: { 200: ZSlot, ...errors } } },
    (request) => updateSlot(request),
  );
  function updateSlot(request: Parameters<typeof tenantScope>[0]) {
    return tenantScope(request, async (ctx) => {
      const { id } = request.params as { id: string };
      const body = request.body as z.infer<typeof ZSlotUpdate>;
      const s = await lockSlot(ctx, id);
      const held = (await heldBySlot(ctx.tx, [s.id])).get(s.id) ?? 0;
      if (body.capacity !== undefined && body.capacity < s.booked + held) {
        throw new AppError('invalid', `${s.booked + held} seat${s.booked + held === 1 ? ' is' : 's are'} booked or held: the capacity cannot be lower.`, 'capacity');
      }
      const [row] = await ctx.tx.update(slot).set({ ...body, updated_at: new Date() }).where(eq(slot.id, s.id)).returning();
      const settings = await accountSettings(ctx.tx, ctx.accountId);
      const prices = (await pricesOn(ctx.tx, ctx.accountId, row!.experience_id, [row!.local_date])).get(row!.local_date) ?? [];
      return present(row!, held, settings.time_zone, row!.starts_at.getTime() > Date.now(), prices);
    });
  }

  app.get(
    '/api/bookings/config/',
    { config: { access: viewBookings }, schema: { tags: ['availability'], summary: 'The organisation’s booking settings', response: { 200: ZBookingConfig, ...errors } } },
    (request) => tenantScope(request, async (ctx) => {
      const s = await accountSettings(ctx.tx, ctx.accountId);
      return { hold_minutes: s.hold_minutes, default_cutoff_minutes: s.default_cutoff_minutes, time_zone: s.time_zone };
    }),
  );
  app.patch(
    '/api/bookings/config/',
    {
      config: { access: { permissions: ['Manage account'] } },
      schema: { tags: ['availability'], summary: 'Change the hold time (10 to 60 minutes) and the default cutoff', body: ZBookingConfig.omit({ time_zone: true }).partial(), response: { 200: ZBookingConfig, ...errors } },
    },
    (request) =>
      tenantScope(request, async (ctx) => {
        await ctx.tx.update(baseAccount).set({ ...request.body, updated_at: new Date() }).where(eq(baseAccount.id, ctx.accountId));
        const s = await accountSettings(ctx.tx, ctx.accountId);
        return { hold_minutes: s.hold_minutes, default_cutoff_minutes: s.default_cutoff_minutes, time_zone: s.time_zone };
      }),
  );

  // --- the back-office cart ---------------------------------------------------------------
  app.get(
    '/api/cart/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'Your cart and its holds', response: { 200: ZCart, ...errors } } },
    (request) => tenantScope(request, async (ctx) => holds.presentCart(ctx, (await holds.userCart(ctx, principalOf(request).userId)).id)),
  );
  app.post(
    '/api/cart/lines/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'Hold seats in a slot (409 when sold out)', body: ZCartLineInput, response: { 200: ZCart, ...errors } } },
    async (request) => {
      // The hold commits first (releasing the slot's lock); the cart is read afterwards.
      const cartId = await tenantScope(request, async (ctx) => {
        const c = await holds.userCart(ctx, principalOf(request).userId);
        await holds.holdSeats(ctx, c.id, request.body);
        return c.id;
      });
      return tenantScope(request, (ctx) => holds.presentCart(ctx, cartId));
    },
  );
  app.patch(
    '/api/cart/lines/:id/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'Change a held line (capacity is checked again)', params: ZIdParam, body: ZCartLineInput.omit({ slot: true }), response: { 200: ZCart, ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const c = await holds.userCart(ctx, principalOf(request).userId);
        const [line] = await ctx.tx.select().from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, c.id), eq(cartLine.id, request.params.id)));
        if (!line) throw notFound('No such line in your cart.');
        await holds.holdSeats(ctx, c.id, { slot: line.slot_id, quantities: request.body.quantities, extras: request.body.extras }, line.id);
        return holds.presentCart(ctx, c.id);
      }),
  );
  app.delete(
    '/api/cart/lines/:id/',
    { config: { access: manageCart }, schema: { tags: ['cart'], summary: 'Release a held line', params: ZIdParam, response: { 200: ZCart, ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const c = await holds.userCart(ctx, principalOf(request).userId);
        const deleted = await ctx.tx.delete(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, c.id), eq(cartLine.id, request.params.id))).returning();
        if (!deleted.length) throw notFound('No such line in your cart.');
        return holds.presentCart(ctx, c.id);
      }),
  );
  app.post(
    '/api/cart/checkout/',
    { config: { access: manageOrders }, schema: { tags: ['cart'], summary: 'Book every held line: an order with one booking per line, all or none', body: ZCheckoutInput, response: { 201: ZOrder, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(
        await tenantScope(request, async (ctx) => {
          const me = principalOf(request);
          const c = await holds.userCart(ctx, me.userId);
          return holds.checkout(ctx, c.id, me.userId, request.body);
        }),
      ),
  );

  // --- bookings ---------------------------------------------------------------------------
  app.get(
    '/api/bookings/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['bookings'],
        summary: 'Bookings, filtered by status (Confirmed, In progress, Canceled, Completed), dates, offer and search',
        querystring: ZPaginationQuery.extend({
          status: z.enum(BOOKING_STATUS_FILTERS).optional(),
          from: z.iso.date().optional(),
          to: z.iso.date().optional(),
          experience: z.uuid().optional(),
          search: z.string().trim().max(100).optional(),
        }),
        response: { 200: paginated(ZBooking), ...errors },
      },
    },
    (request) =>
      tenantScope(request, (ctx) =>
        paginate(
          request,
          request.query,
          () => holds.countBookingsWhere(ctx, request.query),
          (limit, offset) => holds.pageBookings(ctx, request.query, limit, offset),
        ),
      ),
  );
  app.get(
    '/api/bookings/by-date/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'The manifest of a day or a slot', querystring: z.object({ date: z.iso.date().optional(), slot: z.uuid().optional() }), response: { 200: z.array(ZBooking), ...errors } } },
    (request) =>
      tenantScope(request, (ctx) => {
        if (!request.query.date && !request.query.slot) throw new AppError('invalid', 'Give a date or a slot.', 'date');
        return holds.listBookings(ctx, request.query);
      }),
  );
  app.get(
    '/api/bookings/:id/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'One booking', params: ZIdParam, response: { 200: ZBooking, ...errors } } },
    (request) => tenantScope(request, (ctx) => holds.getBooking(ctx, request.params.id)),
  );
  app.post(
    '/api/bookings/:id/cancel/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'Cancel a booking: its seats are released at once', params: ZIdParam, response: { 200: ZBooking, ...errors } } },
    (request) => tenantScope(request, (ctx) => holds.cancelBooking(ctx, request.params.id)),
  );
  app.patch(
    '/api/bookings/:id/attendance/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'Open, Arrived or No show (and back)', params: ZIdParam, body: ZAttendanceInput, response: { 200: ZBooking, ...errors } } },
    (request) => tenantScope(request, (ctx) => holds.setAttendance(ctx, request.params.id, request.body.attendance)),
  );
  app.post(
    '/api/bookings/check-in/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'Scan a ticket: marks the booking Arrived', body: ZCheckIn, response: { 200: ZBooking, ...errors } } },
    (request) => tenantScope(request, async (ctx) => holds.checkIn(ctx, request.body.ticket_code, (await accountSettings(ctx.tx, ctx.accountId)).time_zone)),
  );
  app.get(
    '/api/orders/:id/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'One order with its bookings', params: ZIdParam, response: { 200: ZOrder, ...errors } } },
    (request) => tenantScope(request, (ctx) => holds.presentOrder(ctx, request.params.id)),
  );
};

