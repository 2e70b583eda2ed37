import { sql } from 'drizzle-orm';
import { boolean, check, date, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId, cancellationPolicy } from './accounts-schema';
import { type DepositRuleJson, tenantPolicies, timestamps, translations, translationsCheck } from './columns';

/** The catalogue: what a supplier sells. Every table is a tenant table. */

export const pricingCategory = pgTable(
  'pricing_category',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    type: text('type').notNull(),
    label: text('label').notNull(),
    min_age: integer('min_age'),
    max_age: integer('max_age'),
    occupies_seat: boolean('occupies_seat').notNull().default(true),
    /** `label` per language (columns.ts translations()). */
    translations: translations<{ label?: string }>(),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), uniqueIndex('pricing_category_label_key').on(t.account_id, sql`lower(${t.label})`), translationsCheck('pricing_category', t.translations)],
);

export const meetingPoint = pgTable(
  'meeting_point',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    instructions: text('instructions').notNull().default(''),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), index('meeting_point_account_idx').on(t.account_id, t.name)],
);

export const bookingQuestion = pgTable(
  'booking_question',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    question: text('question').notNull(),
    answer_type: text('answer_type').notNull(),
    choices: text('choices').array().notNull().default(sql`'{}'::text[]`),
    required: boolean('required').notNull().default(false),
    per_participant: boolean('per_participant').notNull().default(false),
    /** `question` and `choices` (the same options, in order) per language. */
    translations: translations<{ question?: string; choices?: string[] }>(),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), index('booking_question_account_idx').on(t.account_id, t.created_at), translationsCheck('booking_question', t.translations)],
);

export const inventoryItemCategory = pgTable(
  'inventory_item_category',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), uniqueIndex('inventory_item_category_name_key').on(t.account_id, sql`lower(${t.name})`)],
);

export const inventoryItem = pgTable(
  'inventory_item',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    category_id: uuid('category_id').references(() => inventoryItemCategory.id, { onDelete: 'set null' }),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    stock: integer('stock'),
    /**
     * A pool's buffers (issue 34): an item of type Equipment with a stock is a resource pool, and a
     * departure that uses it takes it from `buffer_before_minutes` before its start to
     * `buffer_after_minutes` after its end (a kayak rinsed and dried). See `pool_usage`.
     */
    buffer_before_minutes: integer('buffer_before_minutes').notNull().default(0),
    buffer_after_minutes: integer('buffer_after_minutes').notNull().default(0),
    /** `name` and `description` per language (an extra's, shown in the store). */
    translations: translations<{ name?: string; description?: string }>(),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    index('inventory_item_account_idx').on(t.account_id, t.name),
    translationsCheck('inventory_item', t.translations),
    check('inventory_item_type_check', sql`${t.type} in ('Equipment', 'Extras', 'Package')`),
    check('inventory_item_price_check', sql`${t.price} >= 0`),
    check('inventory_item_buffers_check', sql`${t.buffer_before_minutes} between 0 and 1440 and ${t.buffer_after_minutes} between 0 and 1440`),
  ],
);

