import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/pricing/en';
import { texts } from '../../shared/i18n/texts';

/** The pricing categories' and pricing rates pages' texts (their own domain, so the offer editor's chunks do not carry them). */
export const usePricingT = texts('pricing', en);
