import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZHealth } from '@tourdesk/contracts';
import { checkHealth } from './service';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health/',
    {
      config: { access: { public: true, reason: 'load balancer and uptime checks' } },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: { 200: ZHealth, 503: ZHealth, 500: ZErrorEnvelope },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth(app.database);
      return reply.status(health.status === 'ok' ? 200 : 503).send(health);
    },
  );
};
