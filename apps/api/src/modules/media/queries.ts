import { and, asc, count, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { experience, fileFolder, image, video } from '../../db/schema';
import { assertOwned } from '../../lib/crud-queries';
import type { TenantCtx } from '../../lib/crud';

/** The media module's only access to the database: the `image` rows, and the `video` rows of offers (no topic). */

export type ImageRow = typeof image.$inferSelect;
export type VideoRow = typeof video.$inferSelect;

// --- images -------------------------------------------------------------------------------

/** Refuses (400) an experience id that is not the organisation's (none given: nothing to check). */
export function assertOwnExperience(ctx: TenantCtx, id: string | null | undefined) {
  return assertOwned(ctx, experience, id, 'experience', 'experience');
}

/** Refuses (400) a folder id that is not the organisation's (none given: nothing to check). */
export function assertOwnFolder(ctx: TenantCtx, id: string | null | undefined) {
  return assertOwned(ctx, fileFolder, id, 'folder', 'folder');
}

export interface ImageFilter {
  experience?: string;
  folder?: string;
}
const imagesWhere = (ctx: TenantCtx, q: ImageFilter) =>
  and(eq(image.account_id, ctx.accountId), q.experience ? eq(image.experience_id, q.experience) : undefined, q.folder ? eq(image.folder_id, q.folder) : undefined);

/** How many images an experience or folder (or the organisation) has. */
export async function countImages(ctx: TenantCtx, q: ImageFilter) {
  return (await ctx.tx.select({ n: count() }).from(image).where(imagesWhere(ctx, q)))[0]?.n ?? 0;
}

/** A page of images of an experience or folder, in their order. */
export function pageImages(ctx: TenantCtx, q: ImageFilter, limit: number, offset: number) {
  return ctx.tx.select().from(image).where(imagesWhere(ctx, q)).orderBy(asc(image.position), asc(image.created_at)).limit(limit).offset(offset);
}

/** One image of the organisation (undefined when there is none with this id). */
export async function findImage(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(image).where(and(eq(image.account_id, ctx.accountId), eq(image.id, id)));
  return row;
}

/** The highest position among an experience's images (`p` null when it has none). */
export async function lastImagePosition(ctx: TenantCtx, experienceId: string) {
  const [last] = await ctx.tx.select({ p: max(image.position) }).from(image).where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, experienceId)));
  return last;
}

/** Inserts an image row (an announced upload, or a copy). */
export async function insertImage(ctx: TenantCtx, values: Omit<typeof image.$inferInsert, 'account_id'> & { account_id?: string }) {
  const [row] = await ctx.tx
    .insert(image)
    .values({ account_id: ctx.accountId, ...values })
    .returning();
  return row!;
}

/** Sets an uploaded image's file columns, only if it is still pending (undefined when it is not). */
export async function markUploaded(ctx: TenantCtx, id: string, file: { content_type: string; width: number; height: number; size_bytes: number; storage_key: string; thumbnail_key: string }) {
  const updated = await ctx.tx
    .update(image)
    .set({
      status: 'ready',
      ...file,
      updated_at: new Date(),
    })
    .where(and(eq(image.account_id, ctx.accountId), eq(image.id, id), eq(image.status, 'pending')))
    .returning();
  return updated[0];
}

/** Moves an image to a folder (or out of any). */
export async function setImageFolder(ctx: TenantCtx, id: string, folder: string | null) {
  const [row] = await ctx.tx.update(image).set({ folder_id: folder, updated_at: new Date() }).where(and(eq(image.account_id, ctx.accountId), eq(image.id, id))).returning();
  return row!;
}

/** Deletes an image's row. */
export async function deleteImage(ctx: TenantCtx, id: string) {
  await ctx.tx.delete(image).where(and(eq(image.account_id, ctx.accountId), eq(image.id, id)));
}

/** Closes the gap a deleted image left in its experience's order. */
export async function closePositionGap(ctx: TenantCtx, experienceId: string, position: number) {
  await ctx.tx
    .update(image)
    .set({ position: sql`${image.position} - 1` })
    .where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, experienceId), sql`${image.position} > ${position}`));
}

