import type { TAppInfo, TDetail, THandoff, TLoginInput, TPublicConfig, TSessionResult, TUser } from '@tourdesk/contracts';
import { api } from './api';

/** The calls the session itself needs, used by the app shell and the sign-in pages. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    publicConfig: build.query<TPublicConfig, void>({ query: () => 'public-config/', keepUnusedDataFor: 3600 }),
    verifySession: build.mutation<TDetail, void>({ query: () => ({ url: 'jwt/verify/', method: 'POST', body: {} }) }),
    me: build.query<TUser, void>({ query: () => 'users/me/', providesTags: ['Me'] }),
    appInfo: build.query<TAppInfo, void>({ query: () => 'app-info/', keepUnusedDataFor: 3600 }),
    /** `altcha`: a solved challenge (X-Altcha), asked for past the longest wait (features/auth/challenge.ts). */
    login: build.mutation<TSessionResult, TLoginInput & { altcha?: string }>({
      query: ({ altcha, ...body }) => ({ url: 'jwt/create/', method: 'POST', body, ...(altcha ? { headers: { 'x-altcha': altcha } } : {}) }),
    }),
    handoff: build.mutation<TSessionResult, THandoff>({ query: (body) => ({ url: 'jwt/handoff/', method: 'POST', body }) }),
    logout: build.mutation<void, void>({ query: () => ({ url: 'logout/', method: 'POST', body: {} }) }),
  }),
});

export const {
  usePublicConfigQuery,
  useMeQuery,
  useLoginMutation,
  useHandoffMutation,
  useLogoutMutation,
} = sessionApi;
