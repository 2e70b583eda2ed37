import type { TUser } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateMe: build.mutation<TUser, { first_name?: string; last_name?: string }>({
      query: (body) => ({ url: 'users/me/', method: 'PATCH', body }),
      invalidatesTags: ['Me'],
    }),
    setPassword: build.mutation<void, { current_password: string; new_password: string }>({
      query: (body) => ({ url: 'users/set_password/', method: 'POST', body }),
    }),
    setEmail: build.mutation<void, { current_password: string; new_email: string }>({
      query: (body) => ({ url: 'users/set_email/', method: 'POST', body }),
      invalidatesTags: ['Me'],
    }),
    logoutOthers: build.mutation<{ detail: string }, void>({ query: () => ({ url: 'users/me/logout_others/', method: 'POST', body: {} }) }),
  }),
});

export const { useUpdateMeMutation, useSetPasswordMutation, useSetEmailMutation, useLogoutOthersMutation } = profileApi;
