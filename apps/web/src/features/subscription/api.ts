import type { TBillingPortal, TSubscription, TSubscriptionChange, TSubscriptionCreate, TSubscriptionTier } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';
import { silenceErrorToasts } from '../../shared/api/session-listener';

// The page says why its data could not be read in a panel, and a non-Owner's 403 on choosing or
// managing the plan is one notice on the page: these calls' errors are shown by the page itself
// (other errors through the same toasts as everywhere: see SubscriptionPage's `reportError`).
silenceErrorToasts('subscription', 'subscriptionTiers', 'chooseSubscription', 'manageSubscription');

const tagged = api.enhanceEndpoints({ addTagTypes: ['Subscription'] });

/** The organisation's plan (Settings → Subscription): the plans on offer, the current one, choosing and managing it. */
export const subscriptionApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/subscription-tiers/: every plan, of both kinds (supplier and affiliate), in their order. */
    subscriptionTiers: build.query<TSubscriptionTier[], void>({
      query: () => 'subscription-tiers/',
      keepUnusedDataFor: 3600,
    }),
    /** GET /api/subscription/: the current plan, its status and billing, and what the organisation uses of its limits. */
    subscription: build.query<TSubscription, void>({
      query: () => 'subscription/',
      providesTags: ['Subscription'],
    }),
    /**
     * POST /api/subscription/ (Owners): `url` is Stripe Checkout's page to pay for a new paid plan;
     * null when the plan changed at once (a free plan) or changes with Stripe's event (a running
     * subscription's price replaced).
     */
    chooseSubscription: build.mutation<TSubscriptionChange, TSubscriptionCreate>({
      query: (body) => ({ url: 'subscription/', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(subscriptionApi.util.upsertQueryData('subscription', undefined, data.subscription));
        } catch {
          // Shown by the page.
        }
      },
    }),
    /** POST /api/subscription/manage/ (Owners): Stripe's customer portal, for one visit (card, invoices, cancelling). */
    manageSubscription: build.mutation<TBillingPortal, void>({
      query: () => ({ url: 'subscription/manage/', method: 'POST', body: {} }),
    }),
  }),
});

export const { useSubscriptionTiersQuery, useSubscriptionQuery, useChooseSubscriptionMutation, useManageSubscriptionMutation } = subscriptionApi;
