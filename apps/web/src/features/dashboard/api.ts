import type { THealth, TSystemNotificationList } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<THealth, void>({ query: () => 'health/', providesTags: ['Health'] }),
    getSystemNotifications: build.query<TSystemNotificationList, { page?: number; page_size?: number }>({
      query: (params) => ({ url: 'system-notifications/', params }),
      providesTags: ['SystemNotification'],
    }),
  }),
});

export const { useGetHealthQuery, useGetSystemNotificationsQuery } = dashboardApi;
