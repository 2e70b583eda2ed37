import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZHealth, ZHealthLive, ZHealthReady } from '@tourdesk/contracts';
import { checkHealth, checkLive, createReadiness } from './service';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const access = { public: true, reason: 'load balancer and uptime checks' } as const;
  app.get(
    '/api/health/',
    {
      config: { access },
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

  // Each probe with its slash (the house's paths) and without (as load balancers are set up: the
  // issue's /api/health/ready); the twin is hidden from the document.
  for (const [path, hide] of [['/api/health/live/', false], ['/api/health/live', true]] as const) app.get(
    path,
    {
      config: { access },
      schema: {
        hide,
        tags: ['system'],
        summary: 'Liveness: the process runs (never asks the database)',
        response: { 200: ZHealthLive, 500: ZErrorEnvelope },
      },
    },
    async () => checkLive(),
  );

  const checkReady = createReadiness(app.database, () => app.lifecycle.shuttingDown);
  for (const [path, hide] of [['/api/health/ready/', false], ['/api/health/ready', true]] as const) app.get(
    path,
    {
      config: { access },
      schema: {
        hide,
        tags: ['system'],
        summary: 'Readiness: database reachable, migrations current, not shutting down (503 otherwise)',
        response: { 200: ZHealthReady, 503: ZHealthReady, 500: ZErrorEnvelope },
      },
    },
    async (_request, reply) => {
      const ready = await checkReady();
      return reply.status(ready.status === 'ready' ? 200 : 503).send(ready);
    },
  );
};
