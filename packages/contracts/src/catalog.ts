import { z } from 'zod';
import { ZDepositRule } from './deposits';
import { EXPERIENCE_STATUSES, EXPERIENCE_TYPES, INVENTORY_TYPES, PRICING_CATEGORY_TYPES } from './constants';
import { ZCurrency } from './money';
import { patchOf, ZPaginationQuery } from './pagination';

/** Money is integer minor units (cents) in the account's currency. */
export const ZMinorUnits = z
  .number({ error: 'A price is a whole number of minor units (cents).' })
  .int({ error: 'A price is a whole number of minor units (cents), without decimals.' })
  .min(0, { error: 'A price cannot be negative.' })
  .max(100_000_000, { error: 'That price is too high.' });
const ZText = (max: number) => z.string().trim().max(max);
const ZList = z.array(z.string().trim().min(1).max(300)).max(50);
import { ZDate, ZHttpUrl } from './text';
import { LANGUAGES } from './i18n/languages';
const ZUuid = z.uuid({ error: 'Not a valid id.' });

/**
 * Texts per language (issue 30): `{ "de": { "title": "…" } }`, only known languages as keys, each
 * with some of `shape`'s fields (blank: not translated, the main language's text is served). The
 * row's own fields are the organisation's main language; localize() (i18n/localize.ts) serves them.
 */
export const translationsOf = <S extends z.ZodRawShape>(shape: S) =>
  z.partialRecord(z.enum(LANGUAGES), z.object(shape).partial().strict(), {
    // A partial record reports keys outside its enum as unrecognized_keys.
    error: (issue) => {
      const keys = (issue as { code: string; keys?: string[] }).code === 'unrecognized_keys' ? (issue as { keys?: string[] }).keys ?? [] : null;
      return keys ? `Unknown language ${keys.map((k) => `"${k}"`).join(', ')}: translations are in ${LANGUAGES.join(', ')}.` : undefined;
    },
  });

// --- pricing categories -------------------------------------------------------------------
export const ZPricingCategoryInput = z
  .object({
    type: z.enum(PRICING_CATEGORY_TYPES, { error: `Choose one of: ${PRICING_CATEGORY_TYPES.join(', ')}.` }),
    label: ZText(80).min(1, { error: 'A category needs a label.' }),
    min_age: z.number().int().min(0).max(120).nullable().default(null),
    max_age: z.number().int().min(0).max(120).nullable().default(null),
    occupies_seat: z.boolean().default(true),
    translations: translationsOf({ label: ZText(80) }).optional(),
  })
  .refine((v) => v.min_age === null || v.max_age === null || v.min_age <= v.max_age, {
    error: 'The youngest age must not be above the oldest.',
    path: ['max_age'],
  });
