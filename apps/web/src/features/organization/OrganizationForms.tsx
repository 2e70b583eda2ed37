import { Alert, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { ZOrganizationPatch, type TOrganization } from '@tourdesk/contracts';
import { useMemo, type FormEventHandler, type ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { UnsavedChangesGuard } from '../../shared/components/UnsavedChangesGuard';
import { currencies } from '../../shared/lib/locale-defaults';
import { bpToPercent, percentToBp, timeZones } from './constants';
import { useOrganizationT } from './texts';
import { useOrganizationForm } from './use-organization-form';

const CONTACT = ZOrganizationPatch.pick({ name: true, time_zone: true, currency: true });
const LEGAL = ZOrganizationPatch.pick({ legal_name: true, vat_number: true });
const BILLING = ZOrganizationPatch.pick({ billing_address: true, billing_email: true, vat_rate_bp: true }).refine((v) => v.vat_rate_bp !== undefined, {
  error: 'Enter the VAT rate (0 when no VAT applies).',
  path: ['vat_rate_bp'],
});

/** What a read-only value looks like: a filled, non-editable field, so it lines up with the others. */
function ReadOnly({ label, value, description }: { label: string; value: string; description?: ReactNode }) {
  return <TextInput label={label} value={value} description={description} readOnly variant="filled" />;
}

/** A tab's card (the selected tab names it): its fields, "Save" (enabled with changes) and "Discard changes" (shown with them); leaving with changes asks first. */
function TabForm({
  label,
  dirty,
  saving,
  onSubmit,
  onDiscard,
  children,
}: {
  label: string;
  dirty: boolean;
  saving: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onDiscard: () => void;
  children: ReactNode;
}) {
  const tr = useOrganizationT();
  return (
    <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack>
        {children}
        <Group justify="flex-end">
          {dirty && (
            <Button variant="default" onClick={onDiscard} disabled={saving}>
              {tr('form.discard')}
            </Button>
          )}
          <Button type="submit" loading={saving} disabled={!dirty}>
            {tr('form.save')}
          </Button>
        </Group>
      </Stack>
      <UnsavedChangesGuard dirty={dirty} message={tr('form.unsaved')} />
    </Card>
  );
}

/** /settings/organization/contact: name, time zone and currency (until the first sale); the subdomain is shown. */
export function ContactForm({ organization }: { organization: TOrganization }) {
  const tr = useOrganizationT();
  const { form, onSubmit, saving } = useOrganizationForm(organization, CONTACT);
  const zones = useMemo(() => timeZones(organization.time_zone), [organization.time_zone]);
  const currencyList = useMemo(() => currencies(organization.currency), [organization.currency]);
  const { errors, isDirty } = form.formState;
  return (
    <TabForm label={tr('tab.contact')} dirty={isDirty} saving={saving} onSubmit={onSubmit} onDiscard={() => form.reset()}>
      <TextInput label={tr('contact.name')} withAsterisk {...form.register('name')} error={errors.name?.message} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ReadOnly label={tr('contact.subdomain')} value={organization.subdomain} description={tr('contact.subdomainHint', { host: window.location.host })} />
        <Controller
          control={form.control}
          name="currency"
          render={({ field, fieldState }) => (
            <Select
              label={tr('contact.currency')}
              description={tr('contact.currencyHint')}
              data={currencyList}
              searchable
              allowDeselect={false}
              nothingFoundMessage={tr('contact.noCurrency')}
              value={field.value ?? null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
      </SimpleGrid>
      <Controller
        control={form.control}
        name="time_zone"
        render={({ field, fieldState }) => (
          <Select
            label={tr('contact.timeZone')}
            description={tr('contact.timeZoneHint')}
            withAsterisk
            data={zones}
            searchable
            allowDeselect={false}
            nothingFoundMessage={tr('contact.noTimeZone')}
            maxDropdownHeight={280}
            value={field.value ?? null}
            onChange={(zone) => field.onChange(zone ?? '')}
            onBlur={field.onBlur}
            ref={field.ref}
            error={fieldState.error?.message}
          />
        )}
      />
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} p="sm">
        {tr('contact.timeZoneNote')}
      </Alert>
    </TabForm>
  );
}

/** /settings/organization/profile: the legal name and VAT number the invoices show. */
export function LegalForm({ organization }: { organization: TOrganization }) {
  const tr = useOrganizationT();
  const { form, onSubmit, saving } = useOrganizationForm(organization, LEGAL);
  const { errors, isDirty } = form.formState;
  return (
    <TabForm label={tr('tab.profile')} dirty={isDirty} saving={saving} onSubmit={onSubmit} onDiscard={() => form.reset()}>
      <TextInput
        label={tr('legal.name')}
        description={tr('legal.nameHint', { name: organization.name })}
        placeholder={organization.name}
        {...form.register('legal_name')}
        error={errors.legal_name?.message}
      />
      <TextInput label={tr('legal.vat')} description={tr('legal.vatHint')} placeholder="CHE-123.456.789 MWST" {...form.register('vat_number')} error={errors.vat_number?.message} />
      <Text size="sm" c="dimmed">
        {tr('legal.note')}
      </Text>
    </TabForm>
  );
}

/** /settings/organization/billing: address, e-mail and VAT rate on invoices; the next invoice number is shown. */
export function BillingForm({ organization }: { organization: TOrganization }) {
  const tr = useOrganizationT();
  const { form, onSubmit, saving } = useOrganizationForm(organization, BILLING);
  const { errors, isDirty } = form.formState;
  return (
    <TabForm label={tr('tab.billing')} dirty={isDirty} saving={saving} onSubmit={onSubmit} onDiscard={() => form.reset()}>
      <Textarea label={tr('billing.address')} autosize minRows={3} maxRows={8} {...form.register('billing_address')} error={errors.billing_address?.message} />
      <TextInput label={tr('billing.email')} type="email" placeholder="billing@example.com" {...form.register('billing_email')} error={errors.billing_email?.message} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={form.control}
          name="vat_rate_bp"
          render={({ field, fieldState }) => (
            <NumberInput
              label={tr('billing.vatRate')}
              description={tr('billing.vatRateHint')}
              withAsterisk
              min={0}
              max={100}
              decimalScale={2}
              allowNegative={false}
              suffix=" %"
              value={field.value === undefined ? '' : bpToPercent(field.value)}
              onChange={(v) => field.onChange(v === '' ? undefined : percentToBp(Number(v)))}
              onBlur={field.onBlur}
              ref={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        <ReadOnly label={tr('billing.nextNumber')} value={String(organization.next_invoice_number)} description={tr('billing.nextNumberHint')} />
      </SimpleGrid>
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} p="sm">
        {tr('billing.note')}
      </Alert>
    </TabForm>
  );
}
