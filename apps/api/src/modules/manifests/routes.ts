import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorEnvelope, ZIdParam, ZManifest, ZManifestDay, ZManifestDayQuery, ZTicketsSent, type TManifest } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { QUEUES } from '../../lib/jobs';
import { customerVisibility, principalOf } from '../auth/principal';
import * as manifests from './service';
import * as tickets from './tickets';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 503: ZErrorEnvelope };
/** The access of bookings (orders/booking-routes.ts): tickets and confirmations are order documents. */
const manageOrders: RouteAccess = { permissions: ['Manage orders'], features: ['bookings'] };
/**
 * Who comes to a departure is for the guide as much as the office: any role that may check in (View
 * experiences) reads manifests; phones and e-mails, and balances, only as its role allows
 * (customerVisibility, the rule of the check-in page).
 */
const guides: RouteAccess = { permissions: ['View experiences'], features: ['bookings'] };
const sees = (request: FastifyRequest) => customerVisibility(principalOf(request).codenames);
/** The organisation's 12/24-hour setting, for the times the exports write. */
const clockOf = (request: FastifyRequest) => principalOf(request).timeFormat;

const file = (reply: FastifyReply, type: string, name: string, body: string | Uint8Array) =>
  reply
    .type(type)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'private, no-store')
    .send(typeof body === 'string' ? body : Buffer.from(body));
const pdf = (reply: FastifyReply, name: string, body: Uint8Array) => file(reply, 'application/pdf', name, body);
const csv = (reply: FastifyReply, name: string, body: string) => file(reply, 'text/csv; charset=utf-8', name, body);
const slug = (m: TManifest) => `${m.local_date}-${m.local_time.replace(':', '')}`;

/**
 * Manifests per departure and per day (JSON, CSV, PDF), and staff's copies of a customer's
 * tickets and order confirmation: printed (the same PDF the confirmation e-mail carries) or sent
 * again through the order e-mail job.
 */
export const manifestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/manifests/',
    { config: { access: guides }, schema: { tags: ['manifests'], summary: 'Every departure of a local date with its manifest, and the day’s totals', querystring: ZManifestDayQuery, response: { 200: ZManifestDay, ...errors } } },
    (request) => tenantScope(request, (ctx) => manifests.manifestDay(ctx, request.query.date, sees(request))),
  );
  app.get(
    '/api/manifests/export.csv',
    { config: { access: guides }, schema: { tags: ['manifests'], summary: 'A day’s manifests as CSV: a line per booking and a total per departure', querystring: ZManifestDayQuery, response: { 200: z.string(), ...errors } } },
    async (request, reply) => {
      const day = await tenantScope(request, (ctx) => manifests.manifestDay(ctx, request.query.date, sees(request)));
      return csv(reply, `manifests-${day.date}.csv`, manifests.manifestsCsv(day.departures, sees(request), clockOf(request)));
    },
  );
  app.get(
    '/api/manifests/manifests.pdf',
    { config: { access: guides }, schema: { tags: ['manifests'], summary: 'A day’s manifests as a PDF, one departure per page', querystring: ZManifestDayQuery, response: { 200: z.any(), ...errors } } },
    async (request, reply) => {
      const { day, org } = await tenantScope(request, async (ctx) => ({ day: await manifests.manifestDay(ctx, request.query.date, sees(request)), org: await manifests.organisationName(ctx) }));
      return pdf(reply, `manifests-${day.date}.pdf`, await manifests.manifestsPdf(day.departures, org, sees(request), clockOf(request)));
    },
  );
  app.get(
    '/api/manifests/:id/',
    { config: { access: guides }, schema: { tags: ['manifests'], summary: 'The manifest of a departure (a start time’s id): its bookings and totals', params: ZIdParam, response: { 200: ZManifest, ...errors } } },
    (request) => tenantScope(request, (ctx) => manifests.manifest(ctx, request.params.id, sees(request))),
  );
  app.get(
    '/api/manifests/:id/export.csv',
    { config: { access: guides }, schema: { tags: ['manifests'], summary: 'The manifest of a departure as CSV', params: ZIdParam, response: { 200: z.string(), ...errors } } },
    async (request, reply) => {
      const m = await tenantScope(request, (ctx) => manifests.manifest(ctx, request.params.id, sees(request)));
      return csv(reply, `manifest-${slug(m)}.csv`, manifests.manifestsCsv([m], sees(request), clockOf(request)));
    },
  );
  app.get(
    '/api/manifests/:id/manifest.pdf',
    { config: { access: guides }, schema: { tags: ['manifests'], summary: 'The manifest of a departure as a PDF', params: ZIdParam, response: { 200: z.any(), ...errors } } },
    async (request, reply) => {
      const { m, org } = await tenantScope(request, async (ctx) => ({ m: await manifests.manifest(ctx, request.params.id, sees(request)), org: await manifests.organisationName(ctx) }));
      return pdf(reply, `manifest-${slug(m)}.pdf`, await manifests.manifestsPdf([m], org, sees(request), clockOf(request)));
    },
  );

  // --- staff's tickets and confirmations ----------------------------------------------------
  app.get(
    '/api/orders/:id/tickets.pdf',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'The customer’s tickets: the PDF of the confirmation e-mail, a page and QR code per booking', params: ZIdParam, response: { 200: z.any(), ...errors } } },
    async (request, reply) => {
      const { name, body } = await tenantScope(request, (ctx) => tickets.orderTickets(ctx, request.params.id));
      return pdf(reply, name, body);
    },
  );
  app.get(
    '/api/orders/:id/confirmation.pdf',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'The order confirmation as a PDF: bookings, items, prices, paid and left to pay', params: ZIdParam, response: { 200: z.any(), ...errors } } },
    async (request, reply) => {
      const { name, body } = await tenantScope(request, (ctx) => tickets.orderConfirmation(ctx, request.params.id));
      return pdf(reply, name, body);
    },
  );
  app.get(
    '/api/bookings/:id/tickets.pdf',
    { config: { access: manageOrders }, schema: { tags: ['bookings'], summary: 'One booking’s ticket (its page of the order’s tickets)', params: ZIdParam, response: { 200: z.any(), ...errors } } },
    async (request, reply) => {
      const { name, body } = await tenantScope(request, (ctx) => tickets.bookingTicket(ctx, request.params.id));
      return pdf(reply, name, body);
    },
  );
  app.post(
    '/api/orders/:id/send-tickets/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['orders'],
        summary: 'E-mail the customer their tickets and the order confirmation again (the confirmation e-mail’s job); a web order’s booking-page link is renewed',
        params: ZIdParam,
        response: { 202: ZTicketsSent, ...errors },
      },
    },
    async (request, reply) => {
      const sent = await tenantScope(request, (ctx) => tickets.sendTickets(ctx, request.server.jobs, request.params.id));
      request.server.jobs.wake(QUEUES.orderMail);
      return reply.status(202).send(sent);
    },
  );
};
