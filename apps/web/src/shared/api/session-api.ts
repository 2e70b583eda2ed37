import type { TAppInfo, TSessionResult, TUser } from '@tourdesk/contracts';
import { api } from './api';

export interface PublicConfig {
  base_domain: string;
  public_url: string;
  recaptcha_site_key: string | null;
  oidc: { enabled: boolean; name: string };
  /** Map tiles ({z}/{x}/{y}) for previews of places, or null. */
  map_tile_url: string | null;
}

/** The calls the session itself needs, used by the app shell and the sign-in pages. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    publicConfig: build.query<PublicConfig, void>({ query: () => 'public-config/', keepUnusedDataFor: 3600 }),
    verifySession: build.mutation<{ detail: string }, void>({ query: () => ({ url: 'jwt/verify/', method: 'POST', body: {} }) }),
    me: build.query<TUser, void>({ query: () => 'users/me/', providesTags: ['Me'] }),
    appInfo: build.query<TAppInfo, void>({ query: () => 'app-info/', keepUnusedDataFor: 3600 }),
    login: build.mutation<TSessionResult, { email: string; password: string }>({
      query: (body) => ({ url: 'jwt/create/', method: 'POST', body }),
    }),
    handoff: build.mutation<TSessionResult, { code: string }>({ query: (body) => ({ url: 'jwt/handoff/', method: 'POST', body }) }),
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
