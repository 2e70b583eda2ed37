import type { z } from 'zod';
import type {
  INVENTORY_TYPES,
  PRICING_CATEGORY_TYPES,
  TPricingCategory,
  ZAgendaItemInput,
  ZBookingQuestion,
  ZBookingQuestionInput,
  ZCancellationPolicyInput,
  ZFileFolderInput,
  ZInventoryCategoryInput,
  ZInventoryItemInput,
  ZMeetingPointInput,
  ZPricingCategoryInput,
} from '@tourdesk/contracts';
import { pick, type TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { mergeTranslations } from '../experiences/translations';
import * as q from './queries';

/**
 * The rules of the catalogue's simple resources, for registerCrud (routes.ts): how input becomes
 * columns (with reference checks), how rows become responses (one call per page, at most one
 * query), and what a deletion must refuse or clean up.
 */

const iso = (d: Date) => d.toISOString();
type Input<S extends z.ZodType> = Partial<z.output<S>>;

// --- pricing categories -----------------------------------------------------------------------

const PRICING_CATEGORY_FIELDS = ['type', 'label', 'min_age', 'max_age', 'occupies_seat'] as const;

export async function pricingCategoryValues(_ctx: TenantCtx, input: Input<typeof ZPricingCategoryInput>, existing?: q.PricingCategoryRow) {
  const next = { ...pick(input, PRICING_CATEGORY_FIELDS) };
  const min = next.min_age !== undefined ? next.min_age : existing?.min_age ?? null;
  const max = next.max_age !== undefined ? next.max_age : existing?.max_age ?? null;
  if (min !== null && max !== null && min > max) throw new AppError('invalid', 'The youngest age must not be above the oldest.', 'max_age');
  return { ...next, ...(input.translations !== undefined ? { translations: mergeTranslations(existing?.translations, input.translations) } : {}) };
}

export async function presentPricingCategories(_ctx: TenantCtx, rows: q.PricingCategoryRow[]): Promise<TPricingCategory[]> {
  return rows.map((r) => ({
    id: r.id,
    type: r.type as (typeof PRICING_CATEGORY_TYPES)[number],
    label: r.label,
    min_age: r.min_age,
    max_age: r.max_age,
    occupies_seat: r.occupies_seat,
    translations: r.translations,
    created_at: iso(r.created_at),
  }));
}

/** A category that prices use cannot go. */
export async function beforeDeletePricingCategory(ctx: TenantCtx, row: q.PricingCategoryRow) {
  const used = await q.countRatesOfCategory(ctx, row.id);
  if (used && used.n > 0) throw new AppError('conflict', `${used.n} price${used.n === 1 ? '' : 's'} use this category. Remove them first.`);
}

// --- meeting points ---------------------------------------------------------------------------

const MEETING_FIELDS = ['name', 'address', 'latitude', 'longitude', 'instructions'] as const;

export async function meetingPointValues(_ctx: TenantCtx, input: Input<typeof ZMeetingPointInput>) {
  return pick(input, MEETING_FIELDS);
}

export async function presentMeetingPoints(_ctx: TenantCtx, rows: q.MeetingPointRow[]) {
  return rows.map((r) => ({ id: r.id, name: r.name, address: r.address, latitude: r.latitude, longitude: r.longitude, instructions: r.instructions }));
}

/** A deleted meeting point leaves the experiences that list it. */
export const beforeDeleteMeetingPoint = (ctx: TenantCtx, row: q.MeetingPointRow) => q.forgetInExperiences(ctx, 'meeting_point_ids', row.id);

// --- booking questions ------------------------------------------------------------------------

const QUESTION_FIELDS = ['question', 'answer_type', 'choices', 'required', 'per_participant'] as const;

/** A question's options in another language are the same options, in order: as many as its own. */
export async function bookingQuestionValues(_ctx: TenantCtx, input: Input<typeof ZBookingQuestionInput>, existing?: q.BookingQuestionRow) {
  const values = pick(input, QUESTION_FIELDS);
  if (input.translations === undefined) return values;
  const choices = values.choices ?? existing?.choices ?? [];
  for (const [language, texts] of Object.entries(input.translations)) {
    const given = texts?.choices?.filter((c) => c.trim() !== '');
    if (given?.length && given.length !== choices.length) {
      throw new AppError('invalid', `The options in ${language} must be the question's ${choices.length} options, in order.`, `translations.${language}.choices`);
    }
  }
  return { ...values, translations: mergeTranslations(existing?.translations, input.translations, (t) => (t.choices?.some((c) => c.trim() === '') ? { ...t, choices: [] } : t)) };
}

export async function presentBookingQuestions(_ctx: TenantCtx, rows: q.BookingQuestionRow[]) {
  return rows.map((r) => ({
    id: r.id,
    question: r.question,
    answer_type: r.answer_type as z.infer<typeof ZBookingQuestion>['answer_type'],
    choices: r.choices,
    required: r.required,
    per_participant: r.per_participant,
    translations: r.translations,
  }));
}

/** A deleted question leaves the experiences that ask it. */
export const beforeDeleteBookingQuestion = (ctx: TenantCtx, row: q.BookingQuestionRow) => q.forgetInExperiences(ctx, 'booking_question_ids', row.id);

// --- cancellation policies --------------------------------------------------------------------

/** A policy's rules are kept from the most hours before the start to the fewest. */
export async function cancellationPolicyValues(_ctx: TenantCtx, input: Input<typeof ZCancellationPolicyInput>, existing?: q.CancellationPolicyRow) {
  const v = pick(input, ['name', 'description', 'rules'] as const);
  if (v.rules) v.rules = [...v.rules].sort((a, b) => b.hours_before - a.hours_before);
  return { ...v, ...(input.translations !== undefined ? { translations: mergeTranslations(existing?.translations, input.translations) } : {}) };
}

export async function presentCancellationPolicies(_ctx: TenantCtx, rows: q.CancellationPolicyRow[]) {
  return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, rules: r.rules, translations: r.translations }));
}

