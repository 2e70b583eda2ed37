import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { markScopePublic } from '../lib/access';
import pkg from '../../package.json' with { type: 'json' };

/**
 * The OpenAPI 3.1 document is generated from the same zod schemas that validate requests
 * and serialise responses. `GET /api/schema/` serves it; `/api/docs/` browses it.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tourdesk API',
        description: 'Back-office and booking API for tour and activity operators.',
        version: pkg.version,
      },
      servers: [],
      components: {
        securitySchemes: {
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'access_token' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  await app.register(async (scope) => {
    markScopePublic(scope, 'API documentation');
    // Its page loads its scripts from files: the back office's policy (no inline script) holds.
    await scope.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  });

  app.get(
    '/api/schema/',
    { schema: { hide: true }, config: { access: { public: true, reason: 'API description' } } },
    async () => app.swagger(),
  );
}
