import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/inventory/en';
import { texts } from '../../shared/i18n/texts';

export const useInventoryT = texts('inventory', en);
