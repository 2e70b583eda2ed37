import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import { ZConnectLink, ZErrorEnvelope, ZPaymentProvider, ZWebOrderInput, ZWebPayment, ZWebPaymentParams, ZWebPaymentQuery, ZWebPaymentStarted, ZWebStoreParams, ZStoreVoucherOffer, ZVoucherPurchase, ZVoucherPurchaseStart, ZVoucherPurchaseState, type TWebPayment } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope, type TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { QUEUES } from '../../lib/jobs';
import { tenantOrigin } from '../../lib/host';
import type { PaymentSettlement } from '../orders/service';
import { manageUrlFor, presentWebOrder } from '../orders/web-order';
import { principalOf } from '../auth/principal';
import * as carts from '../web-store/cart';
import * as scope from '../web-store/scope';
import { storeAt } from '../web-store/routes';
import * as connect from './connect';
import { registerPaymentLinks } from './link-routes';
import * as online from './online';
import { stripeClient } from './stripe';
import { startVoucherPurchase, voucherPurchaseState } from './vouchers';
import { storeVoucherOffer } from '../gift-vouchers/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Online payments (Stripe): the client (null without keys), and refunds of online payments. */
    onlinePayments: { stripe: Stripe | null; refunds(ctx: TenantCtx, idempotencyKey: string | undefined): PaymentSettlement };
  }
}

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
/** Connecting the organisation's Stripe account is its Owners' business. */
const owners: RouteAccess = { permissions: ['Manage account'] };
const ownerScope = <T>(request: FastifyRequest, fn: (ctx: TenantCtx) => Promise<T>) => {
  if (!principalOf(request).isOwner) throw new AppError('permission_denied', 'Only an Owner connects the organisation’s payment account.');
  return tenantScope(request, fn);
};


