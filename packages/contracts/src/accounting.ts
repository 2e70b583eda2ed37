import { z } from 'zod';
import { ZDate } from './text';

/**
 * The accounting export (issue 31): a period's journal as CSV and its invoices and credit notes as
 * one ZIP of PDFs. A period is two dates in the organisation's time zone, both included.
 */

/** The longest period one export covers, in days (a year, leap years included). */
export const ACCOUNTING_MAX_DAYS = 366;

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;

/** The number of days of a period, both ends included. */
export const periodDays = (from: string, to: string) => dayNumber(to) - dayNumber(from) + 1;

export const ZAccountingPeriod = z
  .object({ from: ZDate, to: ZDate })
  .refine((p) => p.to >= p.from, { error: 'The period cannot end before it starts.', path: ['to'] })
  .refine((p) => p.to < p.from || periodDays(p.from, p.to) <= ACCOUNTING_MAX_DAYS, { error: `Choose a period of at most ${ACCOUNTING_MAX_DAYS} days.`, path: ['to'] });
export type TAccountingPeriod = z.infer<typeof ZAccountingPeriod>;

/**
 * What a journal row records, account-ish: a bookkeeper maps each to an account.
 * - `sale`: a line of an invoice, or of an order placed in the period that has no invoice;
 * - `cancellation_fee`: what a cancelled order keeps (an invoice's "Cancellation fee" line, or an
 *   uninvoiced order's fee);
 * - `credit_note`: a line of a credit note (negative: it cancels an invoice's line);
 * - `payment`, `refund` (negative): money received and given back, by method;
 * - `payment_fee`: the platform's fee on an online payment (negative: a cost);
 * - `partner_commission`: a settlement statement's commission — a cost of the supplier
 *   (negative), an income of the reseller (positive).
 */
export const JOURNAL_CATEGORIES = ['sale', 'cancellation_fee', 'credit_note', 'voucher_sale', 'voucher_issued', 'voucher_cancelled', 'payment', 'refund', 'payment_fee', 'partner_commission'] as const;
export type JournalCategory = (typeof JOURNAL_CATEGORIES)[number];

/** The journal CSV's columns, in order. */
export const JOURNAL_COLUMNS = [
  'date',
  'category',
  'document',
  'order',
  'counterparty',
  'description',
  'offer',
  'method',
  'quantity',
  'vat_rate_percent',
  'currency',
  'net',
  'vat',
  'gross',
  'net_minor',
  'vat_minor',
  'gross_minor',
] as const;

/** What the period holds: the journal's rows per category and the documents the ZIP will carry. */
export const ZAccountingSummary = z
  .object({
    from: z.string(),
    to: z.string(),
    time_zone: z.string(),
    rows: z.record(z.enum(JOURNAL_CATEGORIES), z.number().int()),
    invoices: z.number().int(),
    credit_notes: z.number().int(),
  })
  .meta({ id: 'AccountingSummary' });
export type TAccountingSummary = z.infer<typeof ZAccountingSummary>;
