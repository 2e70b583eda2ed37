import { and, asc, count, desc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { baseAccount, booking, bookingQuestion, cancellationPolicy, experience, image, inventoryItem, meetingPoint, pricingRate, slot, video } from '../../db/schema';
import { ownedIds } from '../../lib/crud-queries';
import type { TenantCtx } from '../../lib/crud';

export interface ExperienceFilter {
  search?: string;
  status?: string;
  type?: string;
  ordering: string;
}

const ORDER: Record<string, SQL[]> = {
  title: [asc(sql`lower(${experience.title})`), asc(experience.id)],
  '-title': [desc(sql`lower(${experience.title})`), desc(experience.id)],
  created_at: [asc(experience.created_at), asc(experience.id)],
  '-created_at': [desc(experience.created_at), desc(experience.id)],
  updated_at: [asc(experience.updated_at), asc(experience.id)],
  '-updated_at': [desc(experience.updated_at), desc(experience.id)],
  status: [asc(experience.status), desc(experience.updated_at), desc(experience.id)],
  '-status': [desc(experience.status), desc(experience.updated_at), desc(experience.id)],
};

export function listWhere(accountId: string, f: ExperienceFilter) {
  const term = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(experience.account_id, accountId),
    f.status ? eq(experience.status, f.status) : undefined,
    f.type ? eq(experience.type, f.type) : undefined,
    term ? or(ilike(experience.title, term), ilike(experience.short_description, term)) : undefined,
  );
}

export async function countExperiences(tx: Db, accountId: string, f: ExperienceFilter) {
  const [row] = await tx.select({ n: count() }).from(experience).where(listWhere(accountId, f));
  return row?.n ?? 0;
}

/** One statement per page: the cover picture and the lowest price come from indexed subqueries. */
export function listExperiences(tx: Db, accountId: string, f: ExperienceFilter, limit: number, offset: number) {
  return tx
    .select({
      id: experience.id,
      status: experience.status,
      type: experience.type,
      title: experience.title,
      short_description: experience.short_description,
      duration_minutes: experience.duration_minutes,
      created_at: experience.created_at,
      updated_at: experience.updated_at,
      // Qualified by hand: in a one-table select Drizzle writes its columns unqualified, and inside
      // the subquery "account_id" and "id" would be the image's own (no row ever matched).
      cover_key: sql<string | null>`(select i.thumbnail_key from ${image} i where i.account_id = "experience"."account_id" and i.experience_id = "experience"."id" and i.status = 'ready' order by i.position limit 1)`,
      from_price: sql<number | null>`tourdesk_from_price("experience"."account_id", "experience"."id")`,
    })
    .from(experience)
    .where(listWhere(accountId, f))
    .orderBy(...(ORDER[f.ordering] ?? ORDER['-updated_at']!))
    .limit(limit)
    .offset(offset);
}

export async function findExperience(tx: Db, accountId: string, id: string, forUpdate = false) {
  const query = tx.select().from(experience).where(and(eq(experience.account_id, accountId), eq(experience.id, id)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function experienceMedia(tx: Db, accountId: string, id: string) {
  const [future] = await tx
    .select({ id: slot.id })
    .from(slot)
    .where(and(eq(slot.account_id, accountId), eq(slot.experience_id, id), eq(slot.closed, false), gt(slot.starts_at, new Date())))
    .limit(1);
  const [images, videos, rates] = [
    await tx.select().from(image).where(and(eq(image.account_id, accountId), eq(image.experience_id, id))).orderBy(asc(image.position), asc(image.created_at)),
    await tx.select().from(video).where(and(eq(video.account_id, accountId), eq(video.experience_id, id))).orderBy(asc(video.position)),
    await tx.select().from(pricingRate).where(and(eq(pricingRate.account_id, accountId), eq(pricingRate.experience_id, id))).orderBy(asc(pricingRate.pricing_category_id), asc(pricingRate.valid_from)),
  ];
  return { images, videos, rates, hasFutureSlots: Boolean(future) };
}

export async function countBookings(tx: Db, accountId: string, experienceId: string) {
  const [row] = await tx.select({ n: count() }).from(booking).where(and(eq(booking.account_id, accountId), eq(booking.experience_id, experienceId)));
  return row?.n ?? 0;
}


export type ExperienceRow = typeof experience.$inferSelect;
export type ExperienceColumns = Partial<typeof experience.$inferInsert>;

const REFERENCED = { meeting_points: meetingPoint, booking_questions: bookingQuestion, extras: inventoryItem, cancellation_policy: cancellationPolicy } as const;

/** Which of `ids` are the organisation's own rows of what an experience refers to (one query). */
export function ownedIdsOf(ctx: TenantCtx, kind: keyof typeof REFERENCED, ids: string[]) {
  return ownedIds(ctx.tx, REFERENCED[kind], ctx.accountId, ids);
}

/** The organisation's default cancellation policy (Product configuration), if it has one. */
export async function defaultCancellationPolicy(ctx: TenantCtx) {
  const [a] = await ctx.tx.select({ policy: baseAccount.default_cancellation_policy_id }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return a?.policy;
}

/** Inserts an experience (a new one, or a copy: its own account_id is kept). */
export async function insertExperience(ctx: TenantCtx, values: Omit<typeof experience.$inferInsert, 'account_id'> & { account_id?: string }) {
  const [row] = await ctx.tx
    .insert(experience)
    .values({ account_id: ctx.accountId, ...values })
    .returning();
  return row!;
}

/** Changes an experience's columns. */
/** Ends the live holds on the offer's departures when they now stop being on sale (a cut-off changed): tourdesk_cut_holds. */
export async function cutHolds(ctx: TenantCtx, id: string) {
  await ctx.tx.execute(sql`select tourdesk_cut_holds(${ctx.accountId}::uuid, ${id}::uuid)`);
}

export async function updateExperience(ctx: TenantCtx, id: string, set: ExperienceColumns) {
  const [updated] = await ctx.tx
    .update(experience)
    .set(set)
    .where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, id)))
    .returning();
  return updated!;
}

/** Marks an experience changed now. */
export async function touchExperience(ctx: TenantCtx, id: string) {
  await ctx.tx.update(experience).set({ updated_at: new Date() }).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, id)));
}

/** Deletes an experience's row. */
export async function deleteExperience(ctx: TenantCtx, id: string) {
  await ctx.tx.delete(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, id)));
}

type Copied<T> = Omit<T, 'id' | 'created_at' | 'updated_at'>;

/** Copies prices to another experience (a duplicate's). */
export async function copyRates(ctx: TenantCtx, rates: Copied<typeof pricingRate.$inferSelect>[], experienceId: string) {
  for (const r of rates) {
    await ctx.tx.insert(pricingRate).values({ ...r, experience_id: experienceId });
  }
}

/** Copies videos to another experience (a duplicate's). */
export async function copyVideos(ctx: TenantCtx, videos: Copied<typeof video.$inferSelect>[], experienceId: string) {
  for (const rest of videos) {
    await ctx.tx.insert(video).values({ ...rest, experience_id: experienceId });
  }
}
