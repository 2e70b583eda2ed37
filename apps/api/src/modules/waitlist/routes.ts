import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZIdParam, ZWaitlist, ZWaitlistEntryParams, ZWaitlistJoin, ZWaitlistJoined, ZWebStoreParams } from '@tourdesk/contracts';
import { negotiateLanguage, pickLanguage } from '@tourdesk/contracts/i18n';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { requestHost } from '../../lib/host';
import { QUEUES } from '../../lib/jobs';
import { slotSeller } from '../web-store/cart';
import { storeLanguages } from '../web-store/language';
import * as scope from '../web-store/scope';
import { inSeller } from '../stores/scope';
import * as waitlist from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 503: ZErrorEnvelope };
const guarded = { 400: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 429: ZErrorEnvelope, 503: ZErrorEnvelope };
/** Who comes to a departure (its manifest's access) sees who waits for it; e-mails are customer data, as on the manifest. */
const viewList: RouteAccess = { permissions: ['View experiences'], features: ['bookings'] };
/** Offering seats and removing an entry change what is sold: the access of orders. */
const manageList: RouteAccess = { permissions: ['Manage orders'], features: ['bookings'] };
const tags = ['waitlist'];

/**
 * A departure's waiting list: joined in the web store (public, guarded like an order: the
 * address's and the store's limits and always a solved challenge), seen and managed by staff on
 * the departure (`/api/start-times/{id}/waitlist/…`).
 */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/web-stores/:slug/waitlist/',
    {
      config: { access: { public: true, reason: 'a customer joins a sold-out time’s waiting list' } },
      preHandler: app.storeGuard('waitlist'),
      schema: {
        tags,
        summary: 'Join the waiting list of a sold-out time (e-mail, name, seats, the page’s language); carries a solved challenge in X-Altcha. 409 when the seats are free, or when this e-mail is already on the list',
        params: ZWebStoreParams,
        body: ZWaitlistJoin,
        response: { 201: ZWaitlistJoined, ...guarded },
      },
    },
    async (request, reply) => {
      const db = request.server.database.db;
      const found = await scope.storeByHost({ db, subdomain: requestHost(request).subdomain }, request.params.slug);
      const target = await slotSeller(db, found, request.body.slot);
      // A partner's offer resold in this store has its supplier's list: not offered in a reseller's store (yet).
      if (target.seller !== found.s.account_id) throw new AppError('invalid', 'This time has no waiting list in this store.', 'slot');
      const sold = await storeLanguages(db, found);
      const language = pickLanguage(request.body.language, sold) ?? negotiateLanguage(request.headers['accept-language'], sold);
      const joined = await inSeller(db, found, target.seller, (ctx) => waitlist.joinWaitlist(ctx, request.body, language));
      return reply.status(201).send(joined);
    },
  );
  app.get(
    '/api/start-times/:id/waitlist/',
    { config: { access: viewList }, schema: { tags, summary: 'A departure’s waiting list in the order of joining, with each entry’s status and the seats left', params: ZIdParam, response: { 200: ZWaitlist, ...errors } } },
    (request) => tenantScope(request, (ctx) => waitlist.waitlistOf(ctx, request.params.id)),
  );
  app.post(
    '/api/start-times/:id/waitlist/:entry/offer/',
    {
      config: { access: manageList },
      schema: { tags, summary: 'Offer an entry its seats by hand (held for it, and e-mailed): 409 when they are not free', params: ZWaitlistEntryParams, response: { 200: ZWaitlist, ...errors } },
    },
    async (request) => {
      const list = await tenantScope(request, (ctx) => waitlist.offerByHand(ctx, request.params.id, request.params.entry));
      request.server.jobs.wake(QUEUES.waitlistMail);
      return list;
    },
  );
  app.delete(
    '/api/start-times/:id/waitlist/:entry/',
    {
      config: { access: manageList },
      schema: { tags, summary: 'Remove an entry from the list (an offer’s held seats go back, to the next whose seats fit)', params: ZWaitlistEntryParams, response: { 200: ZWaitlist, ...errors } },
    },
    async (request) => {
      const list = await tenantScope(request, (ctx) => waitlist.removeEntry(ctx, request.params.id, request.params.entry));
      request.server.jobs.wake(QUEUES.waitlistMail);
      return list;
    },
  );
};
