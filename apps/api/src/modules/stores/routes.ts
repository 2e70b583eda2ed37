import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paginated,
  patchOf,
  ZErrorEnvelope,
  ZIdParam,
  ZOfferChannels,
  ZPaginationQuery,
  ZStore,
  ZStoreAnalytics,
  ZStoreAnalyticsQuery,
  ZStoreExperience,
  ZStoreAvailableQuery,
  ZStoreExperienceInput,
  ZStoreExperiencesInput,
  ZStoreInput,
} from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { registerCrud, tenantScope } from '../../lib/crud';
import { principalOf } from '../auth/principal';
import { paginate } from '../../lib/pagination';
import * as q from './queries';
import * as svc from './service';

/** /api/stores/: the spec's store calls (full CRUD, add-/remove-experience, eligible-experiences, experiences), plus order and analytics. */
const manageStores: RouteAccess = { permissions: ['Manage stores'], features: ['stores'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const tags = ['stores'];

export function registerStores(untyped: FastifyInstance) {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  registerCrud(untyped, {
    path: '/api/stores/',
    tag: 'stores',
    noun: 'store',
    ...q.storeCrud,
    read: manageStores,
    write: manageStores,
    input: ZStoreInput,
    patch: patchOf(ZStoreInput),
    output: ZStore,
    values: (ctx, input, existing) => svc.storeValues(ctx, input, existing, Boolean(untyped.config.STRIPE_SECRET_KEY)),
    present: (ctx, rows) => svc.presentStores(ctx, app.config, rows),
    beforeDelete: svc.beforeDeleteStore,
    unique: { attr: 'slug', detail: 'Another store of yours has this address.' },
    inUse: 'This store has orders: deactivate it instead of deleting it.',
    csv: {
      file: 'stores',
      columns: [
        { header: 'name', value: (s) => s.name },
        { header: 'address', value: (s) => s.url },
        { header: 'active', value: (s) => (s.active ? 'yes' : 'no') },
        { header: 'currency', value: (s) => s.currency },
        { header: 'offers', value: (s) => s.experience_count },
        { header: 'payment_options', value: (s) => s.payment_options.join('; ') },
        { header: 'contact_email', value: (s) => s.contact_email },
        { header: 'created_at', value: (s) => s.created_at },
      ],
    },
  });

  const page = ZPaginationQuery;
  app.get(
    '/api/experiences/:id/channels/',
    {
      config: { access: manageStores },
      schema: { tags, summary: 'Where an offer is sold: every store of the organisation, each saying whether it shows the offer, and how many partners’ live contracts share it', params: ZIdParam, response: { 200: ZOfferChannels, ...errors } },
    },
    (request) => tenantScope(request, (ctx) => svc.offerChannels(ctx, app.config, request.params.id)),
  );
  app.get(
    '/api/stores/:id/experiences/',
    { config: { access: manageStores }, schema: { tags, summary: 'The store’s offers, in their order on the store page', params: ZIdParam, querystring: page, response: { 200: paginated(ZStoreExperience), ...errors } } },
    async (request) => {
      // The count in the tenant; the rows (a partner's offer is in its supplier's books) after it, by the store found.
      const { s, n } = await tenantScope(request, async (ctx) => ({ s: await svc.loadStore(ctx, request.params.id), n: await svc.countStoreExperiences(ctx, request.params.id) }));
      return paginate(request, request.query, async () => n, (limit, offset) => svc.storeExperiences(request.server.database.db, s, limit, offset));
    },
  );
  app.get(
    '/api/stores/:id/eligible-experiences/',
    {
      config: { access: manageStores },
      schema: { tags, summary: 'The offers the store does not show yet (the Global catalog tab): the organisation’s own, then its suppliers’ shared offers', params: ZIdParam, querystring: ZStoreAvailableQuery, response: { 200: paginated(ZStoreExperience), ...errors } },
    },
    async (request) => {
      const s = await tenantScope(request, (ctx) => svc.loadStore(ctx, request.params.id));
      const db = request.server.database.db;
      return paginate(request, request.query, () => svc.countEligible(db, s, request.query.search), (limit, offset) => svc.eligibleExperiences(db, s, request.query.search, limit, offset));
    },
  );
  app.post(
    '/api/stores/:id/add-experience/',
    { config: { access: manageStores }, schema: { tags, summary: 'Add one or many offers at the end of the store’s order', params: ZIdParam, body: ZStoreExperiencesInput, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const s = await tenantScope(request, (ctx) => svc.loadStore(ctx, request.params.id));
      const partners = await svc.resellable(request.server.database.db, s, request.body.experiences);
      await tenantScope(request, (ctx) => svc.addExperiences(ctx, request.params.id, request.body.experiences, partners));
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/stores/:id/remove-experience/',
    { config: { access: manageStores }, schema: { tags, summary: 'Take an offer off the store', params: ZIdParam, body: ZStoreExperienceInput, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => svc.removeExperience(ctx, request.params.id, request.body.experience));
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/stores/:id/reorder-experiences/',
    { config: { access: manageStores }, schema: { tags, summary: 'Put the store’s offers in a new order (every one, each once)', params: ZIdParam, body: ZStoreExperiencesInput, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => svc.reorderExperiences(ctx, request.params.id, request.body.experiences));
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/stores/:id/analytics/',
    { config: { access: manageStores }, schema: { tags, summary: 'Visits, carts, orders, seats, revenue and conversion per local day of a range', params: ZIdParam, querystring: ZStoreAnalyticsQuery, response: { 200: ZStoreAnalytics, ...errors } } },
    async (request) => {
      const me = principalOf(request);
      const { from, to } = request.query;
      const partnerCarts = to < from ? undefined : await svc.partnerCartsByDay(request.server.database.db, me.accountId, request.params.id, me.timeZone, from, to);
      return tenantScope(request, (ctx) => svc.storeAnalytics(ctx, request.params.id, from, to, partnerCarts));
    },
  );
}
