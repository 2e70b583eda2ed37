import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './constants';

/** Query parameters every list endpoint accepts. */
export const ZPaginationQuery = z.object({
  page: z.coerce
    .number({ error: 'A page number must be a whole number.' })
    .int({ error: 'A page number must be a whole number.' })
    .min(1, { error: 'A page number starts at 1.' })
    .default(1),
  page_size: z.coerce
    .number({ error: `page_size must be one of ${PAGE_SIZE_OPTIONS.join(', ')}.` })
    .refine((n) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(n), {
      error: `page_size must be one of ${PAGE_SIZE_OPTIONS.join(', ')}.`,
    })
    .default(DEFAULT_PAGE_SIZE),
});
export type TPaginationQuery = z.infer<typeof ZPaginationQuery>;

/** The page envelope of every list response. */
export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().min(0),
    total_pages: z.number().int().min(0),
    current_page_number: z.number().int().min(1),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}
export type TPaginated<T> = {
  count: number;
  total_pages: number;
  current_page_number: number;
  next: string | null;
  previous: string | null;
  results: T[];
};
