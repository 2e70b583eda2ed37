import { ActionIcon, Anchor, Badge, Button, Card, Checkbox, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowUp, IconX } from '@tabler/icons-react';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@tourdesk/contracts/i18n';
import {
  DATE_DISPLAY_FORMAT,
  EXPERIENCE_TYPES,
  bpToPercent,
  percentToBp,
  TICKET_FIELDS,
  type TCancellationPolicy,
  type TPaginated,
  type TProductConfiguration,
  type TProductConfigurationPatch,
  type TTicketField,
} from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../shared/api/api';
import { fieldErrors } from '../../shared/api/errors';
import { useCan } from '../../shared/hooks/use-can';
import { clock, setTimeFormat } from '../../shared/lib/dates';
import { vatRate } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useOrganizationT } from './texts';

const configApi = api.injectEndpoints({
  endpoints: (build) => ({
    productConfiguration: build.query<TProductConfiguration, void>({ query: () => 'product-configuration/' }),
    updateProductConfiguration: build.mutation<TProductConfiguration, TProductConfigurationPatch>({
      query: (body) => ({ url: 'product-configuration/', method: 'PATCH', body }),
      async onQueryStarted(_patch, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(configApi.util.upsertQueryData('productConfiguration', undefined, data));
        } catch {
          // Shown on the fields and by the session listener.
        }
      },
      // The session's base account says how times read.
      invalidatesTags: (result) => (result ? ['Me'] : []),
    }),
    configPolicies: build.query<TPaginated<TCancellationPolicy>, void>({ query: () => ({ url: 'cancellation-policies/', params: { page_size: 50 } }) }),
  }),
});

type Draft = Omit<TProductConfiguration, 'time_zone' | 'currency' | 'vat_rate_bp'>;
const draftOf = (c: TProductConfiguration): Draft => ({
  time_format: c.time_format,
  default_capacity: c.default_capacity,
  booking_cutoff_minutes: c.booking_cutoff_minutes,
  hold_minutes: c.hold_minutes,
  voucher_validity_months: c.voucher_validity_months,
  default_cancellation_policy: c.default_cancellation_policy,
  vat_rates_by_type: c.vat_rates_by_type,
  ticket_fields: c.ticket_fields,
  languages: c.languages,
});
/** A percentage as typed (8.1) ↔ basis points (810). */
const toBp = (v: number | string) => (v === '' ? null : percentToBp(Number(v)));

/**
 * /settings/product-configuration: how times read, what new offers start with (schedule capacity,
 * cancellation policy), the booking cut-off and how long a cart holds its seats, VAT per offer type
 * and what tickets show. Time zone and currency are the organisation's, set under Organisation.
 */
export default function ProductConfigurationPage() {
  const { data: saved } = configApi.useProductConfigurationQuery();
  // The form starts again from what the server saved whenever that changes.
  return saved ? <ConfigurationForm key={JSON.stringify(saved)} saved={saved} /> : null;
}

