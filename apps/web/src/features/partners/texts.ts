import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/partners/en';
import { texts } from '../../shared/i18n/texts';

export const usePartnersT = texts('partners', en);
