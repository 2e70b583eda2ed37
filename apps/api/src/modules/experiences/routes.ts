import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paginated,
  ZErrorEnvelope,
  ZExperience,
  ZExperienceCreate,
  ZExperienceListQuery,
  ZExperiencePatch,
  ZExperienceSummary,
  ZExperienceUpdate,
  ZIdParam,
  ZPaginationQuery,
  ZReorderImages,
} from '@tourdesk/contracts';
import { tenantScope } from '../../lib/crud';
import { sendCsv } from '../../lib/list-export';
import { paginate } from '../../lib/pagination';
import { manageCatalog, viewCatalog } from '../catalog/access';
import * as svc from './service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const tags = ['experiences'];

export const experienceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/experiences/',
    {
      config: { access: viewCatalog },
      schema: {
        tags,
        summary: 'The catalogue of experiences ("Offers")',
        querystring: ZPaginationQuery.extend(ZExperienceListQuery.shape),
        response: { 200: paginated(ZExperienceSummary), ...errors },
      },
    },
    (request) =>
      tenantScope(request, (ctx) =>
        paginate(
          request,
          request.query,
          () => svc.countExperiences(ctx, request.query),
          (limit, offset) => svc.pageExperiences(ctx, request.query, limit, offset),
        ),
      ),
  );
  app.get(
    '/api/experiences/export.csv',
    {
      config: { access: viewCatalog },
      schema: { tags, summary: 'The catalogue as CSV, filtered and ordered as the list', querystring: ZExperienceListQuery, response: { 200: z.string(), ...errors } },
    },
    async (request, reply) => sendCsv(reply, 'offers', await tenantScope(request, (ctx) => svc.experiencesCsv(ctx, request.query), { snapshot: true })),
  );
  app.post(
    '/api/experiences/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Create an experience (as a Draft)', body: ZExperienceCreate, response: { 201: ZExperience, ...errors } } },
    async (request, reply) => reply.status(201).send(await tenantScope(request, (ctx) => svc.createExperience(ctx, request.body))),
  );
  app.get(
    '/api/experiences/:id/',
    { config: { access: viewCatalog }, schema: { tags, summary: 'One experience with its media and prices', params: ZIdParam, response: { 200: ZExperience, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.getExperience(ctx, request.params.id)),
  );
  app.put(
    '/api/experiences/:id/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Replace an experience’s fields', params: ZIdParam, body: ZExperienceUpdate, response: { 200: ZExperience, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.updateExperience(ctx, request.params.id, request.body)),
  );
  app.patch(
    '/api/experiences/:id/',
    {
      config: { access: manageCatalog },
      schema: { tags, summary: 'Change some fields, or the status (Draft → Active needs a description, a price and an image)', params: ZIdParam, body: ZExperiencePatch, response: { 200: ZExperience, ...errors } },
    },
    (request) => tenantScope(request, (ctx) => svc.updateExperience(ctx, request.params.id, request.body)),
  );
  app.delete(
    '/api/experiences/:id/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Delete an experience', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await svc.deleteExperience((fn) => tenantScope(request, fn), request.server.storage, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/experiences/:id/duplicate/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Copy an experience as a Draft', params: ZIdParam, response: { 201: ZExperience, ...errors } } },
    async (request, reply) => reply.status(201).send(await tenantScope(request, (ctx) => svc.duplicateExperience(ctx, request.server.storage, request.params.id))),
  );
  app.patch(
    '/api/experiences/:id/reorder-images/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Put the images in a new order (every image exactly once)', params: ZIdParam, body: ZReorderImages, response: { 200: ZExperience, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.reorderExperienceImages(ctx, request.params.id, request.body.images)),
  );
};
