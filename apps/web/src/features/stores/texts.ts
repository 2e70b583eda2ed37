import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/stores/en';
import { texts } from '../../shared/i18n/texts';

export const useStoresT = texts('stores', en);
