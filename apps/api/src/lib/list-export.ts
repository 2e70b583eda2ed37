import type { FastifyReply } from 'fastify';
import { csvDocument, type CsvValue } from './csv';

/** The most rows a list's CSV carries. */
export const CSV_LIMIT = 20_000;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

/**
 * A list as CSV: its rows read through the list's own SQL page function in pages of 500 (each page
 * presented as the list presents it: no query per row), a column per entry, sent as a download
 * named `{file}-{date}.csv` (`{list}export.csv`).
 */
export async function listCsv<T>(columns: CsvColumn<T>[], page: (limit: number, offset: number) => Promise<T[]>) {
  const rows = await readPages(page);
  return csvDocument(
    columns.map((c) => c.header),
    rows.map((r) => columns.map((c) => c.value(r))),
  );
}

export const sendCsv = (reply: FastifyReply, file: string, body: string) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file}-${new Date().toISOString().slice(0, 10)}.csv"`)
    .send(body);

/** Every row up to CSV_LIMIT, read in pages of 500 (inside one snapshot transaction, so no page shifts). */
export async function readPages<R>(page: (limit: number, offset: number) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (let offset = 0; offset < CSV_LIMIT; offset += 500) {
    const got = await page(Math.min(500, CSV_LIMIT - offset), offset);
    rows.push(...got);
    if (got.length < 500) break;
  }
  return rows;
}

/**
 * For a list whose rows are presented outside the tenant transaction (names read on the server's
 * connection): the raw rows, read first in one snapshot, then handed to listCsv page by page.
 */
export const presentedPages =
  <R, T>(rows: R[], present: (rows: R[]) => Promise<T[]>) =>
  (limit: number, offset: number) =>
    present(rows.slice(offset, offset + limit));