export async function registerPayments(untyped: FastifyInstance) {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  const stripe = await stripeClient(app.config);
  untyped.decorate('onlinePayments', { stripe, refunds: (ctx, key) => online.onlineRefunds(ctx, stripe, key) });

  // --- payment providers (the spec's Connect create and delete, OAuth retrieve) ---------------
  app.get(
    '/api/payment-providers/oauth/',
    { config: { access: owners }, schema: { tags: ['payments'], summary: 'The organisation’s Stripe account and its state, asked afresh from Stripe', response: { 200: ZPaymentProvider, ...errors } } },
    (request) => ownerScope(request, (ctx) => connect.providerState(ctx, app.config, stripe)),
  );
  app.post(
    '/api/payment-providers/connect/',
    { config: { access: owners }, schema: { tags: ['payments'], summary: 'Connect (or finish connecting) a Stripe account: answers the link to Stripe’s onboarding', response: { 200: ZConnectLink, ...errors } } },
    (request) => ownerScope(request, (ctx) => connect.startOnboarding(ctx, app.config, stripe)),
  );
  app.delete(
    '/api/payment-providers/connect/',
    { config: { access: owners }, schema: { tags: ['payments'], summary: 'Disconnect the Stripe account (the stores stop offering online payment)', response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await ownerScope(request, (ctx) => connect.disconnect(ctx));
      return reply.status(204).send(null);
    },
  );

  // --- the web store pays online ----------------------------------------------------------------
  app.post(
    '/api/web-stores/:slug/payments/',
    {
      config: { access: { public: true, reason: 'a customer pays online' } },
      // Counted as an order (web-store/limits-routes.ts): the seats stay held while the customer pays.
      preHandler: app.storeGuard('order'),
      schema: { tags: ['web-store'], summary: 'Pay the guest cart’s lines online: answers Stripe’s payment page; the order is made once Stripe confirms', params: ZWebStoreParams, body: ZWebOrderInput, response: { 201: ZWebPaymentStarted, ...errors, 429: ZErrorEnvelope } },
    },
    async (request, reply) => {
      if (request.body.payment_option !== 'online') throw new AppError('invalid', 'This call pays online; book with POST …/orders/ to pay on site.', 'payment_option');
      // In the cart's seller's books: a partner's offers are paid to the supplier, on its account.
      const started = await scope.inCart(storeAt(request), request.params.slug, request.body.cart, async (ctx) => {
        if (!ctx.store.payment_options.includes('online')) throw new AppError('invalid', 'This store does not offer online payment.', 'payment_option');
        await carts.ownCart(ctx, request.body.cart, request.headers['x-cart-token'] as string | undefined);
        return online.startOnlinePayment(ctx, app.config, stripe, request.body);
      });
      return reply.status(201).send(started);
    },
  );
  app.get(
    '/api/web-stores/:slug/payments/:id/',
    {
      config: { access: { public: true, reason: 'a customer’s page asks whether their payment went through (the secret in X-Order-Token)' } },
      schema: {
        tags: ['web-store'],
        summary: 'Where a payment stands; a paid one answers its order (asking Stripe when its event has not come yet). Proof: X-Order-Token, or the session_id of Stripe’s return address',
        params: ZWebPaymentParams,
        querystring: ZWebPaymentQuery,
        response: { 200: ZWebPayment, ...errors },
      },
    },
    (request) =>
      scope.inCheckout(storeAt(request), request.params.slug, request.params.id, async (ctx) => {
        const proof = { token: request.headers['x-order-token'] as string | undefined, session: request.query.session_id };
        let { row, byToken } = await online.checkoutOf(ctx, request.params.id, proof);
        if (row.status === 'open' && stripe) {
          const done = await online.finishPaidSession(ctx, stripe, { id: row.id });
          if (done?.outcome) await online.afterFinish(ctx, app.jobs, app.config, row.id, done);
          ({ row, byToken } = await online.checkoutOf(ctx, request.params.id, proof));
        }
        // Without the secret, the order's page link is the store's (the secret is in the e-mail).
        const storeUrl = `${tenantOrigin(app.config, ctx.subdomain)}/s/${ctx.store.slug}/`;
        const order = row.order_id ? await presentWebOrder(ctx, row.order_id, byToken ? manageUrlFor(app.config, ctx, proof.token!) : () => storeUrl) : null;
        return { status: row.status as TWebPayment['status'], order };
      }),
  );

  // --- a gift voucher bought in the store (vouchers.ts): paid online, issued once Stripe says it is paid ---
  app.get(
    '/api/web-stores/:slug/vouchers/',
    { config: { access: { public: true, reason: 'a store’s gift voucher page' } }, schema: { tags: ['web-store'], summary: 'What the store’s gift vouchers cost (fixed amounts, a range of one’s own) and how long they are valid; 404 when it sells none', params: ZWebStoreParams, response: { 200: ZStoreVoucherOffer, ...errors } } },
    (request) => scope.inStore(storeAt(request), request.params.slug, (ctx) => storeVoucherOffer(ctx, ctx.store.id)),
  );
  app.post(
    '/api/web-stores/:slug/vouchers/',
    {
      config: { access: { public: true, reason: 'a customer buys a gift voucher (paid online)' } },
      preHandler: app.storeGuard('order'),
      schema: { tags: ['web-store'], summary: 'Buy a gift voucher: answers Stripe’s payment page; the voucher is issued once Stripe confirms', params: ZWebStoreParams, body: ZVoucherPurchase, response: { 201: ZVoucherPurchaseStart, ...errors, 429: ZErrorEnvelope } },
    },
    async (request, reply) => {
      const started = await scope.inStore(storeAt(request), request.params.slug, (ctx) => startVoucherPurchase(ctx, app.config, stripe, request.body, request.headers['accept-language']));
      return reply.status(201).send({ checkout: started.checkout, payment_url: started.payment_url });
    },
  );
  app.get(
    '/api/web-stores/:slug/vouchers/:id/',
    {
      config: { access: { public: true, reason: 'the buyer’s page asks whether their voucher purchase went through (the session_id of Stripe’s return address)' } },
      schema: { tags: ['web-store'], summary: 'Where a gift voucher purchase stands (asking Stripe when its event has not come yet)', params: ZWebPaymentParams, querystring: ZWebPaymentQuery, response: { 200: ZVoucherPurchaseState, ...errors } },
    },
    (request) => scope.inStore(storeAt(request), request.params.slug, (ctx) => voucherPurchaseState(ctx, stripe, app.jobs, app.config, request.params.id, request.query.session_id)),
  );

  // --- payment links: staff send one for an order's balance; the customer's pages (link-routes.ts) ---
  registerPaymentLinks(untyped, stripe);

  // --- Stripe's events -------------------------------------------------------------------------
  // The signature is checked on the raw bytes, so this route keeps its body as it came (in place
  // of the app's JSON parser, plugins/json-body.ts; Stripe's library parses it once it is verified).
  untyped.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post(
      '/api/stripe/webhook/',
      { config: { access: { public: true, reason: 'Stripe’s events, checked by their signature' } }, schema: { tags: ['payments'], summary: 'Stripe’s events (signed); each stored once and handled by a job', hide: true } },
      async (request, reply) => {
        if (!stripe || !app.config.STRIPE_WEBHOOK_SECRET) throw new AppError('not_found', 'Stripe is not set up on this platform.');
        let event: Stripe.Event;
        try {
          event = stripe.webhooks.constructEvent(request.body as Buffer, String(request.headers['stripe-signature'] ?? ''), app.config.STRIPE_WEBHOOK_SECRET);
        } catch {
          throw new AppError('invalid', 'This event’s signature does not match: it is not from Stripe.');
        }
        // Once: the event's id is the key; a duplicate finds it and is only acknowledged.
        await online.receiveStripeEvent(app.database.db, app.jobs, event);
        app.jobs.wake(QUEUES.stripeEvent);
        return reply.status(200).send({ received: true });
      },
    );
  });

  return { stripe };
}
