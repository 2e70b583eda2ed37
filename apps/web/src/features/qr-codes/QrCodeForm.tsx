import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { ZQrCodeInput, type TQrCode } from '@tourdesk/contracts';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateQrCodeMutation, useQrPartnerStoresQuery, useQrTargetOffersQuery, useQrTargetStoresQuery, useUpdateQrCodeMutation } from './api';
import { useQrCodesT } from './texts';

type Values = z.input<typeof ZQrCodeInput>;
const FIELDS = ['name', 'campaign', 'ownership', 'target', 'store', 'experience'] as const;

/**
 * Create or edit a QR code: its name, campaign, ownership, and what it leads to: a store, an offer
 * in a store, or a partner's store that sells the organisation's offers (offered when there is one).
 */
export function QrCodeForm({ code, onClose }: { code?: TQrCode; onClose: (saved?: TQrCode) => void }) {
  const t = useQrCodesT();
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
    notifySuccess(code ? t('form.saved') : t('form.created'));
    onClose(res.data);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={code ? t('edit') : t('create')}>
      <Stack>
        <TextInput label={t('form.name')} withAsterisk data-autofocus placeholder={t('form.namePlaceholder')} {...form.register('name')} error={errors.name?.message} />
        <TextInput label={t('form.campaign')} placeholder={t('form.campaignPlaceholder')} {...form.register('campaign')} error={errors.campaign?.message} />
        <Controller
          control={form.control}
          name="ownership"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="qr-ownership">
                {t('form.ownership')}
              </Text>
              <SegmentedControl
                aria-labelledby="qr-ownership"
                value={field.value ?? 'Internal'}
                onChange={field.onChange}
                data={[
                  { value: 'Internal', label: t('ownership.Internal') },
                  { value: 'External', label: t('ownership.External') },
                ]}
              />
              <Text size="xs" c="dimmed">
                {t('form.ownershipHint')}
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
                {t('form.leadsTo')}
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
                  { value: 'store', label: t('form.target.store') },
                  { value: 'experience', label: t('form.target.experience') },
                  ...(hasPartners ? [{ value: 'partner_store', label: t('form.target.partner_store') }] : []),
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
              label={target === 'partner_store' ? t('form.partnerStore') : t('form.store')}
              withAsterisk
              description={target === 'partner_store' ? t('form.partnerStoreHint') : undefined}
              placeholder={target === 'partner_store' ? t('form.choosePartnerStore') : stores.data?.length === 0 ? t('form.createStoreFirst') : t('form.chooseStore')}
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
              nothingFoundMessage={t('form.noStore')}
            />
          )}
        />
        {target === 'experience' && (
          <Controller
            control={form.control}
            name="experience"
            render={({ field }) => (
              <Select
                label={t('form.offer')}
                withAsterisk
                placeholder={storeId ? t('form.chooseOffer') : t('form.chooseStoreFirst')}
                disabled={!storeId}
                data={(offers.data ?? []).map((o) => ({ value: o.experience, label: o.title }))}
                value={field.value ?? null}
                onChange={(v) => field.onChange(v)}
                error={errors.experience?.message}
                searchable
                nothingFoundMessage={t('form.noOffer')}
              />
            )}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose()}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={creating.isLoading || updating.isLoading}>
            {code ? t('form.save') : t('create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
