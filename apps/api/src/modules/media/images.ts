import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, max, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp, { type Metadata } from 'sharp';
import { z } from 'zod';
import { IMAGE_LIMITS, paginated, ZErrorEnvelope, ZIdParam, ZImage, ZImageCreate, ZPaginationQuery, type TImage } from '@tourdesk/contracts';
import { experience, fileFolder, image } from '../../db/schema';
import { assertOwned, tenantScope, type TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { paginate } from '../../lib/pagination';
import { inTenant } from '../../lib/tenancy';
import type { Db } from '../../db/client';
import { isStorageKey, type Storage } from '../../lib/storage';
import { manageCatalog, viewCatalog } from '../catalog/access';

type ImageRow = typeof image.$inferSelect;
declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export const mediaUrl = (key: string | null) => (key ? `/api/media/${key}` : null);

export function presentImage(r: ImageRow): TImage {
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
  const rows = await db
    .select({ id: image.id, account_id: image.account_id, storage_key: image.storage_key })
    .from(image)
    .where(sql`not ${image.metadata_checked}`)
    .limit(limit);
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
      tx
        .update(image)
        .set({ metadata_checked: true, ...(processed && next ? { storage_key: next, size_bytes: processed.data.length, width: processed.width, height: processed.height, content_type: processed.format.type } : {}) })
        .where(eq(image.id, row.id)),
    );
    if (processed && next && row.storage_key) await storage.remove(row.storage_key).catch(() => undefined);
  }
  return rows.length;
}

const newKey = (accountId: string, ext: string) => `${accountId}/${randomBytes(12).toString('base64url')}.${ext}`;

async function imageOr404(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(image).where(and(eq(image.account_id, ctx.accountId), eq(image.id, id)));
  if (!row) throw notFound('No image with this id.');
  return row;
}

/** Copies an experience's images (their files too, so deleting one copy never breaks the other). */
export async function copyImages(ctx: TenantCtx, storage: Storage, fromExperience: string, toExperience: string) {
  const rows = await ctx.tx
    .select()
    .from(image)
    .where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, fromExperience), eq(image.status, 'ready')))
    .orderBy(asc(image.position));
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
    await ctx.tx.insert(image).values({ ...rest, experience_id: toExperience, storage_key: await copy(r.storage_key), thumbnail_key: await copy(r.thumbnail_key) });
  }
}

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 413: ZErrorEnvelope, 415: ZErrorEnvelope };

