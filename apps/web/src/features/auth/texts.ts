import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/auth/en';
import { texts } from '../../shared/i18n/texts';

export const useAuthT = texts('auth', en);
