import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';

export type { CustomerKey } from './en';
/** What a customer receives about an order (e-mails, tickets, the confirmation, invoices, the .ics file), by language. */
export const CUSTOMER_CATALOGS = { en, de, fr, it, es };
