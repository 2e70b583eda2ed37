import { and, asc, count, eq, isNotNull, max } from 'drizzle-orm';
import { video } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';

/** The help-videos module's only access to the database: the `video` rows that have a topic. */

export type HelpVideoRow = typeof video.$inferSelect;

const mine = (ctx: TenantCtx) => and(eq(video.account_id, ctx.accountId), isNotNull(video.topic));
const ofTopic = (ctx: TenantCtx, topic?: string) => and(mine(ctx), topic ? eq(video.topic, topic) : undefined);

/** One help video of the organisation (undefined when there is none with this id). */
export async function helpVideo(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(video).where(and(mine(ctx), eq(video.id, id)));
  return row;
}

/** How many help videos the organisation has, for one page (topic) or all. */
export async function countHelpVideos(ctx: TenantCtx, topic?: string) {
  return (await ctx.tx.select({ n: count() }).from(video).where(ofTopic(ctx, topic)))[0]?.n ?? 0;
}

/** A page of the help videos, for one page (topic) or all, by topic and position. */
export function pageHelpVideos(ctx: TenantCtx, topic: string | undefined, limit: number, offset: number) {
  return ctx.tx.select().from(video).where(ofTopic(ctx, topic)).orderBy(asc(video.topic), asc(video.position), asc(video.created_at)).limit(limit).offset(offset);
}

/** The highest position among a topic's help videos (`p` null when it has none). */
export async function lastPosition(ctx: TenantCtx, topic: string) {
  const [last] = await ctx.tx.select({ p: max(video.position) }).from(video).where(and(mine(ctx), eq(video.topic, topic)));
  return last;
}

/** Inserts a help video. */
export async function insertHelpVideo(ctx: TenantCtx, values: Omit<typeof video.$inferInsert, 'account_id'>) {
  const [row] = await ctx.tx
    .insert(video)
    .values({ account_id: ctx.accountId, ...values })
    .returning();
  return row!;
}

/** Changes a help video's columns. */
export async function updateHelpVideo(ctx: TenantCtx, id: string, set: Partial<typeof video.$inferInsert>) {
  const [row] = await ctx.tx
    .update(video)
    .set(set)
    .where(and(mine(ctx), eq(video.id, id)))
    .returning();
  return row!;
}

/** Deletes a help video. */
export async function deleteHelpVideo(ctx: TenantCtx, id: string) {
  await ctx.tx.delete(video).where(and(mine(ctx), eq(video.id, id)));
}
