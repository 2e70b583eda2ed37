import { Alert, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { ZOrganizationPatch, type TOrganization } from '@tourdesk/contracts';
import { useMemo, type FormEventHandler, type ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { UnsavedChangesGuard } from '../../shared/components/UnsavedChangesGuard';
import { currencies } from '../../shared/lib/locale-defaults';
import { bpToPercent, percentToBp, timeZones } from './constants';
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
  return (
    <Card withBorder padding="lg" component="form" onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack>
        {children}
        <Group justify="flex-end">
          {dirty && (
            <Button variant="default" onClick={onDiscard} disabled={saving}>
              Discard changes
            </Button>
          )}
          <Button type="submit" loading={saving} disabled={!dirty}>
            Save
          </Button>
        </Group>
      </Stack>
      <UnsavedChangesGuard dirty={dirty} message="These details have changes that are not saved. Leave anyway?" />
    </Card>
  );
}

/** /settings/organization/contact: name, time zone and currency (until the first sale); the subdomain is shown. */
export function ContactForm({ organization }: { organization: TOrganization }) {
  const { form, onSubmit, saving } = useOrganizationForm(organization, CONTACT);
  const zones = useMemo(() => timeZones(organization.time_zone), [organization.time_zone]);
  const currencyList = useMemo(() => currencies(organization.currency), [organization.currency]);
  const { errors, isDirty } = form.formState;
  return (
    <TabForm label="Contact info" dirty={isDirty} saving={saving} onSubmit={onSubmit} onDiscard={() => form.reset()}>
      <TextInput label="Organisation name" withAsterisk {...form.register('name')} error={errors.name?.message} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ReadOnly label="Subdomain" value={organization.subdomain} description={`The address of your back office: ${window.location.host}`} />
        <Controller
          control={form.control}
          name="currency"
          render={({ field, fieldState }) => (
            <Select
              label="Currency"
              description="Prices, stores, orders and invoices use it. It can be changed until the first sale, and while no partnership sells in it; prices keep the amounts they show."
              data={currencyList}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No currency matches."
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
            label="Time zone"
            description="Start times, dates and reports are shown in it."
            withAsterisk
            data={zones}
            searchable
            allowDeselect={false}
            nothingFoundMessage="No time zone matches."
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
        Changing the time zone moves the future start times of your schedules to the new zone: a tour at 09:00 stays at 09:00 there. Slots that
        already have bookings keep their time and are closed.
      </Alert>
    </TabForm>
  );
}

/** /settings/organization/profile: the legal name and VAT number the invoices show. */
export function LegalForm({ organization }: { organization: TOrganization }) {
  const { form, onSubmit, saving } = useOrganizationForm(organization, LEGAL);
  const { errors, isDirty } = form.formState;
  return (
    <TabForm label="Legal info" dirty={isDirty} saving={saving} onSubmit={onSubmit} onDiscard={() => form.reset()}>
      <TextInput
        label="Legal name"
        description={`As registered, e.g. with “AG” or “GmbH”. Empty: invoices show “${organization.name}”.`}
        placeholder={organization.name}
        {...form.register('legal_name')}
        error={errors.legal_name?.message}
      />
      <TextInput label="VAT number" description="Shown on your invoices." placeholder="CHE-123.456.789 MWST" {...form.register('vat_number')} error={errors.vat_number?.message} />
      <Text size="sm" c="dimmed">
        Invoices issued from now on show these details; invoices already issued keep the ones they were issued with.
      </Text>
    </TabForm>
  );
}

/** /settings/organization/billing: address, e-mail and VAT rate on invoices; the next invoice number is shown. */
export function BillingForm({ organization }: { organization: TOrganization }) {
  const { form, onSubmit, saving } = useOrganizationForm(organization, BILLING);
  const { errors, isDirty } = form.formState;
  return (
    <TabForm label="Billing info" dirty={isDirty} saving={saving} onSubmit={onSubmit} onDiscard={() => form.reset()}>
      <Textarea label="Billing address" autosize minRows={3} maxRows={8} {...form.register('billing_address')} error={errors.billing_address?.message} />
      <TextInput label="Billing e-mail" type="email" placeholder="billing@example.com" {...form.register('billing_email')} error={errors.billing_email?.message} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={form.control}
          name="vat_rate_bp"
          render={({ field, fieldState }) => (
            <NumberInput
              label="VAT rate"
              description="Up to two decimals, e.g. 8.1 %."
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
        <ReadOnly label="Next invoice number" value={String(organization.next_invoice_number)} description="Given in sequence, without gaps, per year." />
      </SimpleGrid>
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} p="sm">
        Invoices show these details. Prices include VAT: an offer without a rate of its own uses this one.
      </Alert>
    </TabForm>
  );
}
