import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/promo-codes/en';
import { texts } from '../../shared/i18n/texts';

export const usePromoCodesT = texts('promo-codes', en);
