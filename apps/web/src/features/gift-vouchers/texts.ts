import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/gift-vouchers/en';
import { texts } from '../../shared/i18n/texts';

export const useGiftVouchersT = texts('gift-vouchers', en);
