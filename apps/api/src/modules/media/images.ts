import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { IMAGE_LIMITS, type TImage } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { inTenant } from '../../lib/tenancy';
import { isStorageKey, type Storage } from '../../lib/storage';
import * as q from './queries';

/**
 * Runs its function in the caller's tenant transaction (a route passes
 * `(fn) => tenantScope(request, fn)`): for the steps that must happen between two transactions,
 * or after one, outside it (storing and removing files, asking a video platform).
 */
export type InTenant = <R>(fn: (ctx: TenantCtx) => Promise<R>) => Promise<R>;

export const mediaUrl = (key: string | null) => (key ? `/api/media/${key}` : null);

export function presentImage(r: q.ImageRow): TImage {
  return {
    id: r.id,
    experience: r.experience_id,
    folder: r.folder_id,
    status: r.status as TImage['status'],
    original_name: r.original_name,
    content_type: r.content_type,
    width: r.width,
    height: r.height,
    size_bytes: r.size_bytes,
    position: r.position,
    url: mediaUrl(r.storage_key),
    thumbnail_url: mediaUrl(r.thumbnail_key),
    upload_url: r.status === 'pending' ? `/api/images/${r.id}/upload/` : null,
  };
}

const FORMATS = {
  jpeg: { type: 'image/jpeg', ext: 'jpg' },
  png: { type: 'image/png', ext: 'png' },
  webp: { type: 'image/webp', ext: 'webp' },
} as const;
const THUMB_WIDTH = 480;

/** Whether a WebP file is coded losslessly (its first image is a VP8L chunk, also inside an animation frame). */
function isLosslessWebp(data: Buffer, start = 12, end = data.length): boolean {
  for (let at = start; at + 8 <= end; ) {
    const fourcc = data.toString('latin1', at, at + 4);
    const size = data.readUInt32LE(at + 4);
    if (fourcc === 'VP8L') return true;
    if (fourcc === 'VP8 ') return false;
    // An animation frame: 16 bytes of position and timing, then the frame's own chunks.
    if (fourcc === 'ANMF') return isLosslessWebp(data, at + 8 + 16, Math.min(end, at + 8 + size));
    at += 8 + size + (size & 1);
  }
  return false;
}

/**
 * Checks an upload by its bytes (never by its name or header): a JPEG, PNG or WebP within the
 * size and dimension limits. Returns the original to store and a WebP thumbnail, both re-encoded
 * without any metadata (EXIF, GPS, XMP, IPTC, comments): a phone photo's position must never be
 * served. The original keeps what its viewer sees: turned upright by its EXIF Orientation (the
 * width and height are those of the upright picture), its format, its ICC colour profile, its
 * bit depth, its animation, and its quality (JPEG and lossy WebP at 90, PNG and lossless WebP
 * lossless).
 */
export async function processImage(data: Buffer) {
  const invalid = (detail: string) => new AppError('invalid', detail, 'file');
  if (data.length === 0) throw invalid('The file is empty.');
  if (data.length > IMAGE_LIMITS.maxBytes) throw invalid(`The file is too large: at most ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MB.`);
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: IMAGE_LIMITS.maxPixels }).metadata();
  } catch {
    throw invalid('This file is not an image we can read. Upload a JPEG, PNG or WebP picture.');
  }
  const kind = meta.format && Object.hasOwn(FORMATS, meta.format) ? (meta.format as keyof typeof FORMATS) : undefined;
  if (!kind) throw invalid(`${meta.format ?? 'This'} files are not accepted. Upload a JPEG, PNG or WebP picture.`);
  const format = FORMATS[kind];
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (width < IMAGE_LIMITS.minWidth || height < IMAGE_LIMITS.minHeight) {
    throw invalid(`The picture is too small (${width}×${height}): at least ${IMAGE_LIMITS.minWidth}×${IMAGE_LIMITS.minHeight} pixels.`);
  }
  const pages = meta.pages ?? 1;
  if (width * height * pages > IMAGE_LIMITS.maxPixels) throw invalid('The picture has too many pixels (at most 50 megapixels, all frames of an animation together).');

  try {
    // sharp writes no metadata unless told to keep some: only the ICC profile is kept. rotate()
    // applies the EXIF Orientation to the pixels, so the picture stays upright without the tag.
    const original = sharp(data, { limitInputPixels: IMAGE_LIMITS.maxPixels * pages, animated: pages > 1 }).rotate().keepIccProfile();
    // Greyscale and 16-bit pictures stay so (sharp would otherwise make 8-bit sRGB of them).
    if (meta.space === 'b-w' || meta.space === 'grey16' || meta.space === 'rgb16') original.toColourspace(meta.space);
    if (kind === 'jpeg') original.jpeg({ quality: 90, chromaSubsampling: meta.chromaSubsampling === '4:4:4' ? '4:4:4' : '4:2:0', progressive: !!meta.isProgressive });
    else if (kind === 'png') original.png({ progressive: !!meta.isProgressive });
    else original.webp(isLosslessWebp(data) ? { lossless: true } : { quality: 90 });
    const stored = await original.toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(data, { limitInputPixels: IMAGE_LIMITS.maxPixels })
      .rotate()
      .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    // An animation's info.height is that of all its frames.
    return { format, data: stored.data, width: stored.info.width, height: stored.info.pageHeight ?? stored.info.height, thumbnail };
  } catch {
    throw invalid('This picture is damaged and cannot be read. Upload a JPEG, PNG or WebP picture.');
  }
}

