import type { THealth, TPaginated, TStore, TSystemNotificationList } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<THealth, void>({ query: () => 'health/', providesTags: ['Health'] }),
    getSystemNotifications: build.query<TSystemNotificationList, { page?: number; page_size?: number }>({
      query: (params) => ({ url: 'system-notifications/', params }),
      providesTags: ['SystemNotification'],
    }),
    /** The active stores, for the "Your web stores" card (Manage stores). */
    getActiveStores: build.query<TPaginated<TStore>, void>({ query: () => ({ url: 'stores/', params: { active: 'true', page_size: 5 } }) }),
  }),
});

export const { useGetHealthQuery, useGetSystemNotificationsQuery, useGetActiveStoresQuery } = dashboardApi;
