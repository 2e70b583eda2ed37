import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/team/en';
import { texts } from '../../shared/i18n/texts';

export const useTeamT = texts('team', en);
