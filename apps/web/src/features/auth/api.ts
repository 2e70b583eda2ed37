import type {
  TEmailOnly,
  TOidcCallback,
  TOidcStart,
  TRegistered,
  TRegisterInput,
  TResetEmailConfirm,
  TResetPasswordConfirm,
  TSessionResult,
  TSubdomainCheck,
  TUidToken,
  TWebChallenge,
} from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    register: build.mutation<TRegistered, TRegisterInput>({
      query: (body) => ({ url: 'users/register/', method: 'POST', body }),
    }),
    checkSubdomain: build.query<TSubdomainCheck, string>({
      query: (subdomain) => ({ url: 'subdomains/check/', params: { subdomain } }),
      keepUnusedDataFor: 5,
    }),
    activate: build.mutation<void, TUidToken>({ query: (body) => ({ url: 'users/activation/', method: 'POST', body }) }),
    resendActivation: build.mutation<void, TEmailOnly>({
      query: (body) => ({ url: 'users/resend_activation/', method: 'POST', body }),
    }),
    resetPassword: build.mutation<void, TEmailOnly>({ query: (body) => ({ url: 'users/reset_password/', method: 'POST', body }) }),
    resetPasswordConfirm: build.mutation<void, TResetPasswordConfirm>({
      query: (body) => ({ url: 'users/reset_password_confirm/', method: 'POST', body }),
    }),
    acceptInvitation: build.mutation<void, TResetPasswordConfirm>({
      query: (body) => ({ url: 'users/accept_invitation/', method: 'POST', body }),
    }),
    resetEmailConfirm: build.mutation<void, TResetEmailConfirm>({
      query: (body) => ({ url: 'users/reset_email_confirm/', method: 'POST', body }),
    }),
    confirmEmail: build.mutation<void, TUidToken>({ query: (body) => ({ url: 'users/confirm_email/', method: 'POST', body }) }),
    oidcStart: build.mutation<TOidcStart, void>({ query: () => ({ url: 'o/oidc/' }) }),
    /** A fresh challenge each time (never cached): each solution is good once. */
    signInChallenge: build.mutation<TWebChallenge, void>({ query: () => ({ url: 'jwt/challenge/' }) }),
    oidcFinish: build.mutation<TSessionResult, TOidcCallback>({
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
  useConfirmEmailMutation,
  useOidcStartMutation,
  useOidcFinishMutation,
  useSignInChallengeMutation,
} = authApi;