function ConfigurationForm({ saved }: { saved: TProductConfiguration }) {
  const tr = useOrganizationT();
  const canReadPolicies = useCan(['Manage experiences'], ['experiences']);
  const { data: policies } = configApi.useConfigPoliciesQuery(undefined, { skip: !canReadPolicies });
  const [update, updating] = configApi.useUpdateProductConfigurationMutation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(saved));

  const save = async () => {
    setErrors({});
    const rates: Record<string, number | null> = {};
    for (const type of EXPERIENCE_TYPES) rates[type] = draft.vat_rates_by_type[type] ?? null;
    const res = await update({ ...draft, vat_rates_by_type: rates });
    if ('error' in res) return setErrors(fieldErrors(res.error as never));
    setTimeFormat(res.data.time_format);
    notifySuccess(tr('config.saved'));
  };

  return (
    <Stack gap="lg" maw={850}>
      <div>
        <Title order={2}>{tr('config.title')}</Title>
        <Text c="dimmed" size="sm">
          {tr('config.description')}
        </Text>
      </div>

      <Card withBorder padding="lg" aria-label={tr('config.time')}>
        <Title order={4} mb="sm">
          {tr('config.time')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <div>
            <Text size="sm" fw={500}>
              {tr('config.zoneCurrency')}
            </Text>
            <Text size="sm">
              {saved.time_zone} · {saved.currency}
            </Text>
            <Anchor component={Link} to="/settings/organization/contact" size="xs">
              {tr('config.changeThem')}
            </Anchor>
          </div>
          <div>
            <Text size="sm" fw={500}>
              {tr('config.datesRead')}
            </Text>
            <Text size="sm">{dayjs().format(DATE_DISPLAY_FORMAT)}</Text>
          </div>
        </SimpleGrid>
        <Stack gap={4} mt="md">
          <Text size="sm" fw={500} id="time-format">
            {tr('config.timesRead')}
          </Text>
          <SegmentedControl
            aria-labelledby="time-format"
            value={draft.time_format}
            onChange={(v) => set('time_format', v as Draft['time_format'])}
            data={[
              { value: '24h', label: tr('config.24h', { example: clock('14:30', '24h') }) },
              { value: '12h', label: tr('config.12h', { example: clock('14:30', '12h') }) },
            ]}
            maw={420}
          />
        </Stack>
      </Card>

      <Card withBorder padding="lg" aria-label={tr('config.newOffers')}>
        <Title order={4} mb="sm">
          {tr('config.newOffers')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NumberInput label={tr('config.capacity')} description={tr('config.capacityHint')} min={1} max={10000} value={draft.default_capacity} onChange={(v) => set('default_capacity', Number(v) || 0)} error={errors.default_capacity} />
          <NumberInput label={tr('config.cutoff')} description={tr('config.cutoffHint')} min={0} value={draft.booking_cutoff_minutes} onChange={(v) => set('booking_cutoff_minutes', Number(v) || 0)} error={errors.booking_cutoff_minutes} />
          <NumberInput label={tr('config.hold')} description={tr('config.holdHint')} min={10} max={60} value={draft.hold_minutes} onChange={(v) => set('hold_minutes', Number(v) || 0)} error={errors.hold_minutes} />
          <NumberInput label={tr('config.voucherValidity')} description={tr('config.voucherValidityHint')} min={1} max={120} value={draft.voucher_validity_months} onChange={(v) => set('voucher_validity_months', Number(v) || 0)} error={errors.voucher_validity_months} />
        </SimpleGrid>
        <Select
          mt="md"
          label={tr('config.policy')}
          description={canReadPolicies ? tr('config.policyHint') : tr('config.policyHidden')}
          placeholder={tr('config.none')}
          disabled={!canReadPolicies}
          data={(policies?.results ?? []).map((p) => ({ value: p.id, label: p.name }))}
          value={draft.default_cancellation_policy}
          onChange={(v) => set('default_cancellation_policy', v)}
          clearable
          error={errors.default_cancellation_policy}
          maw={420}
        />
      </Card>

      <Card withBorder padding="lg" aria-label={tr('config.vat')}>
        <Title order={4} mb={4}>
          {tr('config.vat')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {tr('config.vatHint', { rate: vatRate(saved.vat_rate_bp) })}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {EXPERIENCE_TYPES.map((type) => {
            const bp = draft.vat_rates_by_type[type];
            return (
              <NumberInput
                key={type}
                label={`${type} (%)`}
                placeholder={vatRate(saved.vat_rate_bp)}
                min={0}
                max={100}
                decimalScale={2}
                value={bp === undefined ? '' : bpToPercent(bp)}
                onChange={(v) => {
                  const next = { ...draft.vat_rates_by_type };
                  const parsed = toBp(v);
                  if (parsed === null) delete next[type];
                  else next[type] = parsed;
                  set('vat_rates_by_type', next);
                }}
                error={errors[`vat_rates_by_type.${type}`]}
              />
            );
          })}
        </SimpleGrid>
      </Card>

      <Card withBorder padding="lg" aria-label={tr('config.tickets')}>
        <Title order={4} mb={4}>
          {tr('config.ticketsTitle')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {tr('config.ticketsHint')}
        </Text>
        <Checkbox.Group value={draft.ticket_fields} onChange={(v) => set('ticket_fields', TICKET_FIELDS.filter((f) => v.includes(f)) as TTicketField[])} error={errors.ticket_fields}>
          <Stack gap="xs">
            {TICKET_FIELDS.map((f) => (
              <Checkbox key={f} value={f} label={tr(`config.ticket.${f}`)} />
            ))}
          </Stack>
        </Checkbox.Group>
      </Card>

      <Card withBorder padding="lg" aria-label={tr('languages.title')}>
        <Title order={4} mb={4}>
          {tr('languages.title')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {tr('languages.hint')}
        </Text>
        <LanguagesInput value={draft.languages} onChange={(v) => set('languages', v)} error={errors.languages} />
      </Card>

      <Group justify="flex-end">
        <Button variant="default" disabled={!dirty} onClick={() => setDraft(draftOf(saved))}>
          {tr('config.discard')}
        </Button>
        <Button disabled={!dirty} loading={updating.isLoading} onClick={save}>
          {tr('config.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The organisation's languages in order: the first is the main one; add, remove, or make one the main language. */
function LanguagesInput({ value, onChange, error }: { value: Language[]; onChange: (languages: Language[]) => void; error?: string }) {
  const tr = useOrganizationT();
  const others = LANGUAGES.filter((l) => !value.includes(l));
  return (
    <Stack gap="xs" maw={420}>
      {value.map((l, i) => (
        <Group key={l} justify="space-between" data-testid={`language-${l}`}>
          <Group gap="xs">
            <Text size="sm">{LANGUAGE_NAMES[l]}</Text>
            {i === 0 && (
              <Badge size="sm" variant="light">
                {tr('languages.main')}
              </Badge>
            )}
          </Group>
          <Group gap={4}>
            {i > 0 && (
              <ActionIcon variant="subtle" aria-label={tr('languages.makeMain', { language: LANGUAGE_NAMES[l] })} onClick={() => onChange([l, ...value.filter((x) => x !== l)])}>
                <IconArrowUp size={16} />
              </ActionIcon>
            )}
            <ActionIcon variant="subtle" color="red" aria-label={tr('languages.remove', { language: LANGUAGE_NAMES[l] })} disabled={value.length === 1} onClick={() => onChange(value.filter((x) => x !== l))}>
              <IconX size={16} />
            </ActionIcon>
          </Group>
        </Group>
      ))}
      {others.length > 0 && (
        <Select
          label={tr('languages.add')}
          placeholder={tr('languages.choose')}
          data={others.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          value={null}
          onChange={(v) => v && onChange([...value, v as Language])}
        />
      )}
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
