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
import { useAuthT } from './texts';

/** The contract's sign-in fields and messages. */
type LoginForm = z.input<typeof ZLoginInput>;

export default function LoginPage() {
  const t = useAuthT();
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
      title={t('signIn')}
      subtitle={subdomain ? t('login.to', { host: `${subdomain}.${config.base_domain}` }) : t('login.toOrganisation')}
      footer={
        <>
          <AuthLink to="/auth/forgot-password">{t('login.forgot')}</AuthLink>
          {!subdomain && <AuthLink to="/auth/register">{t('login.signUp')}</AuthLink>}
          <AuthLink to="/auth/resend-activation">{t('login.noActivation')}</AuthLink>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {checking ? (
            <Alert color="blue" variant="light" role="status">
              {t('login.checkingBrowser')}
            </Alert>
          ) : (
            serverMessage && (
              <Alert color="red" variant="light" role="alert">
                {serverMessage}
              </Alert>
            )
          )}
          <TextInput label={t('email')} type="email" autoComplete="email" {...form.register('email')} error={form.formState.errors.email?.message} />
          <PasswordInput
            label={t('password')}
            autoComplete="current-password"
            {...form.register('password')}
            error={form.formState.errors.password?.message}
          />
          <Button type="submit" loading={isLoading || checking} fullWidth>
            {t('signIn')}
          </Button>
          {config.oidc.enabled && (
            <>
              <Divider label={t('login.or')} labelPosition="center" />
              <Button
                variant="default"
                loading={oidc.isLoading}
                onClick={async () => {
                  const res = await startOidc();
                  if ('data' in res && res.data) window.location.assign(res.data.authorization_url);
                }}
              >
                {t('login.with', { provider: config.oidc.name })}
              </Button>
            </>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}
