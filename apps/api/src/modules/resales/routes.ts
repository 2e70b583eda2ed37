import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paginated, ZCounterOffer, ZCounterOfferSummary, ZCounterSaleInput, ZCounterSlotsQuery, ZErrorEnvelope, ZIdParam, ZPaginationQuery, ZResaleDetail, ZSlot, ZResaleFilterOptions, ZResaleList, ZResaleListQuery, ZSettlement, ZSettlementCreate, ZSettlementDetail, ZSettlementListQuery } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { sendCsv } from '../../lib/list-export';
import { QUEUES } from '../../lib/jobs';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import * as counter from './counter';
import * as resales from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
/**
 * Both sides read resales with 'Manage orders' (its codenames include view_resale) and the plan
 * feature 'resales'. Statements move money between organisations and mark orders' lines, so making,
 * listing and settling them needs the same set: it is the orders' (and their payments') set, where
 * 'Manage stores' is about shop fronts and has nothing to do with money owed.
 */
const access: RouteAccess = { permissions: ['Manage orders'], features: ['resales'] };

/**
 * Selling a partner's offer at the counter is a sale like the checkout's (Manage cart and Manage
 * orders), of a resale (the plan feature 'resales').
 */
const counterAccess: RouteAccess = { permissions: ['Manage cart', 'Manage orders'], features: ['resales'] };

function ctxOf(request: FastifyRequest): resales.ResaleCtx {
  const me = principalOf(request);
  return { db: request.server.database.db, accountId: me.accountId, userId: me.userId, timeZone: me.timeZone };
}

