import type { TConnectLink, TPaymentProvider } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';
import { silenceErrorToasts } from '../../shared/api/session-listener';

// The page shows why the state could not be read (a non-Owner's 403 above all) in a panel, not a toast.
silenceErrorToasts('paymentProvider');

const tagged = api.enhanceEndpoints({ addTagTypes: ['PaymentProvider'] });

/** The organisation's Stripe account (Owners only): its state, Stripe's onboarding, disconnecting it. */
export const paymentProvidersApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/payment-providers/oauth/: the state, asked afresh from Stripe by the server. */
    paymentProvider: build.query<TPaymentProvider, void>({
      query: () => 'payment-providers/oauth/',
      providesTags: ['PaymentProvider'],
    }),
    /** POST /api/payment-providers/connect/: the link to Stripe's hosted onboarding (made for one visit). */
    connectPaymentProvider: build.mutation<TConnectLink, void>({
      query: () => ({ url: 'payment-providers/connect/', method: 'POST', body: {} }),
    }),
    /** DELETE /api/payment-providers/connect/: the stores stop offering online payment. */
    disconnectPaymentProvider: build.mutation<void, void>({
      query: () => ({ url: 'payment-providers/connect/', method: 'DELETE' }),
      invalidatesTags: ['PaymentProvider'],
    }),
  }),
});

export const { usePaymentProviderQuery, useConnectPaymentProviderMutation, useDisconnectPaymentProviderMutation } = paymentProvidersApi;
