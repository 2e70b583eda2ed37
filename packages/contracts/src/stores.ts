import { z } from 'zod';
import { ZCustomerInput } from './availability';
import { ZPaginationQuery } from './pagination';
import { HTTP_URL_DETAIL, ZDate, ZHttpUrl } from './text';
import { LANGUAGES } from './i18n/languages';
import { translationsOf } from './catalog';
import { ZDiscount } from './promo-codes';
import { ZDepositRule } from './deposits';
import { voucherFields } from './gift-vouchers';

/**
 * Stores: where an organisation sells online. The back office manages them (/api/stores/); the
 * public web store (/api/web-stores/{slug}/…, no session) shows a store's offers to customers, holds
 * seats in a guest cart, and takes their order.
 */

/** How a store lets customers pay; online payment arrives with the payments issue. */
export const STORE_PAYMENT_OPTIONS = ['pay_on_site', 'online'] as const;
export const STORE_PAYMENT_LABEL: Record<(typeof STORE_PAYMENT_OPTIONS)[number], string> = { pay_on_site: 'Reserve now, pay on site', online: 'Pay online by card' };

/** A store's address on the organisation's host: /s/{slug}/. */
export const ZStoreSlug = z
  .string()
  .trim()
  .min(2, { error: 'A store address has at least 2 characters.' })
  .max(60, { error: 'A store address has at most 60 characters.' })
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, { error: 'Use lower-case letters, digits and hyphens (not at the start or end).' });

const ZColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'A colour is written #rrggbb.' });
/** A site that may show the store in a frame: an http(s) origin such as https://www.example.com. */
const ZOrigin = z
  .string()
  .trim()
  .regex(/^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/i, { error: 'A site is written as its origin, such as https://www.example.com.' })
  .transform((s) => s.toLowerCase());
/** A link the store shows (its terms): http(s) only (ZHttpUrl), or '' for none. */
const ZOptionalUrl = z.union([z.literal(''), ZHttpUrl()], { error: HTTP_URL_DETAIL });

export const ZStoreInput = z.object({
  name: z.string().trim().min(1, { error: 'Give the store a name.' }).max(120),
  slug: ZStoreSlug,
  active: z.boolean().default(true),
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  logo: z.uuid().nullable().default(null),
  primary_color: ZColor.default('#1c7ed6'),
  intro: z.string().max(2000).default(''),
  terms_url: ZOptionalUrl.default(''),
  contact_email: z.union([z.literal(''), z.email({ error: 'Enter a valid e-mail address.' })]).default(''),
  contact_phone: z.string().max(40).default(''),
  payment_options: z.array(z.enum(STORE_PAYMENT_OPTIONS)).min(1, { error: 'Offer at least one way to pay.' }).default(['pay_on_site']),
  embed_origins: z.array(ZOrigin).max(20).default([]),
  notify_new_bookings: z.boolean().default(false),
  notify_email: z.union([z.literal(''), z.email({ error: 'Enter a valid e-mail address.' })]).default(''),
  /** How long seats offered to a waiting list's entry are held for it, in minutes (15 minutes to 7 days; 720 when never set). */
  waitlist_hold_minutes: z
    .number()
    .int()
    .min(15, { error: 'Hold offered seats for at least 15 minutes.' })
    .max(10080, { error: 'Hold offered seats for at most 7 days.' })
    .optional(),
  /** The deposit asked for when paying online (issue 32) for offers without their own rule; null: the whole total. */
  deposit: ZDepositRule.nullable().optional(),
  /** How many days before an order's balance is due its reminder is e-mailed (1 to 60; 3 when never set). */
  balance_reminder_days: z.number().int().min(1, { error: 'At least one day before.' }).max(60, { error: 'At most 60 days before.' }).optional(),
  /** Gift vouchers (issue 32): sold in this store (paid online), at these fixed amounts and/or an amount of the customer's own between min and max (minor units; 0: no own amount). */
  sells_vouchers: z.boolean().optional(),
  voucher_amounts: z.array(z.number().int().min(1).max(100_000_000)).max(10).optional(),
  voucher_min: z.number().int().min(0).max(100_000_000).optional(),
  voucher_max: z.number().int().min(0).max(100_000_000).optional(),
  /** Its name and intro in the organisation's other languages (each language given replaces its texts). */
  translations: translationsOf({ name: z.string().trim().max(120), intro: z.string().max(2000) }).optional(),
});
export type TStoreInput = z.input<typeof ZStoreInput>;

