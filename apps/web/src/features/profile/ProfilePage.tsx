import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { LAYOUT_WIDTHS, ZMeUpdate, ZSetEmail, ZSetPassword } from '@tourdesk/contracts';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useMeQuery } from '../../shared/api/session-api';
import { setUser } from '../../shared/auth/auth-slice';
import { useAppDispatch } from '../../shared/hooks/store';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useLogoutOthersMutation, useSetEmailMutation, useSetPasswordMutation, useUpdateMeMutation } from './api';

export const PASSWORD_CHANGED_MESSAGE = 'Password changed!';

const ZName = ZMeUpdate;
const ZEmailChange = ZSetEmail;
/** The contract's password change, with the new password typed twice (the second box is the form's own). */
const ZPasswordChange = ZSetPassword.extend({ confirm: z.string() }).refine((v) => v.new_password === v.confirm, {
  error: 'The two passwords differ.',
  path: ['confirm'],
});

function NameForm({ first, last }: { first: string; last: string }) {
  const dispatch = useAppDispatch();
  const [update, { isLoading }] = useUpdateMeMutation();
  const form = useForm<z.infer<typeof ZName>>({ resolver: zodResolver(ZName), values: { first_name: first, last_name: last } });
  const onSubmit = form.handleSubmit(async (values) => {
    if (!form.formState.isDirty) return; // the spec: an update is skipped when nothing changed
    const res = await update(values);
    if ('data' in res && res.data) {
      dispatch(setUser(res.data));
      notifySuccess('Profile updated.');
    }
  });
  return (
    <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate aria-label="Your details">
      <Title order={4} mb="md">
        Your details
      </Title>
      <Stack>
        <Group grow>
          <TextInput label="First name" {...form.register('first_name')} />
          <TextInput label="Last name" {...form.register('last_name')} />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" loading={isLoading} disabled={!form.formState.isDirty}>
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** A new address counts once the link sent to it is followed (the server keeps it pending until then). */
export const emailLinkSentMessage = (email: string) => `We sent a link to ${email} to confirm it.`;

function EmailForm({ email, pending }: { email: string; pending: string | null }) {
  const [setEmail, { isLoading }] = useSetEmailMutation();
  const form = useForm<z.infer<typeof ZEmailChange>>({ resolver: zodResolver(ZEmailChange), defaultValues: { new_email: '', current_password: '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    const res = await setEmail(values);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['new_email', 'current_password']);
    notifySuccess(emailLinkSentMessage(values.new_email));
    form.reset();
  });
  return (
    <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate aria-label="Sign-in e-mail">
      <Title order={4}>Sign-in e-mail</Title>
      <Text size="sm" c="dimmed" mb={pending ? 'xs' : 'md'}>
        Now: {email}
      </Text>
      {pending && (
        <Alert color="blue" variant="light" mb="md" role="status" title={`Waiting for confirmation: ${pending}`}>
          {emailLinkSentMessage(pending)} Until it is followed, you sign in with {email}.
        </Alert>
      )}
      <Stack>
        <TextInput label="New e-mail" type="email" {...form.register('new_email')} error={form.formState.errors.new_email?.message} />
        <PasswordInput label="Current password" autoComplete="current-password" {...form.register('current_password')} error={form.formState.errors.current_password?.message} />
        <Group justify="flex-end">
          <Button type="submit" loading={isLoading}>
            Change e-mail
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function PasswordForm() {
  const [setPassword, { isLoading }] = useSetPasswordMutation();
  const form = useForm<z.infer<typeof ZPasswordChange>>({
    resolver: zodResolver(ZPasswordChange),
    defaultValues: { current_password: '', new_password: '', confirm: '' },
  });
  const onSubmit = form.handleSubmit(async ({ current_password, new_password }) => {
    const res = await setPassword({ current_password, new_password });
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['current_password', 'new_password']);
    notifySuccess(PASSWORD_CHANGED_MESSAGE);
    form.reset();
  });
  return (
    <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate aria-label="Password">
      <Title order={4} mb="md">
        Password
      </Title>
      <Stack>
        <PasswordInput label="Current password" autoComplete="current-password" {...form.register('current_password')} error={form.formState.errors.current_password?.message} />
        <PasswordInput label="New password" autoComplete="new-password" {...form.register('new_password')} error={form.formState.errors.new_password?.message} />
        <PasswordInput label="Repeat the new password" autoComplete="new-password" {...form.register('confirm')} error={form.formState.errors.confirm?.message} />
        <Group justify="flex-end">
          <Button type="submit" loading={isLoading}>
            Change password
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function SessionsCard() {
  const [logoutOthers, { isLoading }] = useLogoutOthersMutation();
  return (
    <Card withBorder padding="lg" aria-label="Sessions">
      <Title order={4}>Sessions</Title>
      <Text size="sm" c="dimmed" mb="md">
        Signed in on another computer you no longer use? End every session but this one.
      </Text>
      <Group justify="flex-end">
        <Button
          variant="light"
          color="red"
          loading={isLoading}
          onClick={async () => {
            const res = await logoutOthers();
            if ('data' in res && res.data) notifySuccess(res.data.detail);
          }}
        >
          Sign out of all other sessions
        </Button>
      </Group>
    </Card>
  );
}

export default function ProfilePage() {
  const { data: me } = useMeQuery();
  if (!me) return null;
  return (
    <Stack gap="lg" maw={LAYOUT_WIDTHS.pageForm}>
      <div>
        <Title order={2}>Profile</Title>
        <Text c="dimmed">
          {me.role?.name} at {me.base_account.name}
        </Text>
      </div>
      <NameForm first={me.first_name} last={me.last_name} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <EmailForm email={me.email} pending={me.pending_email ?? null} />
        <PasswordForm />
      </SimpleGrid>
      <SessionsCard />
    </Stack>
  );
}