export function registerImages(app: FastifyInstance) {
  const tags = ['media'];
  // Uploads arrive as the file's raw bytes (PATCH to the image's upload_url).
  app.addContentTypeParser(['application/octet-stream', 'image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/avif', 'image/tiff'], { parseAs: 'buffer', bodyLimit: IMAGE_LIMITS.maxBytes }, (_req, body, done) => done(null, body));

  app.get(
    '/api/images/',
    {
      config: { access: viewCatalog },
      schema: {
        tags,
        summary: 'Images, by experience or folder',
        querystring: ZPaginationQuery.extend({ experience: z.uuid().optional(), folder: z.uuid().optional() }),
        response: { 200: paginated(ZImage), ...errors },
      },
    },
    (request) =>
      tenantScope(request, (ctx) => {
        const q = request.query as z.infer<typeof ZPaginationQuery> & { experience?: string; folder?: string };
        const where = and(
          eq(image.account_id, ctx.accountId),
          q.experience ? eq(image.experience_id, q.experience) : undefined,
          q.folder ? eq(image.folder_id, q.folder) : undefined,
        );
        return paginate(
          request,
          q,
          async () => (await ctx.tx.select({ n: count() }).from(image).where(where))[0]?.n ?? 0,
          async (limit, offset) =>
            (await ctx.tx.select().from(image).where(where).orderBy(asc(image.position), asc(image.created_at)).limit(limit).offset(offset)).map(presentImage),
        );
      }),
  );

  app.post(
    '/api/images/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Announce an upload: answers the URL to PATCH the file to', body: ZImageCreate, response: { 201: ZImage, ...errors } } },
    async (request, reply) => {
      const body = request.body as z.infer<typeof ZImageCreate>;
      const dto = await tenantScope(request, async (ctx) => {
        await assertOwned(ctx, experience, body.experience, 'experience', 'experience');
        await assertOwned(ctx, fileFolder, body.folder, 'folder', 'folder');
        const [last] = body.experience
          ? await ctx.tx.select({ p: max(image.position) }).from(image).where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, body.experience)))
          : [{ p: null }];
        const [row] = await ctx.tx
          .insert(image)
          .values({ account_id: ctx.accountId, experience_id: body.experience, folder_id: body.folder, original_name: body.original_name, position: (last?.p ?? -1) + 1 })
          .returning();
        return presentImage(row!);
      });
      return reply.status(201).send(dto);
    },
  );

  app.patch(
    '/api/images/:id/upload/',
    {
      config: { access: manageCatalog },
      bodyLimit: IMAGE_LIMITS.maxBytes,
      schema: { tags, summary: 'Upload the file (raw bytes, at most 10 MB)', params: ZIdParam, response: { 200: ZImage, ...errors } },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      // The image must be this organisation's and still waiting for its file…
      await tenantScope(request, async (ctx) => {
        if ((await imageOr404(ctx, id)).status !== 'pending') throw new AppError('conflict', 'This image has been uploaded already.');
      });
      const data = request.body;
      if (!Buffer.isBuffer(data)) {
        throw new AppError('unsupported_media_type', 'Send the file itself as the request body (Content-Type: image/* or application/octet-stream).');
      }
      // …then the bytes are checked and stored outside any transaction, and the row updated
      // only if it is still pending (two uploads of one image: the second is refused).
      const processed = await processImage(data);
      const principal = request.principal!;
      const key = newKey(principal.accountId, processed.format.ext);
      const thumbKey = newKey(principal.accountId, 'webp');
      await request.server.storage.put(key, processed.data);
      await request.server.storage.put(thumbKey, processed.thumbnail);
      const updated = await tenantScope(request, (ctx) =>
        ctx.tx
          .update(image)
          .set({
            status: 'ready',
            content_type: processed.format.type,
            width: processed.width,
            height: processed.height,
            size_bytes: processed.data.length,
            storage_key: key,
            thumbnail_key: thumbKey,
            updated_at: new Date(),
          })
          .where(and(eq(image.account_id, ctx.accountId), eq(image.id, id), eq(image.status, 'pending')))
          .returning(),
      );
      if (!updated[0]) {
        await request.server.storage.remove(key);
        await request.server.storage.remove(thumbKey);
        throw new AppError('conflict', 'This image has been uploaded already.');
      }
      return presentImage(updated[0]);
    },
  );

  app.get(
    '/api/images/:id/',
    { config: { access: viewCatalog }, schema: { tags, summary: 'One image', params: ZIdParam, response: { 200: ZImage, ...errors } } },
    (request) => tenantScope(request, async (ctx) => presentImage(await imageOr404(ctx, (request.params as { id: string }).id))),
  );

  app.patch(
    '/api/images/:id/',
    {
      config: { access: manageCatalog },
      schema: { tags, summary: 'Move an image to a folder', params: ZIdParam, body: z.object({ folder: z.uuid().nullable() }), response: { 200: ZImage, ...errors } },
    },
    (request) =>
      tenantScope(request, async (ctx) => {
        const { id } = request.params as { id: string };
        const { folder } = request.body as { folder: string | null };
        await imageOr404(ctx, id);
        await assertOwned(ctx, fileFolder, folder, 'folder', 'folder');
        const [row] = await ctx.tx.update(image).set({ folder_id: folder, updated_at: new Date() }).where(and(eq(image.account_id, ctx.accountId), eq(image.id, id))).returning();
        return presentImage(row!);
      }),
  );

  app.delete(
    '/api/images/:id/',
    { config: { access: manageCatalog }, schema: { tags, summary: 'Delete an image and its files', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const keys = await tenantScope(request, async (ctx) => {
        const row = await imageOr404(ctx, id);
        await ctx.tx.delete(image).where(and(eq(image.account_id, ctx.accountId), eq(image.id, id)));
        if (row.experience_id) {
          // Close the gap in the order.
          await ctx.tx
            .update(image)
            .set({ position: sql`${image.position} - 1` })
            .where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, row.experience_id), sql`${image.position} > ${row.position}`));
        }
        return [row.storage_key, row.thumbnail_key];
      });
      for (const key of keys) if (key) await request.server.storage.remove(key);
      return reply.status(204).send();
    },
  );

  // Files are public (the web store shows them) and their keys are random and never reused.
  app.get(
    '/api/media/*',
    { config: { access: { public: true, reason: 'pictures shown in the public web store' } }, schema: { hide: true } },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const file = isStorageKey(key) ? await request.server.storage.read(key) : null;
      if (!file) throw notFound('No such file.');
      const ext = key.split('.').pop()!;
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-length', file.size)
        .type(ext === 'jpg' ? 'image/jpeg' : `image/${ext}`)
        .send(file.stream);
    },
  );
}

/** Makes the experience's images follow `ids` exactly; anything else is refused. */
export async function reorderImages(ctx: TenantCtx, experienceId: string, ids: string[]) {
  const rows = await ctx.tx
    .select({ id: image.id })
    .from(image)
    .where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, experienceId)));
  const current = new Set(rows.map((r) => r.id));
  const given = new Set(ids);
  if (given.size !== ids.length || given.size !== current.size || ids.some((id) => !current.has(id))) {
    throw new AppError('invalid', 'The list must name each of this experience’s images exactly once.', 'images');
  }
  if (ids.length === 0) return;
  await ctx.tx
    .update(image)
    .set({ position: sql`array_position(${`{${ids.join(',')}}`}::uuid[], ${image.id}) - 1` })
    .where(and(eq(image.account_id, ctx.accountId), inArray(image.id, ids)));
}
