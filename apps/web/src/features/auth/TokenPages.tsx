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
          label="New password"
          description="At least 8 characters."
          autoComplete="new-password"
          {...form.register('new_password')}
          error={form.formState.errors.new_password?.message}
        />
        <PasswordInput label="Repeat the password" autoComplete="new-password" {...form.register('confirm')} error={form.formState.errors.confirm?.message} />
        <Button type="submit" loading={loading} fullWidth>
          {button}
        </Button>
      </Stack>
    </form>
  );
}

export function ResetPasswordPage() {
  const link = useLinkParams();
  const navigate = useNavigate();
  const [confirm, { isLoading }] = useResetPasswordConfirmMutation();
  return (
    <AuthCard title="Choose a new password" footer={<AuthLink to="/auth/forgot-password">Ask for a new link</AuthLink>}>
      <NewPasswordForm
        button="Reset password"
        loading={isLoading}
        onSubmit={async (new_password) => {
          const res = await confirm({ ...link, new_password });
          if ('error' in res) return res.error;
          notifySuccess(PASSWORD_RESET_MESSAGE);
          navigate('/auth/login', { replace: true });
        }}
      />
    </AuthCard>
  );
}

export function AcceptInvitationPage() {
  const link = useLinkParams();
  const navigate = useNavigate();
  const [accept, { isLoading }] = useAcceptInvitationMutation();
  return (
    <AuthCard title="Join your team" subtitle="Choose a password to accept the invitation.">
      <NewPasswordForm
        button="Accept invitation"
        loading={isLoading}
        onSubmit={async (new_password) => {
          const res = await accept({ ...link, new_password });
          if ('error' in res) return res.error;
          notifySuccess('Invitation accepted! Sign in with your new password.');
          navigate('/auth/login', { replace: true });
        }}
      />
    </AuthCard>
  );
}

export function ResetEmailPage() {
  const link = useLinkParams();
  const navigate = useNavigate();
  const [confirm, { isLoading }] = useResetEmailConfirmMutation();
  const form = useForm<{ new_email: string }>({
    resolver: zodResolver(ZResetEmailConfirm.pick({ new_email: true })),
    defaultValues: { new_email: '' },
  });
  return (
    <AuthCard title="Choose a new sign-in e-mail">
      <form
        noValidate
        onSubmit={form.handleSubmit(async ({ new_email }) => {
          const res = await confirm({ ...link, new_email });
          if ('error' in res) return applyFieldErrors(res.error, form.setError, ['new_email']);
          notifySuccess(emailLinkSentMessage(new_email));
          navigate('/auth/login', { replace: true });
        })}
      >
        <Stack>
          <TextInput label="New e-mail" type="email" {...form.register('new_email')} error={form.formState.errors.new_email?.message} />
          <Button type="submit" loading={isLoading} fullWidth>
            Change e-mail
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
  const link = useLinkParams();
  const [activate] = useActivateMutation();
  const [run] = useState(() => () => activate(link));
  const { done, result } = useOnce(run);
  if (!done) return <AuthCard title="Activating your account…"><Loader /></AuthCard>;
  const ok = result && !('error' in result);
  return (
    <AuthCard title={ok ? 'Your account is active' : 'This link did not work'} footer={<AuthLink to={ok ? '/auth/login' : '/auth/resend-activation'}>{ok ? 'Sign in' : 'Send a new activation link'}</AuthLink>}>
      <Alert color={ok ? 'green' : 'red'} variant="light" role={ok ? 'status' : 'alert'}>
        {ok ? 'Welcome aboard! Sign in to set up your organisation.' : errorMessages(result && 'error' in result ? result.error : undefined).join(' ')}
      </Alert>
    </AuthCard>
  );
}

/** The link sent to a new sign-in address: following it makes the address the account's. */
export function ConfirmEmailPage() {
  const link = useLinkParams();
  const [confirm] = useConfirmEmailMutation();
  const [run] = useState(() => () => confirm(link));
  const { done, result } = useOnce(run);
  if (!done) return <AuthCard title="Confirming your e-mail address…"><Loader /></AuthCard>;
  const ok = result && !('error' in result);
  return (
    <AuthCard title={ok ? 'Your new e-mail address is confirmed' : 'This link did not work'} footer={<AuthLink to="/auth/login">Sign in</AuthLink>}>
      <Alert color={ok ? 'green' : 'red'} variant="light" role={ok ? 'status' : 'alert'}>
        {ok ? 'From now on, sign in with this address.' : errorMessages(result && 'error' in result ? result.error : undefined).join(' ')}
      </Alert>
    </AuthCard>
  );
}

/** The second half of a sign-in started on another host: exchange the one-time code for a session here. */
export function HandoffPage() {
  const [params] = useSearchParams();
  const [handoff] = useHandoffMutation();
  const finish = useFinishSignIn();
  const [run] = useState(() => async () => {
    const res = await handoff({ code: params.get('code') ?? '' });
    if ('data' in res && res.data) await finish(res.data, params.get('next'));
    return res;
  });
  const { done, result } = useOnce(run);
  if (!done || (result && 'data' in result)) return <AuthCard title="Signing you in…"><Loader /></AuthCard>;
  return (
    <AuthCard title="Sign-in link expired" footer={<AuthLink to="/auth/login">Sign in again</AuthLink>}>
      <Alert color="red" variant="light" role="alert">
        This sign-in link has already been used or has expired.
      </Alert>
    </AuthCard>
  );
}

export function OidcCallbackPage() {
  const [params] = useSearchParams();
  const [complete] = useOidcFinishMutation();
  const finish = useFinishSignIn();
  const [run] = useState(() => async () => {
    const res = await complete({ code: params.get('code') ?? '', state: params.get('state') ?? '', iss: params.get('iss') ?? undefined });
    if ('data' in res && res.data) await finish(res.data, params.get('next'));
    return res;
  });
  const { done, result } = useOnce(run);
  if (!done || (result && 'data' in result)) return <AuthCard title="Signing you in…"><Loader /></AuthCard>;
  return (
    <AuthCard title="Single sign-on failed" footer={<AuthLink to="/auth/login">Back to sign in</AuthLink>}>
      <Alert color="red" variant="light" role="alert">
        {errorMessages(result && 'error' in result ? result.error : undefined).join(' ') || params.get('error_description') || 'The provider did not sign you in.'}
      </Alert>
    </AuthCard>
  );
}
