import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconCheck, IconX } from '@tabler/icons-react';
import { ZRegisterInput } from '@tourdesk/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { useHost } from '../../shared/auth/host-context';
import { Recaptcha } from '../../shared/components/Recaptcha';
import { applyFieldErrors } from '../../shared/lib/forms';
import { browserCurrency, browserTimeZone, currencies, timeZones } from '../../shared/lib/locale-defaults';
import { notifySuccess } from '../../shared/lib/toast';
import { useLazyCheckSubdomainQuery, useRegisterMutation } from './api';
import { AuthCard, AuthLink } from './AuthCard';
import { useAuthT } from './texts';

const ZForm = ZRegisterInput;
type RegisterForm = z.input<typeof ZForm>;
const FIELDS = ['email', 'password', 'first_name', 'last_name', 'organisation_name', 'kind', 'subdomain', 'currency', 'time_zone', 'recaptcha_token'] as const;

export const ACCOUNT_CREATED_MESSAGE = 'Account created! Check your e-mail to activate it.';

/** Suggests a subdomain from the organisation's name: "Alpine Trails & Tours" → "alpine-trails-tours". */
const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);

export default function RegisterPage() {
  const t = useAuthT();
  const { config } = useHost();
  const [register, { isLoading }] = useRegisterMutation();
  const [check, availability] = useLazyCheckSubdomainQuery();
  const [done, setDone] = useState<string | null>(null);
  const zones = useMemo(() => timeZones(browserTimeZone()), []);
  const narrow = useMediaQuery('(max-width: 30em)');
  const currencyList = useMemo(() => currencies(), []);
  const form = useForm<RegisterForm>({
    resolver: zodResolver(ZForm),
    defaultValues: { kind: 'supplier', organisation_name: '', subdomain: '', first_name: '', last_name: '', email: '', password: '', currency: browserCurrency(), time_zone: browserTimeZone() },
    mode: 'onTouched',
  });
  const onRecaptcha = useCallback((token: string) => form.setValue('recaptcha_token', token || undefined), [form]);
  const subdomain = useWatch({ control: form.control, name: 'subdomain' }) ?? '';
  const [debounced] = useDebouncedValue(subdomain, 400);
  useEffect(() => {
    if (debounced.length >= 3) void check(debounced);
  }, [debounced, check]);

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await register(ZForm.parse(values));
    if ('data' in result && result.data) {
      notifySuccess(t('register.created'));
      setDone(result.data.email);
    } else {
      applyFieldErrors(result.error, form.setError, FIELDS);
    }
  });

  if (done) {
    return (
      <AuthCard title={t('register.checkEmail')} footer={<AuthLink to="/auth/login">{t('backToSignIn')}</AuthLink>}>
        <Alert color="green" variant="light" role="status">
          {t('register.created')} {t('register.sentTo', { email: done })}
        </Alert>
      </AuthCard>
    );
  }

  const current = availability.data?.subdomain === subdomain.trim().toLowerCase() ? availability.data : undefined;
  return (
    <AuthCard title={t('register.title')} subtitle={t('register.subtitle')} footer={<AuthLink to="/auth/login">{t('register.haveAccount')}</AuthLink>}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('register.youAre')}
                </Text>
                <SegmentedControl
                  fullWidth
                  orientation={narrow ? 'vertical' : 'horizontal'}
                  value={field.value}
                  onChange={field.onChange}
                  data={[
                    { value: 'supplier', label: t('register.supplier') },
                    { value: 'affiliate', label: t('register.affiliate') },
                  ]}
                />
              </Stack>
            )}
          />
          <TextInput
            label={t('register.organisation')}
            {...form.register('organisation_name', {
              onBlur: (e) => {
                if (!form.getValues('subdomain')) form.setValue('subdomain', slugify(e.target.value), { shouldValidate: true });
              },
            })}
            error={form.formState.errors.organisation_name?.message}
          />
          <TextInput
            label={t('register.subdomain')}
            description={t('register.subdomainHint', { host: `${subdomain || t('register.subdomainPlaceholder')}.${config.base_domain}` })}
            rightSection={
              current ? current.available ? <IconCheck size={16} color="green" aria-label={t('register.available')} /> : <IconX size={16} color="red" aria-label={t('register.notAvailable')} /> : null
            }
            {...form.register('subdomain')}
            error={
              form.formState.errors.subdomain?.message ?? (current && !current.available ? current.reason ?? t('register.notAvailableError') : undefined)
            }
          />
          {current?.available && (
            <Text size="xs" c="green" mt={-10} role="status">
              {t('register.isAvailable', { host: `${current.subdomain}.${config.base_domain}` })}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Controller
              control={form.control}
              name="currency"
              render={({ field, fieldState }) => (
                <Select
                  label={t('register.currency')}
                  description={t('register.currencyHint')}
                  data={currencyList}
                  searchable
                  allowDeselect={false}
                  nothingFoundMessage={t('register.noCurrency')}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? '')}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                />
              )}
            />
            <Controller
              control={form.control}
              name="time_zone"
              render={({ field, fieldState }) => (
                <Select
                  label={t('register.timeZone')}
                  description={t('register.timeZoneHint')}
                  data={zones}
                  searchable
                  allowDeselect={false}
                  nothingFoundMessage={t('register.noTimeZone')}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? '')}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                />
              )}
            />
          </SimpleGrid>
          <Group grow>
            <TextInput label={t('firstName')} autoComplete="given-name" {...form.register('first_name')} />
            <TextInput label={t('lastName')} autoComplete="family-name" {...form.register('last_name')} />
          </Group>
          <TextInput label={t('email')} type="email" autoComplete="email" {...form.register('email')} error={form.formState.errors.email?.message} />
          <PasswordInput
            label={t('password')}
            description={t('atLeast8')}
            autoComplete="new-password"
            {...form.register('password')}
            error={form.formState.errors.password?.message}
          />
          {config.recaptcha_site_key && (
            <Recaptcha siteKey={config.recaptcha_site_key} onToken={onRecaptcha} error={form.formState.errors.recaptcha_token?.message} />
          )}
          <Button type="submit" loading={isLoading} fullWidth>
            {t('register.create')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
