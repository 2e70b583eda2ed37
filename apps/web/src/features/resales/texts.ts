import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/resales/en';
import { texts } from '../../shared/i18n/texts';

export const useResalesT = texts('resales', en);
