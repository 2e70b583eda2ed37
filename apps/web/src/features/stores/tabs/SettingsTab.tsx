import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  ColorInput,
  FileButton,
  Group,
  Image,
  NumberInput,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPhoto, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { IMAGE_LIMITS, STORE_PAYMENT_OPTIONS, ZStoreInput, type TImage, type TStore } from '@tourdesk/contracts';
import { useMemo, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { fieldErrors } from '../../../shared/api/errors';
import { EmbedSnippets } from './EmbedSnippets';
import { uploadFile } from '../../../shared/api/upload';
import { ConfirmButton } from '../../../shared/components/ConfirmButton';
import { UnsavedChangesGuard, useLeaveSaved } from '../../../shared/components/UnsavedChangesGuard';
import { useAppDispatch } from '../../../shared/hooks/store';
import { applyFieldErrors } from '../../../shared/lib/forms';
import { currencies } from '../../../shared/lib/locale-defaults';
import { notifyError, notifySuccess } from '../../../shared/lib/toast';
import { storesApi, useCreateStoreLogoMutation, useDeleteStoreMutation, useUpdateStoreMutation } from '../api';
import { storeUrlWith, STORES_LIST } from '../constants';
import { useStoresT } from '../texts';
import { TranslatedFields } from '../../../shared/components/TranslatedFields';
import { DepositRuleField } from '../../../shared/components/DepositRuleField';
import { toMajorText, toMinorUnits } from '../../../shared/lib/money';

/** The contract's store fields, and what the server would refuse anyway: new-booking e-mails need an address. */
export const ZStoreSettings = ZStoreInput.superRefine((v, ctx) => {
  if (v.notify_new_bookings && !v.notify_email) ctx.addIssue({ code: 'custom', path: ['notify_email'], message: 'Say where the new-booking e-mails go.' });
});
type Values = z.input<typeof ZStoreSettings>;
type Saved = z.output<typeof ZStoreSettings>;
const FIELDS = Object.keys(ZStoreInput.shape) as (keyof Values)[];
const ZOrigin = ZStoreInput.shape.embed_origins.unwrap().element;
const MAX_ORIGINS = 20;

const valuesOf = (s: TStore): Values => ({
  name: s.name,
  slug: s.slug,
  active: s.active,
  currency: s.currency,
  logo: s.logo,
  primary_color: s.primary_color,
  intro: s.intro,
  terms_url: s.terms_url,
  contact_email: s.contact_email,
  contact_phone: s.contact_phone,
  payment_options: s.payment_options,
  embed_origins: s.embed_origins,
  notify_new_bookings: s.notify_new_bookings,
  notify_email: s.notify_email,
  waitlist_hold_minutes: s.waitlist_hold_minutes,
  deposit: s.deposit,
  balance_reminder_days: s.balance_reminder_days,
  sells_vouchers: s.sells_vouchers,
  voucher_amounts: s.voucher_amounts,
  voucher_min: s.voucher_min,
  voucher_max: s.voucher_max,
  translations: s.translations,
});

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <div>
          <Title order={4}>{title}</Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

/** The store's logo: an image uploaded apart from any offer, its preview, and Remove. */
function LogoField({ preview, onUploaded, onRemove, error }: { preview: string | null; onUploaded: (image: TImage) => void; onRemove: () => void; error?: string }) {
  const t = useStoresT();
  const dispatch = useAppDispatch();
  const [createImage] = useCreateStoreLogoMutation();
  const [progress, setProgress] = useState<number | null>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    if (!(IMAGE_LIMITS.types as readonly string[]).includes(file.type)) return notifyError(t('settings.uploadNotImage', { name: file.name }));
    if (file.size > IMAGE_LIMITS.maxBytes) return notifyError(t('settings.uploadTooLarge', { name: file.name, mb: IMAGE_LIMITS.maxBytes / 1024 / 1024 }));
    setProgress(0);
    const created = await createImage({ original_name: file.name });
    if ('error' in created) return setProgress(null);
    try {
      const image = (await uploadFile(dispatch, created.data.upload_url!, file, setProgress)) as TImage;
      onUploaded(image);
    } catch (e) {
      notifyError(t('settings.uploadFailed', { reason: e instanceof Error ? e.message : t('settings.unknownError') }));
      await dispatch(storesApi.endpoints.deleteStoreLogo.initiate(created.data.id));
    } finally {
      setProgress(null);
    }
  };

  return (
    <div>
      <Text size="sm" fw={500}>
        {t('settings.logo')}
      </Text>
      <Text size="xs" c="dimmed" mb={6}>
        {t('settings.logoHint', { width: IMAGE_LIMITS.minWidth, height: IMAGE_LIMITS.minHeight, mb: IMAGE_LIMITS.maxBytes / 1024 / 1024 })}
      </Text>
      <Group align="center" gap="md">
        <Paper withBorder radius="md" w={120} h={80} p={4} style={{ display: 'grid', placeItems: 'center', overflow: 'hidden' }}>
          {preview ? <Image src={preview} alt={t('settings.logoAlt')} mah={70} maw={110} fit="contain" /> : <IconPhoto size={28} color="var(--mantine-color-dimmed)" aria-label={t('settings.noLogo')} />}
        </Paper>
        <Group gap="xs">
          <FileButton onChange={upload} accept={IMAGE_LIMITS.types.join(',')}>
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={progress !== null}>
                {preview ? t('settings.replaceLogo') : t('settings.uploadLogo')}
              </Button>
            )}
          </FileButton>
          {preview && (
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={onRemove}>
              {t('settings.removeLogo')}
            </Button>
          )}
        </Group>
      </Group>
      {progress !== null && <Progress value={progress * 100} mt="xs" maw={360} aria-label={t('settings.logoProgress')} />}
      {error && (
        <Text size="xs" c="red" mt={4}>
          {error}
        </Text>
      )}
    </div>
  );
}