/** A few stored originals not yet checked for metadata, of every organisation. */
export function uncheckedOriginals(db: Db, limit: number) {
  return db
    .select({ id: image.id, account_id: image.account_id, storage_key: image.storage_key })
    .from(image)
    .where(sql`not ${image.metadata_checked}`)
    .limit(limit);
}

/** Marks an original checked, with its re-encoded file's columns when it was re-encoded (in its organisation's transaction). */
export function markOriginalChecked(tx: Db, id: string, file: Partial<Pick<typeof image.$inferInsert, 'storage_key' | 'size_bytes' | 'width' | 'height' | 'content_type'>>) {
  return tx
    .update(image)
    .set({ metadata_checked: true, ...file })
    .where(eq(image.id, id));
}

/** An experience's ready images, in their order. */
export function readyImagesOf(ctx: TenantCtx, experienceId: string) {
  return ctx.tx
    .select()
    .from(image)
    .where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, experienceId), eq(image.status, 'ready')))
    .orderBy(asc(image.position));
}

/** The ids of an experience's images. */
export function imageIdsOf(ctx: TenantCtx, experienceId: string) {
  return ctx.tx
    .select({ id: image.id })
    .from(image)
    .where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, experienceId)));
}

/** Puts images in the order of `ids` (position = index in the list). */
export async function setImageOrder(ctx: TenantCtx, ids: string[]) {
  await ctx.tx
    .update(image)
    .set({ position: sql`array_position(${`{${ids.join(',')}}`}::uuid[], ${image.id}) - 1` })
    .where(and(eq(image.account_id, ctx.accountId), inArray(image.id, ids)));
}

// --- videos -------------------------------------------------------------------------------

const videosWhere = (ctx: TenantCtx, experienceId?: string) => and(eq(video.account_id, ctx.accountId), isNull(video.topic), experienceId ? eq(video.experience_id, experienceId) : undefined);

/** How many offer videos an experience (or the organisation) has. */
export async function countVideos(ctx: TenantCtx, experienceId?: string) {
  return (await ctx.tx.select({ n: count() }).from(video).where(videosWhere(ctx, experienceId)))[0]?.n ?? 0;
}

/** A page of offer videos, in their order. */
export function pageVideos(ctx: TenantCtx, experienceId: string | undefined, limit: number, offset: number) {
  return ctx.tx.select().from(video).where(videosWhere(ctx, experienceId)).orderBy(asc(video.position), asc(video.created_at)).limit(limit).offset(offset);
}

/** One offer video (help videos, with a topic, are kept through /api/help-videos/ only). */
export async function findVideo(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(video).where(and(eq(video.account_id, ctx.accountId), eq(video.id, id), isNull(video.topic)));
  return row;
}

/** Whether the experience is the organisation's. */
export async function experienceExists(ctx: TenantCtx, experienceId: string) {
  const [exp] = await ctx.tx.select({ id: experience.id }).from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, experienceId)));
  return Boolean(exp);
}

/** The highest position among an experience's videos (`p` null when it has none). */
export async function lastVideoPosition(ctx: TenantCtx, experienceId: string) {
  const [last] = await ctx.tx.select({ p: max(video.position) }).from(video).where(and(eq(video.account_id, ctx.accountId), eq(video.experience_id, experienceId)));
  return last;
}

/** Inserts a video row (a new one, or a copy). */
export async function insertVideo(ctx: TenantCtx, values: Omit<typeof video.$inferInsert, 'account_id'> & { account_id?: string }) {
  const [row] = await ctx.tx.insert(video).values({ account_id: ctx.accountId, ...values }).returning();
  return row!;
}

/** Changes a video's columns. */
export async function updateVideo(ctx: TenantCtx, id: string, set: Partial<typeof video.$inferInsert>) {
  const [row] = await ctx.tx.update(video).set(set).where(and(eq(video.account_id, ctx.accountId), eq(video.id, id))).returning();
  return row!;
}

/** Deletes a video. */
export async function deleteVideo(ctx: TenantCtx, id: string) {
  await ctx.tx.delete(video).where(and(eq(video.account_id, ctx.accountId), eq(video.id, id)));
}
