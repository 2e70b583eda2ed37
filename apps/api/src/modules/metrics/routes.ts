import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors';
import { registry } from '../../lib/metrics';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `GET /metrics` for Prometheus (text exposition format 0.0.4). Not for the internet: it answers only
 * a scrape that sends `Authorization: Bearer <METRICS_TOKEN>`, and 404 while METRICS_TOKEN is unset.
 */
export async function metricsRoutes(app: FastifyInstance) {
  app.get(
    '/metrics',
    {
      // Outside /api/ and the session guard: its own bearer token, checked here.
      config: { access: { public: true, reason: 'Prometheus scrape, guarded by its own bearer token (METRICS_TOKEN)' } },
      schema: { hide: true },
    },
    async (request, reply) => {
      const token = app.config.METRICS_TOKEN;
      if (!token) throw new AppError('not_found', 'Not found.');
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (!sameToken(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError('not_authenticated', 'A scrape of /metrics sends its bearer token (METRICS_TOKEN).');
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
}
