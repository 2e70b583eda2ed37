import { z } from 'zod';
import { EXPERIENCE_TYPES, HOLD_MINUTES } from './constants';
import { TICKET_FIELDS, TIME_FORMATS } from './display';
import { LANGUAGES } from './i18n/languages';

/**
 * Product configuration (/api/product-configuration/, Settings → Product configuration): the
 * organisation's defaults for new offers and how they are shown — 12- or 24-hour times (dates read
 * the spec's way, DD. MMMM YYYY), the capacity a new schedule starts with, the booking cut-off and
 * how long a cart holds its seats, the cancellation policy new offers get, the VAT rate per offer
 * type, and what tickets show. Time zone and currency are the organisation's (Settings → Organisation).
 */
const ZBp = z.number().int({ error: 'A whole number of basis points (810 = 8.1 %).' }).min(0).max(10000);

export const ZProductConfiguration = z
  .object({
    time_zone: z.string(),
    currency: z.string(),
    time_format: z.enum(TIME_FORMATS),
    default_capacity: z.number().int().min(1).max(10000),
    /** Minutes before a start when sales stop (an offer may set its own). */
    booking_cutoff_minutes: z.number().int().min(0).max(60 * 24 * 30),
    hold_minutes: z.number().int().min(HOLD_MINUTES.MIN).max(HOLD_MINUTES.MAX),
    /** How long a gift voucher is valid from its issue, in months (issue 32). */
    voucher_validity_months: z.number().int(),
    default_cancellation_policy: z.uuid().nullable(),
    /** VAT per offer type in basis points; a type without one uses the organisation's rate. */
    vat_rates_by_type: z.partialRecord(z.enum(EXPERIENCE_TYPES), ZBp),
    /** The organisation's rate (Settings → Organisation → Billing), for reference. */
    vat_rate_bp: z.number().int(),
    ticket_fields: z.array(z.enum(TICKET_FIELDS)),
    /** The languages the organisation sells in (web store, e-mails, OCTO), its first the main one: the offers' own texts and every text's fallback. */
    languages: z.array(z.enum(LANGUAGES)),
  })
  .meta({ id: 'ProductConfiguration' });
export type TProductConfiguration = z.infer<typeof ZProductConfiguration>;

export const ZProductConfigurationPatch = z.object({
  time_format: z.enum(TIME_FORMATS).optional(),
  default_capacity: z.number({ error: 'Enter a number of seats.' }).int().min(1, { error: 'At least 1 seat.' }).max(10000).optional(),
  booking_cutoff_minutes: z.number({ error: 'Enter a number of minutes.' }).int().min(0).max(60 * 24 * 30, { error: 'At most 30 days.' }).optional(),
  hold_minutes: z.number().int().min(HOLD_MINUTES.MIN, { error: `At least ${HOLD_MINUTES.MIN} minutes.` }).max(HOLD_MINUTES.MAX, { error: `At most ${HOLD_MINUTES.MAX} minutes.` }).optional(),
  voucher_validity_months: z.number().int().min(1, { error: 'At least 1 month.' }).max(120, { error: 'At most 120 months.' }).optional(),
  default_cancellation_policy: z.uuid({ error: 'Choose a cancellation policy.' }).nullable().optional(),
  /** A type set to null goes back to the organisation's rate. */
  vat_rates_by_type: z.partialRecord(z.enum(EXPERIENCE_TYPES), ZBp.nullable()).optional(),
  ticket_fields: z.array(z.enum(TICKET_FIELDS)).max(TICKET_FIELDS.length).optional(),
  /** In order, the first the main language; a language taken out keeps its translations (not served). */
  languages: z
    .array(z.enum(LANGUAGES, { error: (issue) => `Unknown language "${String(issue.input)}": choose among ${LANGUAGES.join(', ')}.` }))
    .min(1, { error: 'Sell in at least one language.' })
    .max(LANGUAGES.length)
    .refine((list) => new Set(list).size === list.length, { error: 'Each language once.' })
    .optional(),
});
export type TProductConfigurationPatch = z.input<typeof ZProductConfigurationPatch>;