/** The sites that may show the store in a frame: origins, added one by one (checked), removed with their button. */
function OriginsField({ value, onChange, errors }: { value: string[]; onChange: (v: string[]) => void; errors: (string | undefined)[] }) {
  const t = useStoresT();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string>();
  const add = () => {
    const parsed = ZOrigin.safeParse(draft);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    if (value.includes(parsed.data)) return setProblem(t('settings.originTwice'));
    if (value.length >= MAX_ORIGINS) return setProblem(t('settings.originsMax', { max: MAX_ORIGINS }));
    onChange([...value, parsed.data]);
    setDraft('');
    setProblem(undefined);
  };
  return (
    <Stack gap="xs">
      {value.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('settings.noOrigins')}
        </Text>
      ) : (
        <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('settings.originsList')}>
          {value.map((origin, i) => (
            <li key={origin}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" ff="monospace" style={{ flex: 1, wordBreak: 'break-all' }} c={errors[i] ? 'red' : undefined}>
                  {origin}
                </Text>
                <ActionIcon variant="subtle" color="red" aria-label={t('settings.removeOrigin', { origin })} onClick={() => onChange(value.filter((o) => o !== origin))}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
              {errors[i] && (
                <Text size="xs" c="red">
                  {errors[i]}
                </Text>
              )}
            </li>
          ))}
        </Stack>
      )}
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          aria-label={t('settings.originToAdd')}
          placeholder="https://www.example.com"
          value={draft}
          onChange={(e) => {
            setDraft(e.currentTarget.value);
            setProblem(undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          error={problem}
          style={{ flex: 1 }}
        />
        <Button variant="default" leftSection={<IconPlus size={16} />} onClick={add} disabled={!draft.trim()}>
          {t('settings.addOrigin')}
        </Button>
      </Group>
    </Stack>
  );
}

/** "Delete store": asks first; a store with orders is refused (409, toasted: deactivate it instead). */
function DeleteStore({ store, onDeleted }: { store: TStore; onDeleted: () => void }) {
  const t = useStoresT();
  const [remove] = useDeleteStoreMutation();
  return (
    <Card withBorder padding="lg" style={{ borderColor: 'var(--mantine-color-red-outline)' }}>
      <Group justify="space-between" gap="sm">
        <div style={{ flex: '1 1 260px' }}>
          <Title order={4}>{t('settings.delete')}</Title>
          <Text size="sm" c="dimmed">
            {t('settings.deleteHint')}
          </Text>
        </div>
        <ConfirmButton
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          title={t('settings.deleteTitle')}
          message={t('settings.deleteMessage', { name: store.name })}
          confirmLabel={t('settings.delete')}
          onConfirm={async () => {
            const res = await remove(store.id);
            if ('error' in res) return false;
            notifySuccess(t('settings.deleted', { name: store.name }));
            onDeleted();
            return true;
          }}
        >
          {t('settings.delete')}
        </ConfirmButton>
      </Group>
    </Card>
  );
}

/** The Settings tab (…/settings, the landing after create): every field of the store, saved together. */
export function SettingsTab({ store }: { store: TStore }) {
  const t = useStoresT();
  const [update, { isLoading: saving }] = useUpdateStoreMutation();
  const values = useMemo(() => valuesOf(store), [store]);
  const currencyList = useMemo(() => currencies(store.currency), [store.currency]);
  const [uploaded, setUploaded] = useState<{ id: string; url: string | null } | null>(null);
  const form = useForm<Values, unknown, Saved>({
    resolver: zodResolver(ZStoreSettings),
    values,
    defaultValues: values,
    // A newer copy of the store (a refetch) updates untouched fields and never overwrites what was typed.
    resetOptions: { keepDirtyValues: true },
  });
  const { errors, isDirty } = form.formState;
  const leave = useLeaveSaved();
  const [slug, logo, notify] = useWatch({ control: form.control, name: ['slug', 'logo', 'notify_new_bookings'] });
  const preview = !logo ? null : logo === store.logo ? store.logo_url : logo === uploaded?.id ? uploaded.url : null;

  const onSubmit = form.handleSubmit(async (data) => {
    const res = await update({ id: store.id, ...data });
    if ('error' in res) {
      const nested = Object.keys(fieldErrors(res.error)).filter((attr) => /^(embed_origins|payment_options)\.\d+$/.test(attr));
      return applyFieldErrors(res.error, form.setError, [...FIELDS, ...nested]);
    }
    form.reset(valuesOf(res.data));
    notifySuccess(t('updated'));
  });

  const originErrors = (() => {
    const e = errors.embed_origins as unknown;
    return Array.isArray(e) ? (e as ({ message?: string } | undefined)[]).map((x) => x?.message) : [];
  })();

  return (
    <Stack gap="md">
      <form onSubmit={onSubmit} noValidate aria-label={t('settings.form')}>
        <Stack gap="md">
          <Section title={t('settings.store')}>
            <TranslatedFields
              form={form}
              fields={[
                { name: 'name', label: t('settings.name') },
                { name: 'intro', label: t('settings.intro'), multiline: true },
              ]}
            >
              <TextInput label={t('settings.name')} withAsterisk {...form.register('name')} error={errors.name?.message} />
              <Textarea
                label={t('settings.intro')}
                description={t('settings.introHint')}
                autosize
                minRows={3}
                maxRows={10}
                {...form.register('intro')}
                error={errors.intro?.message}
              />
            </TranslatedFields>
            <TextInput
              label={t('settings.address')}
              withAsterisk
              description={t('addressHint', { url: storeUrlWith(store.url, slug || '…') })}
              {...form.register('slug')}
              error={errors.slug?.message}
              styles={{ description: { wordBreak: 'break-all' } }}
            />
            <Controller
              control={form.control}
              name="active"
              render={({ field }) => (
                <Switch
                  label={t('settings.active')}
                  description={t('settings.activeHint')}
                  checked={Boolean(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
          </Section>

          <Section title={t('settings.look')} description={t('settings.lookHint')}>
            <Controller
              control={form.control}
              name="logo"
              render={({ field, fieldState }) => (
                <LogoField
                  preview={preview}
                  error={fieldState.error?.message}
                  onUploaded={(image) => {
                    setUploaded({ id: image.id, url: image.url ?? image.thumbnail_url });
                    field.onChange(image.id);
                  }}
                  onRemove={() => field.onChange(null)}
                />
              )}
            />
            <Controller
              control={form.control}
              name="primary_color"
              render={({ field, fieldState }) => (
                <ColorInput
                  label={t('settings.color')}
                  description={t('settings.colorHint')}
                  format="hex"
                  swatches={['#1c7ed6', '#0ca678', '#f76707', '#e03131', '#7048e8', '#212529']}
                  value={field.value ?? ''}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                  maw={280}
                />
              )}
            />
          </Section>

          <Section title={t('settings.contact')} description={t('settings.contactHint')}>
            <TextInput label={t('settings.terms')} placeholder="https://www.example.com/terms" {...form.register('terms_url')} error={errors.terms_url?.message} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('settings.email')} type="email" {...form.register('contact_email')} error={errors.contact_email?.message} />
              <TextInput label={t('settings.phone')} type="tel" {...form.register('contact_phone')} error={errors.contact_phone?.message} />
            </SimpleGrid>
          </Section>

          <Section title={t('settings.checkout')}>
            <Controller
              control={form.control}
              name="currency"
              render={({ field, fieldState }) => (
                <Select
                  label={t('settings.currency')}
                  description={t('settings.currencyHint')}
                  data={currencyList}
                  readOnly
                  allowDeselect={false}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                  maw={360}
                />
              )}
            />
            <Controller
              control={form.control}
              name="payment_options"
              render={({ field, fieldState }) => (
                <Checkbox.Group label={t('settings.payment')} description={t('settings.paymentHint')} value={field.value ?? []} onChange={field.onChange} error={fieldState.error?.message}>
                  <Stack gap={6} mt={6}>
                    {STORE_PAYMENT_OPTIONS.map((o) => (
                      <Checkbox key={o} value={o} label={t(`settings.payment.${o}`)} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
            />
          </Section>

          <Section title={t('settings.embed')} description={t('settings.embedHint')}>
            <Controller
              control={form.control}
              name="embed_origins"
              render={({ field, fieldState }) => (
                <>
                  <OriginsField value={field.value ?? []} onChange={field.onChange} errors={originErrors} />
                  {fieldState.error?.message && (
                    <Text size="xs" c="red">
                      {fieldState.error.message}
                    </Text>
                  )}
                </>
              )}
            />
          </Section>

          <Section title={t('settings.ownSite')} description={t('settings.ownSiteHint')}>
            <EmbedSnippets store={store} />
          </Section>

          <Section title={t('settings.newBookings')}>
            <Controller
              control={form.control}
              name="notify_new_bookings"
              render={({ field }) => (
                <Switch
                  label={t('settings.notify')}
                  checked={Boolean(field.value)}
                  onChange={(e) => {
                    field.onChange(e.currentTarget.checked);
                    if (!e.currentTarget.checked) form.clearErrors('notify_email');
                  }}
                />
              )}
            />
            <TextInput
              label={t('settings.notifyTo')}
              type="email"
              placeholder="bookings@example.com"
              disabled={!notify}
              withAsterisk={Boolean(notify)}
              {...form.register('notify_email')}
              error={errors.notify_email?.message}
            />
          </Section>

          <Section title={t('settings.waitlist')} description={t('settings.waitlistHint')}>
            <Controller
              control={form.control}
              name="waitlist_hold_minutes"
              render={({ field }) => (
                <NumberInput
                  label={t('settings.waitlistHold')}
                  min={0.25}
                  max={168}
                  step={1}
                  decimalScale={2}
                  maw={240}
                  value={field.value === undefined ? '' : field.value / 60}
                  onChange={(v) => field.onChange(typeof v === 'number' ? Math.round(v * 60) : undefined)}
                  error={errors.waitlist_hold_minutes?.message}
                />
              )}
            />
          </Section>

          <Section title={t('settings.deposits')}>
            <Controller
              control={form.control}
              name="deposit"
              render={({ field }) => (
                <DepositRuleField
                  value={field.value ?? null}
                  onChange={field.onChange}
                  currency={store.currency}
                  error={errors.deposit?.message ?? (errors.deposit as { value?: { message?: string } } | undefined)?.value?.message}
                  labels={{
                    title: t('settings.deposit.title'),
                    hint: t('settings.deposit.hint'),
                    none: t('settings.deposit.none'),
                    percent: t('settings.deposit.percent'),
                    amount: t('settings.deposit.amount'),
                    percentValue: t('settings.deposit.percentValue'),
                    amountValue: t('settings.deposit.amountValue'),
                    restDue: t('settings.deposit.restDue'),
                    onSite: t('settings.deposit.onSite'),
                    daysBefore: t('settings.deposit.daysBefore'),
                    days: t('settings.deposit.days'),
                  }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="balance_reminder_days"
              render={({ field }) => (
                <NumberInput
                  label={t('settings.reminderDays')}
                  min={1}
                  max={60}
                  maw={240}
                  value={field.value ?? ''}
                  onChange={(v) => field.onChange(typeof v === 'number' ? Math.round(v) : undefined)}
                  error={errors.balance_reminder_days?.message}
                />
              )}
            />
          </Section>
          <Section title={t('settings.vouchers')} description={t('settings.vouchersHint')}>
            <Controller control={form.control} name="sells_vouchers" render={({ field }) => <Switch label={t('settings.sellsVouchers')} checked={Boolean(field.value)} onChange={(e) => field.onChange(e.currentTarget.checked)} />} />
            <Controller
              control={form.control}
              name="voucher_amounts"
              render={({ field, fieldState }) => (
                <TextInput
                  label={t('settings.voucherAmounts', { currency: store.currency })}
                  description={t('settings.voucherAmountsHint')}
                  maw={360}
                  defaultValue={(field.value ?? []).map((n) => toMajorText(n, store.currency)).join(', ')}
                  onChange={(e) =>
                    field.onChange(
                      e.currentTarget.value
                        .split(/[,;\s]+/)
                        .map((x) => toMinorUnits(x, store.currency))
                        .filter((x): x is number => x !== null && x > 0),
                    )
                  }
                  error={fieldState.error?.message}
                />
              )}
            />
            <Group grow maw={480}>
              {(['voucher_min', 'voucher_max'] as const).map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field, fieldState }) => (
                    <NumberInput
                      label={t(name === 'voucher_min' ? 'settings.voucherMin' : 'settings.voucherMax', { currency: store.currency })}
                      min={0}
                      decimalScale={2}
                      value={field.value === undefined ? '' : Number(toMajorText(field.value, store.currency))}
                      onChange={(v) => field.onChange(typeof v === 'number' ? (toMinorUnits(String(v), store.currency) ?? 0) : 0)}
                      error={fieldState.error?.message}
                    />
                  )}
                />
              ))}
            </Group>
          </Section>

          <Group justify="flex-end">
            {isDirty && (
              <Button variant="default" onClick={() => form.reset(values)} disabled={saving}>
                {t('settings.discard')}
              </Button>
            )}
            <Button type="submit" loading={saving} disabled={!isDirty}>
              {t('settings.save')}
            </Button>
          </Group>
        </Stack>
        <UnsavedChangesGuard dirty={isDirty} message={t('settings.unsaved')} />
      </form>
      <DeleteStore store={store} onDeleted={() => leave(STORES_LIST)} />
    </Stack>
  );
}
