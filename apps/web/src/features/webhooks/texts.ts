import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/webhooks/en';
import { texts } from '../../shared/i18n/texts';

export const useWebhooksT = texts('webhooks', en);
export type WebhooksT = ReturnType<typeof useWebhooksT>;
