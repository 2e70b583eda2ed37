import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { paginated, ZErrorEnvelope, ZIdParam, ZPaginationQuery, type TPaginationQuery } from '@tourdesk/contracts';
import type { Db } from '../db/client';
import type { Jobs } from './jobs';
import { principalOf } from '../modules/auth/principal';
import type { RouteAccess } from './access';
import * as q from './crud-queries';
import type { CrudFilter, CrudTable, Row, TenantTable } from './crud-queries';
import { notFound } from './errors';
import { CSV_LIMIT, listCsv, sendCsv, type CsvColumn } from './list-export';
import { paginate } from './pagination';
import { inTenant, type TenantOptions } from './tenancy';

/**
 * Full create/read/update/delete for a simple tenant resource, following every convention:
 * paginated SQL list with search and filters, declared access, tenant transaction with RLS,
 * 404 for another tenant's ids, unique and in-use conflicts as clear errors.
 * Resources with richer rules (experiences, media) write their own service instead. This file
 * speaks HTTP; its queries are in crud-queries.ts, the spec's callbacks are the resource's rules.
 */

export interface TenantCtx {
  tx: Db;
  accountId: string;
  currency: string;
  /** The signed-in user acting (for the audit trail), when there is one. */
  userId?: string;
  /** The job queue, for work sent in this transaction (webhooks: modules/webhooks/events.ts); absent, it is swept up later. */
  jobs?: Jobs;
}

export interface CrudSpec<T extends TenantTable, TInput extends z.ZodType, TPatch extends z.ZodType, TOut extends z.ZodType> extends CrudTable<T> {
  /** '/api/pricing-categories/' */
  path: string;
  tag: string;
  noun: string;
  table: T;
  read: RouteAccess;
  write: RouteAccess;
  input: TInput;
  patch: TPatch;
  output: TOut;
  /** Columns the `search` parameter looks in (ILIKE). */
  search?: CrudTable<T>['search'];
  /** Filters from the query string: name → (value) → condition. */
  filters?: Record<string, CrudFilter & { schema: z.ZodType<string> }>;
  orderBy: CrudTable<T>['orderBy'];
  /** Input → column values (account_id is added here). May check references (throw AppError). */
  values: (ctx: TenantCtx, input: Partial<z.output<TInput>>, existing?: Row<T>) => Promise<Partial<T['$inferInsert']>>;
  /** Rows → responses; one call per page (so it may run one extra query, never one per row). */
  present: (ctx: TenantCtx, rows: Row<T>[]) => Promise<z.output<TOut>[]>;
  /** Refuse a deletion that would break something (throw AppError('conflict', …)). */
  beforeDelete?: (ctx: TenantCtx, row: Row<T>) => Promise<void>;
  /**
   * The list as CSV (`GET {path}export.csv`, the same filters and order): a column per entry, from
   * the presented rows; leave it out for a resource without an export.
   */
  csv?: { file: string; columns: CsvColumn<z.output<TOut>>[] };
  /** What a unique-index violation means, for the user. */
  unique?: { attr: string; detail: string };
  inUse?: string;
}

export function tenantScope<R>(request: FastifyRequest, fn: (ctx: TenantCtx) => Promise<R>, options?: TenantOptions) {
  const me = principalOf(request);
  return inTenant(request.server.database.db, me.accountId, (tx) => fn({ tx, accountId: me.accountId, currency: me.currency, userId: me.userId, jobs: request.server.jobs }), options);
}

/**
 * As tenantScope(), for a read that tolerates a moment's lag (a list, a report, the dashboard, a CSV
 * export): on the read replica's connections when DATABASE_READ_URL is set (`database.read`), in a
 * read-only transaction. Never for a read that decides a sale, a payment or an admission.
 */
export function tenantRead<R>(request: FastifyRequest, fn: (ctx: TenantCtx) => Promise<R>, options?: TenantOptions) {
  const me = principalOf(request);
  return inTenant(request.server.database.read, me.accountId, (tx) => fn({ tx, accountId: me.accountId, currency: me.currency, userId: me.userId }), { ...options, readOnly: true });
}

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };

