import { and, asc, count, eq, isNotNull, max } from 'drizzle-orm';
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
  type HelpTopic,
  type THelpVideo,
} from '@tourdesk/contracts';
import { video } from '../../db/schema';
import type { RouteAccess } from '../../lib/access';
import { tenantScope, type TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import { paginate } from '../../lib/pagination';
import { lookupVideo } from '../media/videos';

/** Everyone in the organisation watches its help videos; who manages the account keeps them. */
const watch: RouteAccess = { permissions: [] };
const keep: RouteAccess = { permissions: ['Manage account'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };
const tags = ['help videos'];

type Row = typeof video.$inferSelect;
const present = (r: Row): THelpVideo => ({
  id: r.id,
  url: r.url,
  topic: r.topic as HelpTopic,
  provider: r.provider,
  title: r.title,
  thumbnail_url: r.thumbnail_url,
  position: r.position,
  notice: r.notice,
});

const mine = (ctx: TenantCtx) => and(eq(video.account_id, ctx.accountId), isNotNull(video.topic));

async function rowOr404(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(video).where(and(mine(ctx), eq(video.id, id)));
  if (!row) throw notFound('No help video with this id.');
  return row;
}

/**
 * Help videos: the organisation's own videos (base-account videos, tied to no experience), each
 * shown on the page where it helps (its topic). The title and thumbnail come from the video
 * platform's oEmbed answer (the video metadata lookup, lookupVideo) when it can be reached; the
 * video is kept either way, with a notice saying what is missing.
 */
export const helpVideoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/help-videos/',
    {
      config: { access: watch },
      schema: { tags, summary: 'The organisation’s help videos, for one page or all, in their order', querystring: ZPaginationQuery.extend(ZHelpVideoListQuery.shape), response: { 200: paginated(ZHelpVideo), ...errors } },
    },
    (request) =>
      tenantScope(request, (ctx) => {
        const where = and(mine(ctx), request.query.topic ? eq(video.topic, request.query.topic) : undefined);
        return paginate(
          request,
          request.query,
          async () => (await ctx.tx.select({ n: count() }).from(video).where(where))[0]?.n ?? 0,
          async (limit, offset) => (await ctx.tx.select().from(video).where(where).orderBy(asc(video.topic), asc(video.position), asc(video.created_at)).limit(limit).offset(offset)).map(present),
        );
      }),
  );
  app.post(
    '/api/help-videos/',
    { config: { access: keep }, schema: { tags, summary: 'Add a help video to a page by its address (title and thumbnail looked up)', body: ZHelpVideoInput, response: { 201: ZHelpVideo, ...errors } } },
    async (request, reply) => {
      const input = request.body;
      // The platform is asked before the transaction opens: a slow answer must not hold it.
      const found = await lookupVideo(request.server.config, input.url);
      const created = await tenantScope(request, async (ctx) => {
        const [last] = await ctx.tx.select({ p: max(video.position) }).from(video).where(and(mine(ctx), eq(video.topic, input.topic)));
        const [row] = await ctx.tx
          .insert(video)
          .values({
            account_id: ctx.accountId,
            url: input.url,
            topic: input.topic,
            provider: found.provider,
            title: input.title || found.title || '',
            thumbnail_url: found.thumbnail_url,
            notice: found.notice,
            position: (last?.p ?? -1) + 1,
          })
          .returning();
        return present(row!);
      });
      return reply.status(201).send(created);
    },
  );
  app.get(
    '/api/help-videos/:id/',
    { config: { access: watch }, schema: { tags, summary: 'One help video', params: ZIdParam, response: { 200: ZHelpVideo, ...errors } } },
    (request) => tenantScope(request, async (ctx) => present(await rowOr404(ctx, request.params.id))),
  );
  app.patch(
    '/api/help-videos/:id/',
    { config: { access: keep }, schema: { tags, summary: 'Rename a help video or move it to another page', params: ZIdParam, body: ZHelpVideoPatch, response: { 200: ZHelpVideo, ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const current = await rowOr404(ctx, request.params.id);
        const { title, topic } = request.body;
        // Moved to another page: it goes last there.
        const moved = topic && topic !== current.topic ? (await ctx.tx.select({ p: max(video.position) }).from(video).where(and(mine(ctx), eq(video.topic, topic))))[0] : undefined;
        const [row] = await ctx.tx
          .update(video)
          .set({ ...(title !== undefined ? { title } : {}), ...(moved ? { topic, position: (moved.p ?? -1) + 1 } : {}), updated_at: new Date() })
          .where(and(mine(ctx), eq(video.id, request.params.id)))
          .returning();
        return present(row!);
      }),
  );
  app.delete(
    '/api/help-videos/:id/',
    { config: { access: keep }, schema: { tags, summary: 'Remove a help video', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, async (ctx) => {
        await rowOr404(ctx, request.params.id);
        await ctx.tx.delete(video).where(and(mine(ctx), eq(video.id, request.params.id)));
      });
      return reply.status(204).send();
    },
  );
};