/**
 * Re-encodes, once, stored originals uploaded before uploads were re-encoded (they may carry EXIF
 * and GPS data): the job images-strip-metadata, a few at a time. Each gets a new key (files are
 * served with immutable caching), its row is updated in its organisation's transaction, then the
 * old file goes. A file that cannot be read as a picture any more is removed from sale's view the
 * same way any broken upload is: left as it is and marked checked, with a warning in the log.
 */
export async function stripStoredOriginals(db: Db, storage: Storage, log: { warn(obj: object, msg: string): void }, limit = 20) {
  const rows = await q.uncheckedOriginals(db, limit);
  for (const row of rows) {
    const file = row.storage_key ? await storage.read(row.storage_key) : null;
    let processed: Awaited<ReturnType<typeof processImage>> | null = null;
    if (file) {
      const chunks: Buffer[] = [];
      for await (const chunk of file.stream) chunks.push(chunk as Buffer);
      processed = await processImage(Buffer.concat(chunks)).catch((err: unknown) => {
        log.warn({ image: row.id, error: (err as Error).message }, 'a stored image could not be re-encoded; it is left as it is');
        return null;
      });
    }
    const next = processed ? newKey(row.account_id, processed.format.ext) : null;
    if (processed && next) await storage.put(next, processed.data);
    await inTenant(db, row.account_id, (tx) =>
      q.markOriginalChecked(tx, row.id, processed && next ? { storage_key: next, size_bytes: processed.data.length, width: processed.width, height: processed.height, content_type: processed.format.type } : {}),
    );
    if (processed && next && row.storage_key) await storage.remove(row.storage_key).catch(() => undefined);
  }
  return rows.length;
}

const newKey = (accountId: string, ext: string) => `${accountId}/${randomBytes(12).toString('base64url')}.${ext}`;

async function imageOr404(ctx: TenantCtx, id: string) {
  const row = await q.findImage(ctx, id);
  if (!row) throw notFound('No image with this id.');
  return row;
}

/** Copies an experience's images (their files too, so deleting one copy never breaks the other). */
export async function copyImages(ctx: TenantCtx, storage: Storage, fromExperience: string, toExperience: string) {
  const rows = await q.readyImagesOf(ctx, fromExperience);
  for (const r of rows) {
    const copy = async (key: string | null) => {
      if (!key) return null;
      const file = await storage.read(key);
      if (!file) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of file.stream) chunks.push(chunk as Buffer);
      const next = newKey(ctx.accountId, key.split('.').pop()!);
      await storage.put(next, Buffer.concat(chunks));
      return next;
    };
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = r;
    await q.insertImage(ctx, { ...rest, experience_id: toExperience, storage_key: await copy(r.storage_key), thumbnail_key: await copy(r.thumbnail_key) });
  }
}

export const countImages = q.countImages;

