import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { LAYOUT_WIDTHS, ZMeUpdate, ZSetEmail, ZSetPassword } from '@tourdesk/contracts';
import { BACK_OFFICE_LANGUAGES, LANGUAGE_NAMES, type BackOfficeLanguage } from '@tourdesk/contracts/i18n';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useMeQuery } from '../../shared/api/session-api';
import { setUser } from '../../shared/auth/auth-slice';
import { rememberSession } from '../../shared/auth/offline-session';
import { useAppDispatch } from '../../shared/hooks/store';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { browserLanguage, setLanguage } from '../../shared/i18n/language';
import { useProfileT } from './texts';
import { CalendarFeedCard } from './CalendarFeedCard';
import { useCan } from '../../shared/hooks/use-can';
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
  const t = useProfileT();
  const dispatch = useAppDispatch();
  const [update, { isLoading }] = useUpdateMeMutation();
  const form = useForm<z.infer<typeof ZName>>({ resolver: zodResolver(ZName), values: { first_name: first, last_name: last } });
  const onSubmit = form.handleSubmit(async (values) => {
    if (!form.formState.isDirty) return; // the spec: an update is skipped when nothing changed
    const res = await update(values);
    if ('data' in res && res.data) {
      dispatch(setUser(res.data));
      notifySuccess(t('details.saved'));
    }
  });
  return (
    <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate aria-label={t('details.title')}>
      <Title order={4} mb="md">
        {t('details.title')}
      </Title>
      <Stack>
        <Group grow>
          <TextInput label={t('details.firstName')} {...form.register('first_name')} />
          <TextInput label={t('details.lastName')} {...form.register('last_name')} />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" loading={isLoading} disabled={!form.formState.isDirty}>
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The user's back-office language: chosen here it applies at once (its catalogs load first, then
 * every text changes) and is kept on the user; "As the browser" clears it.
 */
function LanguageCard({ language }: { language: BackOfficeLanguage | null }) {
  const t = useProfileT();
  const dispatch = useAppDispatch();
  const [update, { isLoading }] = useUpdateMeMutation();
  const BROWSER = 'browser';
  const choose = async (value: string | null) => {
    const next = value === BROWSER || !value ? null : (value as BackOfficeLanguage);
    if (next === language) return;
    const res = await update({ language: next });
    if ('data' in res && res.data) {
      await setLanguage(res.data.language);
      dispatch(setUser(res.data));
      rememberSession({ user: res.data });
      notifySuccess(t('language.saved'));
    }
  };
  return (
    <Card withBorder padding="lg" aria-label={t('language.title')}>
      <Title order={4}>{t('language.title')}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('language.description')}
      </Text>
      <Select
        label={t('language.label')}
        data={[
          { value: BROWSER, label: t('language.browser', { language: LANGUAGE_NAMES[browserLanguage()] }) },
          ...BACK_OFFICE_LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })),
        ]}
        value={language ?? BROWSER}
        onChange={(v) => void choose(v)}
        allowDeselect={false}
        disabled={isLoading}
        w={{ base: '100%', xs: 320 }}
      />
    </Card>
  );
}

/** A new address counts once the link sent to it is followed (the server keeps it pending until then). */
export const emailLinkSentMessage = (email: string) => `We sent a link to ${email} to confirm it.`;

function EmailForm({ email, pending }: { email: string; pending: string | null }) {
  const t = useProfileT();
  const [setEmail, { isLoading }] = useSetEmailMutation();
  const form = useForm<z.infer<typeof ZEmailChange>>({ resolver: zodResolver(ZEmailChange), defaultValues: { new_email: '', current_password: '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    const res = await setEmail(values);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['new_email', 'current_password']);
    notifySuccess(t('email.linkSent', { email: values.new_email }));
    form.reset();
  });
  return (
    <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate aria-label={t('email.title')}>
      <Title order={4}>{t('email.title')}</Title>
      <Text size="sm" c="dimmed" mb={pending ? 'xs' : 'md'}>
        {t('email.now', { email })}
      </Text>
      {pending && (
        <Alert color="blue" variant="light" mb="md" role="status" title={t('email.waiting', { email: pending })}>
          {t('email.linkSent', { email: pending })} {t('email.until', { email })}
        </Alert>
      )}
      <Stack>
        <TextInput label={t('email.new')} type="email" {...form.register('new_email')} error={form.formState.errors.new_email?.message} />
        <PasswordInput label={t('currentPassword')} autoComplete="current-password" {...form.register('current_password')} error={form.formState.errors.current_password?.message} />
        <Group justify="flex-end">
          <Button type="submit" loading={isLoading}>
            {t('email.change')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function PasswordForm() {
  const t = useProfileT();
  const [setPassword, { isLoading }] = useSetPasswordMutation();
  const form = useForm<z.infer<typeof ZPasswordChange>>({
    resolver: zodResolver(ZPasswordChange),
    defaultValues: { current_password: '', new_password: '', confirm: '' },
  });
  const onSubmit = form.handleSubmit(async ({ current_password, new_password }) => {
    const res = await setPassword({ current_password, new_password });
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['current_password', 'new_password']);
    notifySuccess(t('password.changed'));
    form.reset();
  });
  return (
    <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate aria-label={t('password.title')}>
      <Title order={4} mb="md">
        {t('password.title')}
      </Title>
      <Stack>
        <PasswordInput label={t('currentPassword')} autoComplete="current-password" {...form.register('current_password')} error={form.formState.errors.current_password?.message} />
        <PasswordInput label={t('password.new')} autoComplete="new-password" {...form.register('new_password')} error={form.formState.errors.new_password?.message} />
        <PasswordInput
          label={t('password.repeat')}
          autoComplete="new-password"
          {...form.register('confirm')}
          error={form.formState.errors.confirm?.type === 'custom' ? t('password.differ') : form.formState.errors.confirm?.message}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={isLoading}>
            {t('password.change')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function SessionsCard() {
  const t = useProfileT();
  const [logoutOthers, { isLoading }] = useLogoutOthersMutation();
  return (
    <Card withBorder padding="lg" aria-label={t('sessions.title')}>
      <Title order={4}>{t('sessions.title')}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('sessions.description')}
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
          {t('sessions.endOthers')}
        </Button>
      </Group>
    </Card>
  );
}

export default function ProfilePage() {
  const t = useProfileT();
  const { data: me } = useMeQuery();
  // The calendar feed is of the departures a role may check in: the check-in page's access.
  const mayCheckIn = useCan(['View experiences'], ['bookings']);
  if (!me) return null;
  return (
    <Stack gap="lg" maw={LAYOUT_WIDTHS.pageForm}>
      <div>
        <Title order={2}>{t('title')}</Title>
        <Text c="dimmed">
          {t('roleAt', { role: me.role?.name ?? '', organisation: me.base_account.name })}
        </Text>
      </div>
      <NameForm first={me.first_name} last={me.last_name} />
      <LanguageCard language={me.language ?? null} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <EmailForm email={me.email} pending={me.pending_email ?? null} />
        <PasswordForm />
      </SimpleGrid>
      {mayCheckIn && <CalendarFeedCard />}
      <SessionsCard />
    </Stack>
  );
}