export const ZStore = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    active: z.boolean(),
    currency: z.string(),
    logo: z.uuid().nullable(),
    logo_url: z.string().nullable(),
    primary_color: z.string(),
    intro: z.string(),
    terms_url: z.string(),
    contact_email: z.string(),
    contact_phone: z.string(),
    payment_options: z.array(z.enum(STORE_PAYMENT_OPTIONS)),
    embed_origins: z.array(z.string()),
    notify_new_bookings: z.boolean(),
    notify_email: z.string(),
    waitlist_hold_minutes: z.number().int(),
    deposit: ZDepositRule.nullable(),
    balance_reminder_days: z.number().int(),
    sells_vouchers: z.boolean(),
    voucher_amounts: z.array(z.number().int()),
    voucher_min: z.number().int(),
    voucher_max: z.number().int(),
    translations: translationsOf({ name: z.string(), intro: z.string() }),
    /** How many offers it shows. */
    experience_count: z.number().int(),
    /** Where customers find it: https://{org}.{domain}/s/{slug}/ */
    url: z.string(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Store' });
export type TStore = z.infer<typeof ZStore>;

export const ZStoreListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  active: z.enum(['true', 'false']).optional(),
});

/** An offer of a store, in the store's order. */
export const ZStoreExperience = z
  .object({
    experience: z.uuid(),
    title: z.string(),
    status: z.string(),
    cover_url: z.string().nullable(),
    position: z.number().int(),
    /** The supplier, when the offer is a partner's the organisation resells (null: its own). */
    supplier: z.string().nullable(),
  })
  .meta({ id: 'StoreExperience' });
export type TStoreExperience = z.infer<typeof ZStoreExperience>;

/** add-experience takes one or many; remove-experience one; reorder the whole list. */
export const ZStoreExperiencesInput = z.object({ experiences: z.array(z.uuid()).min(1).max(200) });
export const ZStoreExperienceInput = z.object({ experience: z.uuid() });

/**
 * Where an offer is sold (the offer editor's "Where it is sold"): every store of the organisation,
 * each saying whether it shows the offer, and how many partners' live contracts share it.
 */
export const ZOfferChannels = z
  .object({
    stores: z.array(ZStore.extend({ sells: z.boolean() })),
    /** Active partnerships whose contract shares the offer (OCTO and the partners' counters and stores). */
    partners: z.number().int(),
  })
  .meta({ id: 'OfferChannels' });
export type TOfferChannels = z.infer<typeof ZOfferChannels>;
/** The offers a store does not show yet (the Global catalog tab), searched and paged. */
export const ZStoreAvailableQuery = ZPaginationQuery.extend({ search: z.string().trim().max(100).optional() });

/** Analytics per day of a range (the organisation's local days). */
export const ZStoreAnalyticsQuery = z.object({ from: ZDate, to: ZDate });
export const ZStoreAnalyticsDay = z.object({
  date: z.string(),
  visits: z.number().int(),
  carts: z.number().int(),
  orders: z.number().int(),
  seats: z.number().int(),
  revenue: z.number().int(),
  /** Orders per visit, 0 to 1 (0 without visits). */
  conversion: z.number(),
});
export const ZStoreAnalytics = z
  .object({ currency: z.string(), days: z.array(ZStoreAnalyticsDay), totals: ZStoreAnalyticsDay.omit({ date: true }) })
  .meta({ id: 'StoreAnalytics' });
export type TStoreAnalytics = z.infer<typeof ZStoreAnalytics>;

// --- the public web store ------------------------------------------------------------------

/** The path parameters of /api/web-stores/{slug}/…: the store, and an offer, a guest cart and its line, or an order. */
export const ZWebStoreParams = z.object({ slug: z.string().min(1).max(60) });
export const ZWebOfferParams = ZWebStoreParams.extend({ id: z.uuid() });
export const ZWebCartParams = ZWebStoreParams.extend({ cart: z.uuid() });
export const ZWebCartLineParams = ZWebCartParams.extend({ line: z.uuid() });
export const ZWebOrderParams = ZWebStoreParams.extend({ reference: z.string().min(4).max(40) });
/** A visit counted for the store's analytics: the browser session's own id. */
export const ZWebVisitInput = z.object({ visit: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) });

