import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/common/en';
import { texts } from './texts';

/** The shared texts (lists, dialogs, the session check): in the first load. */
export const useCommonT = texts('common', en);
