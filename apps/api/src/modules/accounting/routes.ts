import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAccountingPeriod, ZAccountingSummary, ZErrorEnvelope } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { principalOf } from '../auth/principal';
import * as accounting from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };
/**
 * The export shows invoices, credit notes, payments and statements: what 'Manage orders' already
 * covers (its codenames include the orders', their payments' and view_resale) with the plan feature
 * of the orders' invoices ('bookings'). An Owner holds every set.
 */
const access: RouteAccess = { permissions: ['Manage orders'], features: ['bookings'] };

export const accountingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/accounting/summary/',
    { config: { access }, schema: { tags: ['accounting'], summary: 'What the period’s export holds: journal rows per category, invoices and credit notes', querystring: ZAccountingPeriod, response: { 200: ZAccountingSummary, ...errors } } },
    (request) => tenantScope(request, (ctx) => accounting.summary(ctx, request.query, principalOf(request).timeZone)),
  );
  app.get(
    '/api/accounting/journal.csv',
    {
      config: { access },
      schema: {
        tags: ['accounting'],
        summary: 'The period’s journal as CSV (dates in the organisation’s zone, both included): sales and credit notes per line and VAT rate, payments and refunds by method, fees, partner commissions',
        querystring: ZAccountingPeriod,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const rows = await tenantScope(request, (ctx) => accounting.journal(ctx, request.query));
      const body = accounting.journalCsv(await accounting.namePartners(request.server.database.db, rows));
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="journal-${from}-${to}.csv"`).send(body);
    },
  );
  app.get(
    '/api/accounting/documents.zip',
    { config: { access }, schema: { tags: ['accounting'], summary: 'The period’s invoices and credit notes as one ZIP of PDFs, each named by its number (streamed)', querystring: ZAccountingPeriod, response: { 200: z.any(), ...errors } } },
    async (request, reply) => {
      const { from, to } = request.query;
      const run: accounting.TenantRunner = (fn) => tenantScope(request, fn);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="documents-${from}-${to}.zip"`)
        .send(Readable.from(accounting.documentsZip(run, request.query)));
    },
  );
};
