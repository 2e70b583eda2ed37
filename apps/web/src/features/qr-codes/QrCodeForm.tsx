import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { QR_TARGET_LABEL, ZQrCodeInput, type TQrCode } from '@tourdesk/contracts';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateQrCodeMutation, useQrPartnerStoresQuery, useQrTargetOffersQuery, useQrTargetStoresQuery, useUpdateQrCodeMutation } from './api';

type Values = z.input<typeof ZQrCodeInput>;
const FIELDS = ['name', 'campaign', 'ownership', 'target', 'store', 'experience'] as const;

/**
 * Create or edit a QR code: its name, campaign, ownership, and what it leads to: a store, an offer
 * in a store, or a partner's store that sells the organisation's offers (offered when there is one).
 */
export function QrCodeForm({ code, onClose }: { code?: TQrCode; onClose: (saved?: TQrCode) => void }) {
  const [create, creating] = useCreateQrCodeMutation();
  const [update, updating] = useUpdateQrCodeMutation();
  const form = useForm<Values, unknown, z.output<typeof ZQrCodeInput>>({
    resolver: zodResolver(ZQrCodeInput),
    defaultValues: {
      name: code?.name ?? '',
      campaign: code?.campaign ?? '',
      ownership: code?.ownership ?? 'Internal',
      target: code?.target ?? 'store',
      store: code?.store ?? '',
      experience: code?.experience ?? null,
    },
  });
  const { errors } = form.formState;
  const target = useWatch({ control: form.control, name: 'target' });
  const storeId = useWatch({ control: form.control, name: 'store' });
  const stores = useQrTargetStoresQuery();
  const partnerStores = useQrPartnerStoresQuery();
  const hasPartners = (partnerStores.data?.length ?? 0) > 0 || code?.target === 'partner_store';
  const offers = useQrTargetOffersQuery(storeId, { skip: !storeId || target !== 'experience' });

  const onSubmit = form.handleSubmit(async (values) => {
    const body = { ...values, experience: values.target === 'experience' ? values.experience : null };
    const res = code ? await update({ id: code.id, ...body }) : await create(body);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, FIELDS);
    notifySuccess(code ? 'QR code saved.' : 'QR code created.');
    onClose(res.data);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={code ? 'Edit QR code' : 'Create QR code'}>
      <Stack>
        <TextInput label="Name" withAsterisk data-autofocus placeholder="Hotel desk flyer" {...form.register('name')} error={errors.name?.message} />
        <TextInput label="Campaign" placeholder="Summer 2026" {...form.register('campaign')} error={errors.campaign?.message} />
        <Controller
          control={form.control}
          name="ownership"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="qr-ownership">
                Ownership
              </Text>
              <SegmentedControl
                aria-labelledby="qr-ownership"
                value={field.value ?? 'Internal'}
                onChange={field.onChange}
                data={[
                  { value: 'Internal', label: 'Internal' },
                  { value: 'External', label: 'External' },
                ]}
              />
              <Text size="xs" c="dimmed">
                Internal: your own campaign. External: given to someone else to hand out.
              </Text>
            </Stack>
          )}
        />
        <Controller
          control={form.control}
          name="target"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="qr-target">
                Leads to
              </Text>
              <SegmentedControl
                aria-labelledby="qr-target"
                value={field.value ?? 'store'}
                onChange={(v) => {
                  field.onChange(v);
                  form.setValue('store', '');
                  form.setValue('experience', null);
                }}
                data={[
                  { value: 'store', label: QR_TARGET_LABEL.store },
                  { value: 'experience', label: QR_TARGET_LABEL.experience },
                  ...(hasPartners ? [{ value: 'partner_store', label: QR_TARGET_LABEL.partner_store }] : []),
                ]}
              />
            </Stack>
          )}
        />
        <Controller
          control={form.control}
          name="store"
          render={({ field }) => (
            <Select
              label={target === 'partner_store' ? 'Partner’s store' : 'Store'}
              withAsterisk
              description={target === 'partner_store' ? 'A store of a reseller that sells your offers: the scan counts here, and the orders of your offers made there record the code.' : undefined}
              placeholder={target === 'partner_store' ? 'Choose a partner’s store' : stores.data?.length === 0 ? 'Create a store first' : 'Choose a store'}
              data={
                target === 'partner_store'
                  ? (partnerStores.data ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.partner})` }))
                  : (stores.data ?? []).map((s) => ({ value: s.id, label: s.name }))
              }
              value={field.value || null}
              onChange={(v) => {
                field.onChange(v ?? '');
                form.setValue('experience', null);
              }}
              error={errors.store?.message}
              searchable
              nothingFoundMessage="No store"
            />
          )}
        />
        {target === 'experience' && (
          <Controller
            control={form.control}
            name="experience"
            render={({ field }) => (
              <Select
                label="Offer"
                withAsterisk
                placeholder={storeId ? 'Choose an offer this store sells' : 'Choose the store first'}
                disabled={!storeId}
                data={(offers.data ?? []).map((o) => ({ value: o.experience, label: o.title }))}
                value={field.value ?? null}
                onChange={(v) => field.onChange(v)}
                error={errors.experience?.message}
                searchable
                nothingFoundMessage="This store sells no offer"
              />
            )}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose()}>
            Cancel
          </Button>
          <Button type="submit" loading={creating.isLoading || updating.isLoading}>
            {code ? 'Save' : 'Create QR code'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