export function registerCrud<T extends TenantTable, TInput extends z.ZodType, TPatch extends z.ZodType, TOut extends z.ZodType>(
  appIn: FastifyInstance,
  spec: CrudSpec<T, TInput, TPatch, TOut>,
) {
  // Generic over its schemas, so handlers see loosely typed requests; the zod schemas still
  // validate every request and serialise every response.
  const app = appIn;
  const tags = [spec.tag];

  async function load(ctx: TenantCtx, id: string): Promise<Row<T>> {
    const row = await q.findRow(ctx.tx, spec, ctx.accountId, id);
    if (!row) throw notFound(`No ${spec.noun} with this id.`);
    return row;
  }
  async function one(ctx: TenantCtx, id: string) {
    const [dto] = await spec.present(ctx, [await load(ctx, id)]);
    return dto!;
  }

  const filterShape = Object.fromEntries(Object.entries(spec.filters ?? {}).map(([k, f]) => [k, f.schema.optional()]));
  const listQuery = ZPaginationQuery.extend({ search: z.string().trim().max(100).optional(), ...filterShape });

  app.get(
    spec.path,
    { config: { access: spec.read }, schema: { tags, summary: `List ${spec.noun}s`, querystring: listQuery, response: { 200: paginated(spec.output), ...errors } } },
    (request) =>
      tenantScope(request, (ctx) => {
        const query = request.query as TPaginationQuery & Record<string, string | undefined>;
        const where = q.listWhere(spec, ctx.accountId, query);
        return paginate(
          request,
          query,
          () => q.countRows(ctx.tx, spec, where),
          (limit, offset) => pageOf(ctx, where, limit, offset),
        );
      }),
  );

  async function pageOf(ctx: TenantCtx, where: ReturnType<typeof q.listWhere>, limit: number, offset: number) {
    return spec.present(ctx, await q.pageRows(ctx.tx, spec, where, limit, offset));
  }

  if (spec.csv) {
    const csv = spec.csv;
    app.get(
      `${spec.path}export.csv`,
      { config: { access: spec.read }, schema: { tags, summary: `The ${spec.noun}s as CSV, filtered and ordered as the list (at most ${CSV_LIMIT})`, querystring: listQuery.omit({ page: true, page_size: true }), response: { 200: z.string(), ...errors } } },
      async (request, reply) => {
        // One snapshot for every page: rows written meanwhile neither repeat nor shift a page.
        const body = await tenantScope(
          request,
          (ctx) => {
            const where = q.listWhere(spec, ctx.accountId, request.query as Record<string, string | undefined>);
            return listCsv(csv.columns, (limit, offset) => pageOf(ctx, where, limit, offset));
          },
          { snapshot: true },
        );
        return sendCsv(reply, csv.file, body);
      },
    );
  }

  app.post(
    spec.path,
    { config: { access: spec.write }, schema: { tags, summary: `Create a ${spec.noun}`, body: spec.input, response: { 201: spec.output, ...errors } } },
    async (request, reply) => {
      const dto = await tenantScope(request, async (ctx) => {
        const values = await spec.values(ctx, request.body as z.output<TInput>);
        const row = await q.insertRow(ctx.tx, spec, ctx.accountId, values);
        return (await spec.present(ctx, [row]))[0];
      });
      return reply.status(201).send(dto);
    },
  );

  const itemPath = `${spec.path}:id/`;
  app.get(
    itemPath,
    { config: { access: spec.read }, schema: { tags, summary: `One ${spec.noun}`, params: ZIdParam, response: { 200: spec.output, ...errors } } },
    (request) => tenantScope(request, (ctx) => one(ctx, (request.params as { id: string }).id)),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: itemPath,
      config: { access: spec.write },
      schema: {
        tags,
        summary: method === 'PUT' ? `Replace a ${spec.noun}` : `Change some fields of a ${spec.noun}`,
        params: ZIdParam,
        body: method === 'PUT' ? spec.input : spec.patch,
        response: { 200: spec.output, ...errors },
      },
      handler: (request) =>
        tenantScope(request, async (ctx) => {
          const id = (request.params as { id: string }).id;
          const existing = await load(ctx, id);
          const values = await spec.values(ctx, request.body as Partial<z.output<TInput>>, existing);
          await q.updateRow(ctx.tx, spec, ctx.accountId, id, values);
          return one(ctx, id);
        }),
    });
  }

  app.delete(
    itemPath,
    { config: { access: spec.write }, schema: { tags, summary: `Delete a ${spec.noun}`, params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      const id = (request.params as { id: string }).id;
      await tenantScope(request, async (ctx) => {
        const row = await load(ctx, id);
        await spec.beforeDelete?.(ctx, row);
        await q.deleteRow(ctx.tx, spec, ctx.accountId, id);
      });
      return reply.status(204).send();
    },
  );
}

/** Only the keys that were sent: PATCH leaves the others alone. */
export function pick<T extends object, K extends keyof T>(input: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (input[k] !== undefined) out[k] = input[k];
  return out;
}
