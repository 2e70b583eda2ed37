import { toMajorText, type TDepositRule, type TExperience, type TExperienceSummary } from '@tourdesk/contracts';
import type { Translations } from '@tourdesk/contracts/i18n';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { listCsv } from '../../lib/list-export';
import type { Storage } from '../../lib/storage';
import { presentRate } from '../catalog/pricing-rates';
import { copyImages, mediaUrl, presentImage, reorderImages, type InTenant } from '../media/images';
import { presentVideo } from '../media/videos';
import * as q from './queries';
import { assertWithinLimit } from '../plans/service';
import { plainText, sanitizeRichText } from './sanitize';
import { mergeTranslations } from './translations';

type Row = q.ExperienceRow;
type Status = TExperience['status'];

/** What the API takes for an experience (create, replace or change), as stored. */
export interface ExperienceInput {
  status?: Status;
  title?: string;
  type?: string;
  short_description?: string;
  categories?: string[];
  tags?: string[];
  languages?: string[];
  duration_minutes?: number | null;
  meeting_points?: string[];
  long_description?: string;
  highlights?: string[];
  inclusions?: string[];
  exclusions?: string[];
  what_to_bring?: string[];
  important_information?: string;
  min_participants?: number;
  max_participants?: number | null;
  booking_cutoff_minutes?: number;
  vat_rate_bp?: number | null;
  deposit?: TDepositRule | null;
  guests_per_guide?: number | null;
  confirmation_mode?: string;
  cancellation_policy?: string | null;
  booking_questions?: string[];
  extras?: string[];
  meeting_instructions?: string;
  voucher_text?: string;
  translations?: ExperienceTranslations;
}
type ExperienceTranslations = Translations<Record<string, string | string[]>>;

const SIMPLE = [
  'title', 'type', 'short_description', 'categories', 'tags', 'languages', 'duration_minutes', 'highlights', 'inclusions',
  'exclusions', 'what_to_bring', 'important_information', 'min_participants', 'max_participants', 'booking_cutoff_minutes', 'vat_rate_bp', 'deposit',
  'guests_per_guide',
  'confirmation_mode', 'meeting_instructions', 'voucher_text',
] as const;

/** Turns API input into columns, checking that every referenced row is the organisation's own. */
async function toColumns(ctx: TenantCtx, input: ExperienceInput, existing?: Row): Promise<q.ExperienceColumns> {
  const out: q.ExperienceColumns = {};
  for (const key of SIMPLE) if (input[key] !== undefined) (out as Record<string, unknown>)[key] = input[key];
  if (out.tags) out.tags = [...new Set(out.tags)];
  if (out.categories) out.categories = [...new Set(out.categories)];
  if (input.long_description !== undefined) out.long_description = sanitizeRichText(input.long_description);
  if (input.translations !== undefined) {
    // Every language's long description is sanitized as the main one is.
    out.translations = mergeTranslations(existing?.translations, input.translations, (t) =>
      typeof t.long_description === 'string' ? { ...t, long_description: plainText(t.long_description) ? sanitizeRichText(t.long_description) : '' } : t,
    );
  }

  const refs = [
    ['meeting_points', 'meeting_point_ids', 'meeting point'],
    ['booking_questions', 'booking_question_ids', 'booking question'],
    ['extras', 'extra_item_ids', 'inventory item'],
  ] as const;
  for (const [attr, column, noun] of refs) {
    const ids = input[attr];
    if (ids === undefined) continue;
    const unique = [...new Set(ids)];
    const owned = await q.ownedIdsOf(ctx, attr, unique);
    const missing = unique.filter((id) => !owned.has(id));
    if (missing.length) throw new AppError('invalid', `Unknown ${noun}: ${missing.join(', ')}.`, attr);
    out[column] = unique;
  }
  if (input.cancellation_policy !== undefined) {
    if (input.cancellation_policy) {
      const owned = await q.ownedIdsOf(ctx, 'cancellation_policy', [input.cancellation_policy]);
      if (!owned.size) throw new AppError('invalid', 'No cancellation policy with this id in your organisation.', 'cancellation_policy');
    }
    out.cancellation_policy_id = input.cancellation_policy;
  }
  const min = out.min_participants ?? existing?.min_participants ?? 1;
  const maxP = out.max_participants !== undefined ? out.max_participants : existing?.max_participants ?? null;
  if (maxP !== null && maxP < min) throw new AppError('invalid', 'The maximum must not be below the minimum.', 'max_participants');
  return out;
}