/** A page of images, by experience or folder, in their order. */
export async function pageImages(ctx: TenantCtx, filter: q.ImageFilter, limit: number, offset: number) {
  return (await q.pageImages(ctx, filter, limit, offset)).map(presentImage);
}

/** Announces an upload: a pending image, last in its experience's order; answers the URL to PATCH the file to. */
export async function createImage(ctx: TenantCtx, body: { original_name: string; experience: string | null; folder: string | null }) {
  await q.assertOwnExperience(ctx, body.experience);
  await q.assertOwnFolder(ctx, body.folder);
  const last = body.experience ? await q.lastImagePosition(ctx, body.experience) : { p: null };
  const row = await q.insertImage(ctx, { experience_id: body.experience, folder_id: body.folder, original_name: body.original_name, position: (last?.p ?? -1) + 1 });
  return presentImage(row);
}

/**
 * Stores an image's file. The image must be the organisation's and still waiting for its file
 * (checked in a first transaction); then the bytes are checked and stored outside any
 * transaction, and the row updated only if it is still pending (two uploads of one image: the
 * second is refused, and its files removed).
 */
export async function uploadImage(run: InTenant, storage: Storage, accountId: string, id: string, data: unknown) {
  await run(async (ctx) => {
    if ((await imageOr404(ctx, id)).status !== 'pending') throw new AppError('conflict', 'This image has been uploaded already.');
  });
  if (!Buffer.isBuffer(data)) {
    throw new AppError('unsupported_media_type', 'Send the file itself as the request body (Content-Type: image/* or application/octet-stream).');
  }
  const processed = await processImage(data);
  const key = newKey(accountId, processed.format.ext);
  const thumbKey = newKey(accountId, 'webp');
  await storage.put(key, processed.data);
  await storage.put(thumbKey, processed.thumbnail);
  const updated = await run((ctx) =>
    q.markUploaded(ctx, id, {
      content_type: processed.format.type,
      width: processed.width,
      height: processed.height,
      size_bytes: processed.data.length,
      storage_key: key,
      thumbnail_key: thumbKey,
    }),
  );
  if (!updated) {
    await storage.remove(key);
    await storage.remove(thumbKey);
    throw new AppError('conflict', 'This image has been uploaded already.');
  }
  return presentImage(updated);
}

export async function getImage(ctx: TenantCtx, id: string) {
  return presentImage(await imageOr404(ctx, id));
}

/** Moves an image to a folder of the organisation (or out of any). */
export async function moveImage(ctx: TenantCtx, id: string, folder: string | null) {
  await imageOr404(ctx, id);
  await q.assertOwnFolder(ctx, folder);
  return presentImage(await q.setImageFolder(ctx, id, folder));
}

/** Deletes an image (closing the gap in its experience's order), then its files. */
export async function deleteImage(run: InTenant, storage: Storage, id: string) {
  const keys = await run(async (ctx) => {
    const row = await imageOr404(ctx, id);
    await q.deleteImage(ctx, id);
    if (row.experience_id) {
      // Close the gap in the order.
      await q.closePositionGap(ctx, row.experience_id, row.position);
    }
    return [row.storage_key, row.thumbnail_key];
  });
  for (const key of keys) if (key) await storage.remove(key);
}

/** A stored file by its key, with its content type (404 when the key is not one of ours or there is no such file). */
export async function mediaFile(storage: Storage, key: string) {
  const file = isStorageKey(key) ? await storage.read(key) : null;
  if (!file) throw notFound('No such file.');
  const ext = key.split('.').pop()!;
  return { ...file, type: ext === 'jpg' ? 'image/jpeg' : `image/${ext}` };
}

/** Makes the experience's images follow `ids` exactly; anything else is refused. */
export async function reorderImages(ctx: TenantCtx, experienceId: string, ids: string[]) {
  const rows = await q.imageIdsOf(ctx, experienceId);
  const current = new Set(rows.map((r) => r.id));
  const given = new Set(ids);
  if (given.size !== ids.length || given.size !== current.size || ids.some((id) => !current.has(id))) {
    throw new AppError('invalid', 'The list must name each of this experience’s images exactly once.', 'images');
  }
  if (ids.length === 0) return;
  await q.setImageOrder(ctx, ids);
}
