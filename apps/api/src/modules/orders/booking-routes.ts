import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAttendanceInput, ZBooking, ZBookingFilters, ZBookingListQuery, ZBookingManifestQuery, ZCheckoutInput, ZErrorEnvelope, ZIdempotencyHeaders, ZIdParam, ZOrder, ZPromoPreview, ZPromoTry, ZVoucherPreview, ZVoucherTry, paginated, toMajorText, type TBooking } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { listCsv, sendCsv } from '../../lib/list-export';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import * as holds from '../availability/holds';
import { mailTickets } from '../order-mail/service';
import { QUEUES } from '../../lib/jobs';
import * as rows from './booking-rows';
import { presentOrder } from './records';
import * as bookings from './bookings';
import { idempotent } from './idempotency-routes';
import { redeemVoucher, voucherPreview } from '../gift-vouchers/service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 422: ZErrorEnvelope, 503: ZErrorEnvelope };
const manageOrders: RouteAccess = { permissions: ['Manage orders'], features: ['bookings'] };

/** Checkout of the user's cart, and the bookings it makes (list, manifest, cancel, attendance; check-in is the check-in module's). */

export const bookingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/cart/checkout/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['cart'],
        summary: 'Book the cart lines shown (`lines`), an order with one booking per line, all or none; a line whose hold ran out is re-held or refused with a 409 naming it (Idempotency-Key honoured); `send_confirmation` e-mails the customer the confirmation and tickets',
        headers: ZIdempotencyHeaders,
        body: ZCheckoutInput,
        response: { 201: ZOrder, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await tenantScope(request, (ctx) => {
        const me = principalOf(request);
        return idempotent(ctx, request, reply, 'cart:checkout', 201, async () => {
          const order = await bookings.checkout(ctx, (await holds.userCart(ctx, me.userId)).id, me.userId, request.body);
          // A gift voucher pays part or all of it in the same transaction (refused: nothing is sold).
          if (request.body.voucher_code) await redeemVoucher(ctx, { orderId: order, code: request.body.voucher_code, amount: request.body.voucher_amount });
          // The confirmation is queued with the sale (the outbox), so a retried submission sends it once.
          if (request.body.send_confirmation) await mailTickets(ctx, request.server.jobs, order, { again: false });
          return presentOrder(ctx, order);
        });
      });
      if (request.body.send_confirmation) request.server.jobs.wake(QUEUES.orderMail);
      return answer;
    },
  );

  app.post(
    '/api/cart/promo-code/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['cart'],
        summary: 'What a promo code would take off the cart lines (`lines`, else those held), with its VAT per rate; refused (promo_* on `promo_code`) with why. The checkout applies it with `promo_code`',
        body: ZPromoTry,
        response: { 200: ZPromoPreview, ...errors },
      },
    },
    (request) =>
      tenantScope(request, async (ctx) => {
        const me = principalOf(request);
        return bookings.promoPreview(ctx, (await holds.userCart(ctx, me.userId)).id, { ...request.body, storeId: null });
      }),
  );

  app.post(
    '/api/cart/voucher/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['cart'],
        summary: 'A gift voucher’s balance and expiry, and what it would pay of the cart lines (`lines`, else those held; after `promo_code`); refused (voucher_* on `voucher_code`) with why. The checkout spends it with `voucher_code`',
        body: ZVoucherTry,
        response: { 200: ZVoucherPreview, ...errors },
      },
    },
    (request) =>
      tenantScope(request, async (ctx) => {
        const me = principalOf(request);
        const due = await bookings.cartDue(ctx, (await holds.userCart(ctx, me.userId)).id, { ...request.body, storeId: null });
        return voucherPreview(ctx, request.body.code, due);
      }),
  );

  // --- bookings ---------------------------------------------------------------------------
  app.get(
    '/api/bookings/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['bookings'],
        summary: 'Bookings, filtered by status (Confirmed, In progress, Canceled, Completed), dates, offer and search',
        querystring: ZBookingListQuery,
        response: { 200: paginated(ZBooking), ...errors },
      },
    },
    (request) =>
      tenantScope(request, (ctx) =>
        paginate(
          request,
          request.query,
          () => rows.countBookingsWhere(ctx, request.query),
          (limit, offset) => rows.pageBookings(ctx, request.query, limit, offset),
        ),
      ),
  );
  app.get(
    '/api/bookings/export.csv',
    {
      config: { access: manageOrders },
      schema: { tags: ['bookings'], summary: 'The filtered bookings as CSV (what the list shows, every page)', querystring: ZBookingFilters, response: { 200: z.string(), ...errors } },
    },
    async (request, reply) => {
      const body = await tenantScope(request, (ctx) =>
        listCsv<TBooking>(
          [
            { header: 'starts_at', value: (b) => b.starts_at },
            { header: 'offer', value: (b) => b.experience_title },
            { header: 'order', value: (b) => b.order_reference },
            { header: 'ticket', value: (b) => b.ticket_code },
            { header: 'guest', value: (b) => `${b.customer.first_name} ${b.customer.last_name}`.trim() },
            { header: 'email', value: (b) => b.customer.email },
            { header: 'seats', value: (b) => b.seats },
            { header: 'items', value: (b) => b.items.map((i) => `${i.quantity} ${i.label}`).join('; ') },
            { header: 'status', value: (b) => b.status },
            { header: 'attendance', value: (b) => (b.status === 'Canceled' ? '' : b.attendance) },
            { header: 'currency', value: (b) => b.currency },
            { header: 'total', value: (b) => ({ amount: toMajorText(b.total, b.currency) }) },
          ],
          (limit, offset) => rows.pageBookings(ctx, request.query, limit, offset),
        ),
        { snapshot: true },
      );
      return sendCsv(reply, 'bookings', body);
    },
  );
  app.get(
    '/api/bookings/by-date/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'The manifest of a day or a slot', querystring: ZBookingManifestQuery, response: { 200: z.array(ZBooking), ...errors } } },
    (request) =>
      tenantScope(request, (ctx) => {
        if (!request.query.date && !request.query.slot) throw new AppError('invalid', 'Give a date or a slot.', 'date');
        return rows.listBookings(ctx, request.query);
      }),
  );
  app.get(
    '/api/bookings/:id/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'One booking', params: ZIdParam, response: { 200: ZBooking, ...errors } } },
    (request) => tenantScope(request, (ctx) => rows.getBooking(ctx, request.params.id)),
  );
  app.post(
    '/api/bookings/:id/cancel/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'Cancel a booking: its seats are released at once', params: ZIdParam, response: { 200: ZBooking, ...errors } } },
    (request) => tenantScope(request, (ctx) => bookings.cancelBooking(ctx, request.params.id)),
  );
  app.patch(
    '/api/bookings/:id/attendance/',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'Open, Arrived or No show (and back)', params: ZIdParam, body: ZAttendanceInput, response: { 200: ZBooking, ...errors } } },
    (request) => tenantScope(request, (ctx) => bookings.setAttendance(ctx, request.params.id, request.body.attendance)),
  );
};
