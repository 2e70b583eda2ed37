/**
 * CSV as spreadsheets read it (the orders list, settlement statements, manifests): a cell's text is
 * quoted as needed and kept from being read as a formula; an amount is written as a plain number
 * (`{ amount: toMajorText(...) }`); lines end with CRLF.
 */
export type CsvValue = string | number | { amount: string };

export const csvCell = (v: CsvValue) => {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'object') return v.amount;
  // Quote what needs it; neutralise spreadsheet formulas.
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** A header line and a line per row. */
export const csvDocument = (header: string[], rows: CsvValue[][]) => [header.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\r\n') + '\r\n';
