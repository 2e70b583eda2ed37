import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Divider, PasswordInput, Stack, TextInput } from '@mantine/core';
import { ZLoginInput } from '@tourdesk/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { useHost } from '../../shared/auth/host-context';
import { useLoginMutation } from '../../shared/api/session-api';
import { applyFieldErrors } from '../../shared/lib/forms';
import { useOidcStartMutation, useSignInChallengeMutation } from './api';
import { AuthCard, AuthLink } from './AuthCard';
import { challengeRequired, solveChallenge } from './challenge';
import { useFinishSignIn } from './use-finish-sign-in';

/** The contract's sign-in fields and messages. */
type LoginForm = z.input<typeof ZLoginInput>;

export default function LoginPage() {
  const { subdomain, config } = useHost();
  const [params] = useSearchParams();
  const [login, { isLoading, error }] = useLoginMutation();
  const [startOidc, oidc] = useOidcStartMutation();
  const [getChallenge] = useSignInChallengeMutation();
  /** Solving a challenge the server asked for: the only thing the user sees of it. */
  const [checking, setChecking] = useState(false);
  const finish = useFinishSignIn();
  const form = useForm<LoginForm>({ resolver: zodResolver(ZLoginInput), defaultValues: { email: '', password: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    let result = await login(values);
    if ('error' in result && challengeRequired(result.error)) {
      // Past the longest wait: a solved challenge lets the sign-in through now. Tried once; if no
      // challenge can be had or solved, the first answer (when to try again) stays on the page.
      setChecking(true);
      try {
        const altcha = await solveChallenge(await getChallenge().unwrap());
        result = await login({ ...values, altcha });
      } catch {
        // The first answer stands.
      } finally {
        setChecking(false);
      }
    }
    if ('data' in result && result.data) await finish(result.data, params.get('next'));
    else applyFieldErrors(result.error, form.setError, ['email', 'password']);
  });

  const serverMessage =
    error && 'data' in error ? (error.data as { errors?: { detail: string }[] })?.errors?.[0]?.detail : undefined;

  return (
    <AuthCard
      title="Sign in"
      subtitle={subdomain ? `to ${subdomain}.${config.base_domain}` : 'to your organisation'}
      footer={
        <>
          <AuthLink to="/auth/forgot-password">Forgot your password?</AuthLink>
          {!subdomain && <AuthLink to="/auth/register">No account yet? Sign up</AuthLink>}
          <AuthLink to="/auth/resend-activation">Didn’t get the activation e-mail?</AuthLink>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {checking ? (
            <Alert color="blue" variant="light" role="status">
              Checking your browser…
            </Alert>
          ) : (
            serverMessage && (
              <Alert color="red" variant="light" role="alert">
                {serverMessage}
              </Alert>
            )
          )}
          <TextInput label="E-mail" type="email" autoComplete="email" {...form.register('email')} error={form.formState.errors.email?.message} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            {...form.register('password')}
            error={form.formState.errors.password?.message}
          />
          <Button type="submit" loading={isLoading || checking} fullWidth>
            Sign in
          </Button>
          {config.oidc.enabled && (
            <>
              <Divider label="or" labelPosition="center" />
              <Button
                variant="default"
                loading={oidc.isLoading}
                onClick={async () => {
                  const res = await startOidc();
                  if ('data' in res && res.data) window.location.assign(res.data.authorization_url);
                }}
              >
                Sign in with {config.oidc.name}
              </Button>
            </>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}
