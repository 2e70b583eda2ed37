import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  seatsForSale,
  ZErrorEnvelope,
  ZOctoAvailability,
  ZOctoAvailabilityBody,
  ZOctoBooking,
  ZOctoBookingParams,
  ZOctoBookingsQuery,
  ZOctoCalendarBody,
  ZOctoCalendarDay,
  ZOctoCancelBody,
  ZOctoConfirmBody,
  ZOctoError,
  ZOctoExtendBody,
  ZOctoProduct,
  ZOctoProductParams,
  ZOctoReservationBody,
  ZOctoSupplier,
  ZOctoUpdateBody,
  ZPublicAvailability,
  ZPublicAvailabilityQuery,
  ZPublicBookInput,
  ZPublicCancelInput,
  ZPublicReservation,
  ZPublicReserveInput,
} from '@tourdesk/contracts';
import { AppError, fromDatabase } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import { QUEUES } from '../../lib/jobs';
import { queueOrderMail } from '../order-mail/service';
import { authenticatePartner, KeyRefused, type Partner } from './auth';
import { OctoError } from './errors';
import { availability, availabilityText } from './availability';
import { bookingOf, calendarOf, productOf, supplierOf } from './present';
import * as svc from './service';

/**
 * The partner APIs, one implementation (service.ts) in two shapes:
 * - OCTO (octo.travel core + octo/pricing) at /octo/v1: OCTO's paths, with or without a trailing
 *   slash; errors as OCTO defines them (HTTP 400 `{ error, errorMessage, <id field> }`; 401/403 for
 *   keys, which also carry the product's envelope fields).
 * - The public booking API at /api/public/ (the spec's get-availabilities, reserve, book,
 *   cancel-reservation, cancel-booking), in the product's envelope.
 * Both authenticate a partner's API key on every call (auth.ts) and work in the supplier's tenant.
 */

declare module 'fastify' {
  interface FastifyRequest {
    partner?: Partner;
  }
}

const access = { access: { public: true as const, reason: 'a partner’s API key (Authorization: Bearer), checked by the module' } };
const deps = (request: FastifyRequest): svc.Deps => ({
  db: request.server.database.db,
  holds: request.server.holds,
  jobs: request.server.jobs,
  askForAnswers: async (tx, job) => {
    await queueOrderMail(request.server.jobs, tx, { ...job, kind: 'answers', subject: 'Booking questions' });
    request.server.jobs.wake(QUEUES.orderMail);
  },
});
const partnerOf = (request: FastifyRequest) => request.partner!;
const capabilities = (request: FastifyRequest) =>
  String(request.headers['octo-capabilities'] ?? '')
    .split(',')
    .map((c) => c.trim());
const wantsPricing = (request: FastifyRequest) => capabilities(request).includes('octo/pricing');
/** OCTO's content capability: the products' texts (title, descriptions, features) in the language negotiated. */
const wantsContent = (request: FastifyRequest) => capabilities(request).includes('octo/content');
/** OCTO's questions capability: the options' booking questions, answers taken on reserve, change and confirm, and shown on bookings. */
const wantsQuestions = (request: FastifyRequest) => capabilities(request).includes('octo/questions');
/** The capabilities a call used, as the answer's Octo-Capabilities names them. */
const usedCapabilities = (request: FastifyRequest) => ['octo/pricing', ...(wantsContent(request) ? ['octo/content'] : []), ...(wantsQuestions(request) ? ['octo/questions'] : [])].join(', ');
const acceptLanguage = (request: FastifyRequest) => request.headers['accept-language'];
/** The language of a call's content, answered as Content-Language (and Vary). */
function contentLanguage(request: FastifyRequest, reply: FastifyReply) {
  const language = svc.partnerLanguage(partnerOf(request), acceptLanguage(request));
  reply.header('content-language', language).header('vary', 'Accept-Language');
  return language;
}

async function authenticate(request: FastifyRequest) {
  request.partner = await authenticatePartner(request);
}