// --- inventory --------------------------------------------------------------------------------

export async function inventoryCategoryValues(_ctx: TenantCtx, input: Input<typeof ZInventoryCategoryInput>) {
  return pick(input, ['name'] as const);
}

/** Categories with how many items each holds (one query per page). */
export async function presentInventoryCategories(ctx: TenantCtx, rows: q.InventoryCategoryRow[]) {
  const counts = await q.itemCountsByCategory(ctx, rows.map((r) => r.id));
  const byId = new Map(counts.map((c) => [c.id, c.n]));
  return rows.map((r) => ({ id: r.id, name: r.name, item_count: byId.get(r.id) ?? 0, created_at: iso(r.created_at) }));
}

const ITEM_FIELDS = ['type', 'name', 'description', 'tags', 'price', 'stock', 'buffer_before_minutes', 'buffer_after_minutes'] as const;

/** An item's category is the organisation's own; its price is in the organisation's currency. */
export async function inventoryItemValues(ctx: TenantCtx, input: Input<typeof ZInventoryItemInput>, existing?: q.InventoryItemRow) {
  await q.assertOwnInventoryCategory(ctx, input.category);
  return {
    ...pick(input, ITEM_FIELDS),
    ...(input.translations !== undefined ? { translations: mergeTranslations(existing?.translations, input.translations) } : {}),
    ...(input.tags ? { tags: [...new Set(input.tags)] } : {}),
    ...(input.category !== undefined ? { category_id: input.category } : {}),
    currency: ctx.currency,
  };
}

/** Items with their category's name (one query per page). */
export async function presentInventoryItems(ctx: TenantCtx, rows: q.InventoryItemRow[]) {
  const ids = [...new Set(rows.map((r) => r.category_id).filter((x): x is string => Boolean(x)))];
  const cats = await q.inventoryCategoriesByIds(ctx, ids);
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
    buffer_before_minutes: r.buffer_before_minutes,
    buffer_after_minutes: r.buffer_after_minutes,
    translations: r.translations,
    created_at: iso(r.created_at),
  }));
}

/** A deleted item is no longer offered as an extra; a pool that offers take from cannot go (their usage names it first). */
export async function beforeDeleteInventoryItem(ctx: TenantCtx, row: q.InventoryItemRow) {
  const users = await q.offersUsingPool(ctx, row.id);
  if (users.length > 0) throw new AppError('conflict', `${users.join(', ')} take${users.length === 1 ? 's' : ''} from this pool. Remove it from their resources first.`);
  await q.forgetInExperiences(ctx, 'extra_item_ids', row.id);
}

/** Every tag used on inventory items, with how many items carry it. */
export const inventoryTags = q.inventoryTags;

// --- agenda items -----------------------------------------------------------------------------

/** An agenda item's experience is the organisation's own (it cannot move to another). */
export async function agendaItemValues(ctx: TenantCtx, input: Input<typeof ZAgendaItemInput>) {
  const experienceId = (input as { experience?: string }).experience;
  if (experienceId) await q.assertOwnExperience(ctx, experienceId);
  return { ...pick(input, ['minutes_from_start', 'title', 'description'] as const), ...(experienceId ? { experience_id: experienceId } : {}) };
}

export async function presentAgendaItems(_ctx: TenantCtx, rows: q.AgendaItemRow[]) {
  return rows.map((r) => ({ id: r.id, experience: r.experience_id, minutes_from_start: r.minutes_from_start, title: r.title, description: r.description }));
}

// --- file folders -----------------------------------------------------------------------------

export async function fileFolderValues(_ctx: TenantCtx, input: Input<typeof ZFileFolderInput>) {
  return pick(input, ['name'] as const);
}

/** Folders with how many images each holds (one query per page). */
export async function presentFileFolders(ctx: TenantCtx, rows: q.FileFolderRow[]) {
  const counts = await q.imageCountsByFolder(ctx, rows.map((r) => r.id));
  const byId = new Map(counts.map((c) => [c.id, c.n]));
  return rows.map((r) => ({ id: r.id, name: r.name, image_count: byId.get(r.id) ?? 0 }));
}
