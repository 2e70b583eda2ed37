import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/orders/en';
import { texts } from '../../shared/i18n/texts';

export const useOrdersStatusT = texts('orders', en);
