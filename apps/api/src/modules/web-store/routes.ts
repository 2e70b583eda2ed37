import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZOnlineAmount,
  ZOnlineAmountQuery,
  ZWebPayRest,
  paginated,
  ZErrorEnvelope,
  ZPaginationQuery,
  ZPromoPreview,
  ZVoucherPreview,
  ZVoucherTry,
  ZPromoTry,
  ZWebCart,
  ZWebCartLineParams,
  ZWebCartParams,
  ZWebCartCreated,
  ZWebCartInput,
  ZWebCartUpdate,
  ZWebChallenge,
  ZWebCartLineInput,
  ZWebDay,
  ZWebDayQuery,
  ZWebMonth,
  ZWebMonthQuery,
  ZWebOffer,
  ZWebOfferParams,
  ZWebOfferSummary,
  ZWebOrder,
  ZWebOrderInput,
  ZWebOrderAnswers,
  ZWebOrderParams,
  ZWebStore,
  ZWebStoreParams,
  ZWebVisitInput,
} from '@tourdesk/contracts';
import { negotiateLanguage, pickLanguage, type Language } from '@tourdesk/contracts/i18n';
import { AppError } from '../../lib/errors';
import { newChallenge } from '../../lib/challenge';
import { requestHost } from '../../lib/host';
import { QUEUES } from '../../lib/jobs';
import { paginate } from '../../lib/pagination';
import { queueOrderMail } from '../order-mail/service';
import { answerQuestions } from '../orders/answers';
import { ticketSource, ticketsPdf } from '../orders/tickets';
import { manageUrlFor, presentWebOrder } from '../orders/web-order';
import { sharedOffer } from '../partners/contract';
import { attachToCart } from '../qr-codes/service';
import * as carts from './cart';
import { clientHash } from './limits-routes';
import * as catalogue from './catalogue';
import * as orders from './order';
import * as languages from './language';
import * as scope from './scope';
import * as storeScope from '../stores/scope';

/**
 * The public web store's calls (the spec's web stores: retrieve, experiences list, experience
 * retrieve, order create), and what a booking page needs around them: a month and a day of an
 * offer's times, the guest cart, the visit count, the customer's own order page. No session:
 * each is public, scoped by the organisation's host and the store's address.
 */
const pub = (reason: string) => ({ access: { public: true as const, reason } });
const errors = { 400: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 422: ZErrorEnvelope, 503: ZErrorEnvelope };
const tags = ['web-store'];
/** The calls guarded by limits-routes.ts answer 429 past a limit and 403 without a challenge asked for. */
const guarded = { ...errors, 403: ZErrorEnvelope, 429: ZErrorEnvelope };
const cartToken = (request: FastifyRequest) => request.headers['x-cart-token'] as string | undefined;
const orderToken = (request: FastifyRequest) => request.headers['x-order-token'] as string | undefined;
/** The QR code whose scan brought the customer (the store page keeps ?qr= for the session and sends it). */
const qrOf = (request: FastifyRequest) => request.headers['x-qr-code'] as string | undefined;
/**
 * The languages the store's organisation sells in (its first the default): a cart's language is
 * one of them, the one asked for, else the request's Accept-Language (the store page sends its own).
 */
async function storeLanguages(request: FastifyRequest, slug: string): Promise<Language[]> {
  return languages.storeLanguages(request.server.database.db, await scope.storeByHost(storeAt(request), slug));
}
const acceptLanguage = (request: FastifyRequest) => request.headers['accept-language'];
/** Where a public call comes from, read from the request: the server's database and the host's organisation (scope.ts). */
export const storeAt = (request: FastifyRequest): scope.StoreAt => ({ db: request.server.database.db, subdomain: requestHost(request).subdomain });
/**
 * The same for the catalogue's reads, which may lag a moment (the store's face, its offers, an
 * offer's page, its languages): the read replica's connections when DATABASE_READ_URL is set.
 * Seats left (month, day), carts, holds and orders read the primary (`storeAt`): they decide a sale.
 */
export const catalogueAt = (request: FastifyRequest): scope.StoreAt => ({ db: request.server.database.read, subdomain: requestHost(request).subdomain });

/**
 * Public availability is cacheable: an ETag of the answer and a short max-age, so a browser or a
 * CDN may keep it two seconds and then asks again with If-None-Match (304 when nothing changed).
 * The web store asks past the cache after its own booking.
 */