export const ZPricingCategory = z
  .object({
    id: z.uuid(),
    type: z.enum(PRICING_CATEGORY_TYPES),
    label: z.string(),
    min_age: z.number().nullable(),
    max_age: z.number().nullable(),
    occupies_seat: z.boolean(),
    translations: translationsOf({ label: z.string() }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'PricingCategory' });
export type TPricingCategory = z.infer<typeof ZPricingCategory>;
/** A PATCH of a category (the age rule across both ages is checked by the API against the stored row). */
export const ZPricingCategoryPatch = z.object({
  type: z.enum(PRICING_CATEGORY_TYPES).optional(),
  label: z.string().trim().min(1).max(80).optional(),
  min_age: z.number().int().min(0).max(120).nullable().optional(),
  max_age: z.number().int().min(0).max(120).nullable().optional(),
  occupies_seat: z.boolean().optional(),
  /** Each language given replaces that language's texts ({} removes them). */
  translations: translationsOf({ label: ZText(80) }).optional(),
});

// --- pricing rates ------------------------------------------------------------------------
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const; // ISO: 1 = Monday
export const ZPricingRateInput = z
  .object({
    experience: ZUuid,
    pricing_category: ZUuid,
    retail_price: ZMinorUnits,
    net_price: ZMinorUnits.nullable().default(null),
    currency: ZCurrency.optional(),
    valid_from: ZDate.nullable().default(null),
    valid_to: ZDate.nullable().default(null),
    weekdays: z.array(z.number().int().min(1).max(7)).max(7).default([]),
  })
  .refine((v) => !v.valid_from || !v.valid_to || v.valid_from <= v.valid_to, {
    error: 'The end of the validity comes before its start.',
    path: ['valid_to'],
  })
  .refine((v) => v.net_price === null || v.net_price <= v.retail_price, {
    error: 'The net (reseller) price cannot be above the retail price.',
    path: ['net_price'],
  });
export const ZPricingRate = z
  .object({
    id: z.uuid(),
    experience: z.uuid(),
    pricing_category: z.uuid(),
    retail_price: z.number().int(),
    net_price: z.number().int().nullable(),
    currency: z.string(),
    valid_from: z.string().nullable(),
    valid_to: z.string().nullable(),
    weekdays: z.array(z.number().int()),
  })
  .meta({ id: 'PricingRate' });
export type TPricingRate = z.infer<typeof ZPricingRate>;
export type TPricingRateInput = z.input<typeof ZPricingRateInput>;
/** A PATCH of a price: its experience and category stay. */
export const ZPricingRatePatch = z.object({
  retail_price: ZMinorUnits.optional(),
  net_price: ZMinorUnits.nullable().optional(),
  currency: z.string().optional(),
  valid_from: ZDate.nullable().optional(),
  valid_to: ZDate.nullable().optional(),
  weekdays: z.array(z.number().int().min(1).max(7)).max(7).optional(),
});

// --- inventory ----------------------------------------------------------------------------
export const ZInventoryCategoryInput = z.object({ name: ZText(80).min(1, { error: 'A category needs a name.' }) });
export const ZInventoryCategory = z
  .object({ id: z.uuid(), name: z.string(), item_count: z.number().int(), created_at: z.iso.datetime() })
  .meta({ id: 'InventoryItemCategory' });
export type TInventoryCategory = z.infer<typeof ZInventoryCategory>;

export const ZInventoryItemInput = z.object({
  type: z.enum(INVENTORY_TYPES, { error: `Choose one of: ${INVENTORY_TYPES.join(', ')}.` }),
  name: ZText(120).min(1, { error: 'An item needs a name.' }),
  description: ZText(2000).default(''),
  category: ZUuid.nullable().default(null),
  tags: z.array(z.string().trim().toLowerCase().min(1).max(40)).max(20).default([]),
  price: ZMinorUnits,
  stock: z.number().int().min(0, { error: 'Stock cannot be negative.' }).nullable().default(null),
  /** A pool's buffers (an Equipment item with a stock that offers use, issue 34): minutes it is taken before a departure and after it. */
  buffer_before_minutes: z.number().int({ error: 'Use whole minutes.' }).min(0, { error: 'A buffer cannot be negative.' }).max(1440, { error: 'A buffer is at most 1440 minutes (a day).' }).default(0),
  buffer_after_minutes: z.number().int({ error: 'Use whole minutes.' }).min(0, { error: 'A buffer cannot be negative.' }).max(1440, { error: 'A buffer is at most 1440 minutes (a day).' }).default(0),
  translations: translationsOf({ name: ZText(120), description: ZText(2000) }).optional(),
});
export const ZInventoryItem = z
  .object({
    id: z.uuid(),
    type: z.enum(INVENTORY_TYPES),
    name: z.string(),
    description: z.string(),
    category: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    tags: z.array(z.string()),
    price: z.number().int(),
    currency: z.string(),
    stock: z.number().int().nullable(),
    buffer_before_minutes: z.number().int(),
    buffer_after_minutes: z.number().int(),
    translations: translationsOf({ name: z.string(), description: z.string() }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'InventoryItem' });
export type TInventoryItem = z.infer<typeof ZInventoryItem>;
/** A tag used on inventory items, with how many items carry it. */
export const ZInventoryTag = z.object({ tag: z.string(), item_count: z.number().int() });
export type TInventoryTag = z.infer<typeof ZInventoryTag>;

// --- meeting points, booking questions, cancellation policies -----------------------------
export const ZMeetingPointInput = z.object({
  name: ZText(120).min(1, { error: 'A meeting point needs a name.' }),
  address: ZText(300).default(''),
  latitude: z.number().min(-90).max(90).nullable().default(null),
  longitude: z.number().min(-180).max(180).nullable().default(null),
  instructions: ZText(2000).default(''),
});
export const ZMeetingPoint = z
  .object({
    id: z.uuid(),
    name: z.string(),
    address: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    instructions: z.string(),
  })
  .meta({ id: 'MeetingPoint' });
export type TMeetingPoint = z.infer<typeof ZMeetingPoint>;

export const ANSWER_TYPES = ['text', 'number', 'yes_no', 'choice'] as const;

/** How an answer reads wherever staff or customers see it: yes/no answers as Yes and No, others as given. */
export function displayAnswer(answerType: string | undefined, answer: string) {
  if (answerType === 'yes_no' && (answer === 'yes' || answer === 'no')) return answer === 'yes' ? 'Yes' : 'No';
  return answer;
}
export const ZBookingQuestionInput = z
  .object({
    question: ZText(300).min(1, { error: 'Write the question.' }),
    answer_type: z.enum(ANSWER_TYPES),
    choices: z.array(z.string().trim().min(1).max(100)).max(30).default([]),
    required: z.boolean().default(false),
    per_participant: z.boolean().default(false),
    /** The question and its options per language (the options in the same order and number). */
    translations: translationsOf({ question: ZText(300), choices: z.array(z.string().trim().max(100)).max(30) }).optional(),
  })
  .refine((v) => v.answer_type !== 'choice' || v.choices.length >= 2, { error: 'A choice needs at least two options.', path: ['choices'] });
export const ZBookingQuestion = z
  .object({
    id: z.uuid(),
    question: z.string(),
    answer_type: z.enum(ANSWER_TYPES),
    choices: z.array(z.string()),
    required: z.boolean(),
    per_participant: z.boolean(),
    translations: translationsOf({ question: z.string(), choices: z.array(z.string()) }),
  })
  .meta({ id: 'BookingQuestion' });
export type TBookingQuestion = z.infer<typeof ZBookingQuestion>;
/** A PATCH of a question: its answer type and choices stay. */
export const ZBookingQuestionPatch = z.object({
  question: z.string().trim().min(1).max(300).optional(),
  required: z.boolean().optional(),
  per_participant: z.boolean().optional(),
  /** Each language given replaces that language's texts ({} removes them). */
  translations: translationsOf({ question: ZText(300), choices: z.array(z.string().trim().max(100)).max(30) }).optional(),
});

export const ZRefundRule = z.object({
  hours_before: z.number().int().min(0).max(24 * 365),
  refund_percent: z.number().int().min(0).max(100),
});
export const ZCancellationPolicyInput = z.object({
  name: ZText(120).min(1, { error: 'A policy needs a name.' }),
  description: ZText(2000).default(''),
  rules: z.array(ZRefundRule).max(10).default([]),
  translations: translationsOf({ name: ZText(120), description: ZText(2000) }).optional(),
});
export const ZCancellationPolicy = z
  .object({ id: z.uuid(), name: z.string(), description: z.string(), rules: z.array(ZRefundRule), translations: translationsOf({ name: z.string(), description: z.string() }) })
  .meta({ id: 'CancellationPolicy' });
export type TCancellationPolicy = z.infer<typeof ZCancellationPolicy>;

// --- media --------------------------------------------------------------------------------
export const IMAGE_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  minWidth: 200,
  minHeight: 200,
  maxPixels: 50_000_000,
  types: ['image/jpeg', 'image/png', 'image/webp'] as const,
} as const;

export const ZImage = z
  .object({
    id: z.uuid(),
    experience: z.uuid().nullable(),
    folder: z.uuid().nullable(),
    status: z.enum(['pending', 'ready']),
    original_name: z.string(),
    content_type: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    size_bytes: z.number().int().nullable(),
    position: z.number().int(),
    url: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    upload_url: z.string().nullable(),
  })
  .meta({ id: 'Image' });
export type TImage = z.infer<typeof ZImage>;
export const ZImageCreate = z.object({
  original_name: ZText(200).min(1),
  experience: ZUuid.nullable().default(null),
  folder: ZUuid.nullable().default(null),
});
export const ZImageListQuery = ZPaginationQuery.extend({ experience: z.uuid().optional(), folder: z.uuid().optional() });
export type TImageListQuery = z.output<typeof ZImageListQuery>;
/** An image moved to a folder, or out of every folder (null). */
export const ZImageMove = z.object({ folder: z.uuid().nullable() });

export const ZFileFolderInput = z.object({ name: ZText(80).min(1, { error: 'A folder needs a name.' }) });
export const ZFileFolder = z
  .object({ id: z.uuid(), name: z.string(), image_count: z.number().int() })
  .meta({ id: 'FileFolder' });

export const ZVideoInput = z.object({
  url: ZHttpUrl('Enter the full address of the video (https://…).').max(500),
  experience: ZUuid.nullable().default(null),
  title: ZText(200).optional(),
});
export const ZVideo = z
  .object({
    id: z.uuid(),
    url: z.string(),
    experience: z.uuid().nullable(),
    provider: z.string().nullable(),
    title: z.string(),
    thumbnail_url: z.string().nullable(),
    position: z.number().int(),
    /** Why the title and thumbnail are missing, when the video platform could not be reached. */
    notice: z.string().nullable(),
  })
  .meta({ id: 'Video' });
export type TVideo = z.infer<typeof ZVideo>;
export const ZVideoListQuery = ZPaginationQuery.extend({ experience: z.uuid().optional() });
export type TVideoListQuery = z.output<typeof ZVideoListQuery>;
export const ZVideoRename = z.object({ title: z.string().trim().max(200) });

// --- help videos --------------------------------------------------------------------------
/**
 * The pages a help video is shown on: the organisation's own videos (base-account videos, not
 * an experience's), each kept for the page where it helps.
 */
export const HELP_TOPICS = ['dashboard', 'offers', 'capacity', 'check-in', 'orders', 'stores', 'partners'] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];
export const HELP_TOPIC_LABELS: Record<HelpTopic, string> = {
  dashboard: 'Dashboard',
  offers: 'Offers',
  capacity: 'Capacity',
  'check-in': 'Check-in',
  orders: 'Orders',
  stores: 'Stores',
  partners: 'Partners',
};
const ZHelpTopic = z.enum(HELP_TOPICS, { error: `topic is one of ${HELP_TOPICS.join(', ')}.` });
export const ZHelpVideoInput = z.object({
  url: ZHttpUrl('Enter the full address of the video (https://…).').max(500),
  topic: ZHelpTopic,
  title: ZText(200).optional(),
});
export const ZHelpVideoPatch = z.object({ title: ZText(200).optional(), topic: ZHelpTopic.optional() });
export const ZHelpVideoListQuery = z.object({ topic: ZHelpTopic.optional() });
export const ZHelpVideo = ZVideo.omit({ experience: true })
  .extend({ topic: ZHelpTopic })
  .meta({ id: 'HelpVideo' });