export const experience = pgTable(
  'experience',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    status: text('status').notNull().default('Draft'),
    type: text('type').notNull(),
    title: text('title').notNull(),
    short_description: text('short_description').notNull().default(''),
    categories: text('categories').array().notNull().default(sql`'{}'::text[]`),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    languages: text('languages').array().notNull().default(sql`'{}'::text[]`),
    duration_minutes: integer('duration_minutes'),
    meeting_point_ids: uuid('meeting_point_ids').array().notNull().default(sql`'{}'::uuid[]`),
    long_description: text('long_description').notNull().default(''),
    highlights: text('highlights').array().notNull().default(sql`'{}'::text[]`),
    inclusions: text('inclusions').array().notNull().default(sql`'{}'::text[]`),
    exclusions: text('exclusions').array().notNull().default(sql`'{}'::text[]`),
    what_to_bring: text('what_to_bring').array().notNull().default(sql`'{}'::text[]`),
    important_information: text('important_information').notNull().default(''),
    min_participants: integer('min_participants').notNull().default(1),
    max_participants: integer('max_participants'),
    booking_cutoff_minutes: integer('booking_cutoff_minutes').notNull().default(0),
    confirmation_mode: text('confirmation_mode').notNull().default('instant'),
    cancellation_policy_id: uuid('cancellation_policy_id').references(() => cancellationPolicy.id, { onDelete: 'set null' }),
    booking_question_ids: uuid('booking_question_ids').array().notNull().default(sql`'{}'::uuid[]`),
    extra_item_ids: uuid('extra_item_ids').array().notNull().default(sql`'{}'::uuid[]`),
    meeting_instructions: text('meeting_instructions').notNull().default(''),
    voucher_text: text('voucher_text').notNull().default(''),
    /** This experience's VAT rate in basis points, when it differs from the organisation's. */
    vat_rate_bp: integer('vat_rate_bp'),
    /** The deposit this offer asks for when paid online (issue 32; ZDepositRule); null: its store's rule. */
    deposit: jsonb('deposit').$type<DepositRuleJson>(),
    /**
     * One guide per this many guests (issue 34); null: the offer's departures need no guides to sell.
     * Its departures' seats then stop at what their assigned guides can take (`slot.guide_seats`).
     */
    guests_per_guide: integer('guests_per_guide'),
    /** The offer's texts per language (ExperienceTexts of the contracts; the long description sanitized as the column). */
    translations: translations<Record<string, string | string[]>>(),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    translationsCheck('experience', t.translations),
    // The catalogue's default order and every status filter are served by these.
    index('experience_account_updated_idx').on(t.account_id, t.updated_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('experience_account_status_idx').on(t.account_id, t.status, t.updated_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('experience_account_title_idx').on(t.account_id, sql`lower(${t.title})`, t.id),
    check('experience_status_check', sql`${t.status} in ('Draft', 'Active', 'Inactive')`),
    check('experience_type_check', sql`${t.type} in ('Rental', 'Ticket & Passes', 'Transfer')`),
    check('experience_guests_per_guide_check', sql`${t.guests_per_guide} is null or ${t.guests_per_guide} > 0`),
  ],
);

/**
 * What a booking of an offer takes from a resource pool (issue 34): `units` per seat of a pricing
 * category (`per` = 'seat', `pricing_category_id`), per booking (`per` = 'booking') or per extra sold
 * (`per` = 'extra', `extra_id`: an inventory item of type Extras), over the departure's window widened
 * by the pool's buffers. What a line or a booking takes is worked out by the database when it is
 * written (`cart_line.pools`, `booking.pools`: tourdesk_pool_units, 08-pools.sql) and kept with it.
 */
export const poolUsage = pgTable(
  'pool_usage',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    pool_id: uuid('pool_id')
      .notNull()
      .references(() => inventoryItem.id, { onDelete: 'restrict' }),
    per: text('per').notNull(),
    pricing_category_id: uuid('pricing_category_id').references(() => pricingCategory.id, { onDelete: 'cascade' }),
    extra_id: uuid('extra_id').references(() => inventoryItem.id, { onDelete: 'cascade' }),
    units: integer('units').notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    index('pool_usage_experience_idx').on(t.account_id, t.experience_id, t.pool_id),
    index('pool_usage_pool_idx').on(t.account_id, t.pool_id),
    check('pool_usage_per_check', sql`(${t.per} = 'seat' and ${t.pricing_category_id} is not null and ${t.extra_id} is null) or (${t.per} = 'booking' and ${t.pricing_category_id} is null and ${t.extra_id} is null) or (${t.per} = 'extra' and ${t.extra_id} is not null and ${t.pricing_category_id} is null)`),
    check('pool_usage_units_check', sql`${t.units} > 0`),
  ],
);

export const pricingRate = pgTable(
  'pricing_rate',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    pricing_category_id: uuid('pricing_category_id')
      .notNull()
      .references(() => pricingCategory.id, { onDelete: 'restrict' }),
    retail_price: integer('retail_price').notNull(),
    net_price: integer('net_price'),
    currency: text('currency').notNull(),
    valid_from: date('valid_from'),
    valid_to: date('valid_to'),
    weekdays: integer('weekdays').array().notNull().default(sql`'{}'::integer[]`),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    index('pricing_rate_experience_idx').on(t.account_id, t.experience_id, t.pricing_category_id),
    check('pricing_rate_price_check', sql`${t.retail_price} >= 0 and (${t.net_price} is null or ${t.net_price} >= 0)`),
  ],
);

export const fileFolder = pgTable(
  'file_folder',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), uniqueIndex('file_folder_name_key').on(t.account_id, sql`lower(${t.name})`)],
);

export const image = pgTable(
  'image',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    experience_id: uuid('experience_id').references(() => experience.id, { onDelete: 'cascade' }),
    folder_id: uuid('folder_id').references(() => fileFolder.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('pending'),
    original_name: text('original_name').notNull(),
    content_type: text('content_type'),
    width: integer('width'),
    height: integer('height'),
    size_bytes: integer('size_bytes'),
    storage_key: text('storage_key'),
    thumbnail_key: text('thumbnail_key'),
    position: integer('position').notNull().default(0),
    /** Its stored original carries no metadata: every upload since re-encoding; older ones once the job images-strip-metadata has re-encoded them. */
    metadata_checked: boolean('metadata_checked').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    index('image_experience_idx').on(t.account_id, t.experience_id, t.position),
    index('image_unchecked_idx').on(t.id).where(sql`not ${t.metadata_checked}`),
  ],
);

export const video = pgTable(
  'video',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    experience_id: uuid('experience_id').references(() => experience.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    provider: text('provider'),
    title: text('title').notNull().default(''),
    thumbnail_url: text('thumbnail_url'),
    notice: text('notice'),
    position: integer('position').notNull().default(0),
    /** A help video (the organisation's, no experience): the page it is shown on (HELP_TOPICS). */
    topic: text('topic'),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    index('video_experience_idx').on(t.account_id, t.experience_id, t.position),
    index('video_topic_idx').on(t.account_id, t.topic, t.position).where(sql`${t.topic} IS NOT NULL`),
    check('video_topic_without_experience', sql`${t.topic} IS NULL OR ${t.experience_id} IS NULL`),
  ],
);