export const ZWebStore = z
  .object({
    slug: z.string(),
    name: z.string(),
    organisation: z.string(),
    intro: z.string(),
    logo_url: z.string().nullable(),
    primary_color: z.string(),
    currency: z.string(),
    terms_url: z.string(),
    contact_email: z.string(),
    contact_phone: z.string(),
    payment_options: z.array(z.enum(STORE_PAYMENT_OPTIONS)),
    /** It sells gift vouchers now (its page `gift-voucher`): the store says so and takes online payments. */
    sells_vouchers: z.boolean(),
  })
  .meta({ id: 'WebStore' });
export type TWebStore = z.infer<typeof ZWebStore>;

export const ZWebOfferSummary = z
  .object({
    id: z.uuid(),
    title: z.string(),
    short_description: z.string(),
    image_url: z.string().nullable(),
    duration_minutes: z.number().nullable(),
    /** The lowest price of a category that takes a seat and is not a child or infant price (null: no price yet). */
    from_price: z.number().int().nullable(),
    currency: z.string(),
    time_zone: z.string(),
    /** The organisation that runs it, when the store resells a partner's offer (null: the store's own). */
    operated_by: z.string().nullable(),
  })
  .meta({ id: 'WebOfferSummary' });
export type TWebOfferSummary = z.infer<typeof ZWebOfferSummary>;

export const ZWebOffer = ZWebOfferSummary.extend({
  long_description: z.string(),
  highlights: z.array(z.string()),
  inclusions: z.array(z.string()),
  exclusions: z.array(z.string()),
  what_to_bring: z.array(z.string()),
  important_information: z.string(),
  meeting_instructions: z.string(),
  images: z.array(z.object({ url: z.string(), thumbnail_url: z.string().nullable(), width: z.number().nullable(), height: z.number().nullable() })),
  meeting_points: z.array(z.object({ name: z.string(), address: z.string(), latitude: z.number().nullable(), longitude: z.number().nullable() })),
  cancellation_policy: z.object({ name: z.string(), description: z.string(), rules: z.array(z.object({ hours_before: z.number(), refund_percent: z.number() })) }).nullable(),
  /** The categories a customer picks quantities of, in the order they are shown. */
  categories: z.array(z.object({ id: z.uuid(), label: z.string(), type: z.string(), occupies_seat: z.boolean(), min_age: z.number().nullable(), max_age: z.number().nullable() })),
  extras: z.array(z.object({ id: z.uuid(), name: z.string(), description: z.string(), price: z.number().int() })),
  /** `options` are the answers as stored (the main language's); `option_labels` how they read in the page's language, in the same order. */
  questions: z.array(z.object({ id: z.uuid(), question: z.string(), answer_type: z.string(), required: z.boolean(), options: z.array(z.string()), option_labels: z.array(z.string()).optional() })),
  min_participants: z.number().int(),
  max_participants: z.number().int().nullable(),
}).meta({ id: 'WebOffer' });
export type TWebOffer = z.infer<typeof ZWebOffer>;

/** A month of days: which have seats (the offer's local days). */
export const ZWebMonthQuery = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'A month is written YYYY-MM.' }) });
export const ZWebMonth = z
  .object({ month: z.string(), time_zone: z.string(), days: z.array(z.object({ date: z.string(), seats_left: z.number().int(), times: z.number().int() })) })
  .meta({ id: 'WebMonth' });
export type TWebMonth = z.infer<typeof ZWebMonth>;

/** One day's start times with seats left and prices. */
export const ZWebDayQuery = z.object({ date: ZDate });
export const ZWebSlot = z.object({
  id: z.uuid(),
  starts_at: z.iso.datetime(),
  local_time: z.string(),
  seats_left: z.number().int(),
  prices: z.array(z.object({ category: z.uuid(), price: z.number().int() })),
});
export const ZWebDay = z.object({ date: z.string(), time_zone: z.string(), slots: z.array(ZWebSlot) }).meta({ id: 'WebDay' });
export type TWebDay = z.infer<typeof ZWebDay>;