// --- OCTO ----------------------------------------------------------------------------------------

function octoErrorHandler(thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const error = fromDatabase(thrown) ?? thrown;
  if (error instanceof OctoError) return reply.status(400).send(error.body());
  if (error instanceof KeyRefused) {
    if (error.retryAfter) reply.header('retry-after', String(error.retryAfter));
    const code = error.status === 401 ? 'not_authenticated' : error.status === 403 ? 'permission_denied' : 'throttled';
    return reply.status(error.status).send({ error: error.code, errorMessage: error.message, type: 'client_error', errors: [{ code, detail: error.message, attr: null }] });
  }
  const validation = (error as FastifyError).validation;
  if (validation?.length || (error as FastifyError).code === 'FST_ERR_VALIDATION') {
    const first = validation?.[0] as { instancePath?: string; message?: string } | undefined;
    const at = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.') ?? '';
    return reply.status(400).send({ error: 'BAD_REQUEST', errorMessage: `${at ? `${at}: ` : ''}${first?.message ?? (error as Error).message}` });
  }
  if (error instanceof AppError) {
    if (error.status >= 500) return reply.status(error.status).send({ error: 'INTERNAL_SERVER_ERROR', errorMessage: error.message });
    return reply.status(400).send({ error: 'BAD_REQUEST', errorMessage: error.items[0]?.detail ?? error.message });
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) return reply.status(400).send({ error: 'BAD_REQUEST', errorMessage: (error as Error).message });
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ error: 'INTERNAL_SERVER_ERROR', errorMessage: 'Something went wrong on our side.' });
}

const octoErrors = { 400: ZOctoError, 401: ZOctoError, 403: ZOctoError, 429: ZOctoError };
const tags = ['octo'];
const uuidOf = (request: FastifyRequest) => {
  const uuid = (request.params as { uuid: string }).uuid;
  if (!svc.bookingUuidOk(uuid)) throw new OctoError('INVALID_BOOKING_UUID', 'No booking with this UUID.', uuid, 'uuid');
  return uuid;
};