export const resaleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/resales/counter/offers/',
    { config: { access: counterAccess }, schema: { tags: ['resales'], summary: 'The partners’ offers this organisation may sell at its counter (shared under an Active contract)', querystring: ZPaginationQuery, response: { 200: paginated(ZCounterOfferSummary), ...errors } } },
    (request) => {
      const me = principalOf(request);
      const db = request.server.database.db;
      return paginate(request, request.query, () => counter.countCounterOffers(db, me.accountId), (limit, offset) => counter.counterOffers(db, me.accountId, limit, offset));
    },
  );
  app.get(
    '/api/resales/counter/offers/:id/',
    { config: { access: counterAccess }, schema: { tags: ['resales'], summary: 'A partner’s offer with what its booking asks (categories, extras, questions) and the contract’s terms', params: ZIdParam, response: { 200: ZCounterOffer, ...errors } } },
    (request) => counter.counterOffer(request.server.database.db, principalOf(request).accountId, request.params.id),
  );
  app.get(
    '/api/resales/counter/offers/:id/slots/',
    { config: { access: counterAccess }, schema: { tags: ['resales'], summary: 'A partner’s offer’s departures between two local dates, with seats left and prices, on the days its contract is valid', params: ZIdParam, querystring: ZCounterSlotsQuery, response: { 200: z.array(ZSlot), ...errors } } },
    (request) => counter.counterSlots(request.server.database.db, principalOf(request).accountId, request.params.id, request.query.from, request.query.to),
  );
  app.post(
    '/api/resales/counter/',
    {
      config: { access: counterAccess },
      schema: {
        tags: ['resales'],
        summary: 'Sell a partner’s offer at the counter: booked at once in the supplier’s books from its seats, named as this organisation’s resale (the order is the supplier’s: the answer is the resale)',
        body: ZCounterSaleInput,
        response: { 201: ZResaleDetail, ...errors },
      },
    },
    async (request, reply) => {
      const me = principalOf(request);
      const sold = await counter.sellAtCounter({ db: request.server.database.db, accountId: me.accountId, userId: me.userId, timeZone: me.timeZone, name: me.email }, request.server.jobs, request.body);
      if (request.body.send_confirmation) request.server.jobs.wake(QUEUES.orderMail);
      return reply.status(201).send(sold);
    },
  );

  app.get(
    '/api/resales/',
    {
      config: { access },
      schema: {
        tags: ['resales'],
        summary: 'Resold lines: as supplier (what partners sold of my offers), as reseller (what I sold of partners’ offers), or both; filtered, paged in SQL, with totals',
        querystring: ZResaleListQuery,
        response: { 200: ZResaleList, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const { page, page_size, ...filters } = request.query;
      const found = await resales.listResales(ctx, filters, { limit: page_size, offset: (page - 1) * page_size });
      const envelope = await paginate(
        request,
        { page, page_size },
        async () => found.count,
        async () => found.results,
      );
      return { ...envelope, totals: found.totals };
    },
  );
  app.get(
    '/api/resales/export.csv',
    { config: { access }, schema: { tags: ['resales'], summary: 'The resold lines (filtered and ordered as the list) as CSV', querystring: ZResaleListQuery, response: { 200: z.string(), ...errors } } },
    async (request, reply) => sendCsv(reply, 'resales', await resales.resalesCsv(ctxOf(request), request.query)),
  );
  app.get(
    '/api/resales/filter-options/',
    { config: { access }, schema: { tags: ['resales'], summary: 'The partners, offers and stores that occur in this organisation’s resales', response: { 200: ZResaleFilterOptions, ...errors } } },
    (request) => resales.filterOptions(ctxOf(request)),
  );
  app.get(
    '/api/resales/:id/',
    { config: { access }, schema: { tags: ['resales'], summary: 'One resale order (by order id) with its lines and the commission of each', params: ZIdParam, response: { 200: ZResaleDetail, ...errors } } },
    (request) => resales.resaleDetail(ctxOf(request), request.params.id),
  );

  app.get(
    '/api/settlements/',
    { config: { access }, schema: { tags: ['resales'], summary: 'Settlement statements of either side’s partnerships', querystring: ZSettlementListQuery, response: { 200: paginated(ZSettlement), ...errors } } },
    (request) => {
      const ctx = ctxOf(request);
      const { page, page_size, ...f } = request.query;
      return paginate(
        request,
        { page, page_size },
        () => resales.countSettlements(ctx, f),
        (limit, offset) => resales.pageSettlements(ctx, f, limit, offset),
      );
    },
  );
  app.get(
    '/api/settlements/export.csv',
    { config: { access }, schema: { tags: ['resales'], summary: 'The statements (filtered as the list) as CSV, with their figures and who owes whom', querystring: ZSettlementListQuery.omit({ page: true, page_size: true }), response: { 200: z.string(), ...errors } } },
    async (request, reply) => sendCsv(reply, 'statements', await resales.settlementsCsv(ctxOf(request), request.query)),
  );
  app.post(
    '/api/settlements/',
    {
      config: { access },
      schema: {
        tags: ['resales'],
        summary: 'The supplier makes a statement of a partnership for a period of slot dates: it freezes and marks every unsettled line in it',
        body: ZSettlementCreate,
        response: { 201: ZSettlementDetail, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await resales.createSettlement(ctxOf(request), request.body)),
  );
  app.get(
    '/api/settlements/:id/',
    { config: { access }, schema: { tags: ['resales'], summary: 'One statement with its lines', params: ZIdParam, response: { 200: ZSettlementDetail, ...errors } } },
    (request) => resales.settlementDetail(ctxOf(request), request.params.id),
  );
  app.get(
    '/api/settlements/:id/export.csv',
    { config: { access }, schema: { tags: ['resales'], summary: 'The statement as CSV', params: ZIdParam, response: { 200: z.string(), ...errors } } },
    async (request, reply) => {
      const s = await resales.settlementDetail(ctxOf(request), request.params.id);
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="statement-${s.number}.csv"`).send(resales.settlementCsv(s));
    },
  );
  app.get(
    '/api/settlements/:id/statement.pdf',
    { config: { access }, schema: { tags: ['resales'], summary: 'The statement as PDF', params: ZIdParam, response: { 200: z.any(), ...errors } } },
    async (request, reply) => {
      const s = await resales.settlementDetail(ctxOf(request), request.params.id);
      const pdf = await resales.settlementPdf(s);
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="statement-${s.number}.pdf"`).send(Buffer.from(pdf));
    },
  );
  app.post(
    '/api/settlements/:id/settle/',
    {
      config: { access },
      schema: { tags: ['resales'], summary: 'Mark a statement settled (final): by the side that receives the money', params: ZIdParam, response: { 200: ZSettlementDetail, ...errors } },
    },
    (request) => resales.settle(ctxOf(request), request.params.id),
  );
};
