import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/customers/en';
import { texts } from '../../shared/i18n/texts';

export const useCustomersT = texts('customers', en);

/** The orders' statuses, as the orders list names them (the same catalog). */
export { useOrdersStatusT } from './orders-texts';
