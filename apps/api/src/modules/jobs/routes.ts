import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paginated, ZErrorEnvelope, ZFailedJob, ZIdParam, ZPaginationQuery } from '@tourdesk/contracts';
import type { FastifyRequest } from 'fastify';
import type { RouteAccess } from '../../lib/access';
import { AppError, notFound } from '../../lib/errors';
import { QUEUES } from '../../lib/jobs';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import { failedCount, failedPage, retryFailed } from './service';

/**
 * The organisation's failed jobs (e-mails whose retries are spent), for its Owners: what it was,
 * to whom, how often it was tried and why it failed; "Send again" puts it back in the queue with
 * its retries from zero. Neither the body nor its links leave the server.
 */
const ownersOnly: RouteAccess = { permissions: ['Manage account'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };

function ownerOf(request: FastifyRequest) {
  const me = principalOf(request);
  if (!me.isOwner) throw new AppError('permission_denied', 'Only an Owner sees the organisation’s failed jobs.');
  return me;
}

export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
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
        () => failedCount(db, me.accountId),
        (limit, offset) => failedPage(db, me.accountId, limit, offset),
      );
    },
  );
  app.post(
    '/api/jobs/failed/:id/retry/',
    {
      config: { access: ownersOnly },
      schema: { tags: ['system'], summary: 'Send a failed job again, its retries counted from zero; Owners only', params: ZIdParam, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const me = ownerOf(request);
      const name = await retryFailed(app.database.db, me.accountId, request.params.id);
      const queue = Object.values(QUEUES).find((q) => q.name === name);
      if (!queue) throw notFound('No failed job with this id.');
      app.jobs.wake(queue);
      return reply.status(204).send(null);
    },
  );
};
