import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { INVENTORY_TYPES, PRICING_CATEGORY_TYPES } from '@tourdesk/contracts';
import {
  agendaItem,
  bookingQuestion,
  cancellationPolicy,
  experience,
  fileFolder,
  image,
  inventoryItem,
  inventoryItemCategory,
  poolUsage,
  meetingPoint,
  pricingCategory,
  pricingRate,
} from '../../db/schema';
import { assertOwned } from '../../lib/crud-queries';
import type { TenantCtx } from '../../lib/crud';
import { execute } from '../../db/execute';

/**
 * The catalog module's only access to the database: each resource's list for registerCrud (its
 * table, the columns `search` looks in, its filters and its order), and the reads and writes of
 * the rules in resources.ts and pricing-rates.ts.
 */

export type PricingCategoryRow = typeof pricingCategory.$inferSelect;
export type MeetingPointRow = typeof meetingPoint.$inferSelect;
export type BookingQuestionRow = typeof bookingQuestion.$inferSelect;
export type CancellationPolicyRow = typeof cancellationPolicy.$inferSelect;
export type InventoryCategoryRow = typeof inventoryItemCategory.$inferSelect;
export type InventoryItemRow = typeof inventoryItem.$inferSelect;
export type AgendaItemRow = typeof agendaItem.$inferSelect;
export type FileFolderRow = typeof fileFolder.$inferSelect;
export type RateRow = typeof pricingRate.$inferSelect;

// --- the lists --------------------------------------------------------------------------

/** Pricing categories: by type, then label. */
export const pricingCategoryCrud = {
  table: pricingCategory,
  search: [pricingCategory.label],
  filters: { type: { schema: z.enum(PRICING_CATEGORY_TYPES), where: (v: string) => eq(pricingCategory.type, v) } },
  orderBy: [asc(pricingCategory.type), asc(sql`lower(${pricingCategory.label})`)],
};

/** Meeting points: by name. */
export const meetingPointCrud = {
  table: meetingPoint,
  search: [meetingPoint.name, meetingPoint.address],
  orderBy: [asc(meetingPoint.name), asc(meetingPoint.id)],
};

/** Booking questions: oldest first. */
export const bookingQuestionCrud = {
  table: bookingQuestion,
  search: [bookingQuestion.question],
  orderBy: [asc(bookingQuestion.created_at), asc(bookingQuestion.id)],
};

/** Cancellation policies: by name. */
export const cancellationPolicyCrud = {
  table: cancellationPolicy,
  search: [cancellationPolicy.name],
  orderBy: [asc(cancellationPolicy.name), asc(cancellationPolicy.id)],
};

/** Inventory item categories: by name. */
export const inventoryCategoryCrud = {
  table: inventoryItemCategory,
  search: [inventoryItemCategory.name],
  orderBy: [asc(sql`lower(${inventoryItemCategory.name})`), asc(inventoryItemCategory.id)],
};

/** Inventory items: by name; filters by type, category and tag. */
export const inventoryItemCrud = {
  table: inventoryItem,
  search: [inventoryItem.name, inventoryItem.description],
  filters: {
    type: { schema: z.enum(INVENTORY_TYPES), where: (v: string) => eq(inventoryItem.type, v) },
    category: { schema: z.uuid(), where: (v: string) => eq(inventoryItem.category_id, v) },
    tag: { schema: z.string().max(40), where: (v: string) => sql`${v.toLowerCase()} = any(${inventoryItem.tags})` },
  },
  orderBy: [asc(sql`lower(${inventoryItem.name})`), asc(inventoryItem.id)],
};

/** Agenda items: by experience, then minutes from the start. */
export const agendaItemCrud = {
  table: agendaItem,
  search: [agendaItem.title],
  filters: { experience: { schema: z.uuid(), where: (v: string) => eq(agendaItem.experience_id, v) } },
  orderBy: [asc(agendaItem.experience_id), asc(agendaItem.minutes_from_start), asc(agendaItem.id)],
};

/** File folders: by name. */
export const fileFolderCrud = {
  table: fileFolder,
  search: [fileFolder.name],
  orderBy: [asc(sql`lower(${fileFolder.name})`), asc(fileFolder.id)],
};

/** Pricing rates: by experience, category and start of validity; filters by experience(s) and category. */
export const pricingRateCrud = {
  table: pricingRate,
  filters: {
    experience: { schema: z.uuid(), where: (v: string) => eq(pricingRate.experience_id, v) },
    pricing_category: { schema: z.uuid(), where: (v: string) => eq(pricingRate.pricing_category_id, v) },
    /** Several experiences at once (comma-separated ids): the pricing catalogue's page. */
    experiences: {
      schema: z.string().regex(/^[0-9a-f-]{36}(,[0-9a-f-]{36}){0,49}$/, { error: 'A comma-separated list of at most 50 ids.' }),
      where: (v: string) => inArray(pricingRate.experience_id, v.split(',')),
    },
  },
  orderBy: [asc(pricingRate.experience_id), asc(pricingRate.pricing_category_id), asc(pricingRate.valid_from), asc(pricingRate.id)],
};

// --- references ---------------------------------------------------------------------------

/** Refuses (400) an experience id that is not the organisation's (none given: nothing to check). */
export function assertOwnExperience(ctx: TenantCtx, id: string | null | undefined) {
  return assertOwned(ctx, experience, id, 'experience', 'experience');
}

