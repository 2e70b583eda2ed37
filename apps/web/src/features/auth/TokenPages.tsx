import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { ZResetEmailConfirm, ZResetPasswordConfirm } from '@tourdesk/contracts';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useHandoffMutation } from '../../shared/api/session-api';
import { errorMessages } from '../../shared/api/errors';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import {
  useAcceptInvitationMutation,
  useActivateMutation,
  useConfirmEmailMutation,
  useOidcFinishMutation,
  useResetEmailConfirmMutation,
  useResetPasswordConfirmMutation,
} from './api';
import { AuthCard, AuthLink } from './AuthCard';
import { useFinishSignIn } from './use-finish-sign-in';
import { useAuthT } from './texts';

export const PASSWORD_RESET_MESSAGE = 'Password reset! Sign in with your new password.';
/** A new address counts once the link sent to it is followed. */
export const emailLinkSentMessage = (email: string) => `We sent a link to ${email} to confirm it.`;

/** The contract's new password, typed twice (the second box is the form's own). */
const ZNewPassword = ZResetPasswordConfirm.pick({ new_password: true })
  .extend({ confirm: z.string() })
  .refine((v) => v.new_password === v.confirm, { error: 'The two passwords differ.', path: ['confirm'] });

/** A page reached from an e-mailed link: /auth/…/{uid}/{token}. */
function useLinkParams() {
  const { uid = '', token = '' } = useParams();
  return { uid, token };
}

function NewPasswordForm({ button, onSubmit, loading }: { button: string; loading: boolean; onSubmit: (password: string) => Promise<unknown> }) {
  const t = useAuthT();
  const form = useForm<z.infer<typeof ZNewPassword>>({ resolver: zodResolver(ZNewPassword), defaultValues: { new_password: '', confirm: '' } });
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(async ({ new_password }) => {
        const error = await onSubmit(new_password);
        if (error) applyFieldErrors(error as never, form.setError, ['new_password']);
      })}
    >
      <Stack>
        <PasswordInput
          label={t('newPassword.label')}
          description={t('atLeast8')}
          autoComplete="new-password"
          {...form.register('new_password')}
          error={form.formState.errors.new_password?.message}
        />
        <PasswordInput
          label={t('newPassword.repeat')}
          autoComplete="new-password"
          {...form.register('confirm')}
          error={form.formState.errors.confirm?.type === 'custom' ? t('newPassword.differ') : form.formState.errors.confirm?.message}
        />
        <Button type="submit" loading={loading} fullWidth>
          {button}
        </Button>
      </Stack>
    </form>
  );
}

export function ResetPasswordPage() {
  const t = useAuthT();
  const link = useLinkParams();
  const navigate = useNavigate();
  const [confirm, { isLoading }] = useResetPasswordConfirmMutation();
  return (
    <AuthCard title={t('reset.title')} footer={<AuthLink to="/auth/forgot-password">{t('reset.newLink')}</AuthLink>}>
      <NewPasswordForm
        button={t('reset.button')}
        loading={isLoading}
        onSubmit={async (new_password) => {
          const res = await confirm({ ...link, new_password });
          if ('error' in res) return res.error;
          notifySuccess(t('reset.done'));
          navigate('/auth/login', { replace: true });
        }}
      />
    </AuthCard>
  );
}

export function AcceptInvitationPage() {
  const t = useAuthT();
  const link = useLinkParams();
  const navigate = useNavigate();
  const [accept, { isLoading }] = useAcceptInvitationMutation();
  return (
    <AuthCard title={t('invite.title')} subtitle={t('invite.subtitle')}>
      <NewPasswordForm
        button={t('invite.button')}
        loading={isLoading}
        onSubmit={async (new_password) => {
          const res = await accept({ ...link, new_password });
          if ('error' in res) return res.error;
          notifySuccess(t('invite.done'));
          navigate('/auth/login', { replace: true });
        }}
      />
    </AuthCard>
  );
}

