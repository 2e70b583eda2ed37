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
import { IMAGE_LIMITS, STORE_PAYMENT_LABEL, STORE_PAYMENT_OPTIONS, ZStoreInput, type TImage, type TStore } from '@tourdesk/contracts';
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
import { STORE_UPDATED, storeUrlWith, STORES_LIST } from '../constants';

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
  const dispatch = useAppDispatch();
  const [createImage] = useCreateStoreLogoMutation();
  const [progress, setProgress] = useState<number | null>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    if (!(IMAGE_LIMITS.types as readonly string[]).includes(file.type)) return notifyError(`Upload failed: ${file.name} is not a JPEG, PNG or WebP image.`);
    if (file.size > IMAGE_LIMITS.maxBytes) return notifyError(`Upload failed: ${file.name} is larger than ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MB.`);
    setProgress(0);
    const created = await createImage({ original_name: file.name });
    if ('error' in created) return setProgress(null);
    try {
      const image = (await uploadFile(dispatch, created.data.upload_url!, file, setProgress)) as TImage;
      onUploaded(image);
    } catch (e) {
      notifyError(`Upload failed: ${e instanceof Error ? e.message : 'unknown error'}`);
      await dispatch(storesApi.endpoints.deleteStoreLogo.initiate(created.data.id));
    } finally {
      setProgress(null);
    }
  };

  return (
    <div>
      <Text size="sm" fw={500}>
        Logo
      </Text>
      <Text size="xs" c="dimmed" mb={6}>
        JPEG, PNG or WebP, at least {IMAGE_LIMITS.minWidth}×{IMAGE_LIMITS.minHeight} pixels, up to {IMAGE_LIMITS.maxBytes / 1024 / 1024} MB. Shown at the top of the store.
      </Text>
      <Group align="center" gap="md">
        <Paper withBorder radius="md" w={120} h={80} p={4} style={{ display: 'grid', placeItems: 'center', overflow: 'hidden' }}>
          {preview ? <Image src={preview} alt="Store logo" mah={70} maw={110} fit="contain" /> : <IconPhoto size={28} color="var(--mantine-color-dimmed)" aria-label="No logo" />}
        </Paper>
        <Group gap="xs">
          <FileButton onChange={upload} accept={IMAGE_LIMITS.types.join(',')}>
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={progress !== null}>
                {preview ? 'Replace logo' : 'Upload logo'}
              </Button>
            )}
          </FileButton>
          {preview && (
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={onRemove}>
              Remove logo
            </Button>
          )}
        </Group>
      </Group>
      {progress !== null && <Progress value={progress * 100} mt="xs" maw={360} aria-label="Logo upload progress" />}
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
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string>();
  const add = () => {
    const parsed = ZOrigin.safeParse(draft);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    if (value.includes(parsed.data)) return setProblem('This site is in the list already.');
    if (value.length >= MAX_ORIGINS) return setProblem(`At most ${MAX_ORIGINS} sites.`);
    onChange([...value, parsed.data]);
    setDraft('');
    setProblem(undefined);
  };
  return (
    <Stack gap="xs">
      {value.length === 0 ? (
        <Text size="sm" c="dimmed">
          No other site may show the store in a frame.
        </Text>
      ) : (
        <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Sites that may embed the store">
          {value.map((origin, i) => (
            <li key={origin}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" ff="monospace" style={{ flex: 1, wordBreak: 'break-all' }} c={errors[i] ? 'red' : undefined}>
                  {origin}
                </Text>
                <ActionIcon variant="subtle" color="red" aria-label={`Remove ${origin}`} onClick={() => onChange(value.filter((o) => o !== origin))}>
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
          aria-label="Site to add"
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
          Add site
        </Button>
      </Group>
    </Stack>
  );
}

/** "Delete store": asks first; a store with orders is refused (409, toasted: deactivate it instead). */
function DeleteStore({ store, onDeleted }: { store: TStore; onDeleted: () => void }) {
  const [remove] = useDeleteStoreMutation();
  return (
    <Card withBorder padding="lg" style={{ borderColor: 'var(--mantine-color-red-outline)' }}>
      <Group justify="space-between" gap="sm">
        <div style={{ flex: '1 1 260px' }}>
          <Title order={4}>Delete store</Title>
          <Text size="sm" c="dimmed">
            The store’s page stops working at once. A store that has taken orders cannot be deleted: deactivate it instead.
          </Text>
        </div>
        <ConfirmButton
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          title="Delete this store?"
          message={`“${store.name}” and its list of offers are deleted; the offers themselves stay in your catalogue. This cannot be undone.`}
          confirmLabel="Delete store"
          onConfirm={async () => {
            const res = await remove(store.id);
            if ('error' in res) return false;
            notifySuccess(`${store.name} was deleted.`);
            onDeleted();
            return true;
          }}
        >
          Delete store
        </ConfirmButton>
      </Group>
    </Card>
  );
}

/** The Settings tab (…/settings, the landing after create): every field of the store, saved together. */
export function SettingsTab({ store }: { store: TStore }) {
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
    notifySuccess(STORE_UPDATED);
  });

  const originErrors = (() => {
    const e = errors.embed_origins as unknown;
    return Array.isArray(e) ? (e as ({ message?: string } | undefined)[]).map((x) => x?.message) : [];
  })();

  return (
    <Stack gap="md">
      <form onSubmit={onSubmit} noValidate aria-label="Store settings">
        <Stack gap="md">
          <Section title="Store">
            <TextInput label="Name" withAsterisk {...form.register('name')} error={errors.name?.message} />
            <TextInput
              label="Address"
              withAsterisk
              description={`Customers find the store at ${storeUrlWith(store.url, slug || '…')}`}
              {...form.register('slug')}
              error={errors.slug?.message}
              styles={{ description: { wordBreak: 'break-all' } }}
            />
            <Controller
              control={form.control}
              name="active"
              render={({ field }) => (
                <Switch
                  label="Active"
                  description="An inactive store’s page tells customers it is closed; nothing can be booked there."
                  checked={Boolean(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
          </Section>

          <Section title="Look" description="How the store’s page looks to customers.">
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
                  label="Primary colour"
                  description="Buttons and links of the store."
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
            <Textarea
              label="Introduction"
              description="A few sentences at the top of the store’s page."
              autosize
              minRows={3}
              maxRows={10}
              {...form.register('intro')}
              error={errors.intro?.message}
            />
          </Section>

          <Section title="Contact and terms" description="Shown to customers in the store and on their confirmation.">
            <TextInput label="Terms and conditions" placeholder="https://www.example.com/terms" {...form.register('terms_url')} error={errors.terms_url?.message} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Contact e-mail" type="email" {...form.register('contact_email')} error={errors.contact_email?.message} />
              <TextInput label="Contact phone" type="tel" {...form.register('contact_phone')} error={errors.contact_phone?.message} />
            </SimpleGrid>
          </Section>

          <Section title="Checkout">
            <Controller
              control={form.control}
              name="currency"
              render={({ field, fieldState }) => (
                <Select
                  label="Currency"
                  description="Your prices are in your organisation’s currency; the store sells in it."
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
                <Checkbox.Group label="Payment options" description="How customers may pay." value={field.value ?? []} onChange={field.onChange} error={fieldState.error?.message}>
                  <Stack gap={6} mt={6}>
                    {STORE_PAYMENT_OPTIONS.map((o) => (
                      <Checkbox key={o} value={o} label={STORE_PAYMENT_LABEL[o]} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
            />
          </Section>

          <Section title="Sites that may embed it" description="Other websites of yours that may show the store in a frame, written as their origin.">
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

          <Section title="On your own website" description="A piece of code that shows the store, or one offer’s Book now button, on your site.">
            <EmbedSnippets store={store} />
          </Section>

          <Section title="New bookings">
            <Controller
              control={form.control}
              name="notify_new_bookings"
              render={({ field }) => (
                <Switch
                  label="E-mail each new booking"
                  checked={Boolean(field.value)}
                  onChange={(e) => {
                    field.onChange(e.currentTarget.checked);
                    if (!e.currentTarget.checked) form.clearErrors('notify_email');
                  }}
                />
              )}
            />
            <TextInput
              label="Send them to"
              type="email"
              placeholder="bookings@example.com"
              disabled={!notify}
              withAsterisk={Boolean(notify)}
              {...form.register('notify_email')}
              error={errors.notify_email?.message}
            />
          </Section>

          <Group justify="flex-end">
            {isDirty && (
              <Button variant="default" onClick={() => form.reset(values)} disabled={saving}>
                Discard changes
              </Button>
            )}
            <Button type="submit" loading={saving} disabled={!isDirty}>
              Save
            </Button>
          </Group>
        </Stack>
        <UnsavedChangesGuard dirty={isDirty} message="The store’s settings have changes that are not saved. Leave anyway?" />
      </form>
      <DeleteStore store={store} onDeleted={() => leave(STORES_LIST)} />
    </Stack>
  );
}
