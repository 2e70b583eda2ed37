import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/qr-codes/en';
import { texts } from '../../shared/i18n/texts';

export const useQrCodesT = texts('qr-codes', en);
