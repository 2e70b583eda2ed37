import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/experiences/en';
import { texts } from '../../shared/i18n/texts';

/** The catalog page's and the section tabs' texts (the offer editor's are not in a catalog yet). */
export const useExperiencesT = texts('experiences', en);