export type THelpVideo = z.infer<typeof ZHelpVideo>;

// --- experiences --------------------------------------------------------------------------
export const CONFIRMATION_MODES = ['instant', 'manual'] as const;

/** An offer's texts that have a value per language (the editor's language switch; localize() serves them). */
export const EXPERIENCE_TEXT_FIELDS = [
  'title', 'short_description', 'long_description', 'highlights', 'inclusions', 'exclusions', 'what_to_bring', 'important_information', 'meeting_instructions', 'voucher_text',
] as const;
export type ExperienceTextField = (typeof EXPERIENCE_TEXT_FIELDS)[number];
const experienceTexts = {
  title: ZText(150),
  short_description: ZText(300),
  long_description: z.string().max(50_000),
  highlights: ZList,
  inclusions: ZList,
  exclusions: ZList,
  what_to_bring: ZList,
  important_information: ZText(5000),
  meeting_instructions: ZText(5000),
  voucher_text: ZText(5000),
};
export const ZExperienceTranslations = translationsOf(experienceTexts);

/** Every field an experience's editor steps edit. */
export const ZExperienceFields = z.object({
  // basic info
  title: ZText(150).min(3, { error: 'A title has at least 3 characters.' }),
  type: z.enum(EXPERIENCE_TYPES, { error: `Choose one of: ${EXPERIENCE_TYPES.join(', ')}.` }),
  short_description: ZText(300).default(''),
  categories: z.array(z.string().trim().min(1).max(60)).max(10).default([]),
  tags: z.array(z.string().trim().toLowerCase().min(1).max(40)).max(30).default([]),
  languages: z.array(z.string().regex(/^[a-z]{2}$/, { error: 'Use two-letter language codes such as en.' })).max(20).default([]),
  duration_minutes: z.number().int().min(5, { error: 'At least 5 minutes.' }).max(60 * 24 * 30).nullable().default(null),
  meeting_points: z.array(ZUuid).max(20).default([]),
  // description
  long_description: z.string().max(50_000).default(''),
  highlights: ZList.default([]),
  inclusions: ZList.default([]),
  exclusions: ZList.default([]),
  what_to_bring: ZList.default([]),
  important_information: ZText(5000).default(''),
  // settings
  min_participants: z.number().int().min(1).max(1000).default(1),
  max_participants: z.number().int().min(1).max(1000).nullable().default(null),
  booking_cutoff_minutes: z.number().int().min(0).max(60 * 24 * 60).default(0),
  /** VAT in basis points (810 = 8.1 %) when it differs from the organisation's; null: the organisation's. */
  vat_rate_bp: z.number().int({ error: 'Use at most two decimals.' }).min(0).max(10000).nullable().default(null),
  confirmation_mode: z.enum(CONFIRMATION_MODES).default('instant'),
  /** The deposit asked for when it is paid online (issue 32); null: its store's rule. */
  deposit: ZDepositRule.nullable().default(null),
  /** One guide per this many guests (issue 34): its departures' seats stop at what their guides can take; null: no guides needed. */
  guests_per_guide: z.number().int().min(1).max(1000).nullable().default(null),
  cancellation_policy: ZUuid.nullable().default(null),
  booking_questions: z.array(ZUuid).max(30).default([]),
  extras: z.array(ZUuid).max(50).default([]),
  // booking info
  meeting_instructions: ZText(5000).default(''),
  voucher_text: ZText(5000).default(''),
  /**
   * The texts in the organisation's other languages (the fields above are its main language's).
   * Each language given replaces that language's texts ({} removes them); left out, they stay.
   */
  translations: ZExperienceTranslations.optional(),
});
const participantsRule = <T extends z.ZodType<{ min_participants?: number; max_participants?: number | null }>>(schema: T) =>
  schema.refine((v) => v.max_participants == null || v.min_participants == null || v.min_participants <= v.max_participants, {
    error: 'The maximum must not be below the minimum.',
    path: ['max_participants'],
  });
