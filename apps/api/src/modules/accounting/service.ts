import { setImmediate as nextTurn } from 'node:timers/promises';
import { Zip, ZipPassThrough } from 'fflate';
import { JOURNAL_CATEGORIES, JOURNAL_COLUMNS, toMajorText, type JournalCategory, type TAccountingPeriod, type TAccountingSummary, type TInvoice } from '@tourdesk/contracts';
import { LANGUAGES } from '@tourdesk/contracts/i18n';
import { bpToPercentText } from '@tourdesk/contracts/percent';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { csvDocument, type CsvValue } from '../../lib/csv';
import { translateFor } from '../../lib/customer-text';
import { invoicePdf } from '../orders/invoices';
import * as q from './queries';

/**
 * The accounting export: a period's journal as CSV and its invoices and credit notes as one ZIP of
 * their PDFs. Everything comes from figures stored when sold or issued (documents' data, lines'
 * sold figures, payments, statements), never from today's prices or rates.
 */

/** What a "Cancellation fee" line of an invoice says, in every language a document can be in. */
const FEE_TEXTS = [...new Set(LANGUAGES.map((l) => translateFor(l)('invoice.cancellationFee')))];


const amount = (minor: number | null, currency: string): CsvValue => (minor === null ? '' : { amount: toMajorText(minor, currency) });
const minorCell = (minor: number | null): CsvValue => (minor === null ? '' : minor);

/** The period's journal rows (in the caller's tenant transaction). */
export const journal = (ctx: TenantCtx, period: TAccountingPeriod) => q.journalRows(ctx, period, FEE_TEXTS);

/**
 * The statements' partners named: read on the server's connection, after the tenant's transaction
 * (PGlite has one connection), only for the ids the tenant's own rows gave.
 */
export async function namePartners(db: Db, rows: q.JournalRow[]) {
  const names = await q.accountNames(db, [...new Set(rows.flatMap((r) => (r.partner ? [r.partner] : [])))]);
  return rows.map((r) => ({ ...r, counterparty: r.partner ? (names.get(r.partner) ?? '') : r.counterparty }));
}

/**
 * The journal as CSV: a header line (JOURNAL_COLUMNS) and a row per entry; amounts in major units
 * with a decimal point and no thousands separator (`-12.50`), and the same in minor units as
 * integers; VAT rates as percentages (`8.1`); dates as YYYY-MM-DD in the organisation's zone.
 */
export function journalCsv(rows: q.JournalRow[]) {
  return csvDocument(
    [...JOURNAL_COLUMNS],
    rows.map((r) => [
      r.date,
      r.category,
      r.document,
      r.order_ref,
      r.counterparty,
      r.description,
      r.offer,
      r.method,
      r.quantity ?? '',
      r.vat_rate_bp === null ? '' : bpToPercentText(r.vat_rate_bp),
      r.currency,
      amount(r.net, r.currency),
      amount(r.vat, r.currency),
      amount(r.gross, r.currency),
      minorCell(r.net),
      minorCell(r.vat),
      minorCell(r.gross),
    ]),
  );
}

/** What the period holds: the journal's rows per category and the documents of the ZIP. */
export async function summary(ctx: TenantCtx, period: TAccountingPeriod, timeZone: string): Promise<TAccountingSummary> {
  const rows = await journal(ctx, period);
  const counts = Object.fromEntries(JOURNAL_CATEGORIES.map((c) => [c, 0])) as Record<JournalCategory, number>;
  for (const r of rows) counts[r.category as JournalCategory] += 1;
  const docs = await q.documentCounts(ctx, period);
  return { from: period.from, to: period.to, time_zone: timeZone, rows: counts, invoices: docs.invoices, credit_notes: docs.credit_notes };
}

/** Runs a function in the caller's tenant, in a transaction of its own. */
export type TenantRunner = <R>(fn: (ctx: TenantCtx) => Promise<R>) => Promise<R>;

/** How many documents one transaction reads (and the most PDFs held in memory at once). */
export const ZIP_PAGE = 20;

/**
 * The period's invoices and credit notes as a ZIP, one PDF per document named by its number
 * (INV-2026-00042.pdf), in their order. Streamed: a page of ZIP_PAGE documents is read in a short
 * transaction of its own (PGlite runs one transaction at a time: a long download must not hold one),
 * and each PDF is drawn and handed on only when the consumer asks for more (an async generator
 * under `Readable.from()`), so memory holds one page, whatever the period's size. The PDFs are
 * stored, not deflated again (pdf-lib compresses their content already).
 */
export async function* documentsZip(run: TenantRunner, period: TAccountingPeriod): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failed: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failed = error;
    else out.push(chunk);
  });
  const flush = function* () {
    if (failed) throw failed;
    while (out.length) yield out.shift()!;
  };
  let after: q.DocumentKey | null = null;
  for (;;) {
    const page = await run((ctx) => q.documentPage(ctx, period, after, ZIP_PAGE));
    for (const doc of page) {
      // The document's data (jsonb, typed as a record by the schema) is what orders/invoices.ts stored: a TInvoice without its language.
      const invoice = { ...(doc.data as unknown as Omit<TInvoice, 'language'>), language: doc.language } as TInvoice;
      const pdf = await invoicePdf({ invoice, language: doc.language });
      const entry = new ZipPassThrough(`${invoice.number}.pdf`);
      entry.mtime = new Date(`${doc.issued_on}T12:00:00Z`);
      zip.add(entry);
      entry.push(pdf, true);
      yield* flush();
      // Drawing a PDF and the embedded database resolve on microtasks only: without a turn of the
      // event loop here, a large ZIP would keep every other request (and the socket's drain) waiting.
      await nextTurn();
    }
    if (page.length < ZIP_PAGE) break;
    after = page[page.length - 1]!;
  }
  zip.end();
  yield* flush();
}