/** What keeps an experience from being sold, in words for the operator. */
function missingForActivation(row: Row, media: Awaited<ReturnType<typeof q.experienceMedia>>): string[] {
  const missing: string[] = [];
  if (!plainText(row.long_description) && !row.short_description.trim()) missing.push('a description');
  if (media.rates.length === 0) missing.push('a price');
  if (!media.images.some((i) => i.status === 'ready')) missing.push('an image');
  if (!media.hasFutureSlots) missing.push('future availability (a schedule)');
  return missing;
}

async function present(ctx: TenantCtx, row: Row): Promise<TExperience> {
  const media = await q.experienceMedia(ctx.tx, ctx.accountId, row.id);
  return {
    id: row.id,
    status: row.status as Status,
    type: row.type as TExperience['type'],
    title: row.title,
    short_description: row.short_description,
    categories: row.categories,
    tags: row.tags,
    languages: row.languages,
    duration_minutes: row.duration_minutes,
    meeting_points: row.meeting_point_ids,
    long_description: row.long_description,
    highlights: row.highlights,
    inclusions: row.inclusions,
    exclusions: row.exclusions,
    what_to_bring: row.what_to_bring,
    important_information: row.important_information,
    min_participants: row.min_participants,
    max_participants: row.max_participants,
    booking_cutoff_minutes: row.booking_cutoff_minutes,
    vat_rate_bp: row.vat_rate_bp,
    confirmation_mode: row.confirmation_mode as TExperience['confirmation_mode'],
    deposit: row.deposit,
    guests_per_guide: row.guests_per_guide,
    cancellation_policy: row.cancellation_policy_id,
    booking_questions: row.booking_question_ids,
    extras: row.extra_item_ids,
    meeting_instructions: row.meeting_instructions,
    voucher_text: row.voucher_text,
    translations: row.translations as TExperience['translations'],
    images: media.images.map(presentImage),
    videos: media.videos.map(presentVideo),
    prices: media.rates.map(presentRate),
    missing_for_activation: missingForActivation(row, media),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function rowOr404(ctx: TenantCtx, id: string, forUpdate = false) {
  const row = await q.findExperience(ctx.tx, ctx.accountId, id, forUpdate);
  if (!row) throw notFound('No experience with this id.');
  return row;
}

/** Draft → Active only when complete; Active ↔ Inactive. Each missing thing is its own error item. */
async function checkTransition(ctx: TenantCtx, row: Row, next: Status) {
  if (next === row.status) return;
  const allowed: Record<Status, Status[]> = { Draft: ['Active'], Active: ['Inactive'], Inactive: ['Active'] };
  if (!allowed[row.status as Status].includes(next)) {
    throw new AppError('invalid', `An experience cannot go from ${row.status} to ${next}.`, 'status');
  }
  if (next === 'Active') {
    const missing = missingForActivation(row, await q.experienceMedia(ctx.tx, ctx.accountId, row.id));
    if (missing.length) {
      const [first, ...rest] = missing.map((m) => ({ code: 'incomplete', detail: `To sell this experience, add ${m}.`, attr: 'status' }));
      throw new AppError('invalid', first!.detail, 'status', rest);
    }
  }
}

/** One page of the catalogue, presented as the list shows it (the list and its CSV read through here). */
export async function pageExperiences(ctx: TenantCtx, query: q.ExperienceFilter, limit: number, offset: number): Promise<TExperienceSummary[]> {
  return (await q.listExperiences(ctx.tx, ctx.accountId, query, limit, offset)).map((r) => ({
    id: r.id,
    status: r.status as Status,
    type: r.type as TExperience['type'],
    title: r.title,
    short_description: r.short_description,
    cover_url: mediaUrl(r.cover_key),
    from_price: r.from_price === null ? null : Number(r.from_price),
    currency: ctx.currency,
    duration_minutes: r.duration_minutes,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

export function countExperiences(ctx: TenantCtx, query: q.ExperienceFilter) {
  return q.countExperiences(ctx.tx, ctx.accountId, query);
}

/** The catalogue as CSV, filtered and ordered as the list (run it in a snapshot: it reads several pages). */
export function experiencesCsv(ctx: TenantCtx, query: q.ExperienceFilter) {
  return listCsv<TExperienceSummary>(
    [
      { header: 'title', value: (e) => e.title },
      { header: 'status', value: (e) => e.status },
      { header: 'type', value: (e) => e.type },
      { header: 'currency', value: (e) => e.currency },
      { header: 'from_price', value: (e) => (e.from_price === null ? '' : { amount: toMajorText(e.from_price, e.currency) }) },
      { header: 'duration_minutes', value: (e) => e.duration_minutes ?? '' },
      { header: 'short_description', value: (e) => e.short_description },
      { header: 'created_at', value: (e) => e.created_at },
      { header: 'updated_at', value: (e) => e.updated_at },
      { header: 'id', value: (e) => e.id },
    ],
    (limit, offset) => pageExperiences(ctx, query, limit, offset),
  );
}

export async function getExperience(ctx: TenantCtx, id: string) {
  return present(ctx, await rowOr404(ctx, id));
}

export async function createExperience(ctx: TenantCtx, input: ExperienceInput) {
  await assertWithinLimit(ctx, 'offers');
  const columns = await toColumns(ctx, input);
  // A new offer takes the organisation's default cancellation policy (Product configuration) unless it names one.
  if (input.cancellation_policy === undefined) {
    const policy = await q.defaultCancellationPolicy(ctx);
    if (policy) columns.cancellation_policy_id = policy;
  }
  const row = await q.insertExperience(ctx, { ...columns, title: input.title!, type: input.type!, status: 'Draft' });
  return present(ctx, row);
}

export async function updateExperience(ctx: TenantCtx, id: string, input: ExperienceInput) {
  const row = await rowOr404(ctx, id, true);
  const columns = await toColumns(ctx, input, row);
  if (input.status) await checkTransition(ctx, { ...row, ...columns } as Row, input.status);
  const updated = await q.updateExperience(ctx, id, { ...columns, ...(input.status ? { status: input.status } : {}), updated_at: new Date() });
  // A hold never outlives its departure's cut-off: one raised now ends the holds already made.
  if (updated.booking_cutoff_minutes !== row.booking_cutoff_minutes) await q.cutHolds(ctx, id);
  return present(ctx, updated);
}

/** Deletes an experience without bookings, then (after its transaction) its images' files. */
export async function deleteExperience(run: InTenant, storage: Storage, id: string) {
  const keys = await run(async (ctx) => {
    await rowOr404(ctx, id, true);
    const bookings = await q.countBookings(ctx.tx, ctx.accountId, id);
    if (bookings > 0) {
      throw new AppError('conflict', `This offer has ${bookings} booking${bookings === 1 ? '' : 's'}: it cannot be deleted. Deactivate it instead.`);
    }
    const { images } = await q.experienceMedia(ctx.tx, ctx.accountId, id);
    await q.deleteExperience(ctx, id);
    return images.flatMap((i) => [i.storage_key, i.thumbnail_key]);
  });
  for (const key of keys) if (key) await storage.remove(key);
}

/** A Draft copy with its descriptions, prices, media and settings; never its bookings. */
export async function duplicateExperience(ctx: TenantCtx, storage: Storage, id: string) {
  const source = await rowOr404(ctx, id);
  await assertWithinLimit(ctx, 'offers');
  const { id: _id, created_at: _c, updated_at: _u, status: _s, ...fields } = source;
  const copy = await q.insertExperience(ctx, { ...fields, title: `${source.title} (copy)`.slice(0, 150), status: 'Draft' });
  const media = await q.experienceMedia(ctx.tx, ctx.accountId, id);
  await q.copyRates(ctx, media.rates.map(({ id: _r, created_at: _rc, updated_at: _ru, ...r }) => r), copy.id);
  await q.copyVideos(ctx, media.videos.map(({ id: _v, created_at: _vc, updated_at: _vu, ...rest }) => rest), copy.id);
  await copyImages(ctx, storage, id, copy.id);
  return present(ctx, copy);
}

export async function reorderExperienceImages(ctx: TenantCtx, id: string, ids: string[]) {
  await rowOr404(ctx, id, true);
  await reorderImages(ctx, id, ids);
  await q.touchExperience(ctx, id);
  return present(ctx, (await rowOr404(ctx, id))!);
}
