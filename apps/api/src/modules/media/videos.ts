import { and, asc, count, eq, isNull, max } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { paginated, ZErrorEnvelope, ZIdParam, ZPaginationQuery, ZVideo, ZVideoInput, type TVideo } from '@tourdesk/contracts';
import type { Config } from '../../config';
import { experience, video } from '../../db/schema';
import { tenantScope, type TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { paginate } from '../../lib/pagination';
import { manageCatalog, viewCatalog } from '../catalog/access';

type VideoRow = typeof video.$inferSelect;

export const presentVideo = (r: VideoRow): TVideo => ({
  id: r.id,
  url: r.url,
  experience: r.experience_id,
  provider: r.provider,
  title: r.title,
  thumbnail_url: r.thumbnail_url,
  position: r.position,
  notice: r.notice,
});

const PROVIDERS: { name: string; hosts: RegExp; endpoint: string }[] = [
  { name: 'YouTube', hosts: /(^|\.)youtube\.com$|(^|\.)youtu\.be$/, endpoint: 'https://www.youtube.com/oembed?format=json&url={url}' },
  { name: 'Vimeo', hosts: /(^|\.)vimeo\.com$/, endpoint: 'https://vimeo.com/api/oembed.json?url={url}' },
];

interface Lookup {
  provider: string | null;
  title: string | null;
  thumbnail_url: string | null;
  notice: string | null;
}

/**
 * Title and thumbnail from the video platform's oEmbed endpoint (configurable with
 * OEMBED_ENDPOINT). When the platform cannot be reached the video is still saved, with a notice.
 */
export async function lookupVideo(config: Config, url: string): Promise<Lookup> {
  const host = new URL(url).hostname.toLowerCase();
  const known = PROVIDERS.find((p) => p.hosts.test(host));
  const endpoint = config.OEMBED_ENDPOINT ?? known?.endpoint;
  if (!endpoint) {
    return { provider: null, title: null, thumbnail_url: null, notice: 'Titles and thumbnails are looked up for YouTube and Vimeo videos only.' };
  }
  try {
    const res = await fetch(endpoint.replace('{url}', encodeURIComponent(url)), { signal: AbortSignal.timeout(4000) });
    if (res.status === 404 || res.status === 401 || res.status === 403) {
      return { provider: known?.name ?? null, title: null, thumbnail_url: null, notice: 'The video platform does not know this video, or it is private.' };
    }
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const data = (await res.json()) as { title?: unknown; thumbnail_url?: unknown; provider_name?: unknown };
    return {
      provider: typeof data.provider_name === 'string' ? data.provider_name : known?.name ?? null,
      title: typeof data.title === 'string' ? data.title.slice(0, 200) : null,
      thumbnail_url: typeof data.thumbnail_url === 'string' && /^https?:\/\//.test(data.thumbnail_url) ? data.thumbnail_url : null,
      notice: null,
    };
  } catch {
    return {
      provider: known?.name ?? null,
      title: null,
      thumbnail_url: null,
      notice: 'The video platform could not be reached: the video was saved without its title and thumbnail.',
    };
  }
}

async function videoOr404(ctx: TenantCtx, id: string) {
  // Help videos (with a topic) are kept through /api/help-videos/ only.
  const [row] = await ctx.tx.select().from(video).where(and(eq(video.account_id, ctx.accountId), eq(video.id, id), isNull(video.topic)));
  if (!row) throw notFound('No video with this id.');
  return row;
}

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };

