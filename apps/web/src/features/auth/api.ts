import type { TRegisterInput } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    register: build.mutation<{ email: string; subdomain: string }, TRegisterInput>({
      query: (body) => ({ url: 'users/register/', method: 'POST', body }),
    }),
    checkSubdomain: build.query<{ subdomain: string; available: boolean; reason: string | null }, string>({
      query: (subdomain) => ({ url: 'subdomains/check/', params: { subdomain } }),
      keepUnusedDataFor: 5,
    }),
    activate: build.mutation<void, { uid: string; token: string }>({ query: (body) => ({ url: 'users/activation/', method: 'POST', body }) }),
    resendActivation: build.mutation<void, { email: string }>({
      query: (body) => ({ url: 'users/resend_activation/', method: 'POST', body }),
    }),
    resetPassword: build.mutation<void, { email: string; recaptcha_token?: string }>({ query: (body) => ({ url: 'users/reset_password/', method: 'POST', body }) }),
    resetPasswordConfirm: build.mutation<void, { uid: string; token: string; new_password: string }>({
      query: (body) => ({ url: 'users/reset_password_confirm/', method: 'POST', body }),
    }),
    acceptInvitation: build.mutation<void, { uid: string; token: string; new_password: string }>({
      query: (body) => ({ url: 'users/accept_invitation/', method: 'POST', body }),
    }),
    resetEmailConfirm: build.mutation<void, { uid: string; token: string; new_email: string }>({
      query: (body) => ({ url: 'users/reset_email_confirm/', method: 'POST', body }),
    }),
    oidcStart: build.mutation<{ authorization_url: string }, void>({ query: () => ({ url: 'o/oidc/' }) }),
    oidcFinish: build.mutation<{ redirect_url: string; subdomain: string }, { code: string; state: string; iss?: string }>({
      query: (body) => ({ url: 'o/oidc/', method: 'POST', body }),
    }),
  }),
});

export const {
  useRegisterMutation,
  useLazyCheckSubdomainQuery,
  useActivateMutation,
  useResendActivationMutation,
  useResetPasswordMutation,
  useResetPasswordConfirmMutation,
  useAcceptInvitationMutation,
  useResetEmailConfirmMutation,
  useOidcStartMutation,
  useOidcFinishMutation,
} = authApi;