export const octoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(octoErrorHandler);
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: 'NOT_FOUND', errorMessage: `${request.method} ${request.url.split('?')[0]} is not implemented.` }));
  app.addHook('onRequest', authenticate);
  app.addHook('onSend', async (request, reply) => {
    reply.header('octo-capabilities', usedCapabilities(request));
  });
  /** Each path with and without its trailing slash (OCTO's clients send none); the twin is hidden from the document. */
  const both = (method: 'GET' | 'POST' | 'PATCH', path: string, opts: { config: typeof access; schema: Record<string, unknown> }, handler: (request: FastifyRequest, reply: FastifyReply) => unknown) => {
    app.route({ method, url: path, config: opts.config, schema: opts.schema, handler } as never);
    app.route({ method, url: `${path}/`, config: opts.config, schema: { ...opts.schema, hide: true }, handler } as never);
  };

  both('GET', '/supplier', { config: access, schema: { tags, summary: 'OCTO: the supplier', response: { 200: ZOctoSupplier, ...octoErrors } } }, async (request) =>
    supplierOf(partnerOf(request), `${tenantOrigin(request.server.config, partnerOf(request).supplierSubdomain)}/octo/v1`),
  );
  both('GET', '/products', { config: access, schema: { tags, summary: 'OCTO: the products the contract shares', response: { 200: z.array(ZOctoProduct), ...octoErrors } } }, async (request, reply) => {
    const p = partnerOf(request);
    const language = contentLanguage(request, reply);
    return (await svc.listProducts(deps(request), p, language)).map((v) => productOf(p, v, wantsPricing(request), wantsContent(request), wantsQuestions(request), tenantOrigin(request.server.config, p.supplierSubdomain)));
  });
  both('GET', '/products/:id', { config: access, schema: { tags, summary: 'OCTO: one product (INVALID_PRODUCT_ID when not shared)', params: ZOctoProductParams, response: { 200: ZOctoProduct, ...octoErrors } } }, async (request, reply) => {
    const p = partnerOf(request);
    const language = contentLanguage(request, reply);
    return productOf(p, await svc.getProduct(deps(request), p, (request.params as { id: string }).id, language), wantsPricing(request), wantsContent(request), wantsQuestions(request), tenantOrigin(request.server.config, p.supplierSubdomain));
  });
  both('POST', '/availability/calendar', { config: access, schema: { tags, summary: 'OCTO: availability per day', body: ZOctoCalendarBody, response: { 200: z.array(ZOctoCalendarDay), ...octoErrors } } }, async (request) => {
    const p = partnerOf(request);
    const body = request.body as z.output<typeof ZOctoCalendarBody>;
    const slots = await availability(deps(request), p, body);
    return calendarOf(p, body.productId, slots, body.localDateStart!, body.localDateEnd ?? body.localDateStart!, wantsPricing(request));
  });
  both('POST', '/availability', { config: access, schema: { tags, summary: 'OCTO: departures (START_TIME) with vacancies', body: ZOctoAvailabilityBody, response: { 200: z.array(ZOctoAvailability), ...octoErrors } } }, async (request, reply) => {
    const p = partnerOf(request);
    const body = request.body as z.output<typeof ZOctoAvailabilityBody>;
    // Written as text in one pass from the database's rows (the hot call): the tests parse it with the answer's schema.
    // Sent as bytes, encoded once: a string of ~100 kB was measured again for Content-Length and encoded again by the socket.
    return reply.type('application/json; charset=utf-8').send(Buffer.from(await availabilityText(deps(request), p, body, wantsPricing(request))));
  });
  both('POST', '/bookings', { config: access, schema: { tags, summary: 'OCTO: reserve (ON_HOLD until utcExpiresAt; idempotent by uuid)', body: ZOctoReservationBody, response: { 200: ZOctoBooking, ...octoErrors } } }, async (request) => {
    const p = partnerOf(request);
    return bookingOf(p, await svc.reserve(deps(request), p, request.body as z.output<typeof ZOctoReservationBody>), wantsPricing(request), wantsQuestions(request));
  });
  both('GET', '/bookings', { config: access, schema: { tags, summary: 'OCTO: bookings by resellerReference or supplierReference', querystring: ZOctoBookingsQuery, response: { 200: z.array(ZOctoBooking), ...octoErrors } } }, async (request) => {
    const p = partnerOf(request);
    return (await svc.listBookings(deps(request), p, request.query as z.output<typeof ZOctoBookingsQuery>)).map((v) => bookingOf(p, v, wantsPricing(request), wantsQuestions(request)));
  });
  both('GET', '/bookings/:uuid', { config: access, schema: { tags, summary: 'OCTO: a booking', params: ZOctoBookingParams, response: { 200: ZOctoBooking, ...octoErrors } } }, async (request) => {
    const p = partnerOf(request);
    return bookingOf(p, await svc.getBooking(deps(request), p, uuidOf(request)), wantsPricing(request), wantsQuestions(request));
  });
  both('PATCH', '/bookings/:uuid', { config: access, schema: { tags, summary: 'OCTO: change unit items or contact (ON_HOLD), contact after confirm', params: ZOctoBookingParams, body: ZOctoUpdateBody, response: { 200: ZOctoBooking, ...octoErrors } } }, async (request) => {
    const p = partnerOf(request);
    const body = request.body as z.output<typeof ZOctoUpdateBody>;
    return bookingOf(p, await svc.updateBooking(deps(request), p, uuidOf(request), body), wantsPricing(request), wantsQuestions(request));
  });
  both('POST', '/bookings/:uuid/confirm', { config: access, schema: { tags, summary: 'OCTO: confirm (the order is made; idempotent)', params: ZOctoBookingParams, body: ZOctoConfirmBody, response: { 200: ZOctoBooking, ...octoErrors } } }, async (request) => {
    const p = partnerOf(request);
    return bookingOf(p, await svc.confirmBooking(deps(request), p, uuidOf(request), request.body as z.output<typeof ZOctoConfirmBody>, acceptLanguage(request), wantsQuestions(request)), wantsPricing(request), wantsQuestions(request));
  });
  both('POST', '/bookings/:uuid/extend', { config: access, schema: { tags, summary: 'OCTO: hold a reservation longer', params: ZOctoBookingParams, body: ZOctoExtendBody.optional(), response: { 200: ZOctoBooking, ...octoErrors } } }, async (request) => {
    const p = partnerOf(request);
    const body = (request.body ?? {}) as z.output<typeof ZOctoExtendBody>;
    return bookingOf(p, await svc.extendBooking(deps(request), p, uuidOf(request), body.expirationMinutes), wantsPricing(request), wantsQuestions(request));
  });
  both('POST', '/bookings/:uuid/cancel', { config: access, schema: { tags, summary: 'OCTO: cancel (a reservation, or a booking within its cancellation cut-off)', params: ZOctoBookingParams, body: ZOctoCancelBody.optional(), response: { 200: ZOctoBooking, ...octoErrors } } }, async (request) => {
    const p = partnerOf(request);
    const body = (request.body ?? {}) as z.output<typeof ZOctoCancelBody>;
    return bookingOf(p, await svc.cancelBooking(deps(request), p, uuidOf(request), body.reason), wantsPricing(request), wantsQuestions(request));
  });
};

