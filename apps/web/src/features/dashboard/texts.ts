import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/dashboard/en';
import { texts } from '../../shared/i18n/texts';

export const useDashboardT = texts('dashboard', en);
