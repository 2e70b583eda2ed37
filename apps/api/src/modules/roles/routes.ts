import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paginated, ZErrorEnvelope, ZIdParam, ZPaginationQuery, ZRole, ZRoleInput } from '@tourdesk/contracts';
import { sendCsv } from '../../lib/list-export';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const config = { access: { permissions: ['Manage users' as const], features: ['team'] } };
const tags = ['roles'];

export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/roles/',
    { config, schema: { tags, summary: 'Roles of the organisation', querystring: ZPaginationQuery, response: { 200: paginated(ZRole), ...errors } } },
    (request) => svc.listRoles(request, request.query),
  );
  app.get(
    '/api/roles/export.csv',
    { config, schema: { tags, summary: 'The roles as CSV: their permission sets and how many members hold each', response: { 200: z.string(), ...errors } } },
    async (request, reply) => sendCsv(reply, 'roles', await svc.rolesCsv(request)),
  );
  app.post(
    '/api/roles/',
    { config, schema: { tags, summary: 'Create a role', body: ZRoleInput, response: { 201: ZRole, ...errors } } },
    async (request, reply) => reply.status(201).send(await svc.createRole(request, request.body)),
  );
  app.get(
    '/api/roles/:id/',
    { config, schema: { tags, summary: 'One role', params: ZIdParam, response: { 200: ZRole, ...errors } } },
    (request) => svc.getRole(request, request.params.id),
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/roles/:id/',
      config,
      schema: { tags, summary: 'Rename a role or change its permission sets', params: ZIdParam, body: method === 'PUT' ? ZRoleInput : ZRoleInput.partial(), response: { 200: ZRole, ...errors } },
      handler: (request) => svc.updateRole(request, (request.params as { id: string }).id, request.body as Partial<z.infer<typeof ZRoleInput>>),
    });
  }
  app.delete(
    '/api/roles/:id/',
    { config, schema: { tags, summary: 'Delete a role no member holds', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await svc.deleteRole(request, request.params.id);
      return reply.status(204).send();
    },
  );
};
