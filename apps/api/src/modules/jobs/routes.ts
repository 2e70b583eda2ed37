import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { paginated, ZErrorEnvelope, ZFailedJob, ZPaginationQuery, type TFailedJob } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { AppError, notFound } from '../../lib/errors';
import { JOB_SCHEMA, QUEUES } from '../../lib/jobs';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';

/**
 * The organisation's failed jobs (e-mails whose retries are spent), for its Owners: what it was,
 * to whom, how often it was tried and why it failed; "Send again" puts it back in the queue.
 * Read from pg-boss's table, by the index job_failed_by_account (lib/jobs.ts).
 */
const ownersOnly: RouteAccess = { permissions: ['Manage account'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };
const failed = (account: string) => sql`state = 'failed' and data->>'account' = ${account}`;

interface FailedRow {
  id: string;
  name: string;
  subject: string | null;
  recipient: string | null;
  retry_count: number;
  output: { message?: string } | null;
  created_on: Date | string;
  completed_on: Date | string | null;
}
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const present = (r: FailedRow): TFailedJob => ({
  id: r.id,
  queue: r.name,
  summary: r.subject ?? r.name,
  recipient: r.recipient,
  attempts: Number(r.retry_count) + 1,
  error: r.output?.message ?? 'failed',
  created_at: iso(r.created_on)!,
  failed_at: iso(r.completed_on),
});

export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  const ownerOf = (request: Parameters<typeof principalOf>[0]) => {
    const me = principalOf(request);
    if (!me.isOwner) throw new AppError('permission_denied', 'Only an Owner sees the organisation’s failed jobs.');
    return me;
  };
  app.get(
    '/api/jobs/failed/',
    {
      config: { access: ownersOnly },
      schema: { tags: ['system'], summary: 'The organisation’s failed jobs (e-mails never delivered), newest first; Owners only', querystring: ZPaginationQuery, response: { 200: paginated(ZFailedJob), ...errors } },
    },
    async (request) => {
      const me = ownerOf(request);
      const db = app.database.db;
      return paginate(
        request,
        request.query,
        async () => Number(((await db.execute(sql`select count(*)::int as n from ${sql.raw(JOB_SCHEMA)}.job where ${failed(me.accountId)}`)) as unknown as { rows: { n: number }[] }).rows[0]!.n),
        async (limit, offset) =>
          ((await db.execute(sql`
            select id, name, data->>'subject' as subject, data->>'to' as recipient, retry_count, output, created_on, completed_on
            from ${sql.raw(JOB_SCHEMA)}.job where ${failed(me.accountId)}
            order by completed_on desc nulls last, id limit ${limit} offset ${offset}`)) as unknown as { rows: FailedRow[] }).rows.map(present),
      );
    },
  );
  app.post(
    '/api/jobs/failed/:id/retry/',
    {
      config: { access: ownersOnly },
      schema: { tags: ['system'], summary: 'Send a failed job again (its retries start over); Owners only', params: z.object({ id: z.uuid() }), response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const me = ownerOf(request);
      const rows = ((await app.database.db.execute(sql`select name from ${sql.raw(JOB_SCHEMA)}.job where id = ${request.params.id}::uuid and ${failed(me.accountId)}`)) as unknown as { rows: { name: string }[] }).rows;
      const queue = Object.values(QUEUES).find((q) => q.name === rows[0]?.name);
      if (!queue) throw notFound('No failed job with this id.');
      await app.jobs.retry(queue, request.params.id);
      app.jobs.wake(queue);
      return reply.status(204).send(null);
    },
  );
};
