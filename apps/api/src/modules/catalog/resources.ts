import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  INVENTORY_TYPES,
  PRICING_CATEGORY_TYPES,
  ZAgendaItem,
  ZAgendaItemInput,
  ZBookingQuestion,
  ZBookingQuestionInput,
  ZBookingQuestionPatch,
  ZCancellationPolicy,
  ZCancellationPolicyInput,
  ZFileFolder,
  ZFileFolderInput,
  ZInventoryCategory,
  ZInventoryCategoryInput,
  ZInventoryItem,
  ZInventoryItemInput,
  ZInventoryTag,
  ZMeetingPoint,
  ZMeetingPointInput,
  ZPricingCategory,
  ZPricingCategoryInput,
  ZPricingCategoryPatch,
  patchOf,
  toMajorText,
} from '@tourdesk/contracts';
import {
  agendaItem,
  bookingQuestion,
  cancellationPolicy,
  experience,
  fileFolder,
  image,
  inventoryItem,
  inventoryItemCategory,
  meetingPoint,
  pricingCategory,
  pricingRate,
} from '../../db/schema';
import { assertOwned, pick, registerCrud, tenantScope, type TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { manageCatalog, manageInventory, viewCatalog } from './access';

const iso = (d: Date) => d.toISOString();

/** Drops a deleted id from every experience that lists it (array columns have no foreign keys). */
async function forgetInExperiences(ctx: TenantCtx, column: 'meeting_point_ids' | 'booking_question_ids' | 'extra_item_ids', id: string) {
  await ctx.tx
    .update(experience)
    .set({ [column]: sql`array_remove(${sql.identifier(column)}, ${id}::uuid)` })
    .where(and(eq(experience.account_id, ctx.accountId), sql`${id}::uuid = any(${sql.identifier(column)})`));
}

export function registerCatalogResources(app: FastifyInstance) {
  const PRICING_CATEGORY_FIELDS = ['type', 'label', 'min_age', 'max_age', 'occupies_seat'] as const;
  registerCrud(app, {
    path: '/api/pricing-categories/',
    tag: 'pricing-categories',
    noun: 'pricing category',
    table: pricingCategory,
    read: viewCatalog,
    write: manageCatalog,
    input: ZPricingCategoryInput,
    patch: ZPricingCategoryPatch,
    output: ZPricingCategory,
    search: [pricingCategory.label],
    filters: { type: { schema: z.enum(PRICING_CATEGORY_TYPES), where: (v) => eq(pricingCategory.type, v) } },
    orderBy: [asc(pricingCategory.type), asc(sql`lower(${pricingCategory.label})`)],
    csv: {
      file: 'pricing-categories',
      columns: [
        { header: 'label', value: (c) => c.label },
        { header: 'type', value: (c) => c.type },
        { header: 'min_age', value: (c) => c.min_age ?? '' },
        { header: 'max_age', value: (c) => c.max_age ?? '' },
        { header: 'occupies_seat', value: (c) => (c.occupies_seat ? 'yes' : 'no') },
        { header: 'created_at', value: (c) => c.created_at },
      ],
    },
    values: async (_ctx, input, existing) => {
      const next = { ...pick(input, PRICING_CATEGORY_FIELDS) };
      const min = next.min_age !== undefined ? next.min_age : existing?.min_age ?? null;
      const max = next.max_age !== undefined ? next.max_age : existing?.max_age ?? null;
      if (min !== null && max !== null && min > max) throw new AppError('invalid', 'The youngest age must not be above the oldest.', 'max_age');
      return next;
    },
    present: async (_ctx, rows) =>
      rows.map((r) => ({
        id: r.id,
        type: r.type as (typeof PRICING_CATEGORY_TYPES)[number],
        label: r.label,
        min_age: r.min_age,
        max_age: r.max_age,
        occupies_seat: r.occupies_seat,
        created_at: iso(r.created_at),
      })),
    beforeDelete: async (ctx, row) => {
      const [used] = await ctx.tx
        .select({ n: count() })
        .from(pricingRate)
        .where(and(eq(pricingRate.account_id, ctx.accountId), eq(pricingRate.pricing_category_id, row.id)));
      if (used && used.n > 0) throw new AppError('conflict', `${used.n} price${used.n === 1 ? '' : 's'} use this category. Remove them first.`);
    },
    unique: { attr: 'label', detail: 'A pricing category with this label already exists.' },
  });

  const MEETING_FIELDS = ['name', 'address', 'latitude', 'longitude', 'instructions'] as const;
  registerCrud(app, {
    path: '/api/meeting-points/',
    tag: 'meeting-points',
    noun: 'meeting point',
    table: meetingPoint,
    read: viewCatalog,
    write: manageCatalog,
    input: ZMeetingPointInput,
    patch: patchOf(ZMeetingPointInput),
    output: ZMeetingPoint,
    search: [meetingPoint.name, meetingPoint.address],
    orderBy: [asc(meetingPoint.name), asc(meetingPoint.id)],
    values: async (_ctx, input) => pick(input, MEETING_FIELDS),
    present: async (_ctx, rows) =>
      rows.map((r) => ({ id: r.id, name: r.name, address: r.address, latitude: r.latitude, longitude: r.longitude, instructions: r.instructions })),
    beforeDelete: (ctx, row) => forgetInExperiences(ctx, 'meeting_point_ids', row.id),
  });

  const QUESTION_FIELDS = ['question', 'answer_type', 'choices', 'required', 'per_participant'] as const;
  registerCrud(app, {
    path: '/api/booking-questions/',
    tag: 'booking-questions',
    noun: 'booking question',
    table: bookingQuestion,
    read: viewCatalog,
    write: manageCatalog,
    input: ZBookingQuestionInput,
    patch: ZBookingQuestionPatch,
    output: ZBookingQuestion,
    search: [bookingQuestion.question],
    orderBy: [asc(bookingQuestion.created_at), asc(bookingQuestion.id)],
    values: async (_ctx, input) => pick(input, QUESTION_FIELDS),
    present: async (_ctx, rows) =>
      rows.map((r) => ({
        id: r.id,
        question: r.question,
        answer_type: r.answer_type as z.infer<typeof ZBookingQuestion>['answer_type'],
        choices: r.choices,
        required: r.required,
        per_participant: r.per_participant,
      })),
    beforeDelete: (ctx, row) => forgetInExperiences(ctx, 'booking_question_ids', row.id),
  });

  registerCrud(app, {
    path: '/api/cancellation-policies/',
    tag: 'cancellation-policies',
    noun: 'cancellation policy',
    table: cancellationPolicy,
    read: viewCatalog,
    write: manageCatalog,
    input: ZCancellationPolicyInput,
    patch: patchOf(ZCancellationPolicyInput),
    output: ZCancellationPolicy,
    search: [cancellationPolicy.name],
    orderBy: [asc(cancellationPolicy.name), asc(cancellationPolicy.id)],
    values: async (_ctx, input) => {
      const v = pick(input, ['name', 'description', 'rules'] as const);
      if (v.rules) v.rules = [...v.rules].sort((a, b) => b.hours_before - a.hours_before);
      return v;
    },
    present: async (_ctx, rows) => rows.map((r) => ({ id: r.id, name: r.name, description: r.description, rules: r.rules })),
  });

  registerCrud(app, {
    path: '/api/inventory-item-categories/',
    tag: 'inventory',
    noun: 'inventory item category',
    table: inventoryItemCategory,
    read: manageInventory,
    write: manageInventory,
    input: ZInventoryCategoryInput,
    patch: patchOf(ZInventoryCategoryInput),
    output: ZInventoryCategory,
    search: [inventoryItemCategory.name],
    orderBy: [asc(sql`lower(${inventoryItemCategory.name})`), asc(inventoryItemCategory.id)],
    csv: {
      file: 'inventory-categories',
      columns: [
        { header: 'name', value: (c) => c.name },
        { header: 'items', value: (c) => c.item_count },
        { header: 'created_at', value: (c) => c.created_at },
      ],
    },
    values: async (_ctx, input) => pick(input, ['name'] as const),
    present: async (ctx, rows) => {
      const ids = rows.map((r) => r.id);
      const counts = ids.length
        ? await ctx.tx
            .select({ id: inventoryItem.category_id, n: count() })
            .from(inventoryItem)
            .where(and(eq(inventoryItem.account_id, ctx.accountId), inArray(inventoryItem.category_id, ids)))
            .groupBy(inventoryItem.category_id)
        : [];
      const byId = new Map(counts.map((c) => [c.id, c.n]));
      return rows.map((r) => ({ id: r.id, name: r.name, item_count: byId.get(r.id) ?? 0, created_at: iso(r.created_at) }));
    },
    unique: { attr: 'name', detail: 'A category with this name already exists.' },
  });

  const ITEM_FIELDS = ['type', 'name', 'description', 'tags', 'price', 'stock'] as const;
  registerCrud(app, {
    path: '/api/inventory-items/',
    tag: 'inventory',
    noun: 'inventory item',
    table: inventoryItem,
    read: manageInventory,
    write: manageInventory,
    input: ZInventoryItemInput,
    patch: patchOf(ZInventoryItemInput),
    output: ZInventoryItem,
    search: [inventoryItem.name, inventoryItem.description],
    filters: {
      type: { schema: z.enum(INVENTORY_TYPES), where: (v) => eq(inventoryItem.type, v) },
      category: { schema: z.uuid(), where: (v) => eq(inventoryItem.category_id, v) },
      tag: { schema: z.string().max(40), where: (v) => sql`${v.toLowerCase()} = any(${inventoryItem.tags})` },
    },
    orderBy: [asc(sql`lower(${inventoryItem.name})`), asc(inventoryItem.id)],
    csv: {
      file: 'inventory-items',
      columns: [
        { header: 'name', value: (i) => i.name },
        { header: 'type', value: (i) => i.type },
        { header: 'category', value: (i) => i.category?.name ?? '' },
        { header: 'tags', value: (i) => i.tags.join('; ') },
        { header: 'currency', value: (i) => i.currency },
        { header: 'price', value: (i) => ({ amount: toMajorText(i.price, i.currency) }) },
        { header: 'stock', value: (i) => i.stock ?? '' },
        { header: 'description', value: (i) => i.description },
        { header: 'created_at', value: (i) => i.created_at },
      ],
    },
    values: async (ctx, input) => {
      await assertOwned(ctx, inventoryItemCategory, input.category, 'category', 'inventory category');
      return {
        ...pick(input, ITEM_FIELDS),
        ...(input.tags ? { tags: [...new Set(input.tags)] } : {}),
        ...(input.category !== undefined ? { category_id: input.category } : {}),
        currency: ctx.currency,
      };
    },
    present: async (ctx, rows) => {
      const ids = [...new Set(rows.map((r) => r.category_id).filter((x): x is string => Boolean(x)))];
      const cats = ids.length
        ? await ctx.tx.select().from(inventoryItemCategory).where(and(eq(inventoryItemCategory.account_id, ctx.accountId), inArray(inventoryItemCategory.id, ids)))
        : [];
      const byId = new Map(cats.map((c) => [c.id, { id: c.id, name: c.name }]));
      return rows.map((r) => ({
        id: r.id,
        type: r.type as (typeof INVENTORY_TYPES)[number],
        name: r.name,
        description: r.description,
        category: r.category_id ? byId.get(r.category_id) ?? null : null,
        tags: r.tags,
        price: r.price,
        currency: r.currency,
        stock: r.stock,
        created_at: iso(r.created_at),
      }));
    },
    beforeDelete: (ctx, row) => forgetInExperiences(ctx, 'extra_item_ids', row.id),
  });

  app.get(
    '/api/inventory-item-tags/',
    {
      config: { access: manageInventory },
      schema: {
        tags: ['inventory'],
        summary: 'Every tag used on inventory items, with how many items carry it',
        response: { 200: z.array(ZInventoryTag) },
      },
    },
    (request) =>
      tenantScope(request, async (ctx) => {
        const rows = (await ctx.tx.execute(sql`
          select tag, count(*)::int as item_count from ${inventoryItem}, unnest(${inventoryItem.tags}) as tag
          where ${inventoryItem.account_id} = ${ctx.accountId} group by tag order by tag`)) as unknown as { rows: { tag: string; item_count: number }[] };
        return rows.rows;
      }),
  );

  registerCrud(app, {
    path: '/api/agenda-items/',
    tag: 'schedules',
    noun: 'agenda item',
    table: agendaItem,
    read: viewCatalog,
    write: manageCatalog,
    input: ZAgendaItemInput,
    patch: patchOf(ZAgendaItemInput).omit({ experience: true }),
    output: ZAgendaItem,
    search: [agendaItem.title],
    filters: { experience: { schema: z.uuid(), where: (v) => eq(agendaItem.experience_id, v) } },
    orderBy: [asc(agendaItem.experience_id), asc(agendaItem.minutes_from_start), asc(agendaItem.id)],
    values: async (ctx, input) => {
      const experienceId = (input as { experience?: string }).experience;
      if (experienceId) await assertOwned(ctx, experience, experienceId, 'experience', 'experience');
      return { ...pick(input, ['minutes_from_start', 'title', 'description'] as const), ...(experienceId ? { experience_id: experienceId } : {}) };
    },
    present: async (_ctx, rows) =>
      rows.map((r) => ({ id: r.id, experience: r.experience_id, minutes_from_start: r.minutes_from_start, title: r.title, description: r.description })),
  });

  registerCrud(app, {
    path: '/api/file-folders/',
    tag: 'media',
    noun: 'folder',
    table: fileFolder,
    read: viewCatalog,
    write: manageCatalog,
    input: ZFileFolderInput,
    patch: patchOf(ZFileFolderInput),
    output: ZFileFolder,
    search: [fileFolder.name],
    orderBy: [asc(sql`lower(${fileFolder.name})`), asc(fileFolder.id)],
    values: async (_ctx, input) => pick(input, ['name'] as const),
    present: async (ctx, rows) => {
      const ids = rows.map((r) => r.id);
      const counts = ids.length
        ? await ctx.tx
            .select({ id: image.folder_id, n: count() })
            .from(image)
            .where(and(eq(image.account_id, ctx.accountId), inArray(image.folder_id, ids)))
            .groupBy(image.folder_id)
        : [];
      const byId = new Map(counts.map((c) => [c.id, c.n]));
      return rows.map((r) => ({ id: r.id, name: r.name, image_count: byId.get(r.id) ?? 0 }));
    },
    unique: { attr: 'name', detail: 'A folder with this name already exists.' },
  });
}
