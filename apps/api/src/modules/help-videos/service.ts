import type { HelpTopic, THelpVideo } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import type { Config } from '../../config';
import type { InTenant } from '../media/images';
import { lookupVideo } from '../media/videos';
import * as q from './queries';

/**
 * Help videos: the organisation's own videos (base-account videos, tied to no experience), each
 * shown on the page where it helps (its topic). The title and thumbnail come from the video
 * platform's oEmbed answer (the video metadata lookup, lookupVideo) when it can be reached; the
 * video is kept either way, with a notice saying what is missing.
 */

const present = (r: q.HelpVideoRow): THelpVideo => ({
  id: r.id,
  url: r.url,
  topic: r.topic as HelpTopic,
  provider: r.provider,
  title: r.title,
  thumbnail_url: r.thumbnail_url,
  position: r.position,
  notice: r.notice,
});

async function rowOr404(ctx: TenantCtx, id: string) {
  const row = await q.helpVideo(ctx, id);
  if (!row) throw notFound('No help video with this id.');
  return row;
}

export const countHelpVideos = q.countHelpVideos;

/** A page of help videos, for one page (topic) or all, in their order. */
export async function pageHelpVideos(ctx: TenantCtx, topic: string | undefined, limit: number, offset: number) {
  return (await q.pageHelpVideos(ctx, topic, limit, offset)).map(present);
}

export async function getHelpVideo(ctx: TenantCtx, id: string) {
  return present(await rowOr404(ctx, id));
}

/**
 * Adds a help video last on its page. The platform is asked before the transaction opens: a slow
 * answer must not hold it.
 */
export async function createHelpVideo(run: InTenant, config: Config, input: { url: string; topic: HelpTopic; title?: string }) {
  const found = await lookupVideo(config, input.url);
  return run(async (ctx) => {
    const last = await q.lastPosition(ctx, input.topic);
    const row = await q.insertHelpVideo(ctx, {
      url: input.url,
      topic: input.topic,
      provider: found.provider,
      title: input.title || found.title || '',
      thumbnail_url: found.thumbnail_url,
      notice: found.notice,
      position: (last?.p ?? -1) + 1,
    });
    return present(row);
  });
}

/** Renames a help video, or moves it to another page (it goes last there). */
export async function updateHelpVideo(ctx: TenantCtx, id: string, patch: { title?: string; topic?: HelpTopic }) {
  const current = await rowOr404(ctx, id);
  const { title, topic } = patch;
  // Moved to another page: it goes last there.
  const moved = topic && topic !== current.topic ? await q.lastPosition(ctx, topic) : undefined;
  const row = await q.updateHelpVideo(ctx, id, { ...(title !== undefined ? { title } : {}), ...(moved ? { topic, position: (moved.p ?? -1) + 1 } : {}), updated_at: new Date() });
  return present(row);
}

export async function deleteHelpVideo(ctx: TenantCtx, id: string) {
  await rowOr404(ctx, id);
  await q.deleteHelpVideo(ctx, id);
}
