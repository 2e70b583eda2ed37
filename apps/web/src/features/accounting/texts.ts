import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/accounting/en';
import { texts } from '../../shared/i18n/texts';

export const useAccountingT = texts('accounting', en);
