/** The accounting export (English, the contract). */
export const en = {
  title: 'Accounting export',
  intro: 'A period’s journal for your bookkeeping, and its invoices and credit notes as PDFs. Dates are your organisation’s ({zone}), both days included.',
  from: 'From',
  to: 'To',
  'summary.label': 'What the period holds',
  'summary.rows': '{count, plural, =0 {No journal rows} one {# journal row} other {# journal rows}}',
  'summary.documents': '{invoices, plural, =0 {no invoices} one {# invoice} other {# invoices}} and {creditNotes, plural, =0 {no credit notes} one {# credit note} other {# credit notes}}',
  'summary.sales': 'Sales lines: {count}',
  'summary.creditNotes': 'Credit note lines: {count}',
  'summary.fees': 'Fees: {count}',
  'summary.payments': 'Payments: {count}',
  'summary.refunds': 'Refunds: {count}',
  'summary.commissions': 'Partner commissions: {count}',
  'summary.vouchers': 'Gift vouchers sold, issued or cancelled: {count}',
  'download.journal': 'Download journal (CSV)',
  'download.documents': 'Download invoices and credit notes (ZIP)',
  'download.done': 'Saved {name}.',
  'format.title': 'The journal’s format',
  'format.body': 'One row per sales line of an invoice or credit note (or of an order without an invoice), payment, refund, fee and partner commission, with its date, document number, category, description and currency. Amounts use a decimal point and no thousands separator (1234.50); credit notes, refunds and costs are negative; the same amounts follow in minor units (cents) as whole numbers. Comma-separated, UTF-8.',
  'format.documents': 'The ZIP holds one PDF per invoice and credit note issued in the period, each named by its number.',
} as const satisfies Record<string, string>;
export type AccountingKey = keyof typeof en;