export function registerVideos(app: FastifyInstance) {
  const tags = ['media'];
  app.get(
    '/api/videos/',
    {
      config: { access: viewCatalog },
      schema: { tags, summary: 'Videos', querystring: ZPaginationQuery.extend({ experience: z.uuid().optional() }), response: { 200: paginated(ZVideo), ...errors } },
    },
    (request) =>
      tenantScope(request, (ctx) => {
        const q = request.query as z.infer<typeof ZPaginationQuery> & { experience?: string };
        const where = and(eq(video.account_id, ctx.accountId), isNull(video.topic), q.experience ? eq(video.experience_id, q.experience) : undefined);
        return paginate(
          request,
          q,
          async () => (await ctx.tx.select({ n: count() }).from(video).where(where))[0]?.n ?? 0,
          async (limit, offset) => (await ctx.tx.select().from(video).where(where).orderBy(asc(video.position), asc(video.created_at)).limit(limit).offset(offset)).map(presentVideo),
        );
      }),
  );

  const save = async (request: FastifyRequest, input: z.infer<typeof ZVideoInput>, id?: string) => {
    // The platform is asked before the transaction opens: a slow answer must not hold it.
    const found = await lookupVideo(request.server.config, input.url);
    return tenantScope(request, async (ctx) => {
      if (input.experience) {
        const [exp] = await ctx.tx.select({ id: experience.id }).from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, input.experience)));
        if (!exp) throw new AppError('invalid', 'No experience with this id in your organisation.', 'experience');
      }
      const values = {
        url: input.url,
        experience_id: input.experience,
        provider: found.provider,
        title: input.title || found.title || '',
        thumbnail_url: found.thumbnail_url,
        notice: found.notice,
      };
      if (id) {
        await videoOr404(ctx, id);
        const [row] = await ctx.tx.update(video).set({ ...values, updated_at: new Date() }).where(and(eq(video.account_id, ctx.accountId), eq(video.id, id))).returning();
        return presentVideo(row!);
      }
      const [last] = input.experience
        ? await ctx.tx.select({ p: max(video.position) }).from(video).where(and(eq(video.account_id, ctx.accountId), eq(video.experience_id, input.experience)))
        : [{ p: null }];
      const [row] = await ctx.tx.insert(video).values({ ...values, account_id: ctx.accountId, position: (last?.p ?? -1) + 1 }).returning();
      return presentVideo(row!);
    });
  };

  app.post(
    '/api/videos/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Add a video by its URL', body: ZVideoInput, response: { 201: ZVideo, ...errors } } },
    async (request, reply) => reply.status(201).send(await save(request, request.body as z.infer<typeof ZVideoInput>)),
  );
  app.get(
    '/api/videos/:id/',
    { config: { access: viewCatalog }, schema: { tags, summary: 'One video', params: ZIdParam, response: { 200: ZVideo, ...errors } } },
    (request) => tenantScope(request, async (ctx) => presentVideo(await videoOr404(ctx, (request.params as { id: string }).id))),
  );
  app.put(
    '/api/videos/:id/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Replace a video', params: ZIdParam, body: ZVideoInput, response: { 200: ZVideo, ...errors } } },
    (request) => save(request, request.body as z.infer<typeof ZVideoInput>, (request.params as { id: string }).id),
  );
  app.patch(
    '/api/videos/:id/',
    {
      config: { access: manageCatalog },
      schema: { tags, summary: 'Rename a video', params: ZIdParam, body: z.object({ title: z.string().trim().max(200) }), response: { 200: ZVideo, ...errors } },
    },
    (request) =>
      tenantScope(request, async (ctx) => {
        const { id } = request.params as { id: string };
        await videoOr404(ctx, id);
        const [row] = await ctx.tx
          .update(video)
          .set({ title: (request.body as { title: string }).title, updated_at: new Date() })
          .where(and(eq(video.account_id, ctx.accountId), eq(video.id, id)))
          .returning();
        return presentVideo(row!);
      }),
  );
  app.delete(
    '/api/videos/:id/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Remove a video', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, async (ctx) => {
        const { id } = request.params as { id: string };
        await videoOr404(ctx, id);
        await ctx.tx.delete(video).where(and(eq(video.account_id, ctx.accountId), eq(video.id, id)));
      });
      return reply.status(204).send();
    },
  );
}