function cacheable<T>(request: FastifyRequest, reply: FastifyReply, body: T) {
  const text = JSON.stringify(body);
  const etag = `"${createHash('sha1').update(text).digest('base64url')}"`;
  reply.header('etag', etag).header('cache-control', 'public, max-age=2, must-revalidate').header('vary', 'host');
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(text);
}

/** The offers' language: Accept-Language among the organisation's languages, answered as Content-Language (and Vary). */
async function contentLanguage(request: FastifyRequest, reply: FastifyReply) {
  const language = await catalogue.storeLanguage(request.server.database.read, requestHost(request).subdomain, request.headers['accept-language']);
  reply.header('content-language', language).header('vary', 'Accept-Language');
  return language;
}

export const webStoreRoutes: FastifyPluginAsyncZod = async (app) => {
  const seatCaps = { perCart: app.config.STORE_SEATS_PER_CART, perAddress: app.config.STORE_SEATS_PER_ADDRESS };
  app.get(
    '/api/web-stores/:slug/',
    { config: pub('a store’s public face'), schema: { tags, summary: 'A web store: its name, texts, colours, currency and ways to pay', params: ZWebStoreParams, response: { 200: ZWebStore, ...errors } } },
    async (request, reply) => {
      const language = await contentLanguage(request, reply);
      return scope.inStore(catalogueAt(request), request.params.slug, (ctx) => catalogue.webStore(ctx, Boolean(request.server.config.STRIPE_SECRET_KEY), language));
    },
  );
  app.get(
    '/api/web-stores/:slug/experiences/',
    { config: pub('the offers a store sells'), schema: { tags, summary: 'The offers on sale in the store, in its order, with their from price', params: ZWebStoreParams, querystring: ZPaginationQuery, response: { 200: paginated(ZWebOfferSummary), ...errors } } },
    async (request, reply) => {
      // Its own offers and its partners' (tourdesk_store_offers), read on the server's connection by the store.
      const found = await scope.storeByHost(catalogueAt(request), request.params.slug);
      const db = request.server.database.read;
      const language = await contentLanguage(request, reply);
      return paginate(request, request.query, () => catalogue.countOffers(db, found.s.id), (limit, offset) => catalogue.offers(db, found, limit, offset, language));
    },
  );
  app.get(
    '/api/web-stores/:slug/experiences/:id/',
    { config: pub('an offer’s page'), schema: { tags, summary: 'One offer of the store with what its page shows', params: ZWebOfferParams, response: { 200: ZWebOffer, ...errors } } },
    async (request, reply) => {
      const language = await contentLanguage(request, reply);
      return scope.inOfferSeller(catalogueAt(request), request.params.slug, request.params.id, (ctx) => catalogue.offer(ctx, request.params.id, language));
    },
  );
  app.get(
    '/api/web-stores/:slug/experiences/:id/month/',
    { config: pub('the days an offer can be booked'), schema: { tags, summary: 'The days of a month with times and seats left (cacheable, ETag)', params: ZWebOfferParams, querystring: ZWebMonthQuery, response: { 200: ZWebMonth, 304: z.null(), ...errors } } },
    async (request, reply) => cacheable(request, reply, await catalogue.month(request.server.database.db, await scope.publicStore(storeAt(request), request.params.slug), request.params.id, request.query.month)),
  );
  app.get(
    '/api/web-stores/:slug/experiences/:id/day/',
    { config: pub('the times of a day'), schema: { tags, summary: 'A day’s start times with seats left and prices (cacheable, ETag)', params: ZWebOfferParams, querystring: ZWebDayQuery, response: { 200: ZWebDay, 304: z.null(), ...errors } } },
    async (request, reply) => cacheable(request, reply, await catalogue.day(request.server.database.db, await scope.publicStore(storeAt(request), request.params.slug), request.params.id, request.query.date)),
  );
  app.post(
    '/api/web-stores/:slug/visits/',
    { config: pub('counts a visit for the store’s analytics'), schema: { tags, summary: 'Count a visit (one per browser session and day)', params: ZWebStoreParams, body: ZWebVisitInput, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await scope.inStore(storeAt(request), request.params.slug, (ctx) => catalogue.recordVisit(ctx, request.body.visit));
      return reply.status(204).send(null);
    },
  );

  // --- the guest cart ------------------------------------------------------------------------
  app.get(
    '/api/web-stores/:slug/challenge/',
    {
      config: pub('a proof-of-work the store’s page solves'),
      preHandler: app.storeGuard('challenge'),
      schema: { tags, summary: 'A proof-of-work challenge (ALTCHA): its solution goes in X-Altcha, asked for a pay-on-site order and past an address’s threshold', params: ZWebStoreParams, response: { 200: ZWebChallenge, ...guarded } },
    },
    async (request, reply) => {
      await scope.storeByHost(storeAt(request), request.params.slug);
      return reply.header('cache-control', 'no-store').send(await newChallenge(app.storeChallenge));
    },
  );
  app.post(
    '/api/web-stores/:slug/carts/',
    {
      config: pub('a guest cart'),
      preHandler: app.storeGuard('cart'),
      schema: {
        tags,
        summary: 'A new guest cart: its id and the secret the page sends back as X-Cart-Token; in the customer’s language (the one given, else Accept-Language, among the store’s)',
        params: ZWebStoreParams,
        body: ZWebCartInput,
        response: { 201: ZWebCartCreated, ...guarded },
      },
    },
    async (request, reply) => {
      const sold = await storeLanguages(request, request.params.slug);
      const language = pickLanguage(request.body?.language, sold) ?? negotiateLanguage(acceptLanguage(request), sold);
      return reply.status(201).send(
        await scope.inStore(storeAt(request), request.params.slug, async (ctx) => {
          const made = await carts.createCart(ctx, clientHash(request), language);
          await attachToCart(ctx, made.id, qrOf(request));
          return made;
        }),
      );
    },
  );
  app.patch(
    '/api/web-stores/:slug/carts/:cart/',
    {
      config: pub('the guest cart follows the store’s language'),
      schema: { tags, summary: 'The customer switched the store’s language: the cart keeps its lines and takes the language, as will its order', params: ZWebCartParams, body: ZWebCartUpdate, response: { 200: ZWebCart, ...errors } },
    },
    async (request) => {
      const language = pickLanguage(request.body.language, await storeLanguages(request, request.params.slug));
      if (!language) throw new AppError('invalid', 'This store is not sold in this language.', 'language');
      return scope.inCart(storeAt(request), request.params.slug, request.params.cart, async (ctx) => {
        await carts.ownCart(ctx, request.params.cart, cartToken(request));
        await carts.setCartLanguage(ctx, request.params.cart, language);
        return carts.webCart(ctx, request.params.cart, Boolean(request.server.config.STRIPE_SECRET_KEY));
      });
    },
  );
  app.post(
    '/api/web-stores/:slug/carts/:cart/promo-code/',
    {
      config: pub('a guest tries a promo code on their cart (its secret in X-Cart-Token)'),
      preHandler: app.storeGuard('line'),
      schema: { tags, summary: 'What a promo code would take off the cart, with its VAT per rate; refused (promo_* on `promo_code`) with why. The order applies it with `promo_code`', params: ZWebCartParams, body: ZPromoTry, response: { 200: ZPromoPreview, ...guarded } },
    },
    (request) => scope.inCart(storeAt(request), request.params.slug, request.params.cart, (ctx) => orders.tryPromoCode(ctx, request.params.cart, request.body, cartToken(request))),
  );
  app.post(
    '/api/web-stores/:slug/carts/:cart/online-amount/',
    {
      config: pub('a guest sees what paying online charges now (its secret in X-Cart-Token)'),
      preHandler: app.storeGuard('line'),
      schema: { tags, summary: 'What paying online charges now for the cart (its total less a promo code, or the deposit its offers or the store ask for) and the rest, due on site or by a date; a promo code is refused (promo_* on `promo_code`) as the order would', params: ZWebCartParams, body: ZOnlineAmountQuery, response: { 200: ZOnlineAmount, ...guarded } },
    },
    (request) => scope.inCart(storeAt(request), request.params.slug, request.params.cart, (ctx) => orders.onlineAmountOfCart(ctx, request.params.cart, request.body, cartToken(request))),
  );
  app.post(
    '/api/web-stores/:slug/carts/:cart/voucher/',
    {
      config: pub('a guest tries a gift voucher on their cart (its secret in X-Cart-Token)'),
      preHandler: app.storeGuard('line'),
      schema: { tags, summary: 'A gift voucher’s balance and expiry and what it would pay of the cart; refused (voucher_* on `voucher_code`) with why. The order spends it with `voucher_code`', params: ZWebCartParams, body: ZVoucherTry, response: { 200: ZVoucherPreview, ...guarded } },
    },
    (request) => scope.inCart(storeAt(request), request.params.slug, request.params.cart, (ctx) => orders.tryVoucher(ctx, request.params.cart, request.body, cartToken(request))),
  );
  app.get(
    '/api/web-stores/:slug/carts/:cart/',
    { config: pub('a guest cart (its secret in X-Cart-Token)'), schema: { tags, summary: 'The guest cart with its held lines', params: ZWebCartParams, response: { 200: ZWebCart, ...errors } } },
    (request) =>
      scope.inCart(storeAt(request), request.params.slug, request.params.cart, async (ctx) => {
        await carts.ownCart(ctx, request.params.cart, cartToken(request));
        return carts.webCart(ctx, request.params.cart, Boolean(request.server.config.STRIPE_SECRET_KEY));
      }),
  );
  app.post(
    '/api/web-stores/:slug/carts/:cart/lines/',
    {
      config: pub('holds seats for a guest'),
      preHandler: app.storeGuard('line'),
      schema: { tags, summary: 'Hold seats in a time for the guest cart (409 when sold out, or past the seats a cart or an address may hold at once); answers the cart', params: ZWebCartParams, body: ZWebCartLineInput, response: { 201: ZWebCart, ...guarded } },
    },
    async (request, reply) => {
      const db = request.server.database.db;
      const found = await scope.storeByHost(storeAt(request), request.params.slug);
      const target = await carts.slotSeller(db, found, request.body.slot);
      // A cart holds one seller's offers (its orders are that seller's): an empty one moves to this
      // slot's seller and the answer carries its new id; the secret stays the same.
      const cart = await carts.cartFor(db, found, request.params.cart, cartToken(request), target.seller);
      await storeScope.inSeller(db, found, target.seller, async (ctx) => {
        await carts.ownCart(ctx, cart, cartToken(request));
        // A partner's offer: only while the contract lets the store's organisation sell it that day.
        if (ctx.partner) await sharedOffer(ctx, ctx.partner.partnershipId, target.experience, target.day);
        await attachToCart(ctx, cart, qrOf(request));
        const full = await carts.seatCapRefusal(ctx, cart, seatCaps);
        if (full) throw full;
      });
      // The hold itself goes with the others of its slot (the same queue as the back office's), in the seller's pool.
      const line = await request.server.holds.hold({ accountId: target.seller, cartId: cart }, request.body.slot, { quantities: request.body.quantities, extras: request.body.extras });
      // Past a cap with this line (two holds at once, or one bigger than the cap): it is given back.
      const over = await storeScope.inSeller(db, found, target.seller, (ctx) => carts.seatCapRefusal(ctx, cart, seatCaps, line.id));
      if (over) throw over;
      return reply.status(201).send(await storeScope.inSeller(db, found, target.seller, (ctx) => carts.webCart(ctx, cart, Boolean(request.server.config.STRIPE_SECRET_KEY))));
    },
  );
  app.delete(
    '/api/web-stores/:slug/carts/:cart/lines/:line/',
    { config: pub('releases a guest’s seats'), schema: { tags, summary: 'Release a held line of the guest cart', params: ZWebCartLineParams, response: { 200: ZWebCart, ...errors } } },
    (request) =>
      scope.inCart(storeAt(request), request.params.slug, request.params.cart, async (ctx) => {
        await carts.ownCart(ctx, request.params.cart, cartToken(request));
        await carts.releaseGuestLine(ctx, request.params.cart, request.params.line);
        return carts.webCart(ctx, request.params.cart, Boolean(request.server.config.STRIPE_SECRET_KEY));
      }),
  );

  // --- the order -----------------------------------------------------------------------------
  app.post(
    '/api/web-stores/:slug/orders/',
    {
      config: pub('a customer books'),
      preHandler: app.storeGuard('order'),
      schema: {
        tags,
        summary: 'Book the guest cart’s lines: the customer, their answers, the terms accepted, how they pay. A pay-on-site order carries a solved challenge in X-Altcha',
        params: ZWebStoreParams,
        body: ZWebOrderInput,
        response: { 201: ZWebOrder, ...guarded },
      },
    },
    async (request, reply) => {
      const { config, jobs } = request.server;
      const made = await scope.inCart(storeAt(request), request.params.slug, request.body.cart, async (ctx) => {
        const { orderId, manage } = await orders.placeOrder(
          ctx,
          request.body,
          cartToken(request),
          async (tx, job) =>
            queueOrderMail(jobs, tx, { account: ctx.accountId, store: ctx.store.id, order: job.order, kind: job.kind, manage: job.manage, to: job.kind === 'confirmation' ? request.body.customer.email : ctx.store.notify_email, subject: `Booking ${job.kind}` }),
          request.server.onlinePayments.stripe,
        );
        return presentWebOrder(ctx, orderId, manageUrlFor(config, ctx, manage));
      });
      jobs.wake(QUEUES.orderMail);
      return reply.status(201).send(made);
    },
  );
  app.get(
    '/api/web-stores/:slug/orders/:reference/',
    { config: pub('a customer’s own booking page (its secret in X-Order-Token)'), schema: { tags, summary: 'The customer’s order, with what cancelling it now would refund', params: ZWebOrderParams, response: { 200: ZWebOrder, ...errors } } },
    (request) =>
      scope.inOrder(storeAt(request), request.params.slug, request.params.reference, orderToken(request), (ctx, id) => presentWebOrder(ctx, id, manageUrlFor(request.server.config, ctx, orderToken(request)!))),
  );
  app.post(
    '/api/web-stores/:slug/orders/:reference/cancel/',
    { config: pub('a customer cancels under the cancellation policy'), schema: { tags, summary: 'Cancel the order when its cancellation policy allows it now', params: ZWebOrderParams, response: { 200: ZWebOrder, ...errors } } },
    async (request) => {
      const { config, jobs } = request.server;
      const answer = await scope.inOrder(storeAt(request), request.params.slug, request.params.reference, orderToken(request), (ctx, id) =>
        // With the job queue, the seats go to the departure's waiting list in the cancel's transaction.
        orders.cancelByCustomer({ ...ctx, jobs }, id, manageUrlFor(config, ctx, orderToken(request)!), (tx, job) =>
          queueOrderMail(jobs, tx, { account: ctx.accountId, store: ctx.store.id, order: job.order, kind: job.kind, to: job.to, subject: 'Booking cancellation' }),
        ),
      );
      jobs.wake(QUEUES.orderMail);
      return answer;
    },
  );
  app.post(
    '/api/web-stores/:slug/orders/:reference/payment-link/',
    {
      config: pub('a customer pays the rest of a deposit (its secret in X-Order-Token)'),
      preHandler: app.storeGuard('pay'),
      schema: { tags, summary: 'A payment link for what is left of the order (paid by a deposit): the address of its page, which goes on to Stripe Checkout', params: ZWebOrderParams, response: { 200: ZWebPayRest, ...guarded } },
    },
    (request) => scope.inOrder(storeAt(request), request.params.slug, request.params.reference, orderToken(request), (ctx, id) => orders.payRestLink(ctx, request.server.config, id)),
  );
  app.post(
    '/api/web-stores/:slug/orders/:reference/answers/',
    {
      config: pub('a customer answers the booking questions their order still owes (its secret in X-Order-Token)'),
      schema: { tags, summary: 'Answer the booking questions the order still owes', params: ZWebOrderParams, body: ZWebOrderAnswers, response: { 200: ZWebOrder, ...errors } } },
    (request) =>
      scope.inOrder(storeAt(request), request.params.slug, request.params.reference, orderToken(request), async (ctx, id) => {
        await answerQuestions(ctx, id, request.body.answers, { by: 'customer' });
        return presentWebOrder(ctx, id, manageUrlFor(request.server.config, ctx, orderToken(request)!));
      }),
  );
  app.get(
    '/api/web-stores/:slug/orders/:reference/tickets.pdf',
    { config: pub('a customer’s tickets'), schema: { tags, summary: 'The order’s tickets as a PDF, one page and QR code per booking', params: ZWebOrderParams } },
    async (request, reply) => {
      const pdf = await scope.inOrder(storeAt(request), request.params.slug, request.params.reference, orderToken(request), async (ctx, id) => ticketsPdf((await ticketSource(ctx, id)).tickets));
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="tickets-${request.params.reference}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );
};
