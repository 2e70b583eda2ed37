import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/organization/en';
import { texts } from '../../shared/i18n/texts';

export const useOrganizationT = texts('organization', en);