// --- the public booking API ----------------------------------------------------------------------

/** The same refusals in the product's envelope. */
function toAppError(error: unknown): unknown {
  if (error instanceof OctoError) return new AppError(error.appCode, error.message, error.attr ?? null);
  if (error instanceof KeyRefused) {
    const e = new AppError(error.status === 401 ? 'not_authenticated' : error.status === 403 ? 'permission_denied' : 'throttled', error.message);
    if (error.retryAfter) e.headers = { 'retry-after': String(error.retryAfter) };
    return e;
  }
  return error;
}
const publicErrors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 429: ZErrorEnvelope };
const publicTags = ['public booking API'];

function presentReservation(p: Partner, v: svc.BookingView): z.output<typeof ZPublicReservation> {
  const quantities: Record<string, number> = {};
  for (const u of v.row.unit_items) quantities[u.unitId] = (quantities[u.unitId] ?? 0) + 1;
  return {
    uuid: v.row.uuid,
    status: v.status,
    product: v.row.experience_id,
    availability: v.slot.id,
    starts_at: v.slot.starts_at.toISOString(),
    quantities,
    currency: p.currency,
    total: v.items.reduce((n, i) => n + i.unit_price * i.quantity, 0),
    net: svc.netOfView(p, v),
    expires_at: v.status === 'ON_HOLD' && v.row.expires_at ? v.row.expires_at.toISOString() : null,
    reference: v.row.reseller_reference,
    order_reference: v.orderReference,
    ticket_code: v.status === 'CONFIRMED' ? v.ticketCode : null,
    cancellable: v.cancellable,
  };
}

const items = (q: Record<string, number>) => Object.entries(q).flatMap(([unitId, n]) => Array.from({ length: n }, () => ({ unitId })));

