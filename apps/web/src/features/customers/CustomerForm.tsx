import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { ZCustomerCreate, type TCustomer } from '@tourdesk/contracts';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateCustomerMutation, useUpdateCustomerMutation } from './api';
import { useCustomersT } from './texts';

/** The form's own check of the country (its message shown in the user's language: customers' `countryCode`). */
const COUNTRY_CODE = 'Use a two-letter country code such as CH.';
const ZForm = ZCustomerCreate.extend({
  // Typed as two letters; an empty box is "no country".
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^([A-Z]{2})?$/, { error: COUNTRY_CODE }),
});
type FormIn = z.input<typeof ZForm>;
type FormOut = z.output<typeof ZForm>;
const FIELDS = ['email', 'first_name', 'last_name', 'phone', 'country', 'company', 'address', 'vat_number', 'marketing_consent', 'notes'] as const;

/** Create or edit a customer; `onDone` gets the saved customer. */
export function CustomerForm({ customer, onDone, onCancel }: { customer: TCustomer | null; onDone: (c: TCustomer) => void; onCancel: () => void }) {
  const t = useCustomersT();
  const [create, c] = useCreateCustomerMutation();
  const [update, u] = useUpdateCustomerMutation();
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(ZForm),
    defaultValues: {
      email: customer?.email ?? '',
      first_name: customer?.first_name ?? '',
      last_name: customer?.last_name ?? '',
      phone: customer?.phone ?? '',
      country: customer?.country ?? '',
      company: customer?.company ?? '',
      address: customer?.address ?? '',
      vat_number: customer?.vat_number ?? '',
      marketing_consent: customer?.marketing_consent ?? false,
      notes: customer?.notes ?? '',
    },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    const body = { ...values, country: values.country || null };
    const res = customer ? await update({ id: customer.id, ...body }) : await create(body);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, FIELDS);
    notifySuccess(customer ? t('updated') : t('created'));
    onDone(res.data);
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label={t('email')} type="email" required data-autofocus {...form.register('email')} error={errors.email?.message} />
        <Group grow align="flex-start">
          <TextInput label={t('firstName')} required {...form.register('first_name')} error={errors.first_name?.message} />
          <TextInput label={t('lastName')} {...form.register('last_name')} error={errors.last_name?.message} />
        </Group>
        <Group grow align="flex-start">
          <TextInput label={t('phone')} type="tel" {...form.register('phone')} error={errors.phone?.message} />
          <TextInput
            label={t('country')}
            description={t('countryHint')}
            maxLength={2}
            styles={{ input: { textTransform: 'uppercase' } }}
            {...form.register('country')}
            error={errors.country?.message === COUNTRY_CODE ? t('countryCode') : errors.country?.message}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput label={t('company')} description={t('companyHint')} {...form.register('company')} error={errors.company?.message} />
          <TextInput label={t('vatNumber')} {...form.register('vat_number')} error={errors.vat_number?.message} />
        </Group>
        <Textarea label={t('address')} description={t('addressHint')} autosize minRows={2} maxLength={500} {...form.register('address')} error={errors.address?.message} />
        <Checkbox label={t('consent')} {...form.register('marketing_consent')} />
        <Textarea label={t('notes')} autosize minRows={3} maxLength={5000} {...form.register('notes')} error={errors.notes?.message} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={c.isLoading || u.isLoading}>
            {customer ? t('save') : t('create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
