import type { TVideo } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import type { InTenant } from './images';
import * as q from './queries';

export const presentVideo = (r: q.VideoRow): TVideo => ({
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

export interface Lookup {
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
  const row = await q.findVideo(ctx, id);
  if (!row) throw notFound('No video with this id.');
  return row;
}

export const countVideos = q.countVideos;

/** A page of an experience's (or the organisation's) videos, in their order. */
export async function pageVideos(ctx: TenantCtx, experienceId: string | undefined, limit: number, offset: number) {
  return (await q.pageVideos(ctx, experienceId, limit, offset)).map(presentVideo);
}

/**
 * Adds a video (last in its experience's order), or replaces one (`id`), by its URL. The platform
 * is asked before the transaction opens: a slow answer must not hold it.
 */
export async function saveVideo(run: InTenant, config: Config, input: { url: string; experience: string | null; title?: string }, id?: string) {
  const found = await lookupVideo(config, input.url);
  return run(async (ctx) => {
    if (input.experience) {
      if (!(await q.experienceExists(ctx, input.experience))) throw new AppError('invalid', 'No experience with this id in your organisation.', 'experience');
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
      return presentVideo(await q.updateVideo(ctx, id, { ...values, updated_at: new Date() }));
    }
    const last = input.experience ? await q.lastVideoPosition(ctx, input.experience) : { p: null };
    return presentVideo(await q.insertVideo(ctx, { ...values, position: (last?.p ?? -1) + 1 }));
  });
}

export async function getVideo(ctx: TenantCtx, id: string) {
  return presentVideo(await videoOr404(ctx, id));
}

export async function renameVideo(ctx: TenantCtx, id: string, title: string) {
  await videoOr404(ctx, id);
  return presentVideo(await q.updateVideo(ctx, id, { title, updated_at: new Date() }));
}

export async function deleteVideo(ctx: TenantCtx, id: string) {
  await videoOr404(ctx, id);
  await q.deleteVideo(ctx, id);
}