export function ResetEmailPage() {
  const t = useAuthT();
  const link = useLinkParams();
  const navigate = useNavigate();
  const [confirm, { isLoading }] = useResetEmailConfirmMutation();
  const form = useForm<{ new_email: string }>({
    resolver: zodResolver(ZResetEmailConfirm.pick({ new_email: true })),
    defaultValues: { new_email: '' },
  });
  return (
    <AuthCard title={t('resetEmail.title')}>
      <form
        noValidate
        onSubmit={form.handleSubmit(async ({ new_email }) => {
          const res = await confirm({ ...link, new_email });
          if ('error' in res) return applyFieldErrors(res.error, form.setError, ['new_email']);
          notifySuccess(t('resetEmail.sent', { email: new_email }));
          navigate('/auth/login', { replace: true });
        })}
      >
        <Stack>
          <TextInput label={t('resetEmail.new')} type="email" {...form.register('new_email')} error={form.formState.errors.new_email?.message} />
          <Button type="submit" loading={isLoading} fullWidth>
            {t('resetEmail.button')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

/** Runs one call when the page opens (once, even in React's strict mode) and reports its outcome. */
function useOnce<T>(run: () => Promise<T>) {
  const started = useRef(false);
  const [state, setState] = useState<{ done: boolean; result?: T }>({ done: false });
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run().then((result) => setState({ done: true, result }));
  }, [run]);
  return state;
}

export function ActivatePage() {
  const t = useAuthT();
  const link = useLinkParams();
  const [activate] = useActivateMutation();
  const [run] = useState(() => () => activate(link));
  const { done, result } = useOnce(run);
  if (!done) return <AuthCard title={t('activate.running')}><Loader /></AuthCard>;
  const ok = result && !('error' in result);
  return (
    <AuthCard title={ok ? t('activate.done') : t('linkFailed')} footer={<AuthLink to={ok ? '/auth/login' : '/auth/resend-activation'}>{ok ? t('signIn') : t('activate.newLink')}</AuthLink>}>
      <Alert color={ok ? 'green' : 'red'} variant="light" role={ok ? 'status' : 'alert'}>
        {ok ? t('activate.welcome') : errorMessages(result && 'error' in result ? result.error : undefined).join(' ')}
      </Alert>
    </AuthCard>
  );
}

/** The link sent to a new sign-in address: following it makes the address the account's. */
export function ConfirmEmailPage() {
  const t = useAuthT();
  const link = useLinkParams();
  const [confirm] = useConfirmEmailMutation();
  const [run] = useState(() => () => confirm(link));
  const { done, result } = useOnce(run);
  if (!done) return <AuthCard title={t('confirmEmail.running')}><Loader /></AuthCard>;
  const ok = result && !('error' in result);
  return (
    <AuthCard title={ok ? t('confirmEmail.done') : t('linkFailed')} footer={<AuthLink to="/auth/login">{t('signIn')}</AuthLink>}>
      <Alert color={ok ? 'green' : 'red'} variant="light" role={ok ? 'status' : 'alert'}>
        {ok ? t('confirmEmail.note') : errorMessages(result && 'error' in result ? result.error : undefined).join(' ')}
      </Alert>
    </AuthCard>
  );
}

/** The second half of a sign-in started on another host: exchange the one-time code for a session here. */
export function HandoffPage() {
  const t = useAuthT();
  const [params] = useSearchParams();
  const [handoff] = useHandoffMutation();
  const finish = useFinishSignIn();
  const [run] = useState(() => async () => {
    const res = await handoff({ code: params.get('code') ?? '' });
    if ('data' in res && res.data) await finish(res.data, params.get('next'));
    return res;
  });
  const { done, result } = useOnce(run);
  if (!done || (result && 'data' in result)) return <AuthCard title={t('signingIn')}><Loader /></AuthCard>;
  return (
    <AuthCard title={t('handoff.expiredTitle')} footer={<AuthLink to="/auth/login">{t('handoff.again')}</AuthLink>}>
      <Alert color="red" variant="light" role="alert">
        {t('handoff.expired')}
      </Alert>
    </AuthCard>
  );
}

export function OidcCallbackPage() {
  const t = useAuthT();
  const [params] = useSearchParams();
  const [complete] = useOidcFinishMutation();
  const finish = useFinishSignIn();
  const [run] = useState(() => async () => {
    const res = await complete({ code: params.get('code') ?? '', state: params.get('state') ?? '', iss: params.get('iss') ?? undefined });
    if ('data' in res && res.data) await finish(res.data, params.get('next'));
    return res;
  });
  const { done, result } = useOnce(run);
  if (!done || (result && 'data' in result)) return <AuthCard title={t('signingIn')}><Loader /></AuthCard>;
  return (
    <AuthCard title={t('oidc.failed')} footer={<AuthLink to="/auth/login">{t('backToSignIn')}</AuthLink>}>
      <Alert color="red" variant="light" role="alert">
        {errorMessages(result && 'error' in result ? result.error : undefined).join(' ') || params.get('error_description') || t('oidc.notSignedIn')}
      </Alert>
    </AuthCard>
  );
}