/** A guest cart: its id and the secret that proves it is yours (kept by the page, never a cookie). */
export const ZWebCartCreated = z.object({ id: z.uuid(), token: z.string() }).meta({ id: 'WebCartCreated' });
/** A new guest cart: the customer's language (the store page's), kept on the cart and the order it becomes; without it, Accept-Language decides. */
export const ZWebCartInput = z.object({ language: z.enum(LANGUAGES).optional() }).nullish();
/** The customer switched the store's language: the cart (same lines, same secret) and its order take it. */
export const ZWebCartUpdate = z.object({ language: z.enum(LANGUAGES) });
/**
 * A proof-of-work challenge (ALTCHA v2) of the web store and of a slowed sign-in: the page finds a counter whose derived key
 * starts with `keyPrefix` and sends base64 of `{ challenge, solution: { counter, derivedKey } }` as X-Altcha.
 */
export const ZWebChallenge = z
  .object({
    parameters: z.looseObject({ algorithm: z.string(), nonce: z.string(), salt: z.string(), cost: z.number().int(), keyLength: z.number().int(), keyPrefix: z.string(), expiresAt: z.number().optional() }),
    signature: z.string(),
  })
  .meta({ id: 'WebChallenge' });
export type TWebChallenge = z.infer<typeof ZWebChallenge>;
export const ZWebCartLineInput = z.object({
  slot: z.uuid(),
  quantities: z.record(z.uuid(), z.number().int().min(0).max(100)),
  extras: z.record(z.uuid(), z.number().int().min(0).max(100)).default({}),
});
export const ZWebCartLine = z.object({
  id: z.uuid(),
  offer: z.uuid(),
  offer_title: z.string(),
  starts_at: z.iso.datetime(),
  time_zone: z.string(),
  items: z.array(z.object({ kind: z.string(), label: z.string(), quantity: z.number().int(), unit_price: z.number().int() })),
  seats: z.number().int(),
  total: z.number().int(),
  expires_at: z.iso.datetime(),
});
export const ZWebCart = z
  .object({
    id: z.uuid(),
    currency: z.string(),
    lines: z.array(ZWebCartLine),
    total: z.number().int(),
    expires_at: z.iso.datetime().nullable(),
    /** The partner whose offers the cart holds (booked with them through this store), or null. */
    sold_by: z.string().nullable(),
    /**
     * Whether these lines may be paid online here: the store takes online payment and the seller's
     * payment account takes charges; a partner's offers only when its contract says the supplier
     * collects (the payment goes to the supplier's account).
     */
    payable_online: z.boolean(),
    /** The customer's language: the order made from the cart is in it (its e-mails and documents). */
    language: z.enum(LANGUAGES),
  })
  .meta({ id: 'WebCart' });
export type TWebCart = z.infer<typeof ZWebCart>;

export const ZWebOrderInput = z.object({
  cart: z.uuid(),
  /** The lines the customer saw; without it, every line still held. */
  lines: z.array(z.uuid()).optional(),
  customer: ZCustomerInput.extend({ last_name: z.string().trim().min(1, { error: 'Enter the last name.' }).max(100) }),
  answers: z.record(z.uuid(), z.string().max(2000)).default({}),
  accept_terms: z.literal(true, { error: 'Accept the terms to book.' }),
  payment_option: z.enum(STORE_PAYMENT_OPTIONS),
  /** A promo code (issue 32): refused with a promo_* code on `promo_code` when it does not apply. */
  promo_code: z.string().trim().min(1).max(40).optional(),
  ...voucherFields,
});
export type TWebOrderInput = z.input<typeof ZWebOrderInput>;

