import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  IMAGE_LIMITS,
  paginated,
  ZErrorEnvelope,
  ZIdParam,
  ZImage,
  ZImageCreate,
  ZImageListQuery,
  ZImageMove,
  ZVideo,
  ZVideoInput,
  ZVideoListQuery,
  ZVideoRename,
  type TImageListQuery,
  type TVideoListQuery,
} from '@tourdesk/contracts';
import { tenantScope } from '../../lib/crud';
import type { Storage } from '../../lib/storage';
import { paginate } from '../../lib/pagination';
import { manageCatalog, viewCatalog } from '../catalog/access';
import * as images from './images';
import type { InTenant } from './images';
import * as videos from './videos';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

/** The request's tenant transaction, for a service whose steps span more than one (see InTenant). */
const scope = (request: FastifyRequest): InTenant => (fn) => tenantScope(request, fn);

const imageErrors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 413: ZErrorEnvelope, 415: ZErrorEnvelope };

export function registerImages(app: FastifyInstance) {
  const tags = ['media'];
  const errors = imageErrors;
  // Uploads arrive as the file's raw bytes (PATCH to the image's upload_url).
  app.addContentTypeParser(['application/octet-stream', 'image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/avif', 'image/tiff'], { parseAs: 'buffer', bodyLimit: IMAGE_LIMITS.maxBytes }, (_req, body, done) => done(null, body));

  app.get(
    '/api/images/',
    {
      config: { access: viewCatalog },
      schema: {
        tags,
        summary: 'Images, by experience or folder',
        querystring: ZImageListQuery,
        response: { 200: paginated(ZImage), ...errors },
      },
    },
    (request) =>
      tenantScope(request, (ctx) => {
        const q = request.query as TImageListQuery;
        const filter = { experience: q.experience, folder: q.folder };
        return paginate(
          request,
          q,
          () => images.countImages(ctx, filter),
          (limit, offset) => images.pageImages(ctx, filter, limit, offset),
        );
      }),
  );

  app.post(
    '/api/images/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Announce an upload: answers the URL to PATCH the file to', body: ZImageCreate, response: { 201: ZImage, ...errors } } },
    async (request, reply) => {
      const body = request.body as z.infer<typeof ZImageCreate>;
      return reply.status(201).send(await tenantScope(request, (ctx) => images.createImage(ctx, body)));
    },
  );

  app.patch(
    '/api/images/:id/upload/',
    {
      config: { access: manageCatalog },
      bodyLimit: IMAGE_LIMITS.maxBytes,
      schema: { tags, summary: 'Upload the file (raw bytes, at most 10 MB)', params: ZIdParam, response: { 200: ZImage, ...errors } },
    },
    (request) => images.uploadImage(scope(request), request.server.storage, request.principal!.accountId, (request.params as { id: string }).id, request.body),
  );

  app.get(
    '/api/images/:id/',
    { config: { access: viewCatalog }, schema: { tags, summary: 'One image', params: ZIdParam, response: { 200: ZImage, ...errors } } },
    (request) => tenantScope(request, (ctx) => images.getImage(ctx, (request.params as { id: string }).id)),
  );

  app.patch(
    '/api/images/:id/',
    {
      config: { access: manageCatalog },
      schema: { tags, summary: 'Move an image to a folder', params: ZIdParam, body: ZImageMove, response: { 200: ZImage, ...errors } },
    },
    (request) => tenantScope(request, (ctx) => images.moveImage(ctx, (request.params as { id: string }).id, (request.body as { folder: string | null }).folder)),
  );

  app.delete(
    '/api/images/:id/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Delete an image and its files', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await images.deleteImage(scope(request), request.server.storage, (request.params as { id: string }).id);
      return reply.status(204).send();
    },
  );

  // Files are public (the web store shows them) and their keys are random and never reused.
  app.get(
    '/api/media/*',
    { config: { access: { public: true, reason: 'pictures shown in the public web store' } }, schema: { hide: true } },
    async (request, reply) => {
      const file = await images.mediaFile(request.server.storage, (request.params as { '*': string })['*']);
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-length', file.size)
        .type(file.type)
        .send(file.stream);
    },
  );
}

const videoErrors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };

export function registerVideos(app: FastifyInstance) {
  const tags = ['media'];
  const errors = videoErrors;
  app.get(
    '/api/videos/',
    {
      config: { access: viewCatalog },
      schema: { tags, summary: 'Videos', querystring: ZVideoListQuery, response: { 200: paginated(ZVideo), ...errors } },
    },
    (request) =>
      tenantScope(request, (ctx) => {
        const q = request.query as TVideoListQuery;
        return paginate(
          request,
          q,
          () => videos.countVideos(ctx, q.experience),
          (limit, offset) => videos.pageVideos(ctx, q.experience, limit, offset),
        );
      }),
  );
  app.post(
    '/api/videos/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Add a video by its URL', body: ZVideoInput, response: { 201: ZVideo, ...errors } } },
    async (request, reply) => reply.status(201).send(await videos.saveVideo(scope(request), request.server.config, request.body as z.infer<typeof ZVideoInput>)),
  );
  app.get(
    '/api/videos/:id/',
    { config: { access: viewCatalog }, schema: { tags, summary: 'One video', params: ZIdParam, response: { 200: ZVideo, ...errors } } },
    (request) => tenantScope(request, (ctx) => videos.getVideo(ctx, (request.params as { id: string }).id)),
  );
  app.put(
    '/api/videos/:id/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Replace a video', params: ZIdParam, body: ZVideoInput, response: { 200: ZVideo, ...errors } } },
    (request) => videos.saveVideo(scope(request), request.server.config, request.body as z.infer<typeof ZVideoInput>, (request.params as { id: string }).id),
  );
  app.patch(
    '/api/videos/:id/',
    {
      config: { access: manageCatalog },
      schema: { tags, summary: 'Rename a video', params: ZIdParam, body: ZVideoRename, response: { 200: ZVideo, ...errors } },
    },
    (request) => tenantScope(request, (ctx) => videos.renameVideo(ctx, (request.params as { id: string }).id, (request.body as { title: string }).title)),
  );
  app.delete(
    '/api/videos/:id/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Remove a video', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => videos.deleteVideo(ctx, (request.params as { id: string }).id));
      return reply.status(204).send();
    },
  );
}
