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
    <AuthCard title={title} subtitle={subtitle} footer={<AuthLink to="/auth/login">Back to sign in</AuthLink>}>
      {sent ? (
        <Alert color="green" variant="light" role="status">
          {sentMessage} If an account uses this address, the e-mail is on its way.
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <TextInput label="E-mail" type="email" autoComplete="email" {...form.register('email')} error={form.formState.errors.email?.message} />
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
  const [reset, { isLoading }] = useResetPasswordMutation();
  const { config } = useHost();
  return (
    <EmailRequest
      recaptchaSiteKey={config.recaptcha_site_key}
      title="Forgot your password?"
      subtitle="We will e-mail you a link to choose a new one."
      button="Send reset link"
      sentMessage={RESET_LINK_SENT}
      loading={isLoading}
      send={async (email, recaptcha_token) => !('error' in (await reset({ email, recaptcha_token })))}
    />
  );
}

export function ResendActivationPage() {
  const [resend, { isLoading }] = useResendActivationMutation();
  return (
    <EmailRequest
      title="Activate your account"
      subtitle="We will e-mail you a new activation link."
      button="Send activation link"
      sentMessage={ACTIVATION_LINK_SENT}
      loading={isLoading}
      send={async (email) => !('error' in (await resend({ email })))}
    />
  );
}
