import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/manifests/en';
import { texts } from '../../shared/i18n/texts';

export const useManifestsT = texts('manifests', en);
