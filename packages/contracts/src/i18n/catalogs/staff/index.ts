import { de } from './de';
import { en } from './en';

export type { StaffKey } from './en';
/** What Tourdesk e-mails to a team member (account e-mails, partner invitations, a store's booking notice), by back-office language. */
export const STAFF_CATALOGS = { en, de };
