import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/profile/en';
import { texts } from '../../shared/i18n/texts';

export const useProfileT = texts('profile', en);
