import { toMajorText, toMinorUnits, ZInventoryItemInput } from '@tourdesk/contracts';
import { z } from 'zod';

/**
 * The contract's item fields for the organisation's `currency`; the price is typed as text in the
 * currency's decimals (none for JPY, three for KWD: the contracts' toMinorUnits()) and converted to
 * minor units on save; the category and tags are left to the server's check (the form shows no
 * error under them).
 */
export const itemForm = (currency: string) =>
  ZInventoryItemInput.pick({ type: true, name: true, description: true, stock: true, buffer_before_minutes: true, buffer_after_minutes: true, translations: true }).extend({
    category: z.string().nullable(),
    tags: z.array(z.string()),
    price: z.string().refine((v) => toMinorUnits(v, currency) !== null, { error: `Enter an amount such as ${toMajorText(1250, currency)}.` }),
  });
export type ItemForm = ReturnType<typeof itemForm>;
