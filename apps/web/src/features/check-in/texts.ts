import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/check-in/en';
import { texts } from '../../shared/i18n/texts';

export const useCheckInT = texts('check-in', en);
