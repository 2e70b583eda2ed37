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

/**
 * The PATCH form of an input schema: every field optional and without its default, so that
 * fields left out of a partial update keep their stored values (zod applies a field's default
 * even when `.partial()` made it optional).
 */
export function patchOf<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const bare = field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType);
    shape[key] = bare.optional();
  }
  // Built key by key above, each key of T made optional: zod cannot type a shape built in a loop.
  return z.object(shape) as unknown as z.ZodObject<{ [K in keyof T]: z.ZodOptional<T[K]> }>;
}