export const publicApiRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', async (request) => {
    try {
      await authenticate(request);
    } catch (error) {
      throw toAppError(error);
    }
  });
  const wrap = <T>(work: () => Promise<T>) => work().catch((error: unknown) => Promise.reject(toAppError(error)));

  app.get(
    '/api/public/get-availabilities/',
    { config: access, schema: { tags: publicTags, summary: 'Times of a product you may sell, with seats left and your prices (retail and net)', querystring: ZPublicAvailabilityQuery, response: { 200: z.array(ZPublicAvailability), ...publicErrors } } },
    (request) =>
      wrap(async () => {
        const p = partnerOf(request);
        const { product, from, to } = request.query;
        const slots = await availability(deps(request), p, { productId: product, optionId: svc.DEFAULT_OPTION, localDateStart: from, localDateEnd: to ?? from });
        return slots.map((x) => ({
          id: x.id,
          starts_at: x.starts_at,
          local_date: x.local_date,
          local_time: x.local_time,
          time_zone: x.time_zone,
          status: x.bookable ? x.status : x.status === 'sold_out' ? 'sold_out' : 'closed',
          seats_left: seatsForSale(x),
          currency: p.currency,
          prices: x.prices.map((pr) => ({ unit: pr.pricing_category, retail: pr.retail_price, net: svc.netOf(p, product, pr.pricing_category, pr.retail_price, x.rateNet[pr.pricing_category]) })),
        }));
      }),
  );
  app.post(
    '/api/public/reserve/',
    { config: access, schema: { tags: publicTags, summary: 'Hold seats (a reservation that expires as a cart does; idempotent by uuid)', body: ZPublicReserveInput, response: { 201: ZPublicReservation, ...publicErrors } } },
    (request, reply) =>
      wrap(async () => {
        const p = partnerOf(request);
        const b = request.body;
        const v = await svc.reserve(deps(request), p, { uuid: b.uuid, productId: b.product, optionId: svc.DEFAULT_OPTION, availabilityId: b.availability, unitItems: items(b.quantities), resellerReference: b.reference, expirationMinutes: b.hold_minutes });
        return reply.status(201).send(presentReservation(p, v));
      }),
  );
  app.post(
    '/api/public/book/',
    { config: access, schema: { tags: publicTags, summary: 'Book a reservation: the order is made in the supplier’s books (idempotent)', body: ZPublicBookInput, response: { 200: ZPublicReservation, ...publicErrors } } },
    (request) =>
      wrap(async () => {
        const p = partnerOf(request);
        const { uuid, customer, reference, answers } = request.body;
        const contact = { firstName: customer.first_name, lastName: customer.last_name, emailAddress: customer.email, phoneNumber: customer.phone, country: customer.country ?? null };
        return presentReservation(p, await svc.confirmBooking(deps(request), p, uuid, { contact, resellerReference: reference, answers }, acceptLanguage(request)));
      }),
  );
  app.post(
    '/api/public/cancel-reservation/',
    { config: access, schema: { tags: publicTags, summary: 'Give a reservation’s seats back', body: ZPublicCancelInput, response: { 200: ZPublicReservation, ...publicErrors } } },
    (request) =>
      wrap(async () => {
        const p = partnerOf(request);
        const current = await svc.getBooking(deps(request), p, request.body.uuid);
        if (current.status === 'CONFIRMED' || current.status === 'PENDING') throw new AppError('conflict', 'This reservation is booked: cancel it with cancel-booking.', 'uuid');
        return presentReservation(p, await svc.cancelBooking(deps(request), p, request.body.uuid, request.body.reason));
      }),
  );
  app.post(
    '/api/public/cancel-booking/',
    { config: access, schema: { tags: publicTags, summary: 'Cancel a booking within its cancellation policy', body: ZPublicCancelInput, response: { 200: ZPublicReservation, ...publicErrors } } },
    (request) =>
      wrap(async () => {
        const p = partnerOf(request);
        const current = await svc.getBooking(deps(request), p, request.body.uuid);
        if (current.status === 'ON_HOLD' || current.status === 'EXPIRED') throw new AppError('conflict', 'This reservation is not booked: cancel it with cancel-reservation.', 'uuid');
        return presentReservation(p, await svc.cancelBooking(deps(request), p, request.body.uuid, request.body.reason));
      }),
  );
};

export async function registerPartnerApis(app: FastifyInstance) {
  await app.register(octoRoutes, { prefix: '/octo/v1' });
  await app.register(publicApiRoutes);
}
