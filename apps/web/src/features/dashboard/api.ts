import type { TDashboard, THealth, TOnboarding, TPaginated, TStore, TSystemNotificationList } from '@tourdesk/contracts';
import { api, READ_AFRESH } from '../../shared/api/api';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<THealth, void>({ query: () => 'health/', providesTags: ['Health'] }),
    getSystemNotifications: build.query<TSystemNotificationList, { page?: number; page_size?: number }>({
      query: (params) => ({ url: 'system-notifications/', params }),
      providesTags: ['SystemNotification'],
    }),
    /** The active stores, for the "Your web stores" card (Manage stores). */
    getActiveStores: build.query<TPaginated<TStore>, void>({ query: () => ({ url: 'stores/', params: { active: 'true', page_size: 5 } }) }),
    /** The day at a glance; each part only for a role that may see it. Read afresh on each visit. */
    getDashboard: build.query<TDashboard, void>({ query: () => 'dashboard/', keepUnusedDataFor: READ_AFRESH }),
    setOnboardingDismissed: build.mutation<TOnboarding, boolean>({
      query: (dismissed) => ({ url: 'onboardings/getting-started/', method: 'PATCH', body: { dismissed } }),
      async onQueryStarted(dismissed, { dispatch, queryFulfilled }) {
        const patch = dispatch(dashboardApi.util.updateQueryData('getDashboard', undefined, (d) => {
          if (d.onboarding) d.onboarding.dismissed = dismissed;
        }));
        queryFulfilled.catch(patch.undo);
      },
    }),
  }),
});

export const { useGetHealthQuery, useGetSystemNotificationsQuery, useGetActiveStoresQuery, useGetDashboardQuery, useSetOnboardingDismissedMutation } = dashboardApi;
