import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/capacity/en';
import { texts } from '../../shared/i18n/texts';

export const useCapacityT = texts('capacity', en);
