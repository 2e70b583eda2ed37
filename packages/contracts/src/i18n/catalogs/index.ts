import type { Language } from '../languages';
import { BACKOFFICE_CATALOGS } from './backoffice';
import { CUSTOMER_CATALOGS } from './customer';
import { STAFF_CATALOGS } from './staff';
import { STORE_CATALOGS } from './store';

export { CUSTOMER_CATALOGS, type CustomerKey } from './customer';
export { STAFF_CATALOGS, type StaffKey } from './staff';
export { STORE_CATALOGS, type StoreKey } from './store';

/**
 * Every catalog of customer- and user-facing text, by domain, in every language that domain has.
 * English is each domain's contract: another language's catalog `satisfies Record<keyof English,
 * string>` (a missing message fails the typecheck) and catalogs.test.ts checks that each message
 * parses and takes English's arguments. Add a domain here to have it checked.
 */
export const CATALOGS: Record<string, Partial<Record<Language, Record<string, string>>> & { en: Record<string, string> }> = {
  customer: CUSTOMER_CATALOGS,
  store: STORE_CATALOGS,
  staff: STAFF_CATALOGS,
  ...BACKOFFICE_CATALOGS,
};
