import type { TCalendarFeed, TDetail, TSetEmail, TSetPassword, TUser } from '@tourdesk/contracts';
import type { BackOfficeLanguage } from '@tourdesk/contracts/i18n';
import { api } from '../../shared/api/api';

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateMe: build.mutation<TUser, { first_name?: string; last_name?: string; language?: BackOfficeLanguage | null }>({
      query: (body) => ({ url: 'users/me/', method: 'PATCH', body }),
      invalidatesTags: ['Me'],
    }),
    setPassword: build.mutation<void, TSetPassword>({
      query: (body) => ({ url: 'users/set_password/', method: 'POST', body }),
    }),
    setEmail: build.mutation<void, TSetEmail>({
      query: (body) => ({ url: 'users/set_email/', method: 'POST', body }),
      invalidatesTags: ['Me'],
    }),
    logoutOthers: build.mutation<TDetail, void>({ query: () => ({ url: 'users/me/logout_others/', method: 'POST', body: {} }) }),
    calendarFeed: build.query<TCalendarFeed, void>({ query: () => 'users/me/calendar-feed/' }),
    /** Makes the member's feed, or a new address for it (the old one stops working); the answer replaces the cached feed. */
    resetCalendarFeed: build.mutation<TCalendarFeed, void>({
      query: () => ({ url: 'users/me/calendar-feed/', method: 'POST', body: {} }),
      async onQueryStarted(_, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(profileApi.util.upsertQueryData('calendarFeed', undefined, data));
      },
    }),
  }),
});

export const { useUpdateMeMutation, useSetPasswordMutation, useSetEmailMutation, useLogoutOthersMutation, useCalendarFeedQuery, useResetCalendarFeedMutation } = profileApi;