/** Refuses (400) an inventory category id that is not the organisation's (none given: nothing to check). */
export function assertOwnInventoryCategory(ctx: TenantCtx, id: string | null | undefined) {
  return assertOwned(ctx, inventoryItemCategory, id, 'category', 'inventory category');
}

/** Drops a deleted id from every experience that lists it (array columns have no foreign keys). */
export async function forgetInExperiences(ctx: TenantCtx, column: 'meeting_point_ids' | 'booking_question_ids' | 'extra_item_ids', id: string) {
  await ctx.tx
    .update(experience)
    .set({ [column]: sql`array_remove(${sql.identifier(column)}, ${id}::uuid)` })
    .where(and(eq(experience.account_id, ctx.accountId), sql`${id}::uuid = any(${sql.identifier(column)})`));
}

/** The titles of the offers that take from a pool (pool_usage), by title. */
export async function offersUsingPool(ctx: TenantCtx, poolId: string) {
  const rows = await ctx.tx
    .selectDistinct({ title: experience.title })
    .from(poolUsage)
    .innerJoin(experience, eq(experience.id, poolUsage.experience_id))
    .where(and(eq(poolUsage.account_id, ctx.accountId), eq(poolUsage.pool_id, poolId)))
    .orderBy(asc(experience.title));
  return rows.map((r) => r.title);
}

// --- counts for the lists -------------------------------------------------------------------

/** How many prices use a pricing category. */
export async function countRatesOfCategory(ctx: TenantCtx, categoryId: string) {
  const [used] = await ctx.tx
    .select({ n: count() })
    .from(pricingRate)
    .where(and(eq(pricingRate.account_id, ctx.accountId), eq(pricingRate.pricing_category_id, categoryId)));
  return used;
}

/** How many items each of some inventory categories holds (one query). */
export async function itemCountsByCategory(ctx: TenantCtx, ids: string[]) {
  return ids.length
    ? await ctx.tx
        .select({ id: inventoryItem.category_id, n: count() })
        .from(inventoryItem)
        .where(and(eq(inventoryItem.account_id, ctx.accountId), inArray(inventoryItem.category_id, ids)))
        .groupBy(inventoryItem.category_id)
    : [];
}

/** Some inventory categories of the organisation (one query). */
export async function inventoryCategoriesByIds(ctx: TenantCtx, ids: string[]) {
  return ids.length
    ? await ctx.tx.select().from(inventoryItemCategory).where(and(eq(inventoryItemCategory.account_id, ctx.accountId), inArray(inventoryItemCategory.id, ids)))
    : [];
}

/** Every tag used on inventory items, with how many items carry it. */
export async function inventoryTags(ctx: TenantCtx) {
  const rows = (await execute<{ tag: string; item_count: number }>(ctx.tx, sql`
          select tag, count(*)::int as item_count from ${inventoryItem}, unnest(${inventoryItem.tags}) as tag
          where ${inventoryItem.account_id} = ${ctx.accountId} group by tag order by tag`));
  return rows.rows;
}

/** How many images each of some folders holds (one query). */
export async function imageCountsByFolder(ctx: TenantCtx, ids: string[]) {
  return ids.length
    ? await ctx.tx
        .select({ id: image.folder_id, n: count() })
        .from(image)
        .where(and(eq(image.account_id, ctx.accountId), inArray(image.folder_id, ids)))
        .groupBy(image.folder_id)
    : [];
}

// --- pricing rates ------------------------------------------------------------------------

/** Locks the experience's row (the overlap check's lock); undefined when it is not the organisation's. */
export async function lockExperience(ctx: TenantCtx, experienceId: string) {
  const [exp] = await ctx.tx
    .select({ id: experience.id })
    .from(experience)
    .where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, experienceId)))
    .for('update');
  return exp;
}

/** A pricing category of the organisation (undefined when it is not one). */
export async function findPricingCategory(ctx: TenantCtx, categoryId: string) {
  const [cat] = await ctx.tx
    .select({ id: pricingCategory.id })
    .from(pricingCategory)
    .where(and(eq(pricingCategory.account_id, ctx.accountId), eq(pricingCategory.id, categoryId)));
  return cat;
}

/** Another price of the same experience and category that covers a day this one covers (dates and weekdays), if any. */
export async function overlappingRate(
  ctx: TenantCtx,
  rate: Pick<RateRow, 'experience_id' | 'pricing_category_id' | 'valid_from' | 'valid_to' | 'weekdays'>,
  selfId?: string,
) {
  const weekdays = `{${rate.weekdays.join(',')}}`;
  const [clash] = await ctx.tx
    .select()
    .from(pricingRate)
    .where(
      and(
        eq(pricingRate.account_id, ctx.accountId),
        eq(pricingRate.experience_id, rate.experience_id),
        eq(pricingRate.pricing_category_id, rate.pricing_category_id),
        selfId ? ne(pricingRate.id, selfId) : undefined,
        sql`daterange(coalesce(${pricingRate.valid_from}, '-infinity'::date), coalesce(${pricingRate.valid_to}, 'infinity'::date), '[]')
            && daterange(coalesce(${rate.valid_from}::date, '-infinity'::date), coalesce(${rate.valid_to}::date, 'infinity'::date), '[]')`,
        sql`(cardinality(${pricingRate.weekdays}) = 0 or cardinality(${weekdays}::int[]) = 0 or ${pricingRate.weekdays} && ${weekdays}::int[])`,
      ),
    )
    .limit(1);
  return clash;
}