/** Create and PUT take every field; the ones left out get their defaults. */
export const ZExperienceCreate = participantsRule(
  ZExperienceFields.extend({
    /** Left out: the organisation's default policy (Settings → Product configuration); null: none. */
    cancellation_policy: ZUuid.nullable().optional(),
  }),
);
export const ZExperienceUpdate = participantsRule(ZExperienceFields);
export const ZExperiencePatch = participantsRule(
  patchOf(ZExperienceFields).extend({ status: z.enum(EXPERIENCE_STATUSES).optional() }),
);
export type TExperienceFields = z.input<typeof ZExperienceFields>;
export type TExperiencePatch = z.input<typeof ZExperiencePatch>;

export const ZExperience = z
  .object({
    id: z.uuid(),
    status: z.enum(EXPERIENCE_STATUSES),
    type: z.enum(EXPERIENCE_TYPES),
    title: z.string(),
    short_description: z.string(),
    categories: z.array(z.string()),
    tags: z.array(z.string()),
    languages: z.array(z.string()),
    duration_minutes: z.number().nullable(),
    meeting_points: z.array(z.uuid()),
    long_description: z.string(),
    highlights: z.array(z.string()),
    inclusions: z.array(z.string()),
    exclusions: z.array(z.string()),
    what_to_bring: z.array(z.string()),
    important_information: z.string(),
    min_participants: z.number(),
    max_participants: z.number().nullable(),
    booking_cutoff_minutes: z.number(),
    vat_rate_bp: z.number().nullable(),
    confirmation_mode: z.enum(CONFIRMATION_MODES),
    deposit: ZDepositRule.nullable(),
    guests_per_guide: z.number().nullable(),
    cancellation_policy: z.uuid().nullable(),
    booking_questions: z.array(z.uuid()),
    extras: z.array(z.uuid()),
    meeting_instructions: z.string(),
    voucher_text: z.string(),
    translations: ZExperienceTranslations,
    images: z.array(ZImage),
    videos: z.array(ZVideo),
    prices: z.array(ZPricingRate),
    /** What still keeps a Draft from going Active (empty when it can). */
    missing_for_activation: z.array(z.string()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Experience' });
export type TExperience = z.infer<typeof ZExperience>;

export const ZExperienceSummary = z
  .object({
    id: z.uuid(),
    status: z.enum(EXPERIENCE_STATUSES),
    type: z.enum(EXPERIENCE_TYPES),
    title: z.string(),
    short_description: z.string(),
    cover_url: z.string().nullable(),
    from_price: z.number().int().nullable(),
    currency: z.string(),
    duration_minutes: z.number().nullable(),
    updated_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'ExperienceSummary' });
export type TExperienceSummary = z.infer<typeof ZExperienceSummary>;

export const EXPERIENCE_ORDERINGS = ['title', '-title', 'created_at', '-created_at', 'updated_at', '-updated_at', 'status', '-status'] as const;
export const ZExperienceListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.enum(EXPERIENCE_STATUSES, { error: `status is one of ${EXPERIENCE_STATUSES.join(', ')}.` }).optional(),
  type: z.enum(EXPERIENCE_TYPES, { error: `type is one of ${EXPERIENCE_TYPES.join(', ')}.` }).optional(),
  ordering: z.enum(EXPERIENCE_ORDERINGS, { error: `ordering is one of ${EXPERIENCE_ORDERINGS.join(', ')}.` }).default('-updated_at'),
});

export const ZReorderImages = z.object({ images: z.array(ZUuid).max(200) });
