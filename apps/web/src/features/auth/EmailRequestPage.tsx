import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { ZEmailOnly } from '@tourdesk/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useHost } from '../../shared/auth/host-context';
import { Recaptcha } from '../../shared/components/Recaptcha';
import { notifySuccess } from '../../shared/lib/toast';
import { useResendActivationMutation, useResetPasswordMutation } from './api';
import { AuthCard, AuthLink } from './AuthCard';
import { useAuthT } from './texts';

const ZEmail = ZEmailOnly.pick({ email: true });

export const RESET_LINK_SENT = 'Reset link sent! Check your e-mail.';
export const ACTIVATION_LINK_SENT = 'Activation link sent! Check your e-mail.';

/** One e-mail field that asks the server to send a link; the answer never says whether the address exists. */
function EmailRequest({
  title,
  subtitle,
  button,
  sentMessage,
  send,
  loading,
  recaptchaSiteKey,
}: {
  title: string;
  subtitle: string;
  button: string;
  sentMessage: string;
  send: (email: string, recaptchaToken?: string) => Promise<boolean>;
  loading: boolean;
  /** Show the robot check (password reset does, when the server has a site key). */
  recaptchaSiteKey?: string | null;
}) {
  const t = useAuthT();
  const [sent, setSent] = useState(false);
  const [recaptchaToken, setRecaptchaToken] = useState<string>('');
  const form = useForm<z.infer<typeof ZEmail>>({ resolver: zodResolver(ZEmail), defaultValues: { email: '' } });
  const onSubmit = form.handleSubmit(async ({ email }) => {
    if (await send(email, recaptchaToken || undefined)) {
      notifySuccess(sentMessage);
      setSent(true);
    }
  });
  return (
    <AuthCard title={title} subtitle={subtitle} footer={<AuthLink to="/auth/login">{t('backToSignIn')}</AuthLink>}>
      {sent ? (
        <Alert color="green" variant="light" role="status">
          {sentMessage} {t('request.sentNote')}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <TextInput label={t('email')} type="email" autoComplete="email" {...form.register('email')} error={form.formState.errors.email?.message} />
            {recaptchaSiteKey && <Recaptcha siteKey={recaptchaSiteKey} onToken={setRecaptchaToken} />}
            <Button type="submit" loading={loading} fullWidth>
              {button}
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  const t = useAuthT();
  const [reset, { isLoading }] = useResetPasswordMutation();
  const { config } = useHost();
  return (
    <EmailRequest
      recaptchaSiteKey={config.recaptcha_site_key}
      title={t('login.forgot')}
      subtitle={t('forgot.subtitle')}
      button={t('forgot.button')}
      sentMessage={t('forgot.sent')}
      loading={isLoading}
      send={async (email, recaptcha_token) => !('error' in (await reset({ email, recaptcha_token })))}
    />
  );
}

export function ResendActivationPage() {
  const t = useAuthT();
  const [resend, { isLoading }] = useResendActivationMutation();
  return (
    <EmailRequest
      title={t('activation.title')}
      subtitle={t('activation.subtitle')}
      button={t('activation.button')}
      sentMessage={t('activation.sent')}
      loading={isLoading}
      send={async (email) => !('error' in (await resend({ email })))}
    />
  );
}
