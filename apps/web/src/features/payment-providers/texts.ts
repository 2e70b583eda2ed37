import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/payment-providers/en';
import { texts } from '../../shared/i18n/texts';

export const usePaymentProvidersT = texts('payment-providers', en);
export type PaymentProvidersT = ReturnType<typeof usePaymentProvidersT>;