/** What a customer sees of their order (confirmation page, "my booking" page). */
export const ZWebOrder = z
  .object({
    reference: z.string(),
    status: z.string(),
    payment_status: z.string(),
    currency: z.string(),
    total: z.number().int(),
    paid: z.number().int(),
    /** What was given back of what was paid (paid is net of it). */
    refunded: z.number().int(),
    /** What a cancelled order keeps under the cancellation policy (the rest of what was paid is refunded); else 0. */
    cancellation_fee: z.number().int(),
    /** The promo code's discount (part of `total`), with its VAT per rate; null without a code. */
    discount: ZDiscount.nullable(),
    /** Paid by a deposit (issue 32): the local date the rest is due by; null: on site (or nothing left). */
    balance_due_on: z.string().nullable(),
    customer: z.object({ first_name: z.string(), last_name: z.string(), email: z.string() }),
    bookings: z.array(
      z.object({
        id: z.uuid(),
        offer_title: z.string(),
        starts_at: z.iso.datetime(),
        time_zone: z.string(),
        status: z.string(),
        ticket_code: z.string(),
        items: z.array(z.object({ kind: z.string(), label: z.string(), quantity: z.number().int(), unit_price: z.number().int(), total: z.number().int() })),
        total: z.number().int(),
        meeting_point: z.string().nullable(),
      }),
    ),
    /** The private page where the customer sees the order, downloads tickets and cancels. */
    manage_url: z.string(),
    /** Whether the policy lets the customer cancel now, what would be refunded and what kept (the cancellation fee). */
    cancellation: z.object({ allowed: z.boolean(), refund: z.number().int(), fee: z.number().int(), reason: z.string() }),
    /** Booked through a partner (OCTO): the partner changes or cancels it, not the customer here. */
    partner_booking: z.boolean(),
    /**
     * The required booking questions the order's bookings have not answered (missingAnswers()), in
     * the order's language: `choices` are what an answer must be, `labels` how they read.
     */
    questions_owed: z.array(z.object({ id: z.uuid(), question: z.string(), answer_type: z.enum(['text', 'number', 'yes_no', 'choice']), choices: z.array(z.string()), labels: z.array(z.string()) })),
  })
  .meta({ id: 'WebOrder' });
export type TWebOrder = z.infer<typeof ZWebOrder>;
/** The customer answers the booking questions their order still owes (by question id; a blank one is ignored). */
export const ZWebOrderAnswers = z.object({ answers: z.record(z.uuid(), z.string().max(1000)) }).meta({ id: 'WebOrderAnswers' });

/** Paying online: Stripe's page to send the browser to, and what to ask about the payment later (X-Order-Token). */
export const ZWebPaymentStarted = z.object({ checkout: z.uuid(), payment_url: z.string(), token: z.string() }).meta({ id: 'WebPaymentStarted' });
export type TWebPaymentStarted = z.infer<typeof ZWebPaymentStarted>;
export const WEB_PAYMENT_STATUSES = ['open', 'paid', 'expired', 'failed', 'refunded'] as const;
/** Where a payment stands; a paid one answers its order. */
export const ZWebPayment = z
  .object({ status: z.enum(WEB_PAYMENT_STATUSES), order: ZWebOrder.nullable() })
  .meta({ id: 'WebPayment' });
export type TWebPayment = z.infer<typeof ZWebPayment>;
/** A payment of a store: the checkout's id; `session_id` is in Stripe's return address. */
export const ZWebPaymentParams = ZWebStoreParams.extend({ id: z.uuid() });
export const ZWebPaymentQuery = z.object({ session_id: z.string().max(200).optional() });

// --- payment providers (Stripe Connect) ------------------------------------------------------

/** The organisation's online payments: whether the platform can take them, and its Stripe account's state. */
export const ZPaymentProvider = z
  .object({
    provider: z.literal('stripe'),
    /** The platform's settings online payment needs that are missing (STRIPE_SECRET_KEY, …); empty when ready. */
    missing_settings: z.array(z.string()),
    connected: z.boolean(),
    account: z.string().nullable(),
    details_submitted: z.boolean(),
    charges_enabled: z.boolean(),
    payouts_enabled: z.boolean(),
    /** What Stripe still needs (its requirements.currently_due). */
    requirements: z.array(z.string()),
    /** The platform's fee on each online payment, from the organisation's plan, in basis points. */
    application_fee_bp: z.number().int(),
  })
  .meta({ id: 'PaymentProvider' });
export type TPaymentProvider = z.infer<typeof ZPaymentProvider>;
export const ZConnectLink = z.object({ url: z.string() }).meta({ id: 'ConnectLink' });
export type TConnectLink = z.infer<typeof ZConnectLink>;
