import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paginated, ZErrorEnvelope, ZIdParam, ZPaginationQuery, ZRole, ZRoleInput } from '@tourdesk/contracts';
import { tenantScope } from '../../lib/crud';
import { sendCsv } from '../../lib/list-export';
import { paginate } from '../../lib/pagination';
import { principalOf } from '../auth/principal';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const config = { access: { permissions: ['Manage users' as const], features: ['team'] } };
const tags = ['roles'];

export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/roles/',
    { config, schema: { tags, summary: 'Roles of the organisation', querystring: ZPaginationQuery, response: { 200: paginated(ZRole), ...errors } } },
    (request) =>
      tenantScope(request, (ctx) =>
        paginate(
          request,
          request.query,
          () => svc.countRoles(ctx),
          (limit, offset) => svc.rolePage(ctx, limit, offset),
        ),
      ),
  );
  app.get(
    '/api/roles/export.csv',
    { config, schema: { tags, summary: 'The roles as CSV: their permission sets and how many members hold each', response: { 200: z.string(), ...errors } } },
    async (request, reply) => sendCsv(reply, 'roles', await tenantScope(request, (ctx) => svc.rolesCsv(ctx), { snapshot: true })),
  );
  app.post(
    '/api/roles/',
    { config, schema: { tags, summary: 'Create a role', body: ZRoleInput, response: { 201: ZRole, ...errors } } },
    async (request, reply) => reply.status(201).send(await tenantScope(request, (ctx) => svc.createRole(ctx, principalOf(request), request.body))),
  );
  app.get(
    '/api/roles/:id/',
    { config, schema: { tags, summary: 'One role', params: ZIdParam, response: { 200: ZRole, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.getRole(ctx, request.params.id)),
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/roles/:id/',
      config,
      schema: { tags, summary: 'Rename a role or change its permission sets', params: ZIdParam, body: method === 'PUT' ? ZRoleInput : ZRoleInput.partial(), response: { 200: ZRole, ...errors } },
      handler: (request) =>
        tenantScope(request, (ctx) => svc.updateRole(ctx, principalOf(request), (request.params as { id: string }).id, request.body as Partial<z.infer<typeof ZRoleInput>>)),
    });
  }
  app.delete(
    '/api/roles/:id/',
    { config, schema: { tags, summary: 'Delete a role no member holds', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => svc.deleteRole(ctx, request.params.id));
      return reply.status(204).send();
    },
  );
};
