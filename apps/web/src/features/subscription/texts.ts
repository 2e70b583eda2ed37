import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/subscription/en';
import { texts } from '../../shared/i18n/texts';

/** The subscription pages' texts (plans, the current plan, billing). */
export const useSubscriptionT = texts('subscription', en);
export type SubscriptionT = ReturnType<typeof useSubscriptionT>;
