import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paginated,
  ZErrorEnvelope,
  ZHelpVideo,
  ZHelpVideoInput,
  ZHelpVideoListQuery,
  ZHelpVideoPatch,
  ZIdParam,
  ZPaginationQuery,
} from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { paginate } from '../../lib/pagination';
import * as helpVideos from './service';

/** Everyone in the organisation watches its help videos; who manages the account keeps them. */
const watch: RouteAccess = { permissions: [] };
const keep: RouteAccess = { permissions: ['Manage account'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };
const tags = ['help videos'];

/** Help videos (see service.ts): the organisation's own videos, each for the page where it helps. */
export const helpVideoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/help-videos/',
    {
      config: { access: watch },
      schema: { tags, summary: 'The organisation’s help videos, for one page or all, in their order', querystring: ZPaginationQuery.extend(ZHelpVideoListQuery.shape), response: { 200: paginated(ZHelpVideo), ...errors } },
    },
    (request) =>
      tenantScope(request, (ctx) =>
        paginate(
          request,
          request.query,
          () => helpVideos.countHelpVideos(ctx, request.query.topic),
          (limit, offset) => helpVideos.pageHelpVideos(ctx, request.query.topic, limit, offset),
        ),
      ),
  );
  app.post(
    '/api/help-videos/',
    { config: { access: keep }, schema: { tags, summary: 'Add a help video to a page by its address (title and thumbnail looked up)', body: ZHelpVideoInput, response: { 201: ZHelpVideo, ...errors } } },
    async (request, reply) => reply.status(201).send(await helpVideos.createHelpVideo((fn) => tenantScope(request, fn), request.server.config, request.body)),
  );
  app.get(
    '/api/help-videos/:id/',
    { config: { access: watch }, schema: { tags, summary: 'One help video', params: ZIdParam, response: { 200: ZHelpVideo, ...errors } } },
    (request) => tenantScope(request, (ctx) => helpVideos.getHelpVideo(ctx, request.params.id)),
  );
  app.patch(
    '/api/help-videos/:id/',
    { config: { access: keep }, schema: { tags, summary: 'Rename a help video or move it to another page', params: ZIdParam, body: ZHelpVideoPatch, response: { 200: ZHelpVideo, ...errors } } },
    (request) => tenantScope(request, (ctx) => helpVideos.updateHelpVideo(ctx, request.params.id, request.body)),
  );
  app.delete(
    '/api/help-videos/:id/',
    { config: { access: keep }, schema: { tags, summary: 'Remove a help video', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => helpVideos.deleteHelpVideo(ctx, request.params.id));
      return reply.status(204).send();
    },
  );
};
