import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import { ZErrorEnvelope, ZOrderIdParam, ZPaymentLinkReturnQuery, ZPaymentLinkSent, ZPaymentLinkTokenParam } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { requestHost } from '../../lib/host';
import { QUEUES } from '../../lib/jobs';
import { ThrottledError } from '../../lib/throttle';
import { clientHash } from '../web-store/limits-routes';
import { paymentLinkHtml } from './link-page';
import * as links from './links';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
/** As recording a payment (POST /api/orders/{id}/payments/, orders/routes.ts). */
const manageOrders: RouteAccess = { permissions: ['Manage orders'], features: ['bookings'] };
const linkAccess: RouteAccess = { public: true, reason: 'a customer pays an order’s balance with the secret in the link they were e-mailed' };

/** The page as HTML, never cached, never indexed; a link that is no link is a 404 page. */
function page(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(html);
}
/** How often one link may open Stripe's page or come back from it in ten minutes (an address: three times as often). */
export const PAYMENT_LINK_CALLS_PER_LINK = 20;
const notFound = (error: unknown) => error instanceof AppError && error.items[0]?.code === 'not_found';

/** Payment links (links.ts): staff send one; the customer's pages at /pay/{token} on the organisation's host. */
export function registerPaymentLinks(untyped: FastifyInstance, stripe: Stripe | null) {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  const db = () => app.database.db;

  app.post(
    '/api/orders/:id/payment-link/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['orders'],
        summary: 'E-mail the customer a link to pay the order’s balance by card (Stripe Checkout on the organisation’s account; the amount is the balance when they open it)',
        params: ZOrderIdParam,
        response: { 201: ZPaymentLinkSent, ...errors },
      },
    },
    async (request, reply) => {
      const sent = await tenantScope(request, (ctx) => links.sendPaymentLink(ctx, app.config, app.jobs, request.params.id));
      app.jobs.wake(QUEUES.orderMail);
      return reply.status(201).send(sent);
    },
  );

  // Opening Stripe's page and coming back from it call Stripe on the organisation's account: a link
  // (kept by its hash, never in the clear) and an address each have an allowance far above what a
  // customer uses, so a scanner or a script following the link cannot drive Stripe's API without end.
  const window = 10 * 60 * 1000;
  const linkKey = (r: FastifyRequest) => createHash('sha256').update((r.params as { token: string }).token).digest('base64url').slice(0, 22);
  const perLink = app.createRateLimit({ max: PAYMENT_LINK_CALLS_PER_LINK, timeWindow: window, keyGenerator: (r) => `pay:link:${linkKey(r)}` });
  const perAddress = app.createRateLimit({ max: 3 * PAYMENT_LINK_CALLS_PER_LINK, timeWindow: window, keyGenerator: (r) => `pay:address:${clientHash(r)}` });
  const callsStripe = async (request: FastifyRequest) => {
    for (const limit of [perAddress, perLink]) {
      const seen = await limit(request);
      if (!seen.isAllowed && seen.isExceeded) throw new ThrottledError(seen.ttlInSeconds);
    }
  };
  const pay = (token: string) => `${links.paymentLinkPath(token)}/checkout`;
  app.get(
    links.PAYMENT_LINK_ROUTE,
    { config: { access: linkAccess }, schema: { hide: true, params: ZPaymentLinkTokenParam, response: { 200: z.string(), 404: z.string() } } },
    async (request, reply) => {
      const view = await links.paymentLinkPage(db(), requestHost(request).subdomain, request.params.token).catch((e: unknown) => (notFound(e) ? null : Promise.reject(e)));
      return page(reply, view ? 200 : 404, paymentLinkHtml(view, pay(request.params.token)));
    },
  );
  app.get(
    `${links.PAYMENT_LINK_ROUTE}/checkout`,
    { preHandler: callsStripe, config: { access: linkAccess }, schema: { hide: true, params: ZPaymentLinkTokenParam, response: { 200: z.string(), 303: z.null(), 404: z.string() } } },
    async (request, reply) => {
      const answer = await links.payByLink(db(), app.config, stripe, requestHost(request).subdomain, request.params.token).catch((e: unknown) => (notFound(e) ? null : Promise.reject(e)));
      if (!answer) return page(reply, 404, paymentLinkHtml(null, null));
      if ('url' in answer) return reply.header('cache-control', 'no-store').redirect(answer.url, 303);
      return page(reply, 200, paymentLinkHtml(answer.view, null));
    },
  );
  app.get(
    `${links.PAYMENT_LINK_ROUTE}/done`,
    { preHandler: callsStripe, config: { access: linkAccess }, schema: { hide: true, params: ZPaymentLinkTokenParam, querystring: ZPaymentLinkReturnQuery, response: { 200: z.string(), 404: z.string() } } },
    async (request, reply) => {
      const view = await links
        .paymentLinkReturn(db(), stripe, requestHost(request).subdomain, request.params.token, request.query.session_id)
        .catch((e: unknown) => (notFound(e) ? null : Promise.reject(e)));
      return page(reply, view ? 200 : 404, paymentLinkHtml(view, pay(request.params.token)));
    },
  );
}
