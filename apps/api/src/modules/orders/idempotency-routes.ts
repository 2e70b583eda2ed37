import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TenantCtx } from '../../lib/crud';
import { runOnce } from './idempotency';

/**
 * The HTTP edge of `Idempotency-Key` (idempotency.ts has the rule), for the routes of order create,
 * payment create and checkout: reads the header, the path and the body, and answers with the
 * status, and `Idempotent-Replayed: true` on a replay. Without the header, `run` just runs.
 */
export async function idempotent<T>(
  ctx: TenantCtx,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  /** The status of a success: a number, or worked out from the result (a refund still pending at the provider: 202). */
  statusOf: number | ((result: T) => number),
  run: () => Promise<T>,
): Promise<T> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) {
    const result = await run();
    reply.status(typeof statusOf === 'number' ? statusOf : statusOf(result));
    return result;
  }
  const key = Array.isArray(header) ? header[0]! : header;
  const answer = await runOnce(ctx, scope, { key, path: request.url.split('?')[0]!, body: request.body }, statusOf, run);
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  reply.status(answer.status);
  return answer.result;
}
