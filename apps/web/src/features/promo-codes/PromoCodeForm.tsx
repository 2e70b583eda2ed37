import { Button, Checkbox, Group, MultiSelect, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { bpToPercent, percentToBp, type TPromoCode, type TPromoCodeInput } from '@tourdesk/contracts';
import { useState } from 'react';
import { fieldErrors } from '../../shared/api/errors';
import { DateField } from '../../shared/components/DateField';
import { toMajorText, toMinorUnits } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreatePromoCodeMutation, usePromoCategoriesQuery, usePromoOffersQuery, usePromoStoresQuery, useUpdatePromoCodeMutation } from './api';
import { usePromoCodesT } from './texts';

/**
 * Create or edit a promo code: its code, a percentage or an amount off, what it is valid for
 * (offers, pricing categories, a store), its booking and departure windows, a minimum order and
 * its limits. The server checks it (the contract's rules) and names the field it refuses.
 */
export function PromoCodeForm({ code, currency, onClose }: { code?: TPromoCode; currency: string; onClose: (saved?: TPromoCode) => void }) {
  const t = usePromoCodesT();
  const [create, creating] = useCreatePromoCodeMutation();
  const [update, updating] = useUpdatePromoCodeMutation();
  const offers = usePromoOffersQuery();
  const categories = usePromoCategoriesQuery();
  const stores = usePromoStoresQuery();
  const [v, setV] = useState({
    code: code?.code ?? '',
    description: code?.description ?? '',
    kind: code?.kind ?? ('percent' as 'percent' | 'amount'),
    percent: code && code.kind === 'percent' ? bpToPercent(code.percent_bp) : 10,
    amount: code && code.kind === 'amount' ? toMajorText(code.amount, currency) : '',
    experiences: code?.experiences ?? [],
    categories: code?.categories ?? [],
    valid_from: code?.valid_from ?? '',
    valid_until: code?.valid_until ?? '',
    departure_from: code?.departure_from ?? '',
    departure_until: code?.departure_until ?? '',
    min_order: code && code.min_order > 0 ? toMajorText(code.min_order, currency) : '',
    max_uses: code?.max_uses ?? ('' as number | ''),
    max_uses_per_customer: code?.max_uses_per_customer ?? ('' as number | ''),
    store: code?.store ?? null,
    active: code?.active ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof typeof v>(k: K, value: (typeof v)[K]) => setV((old) => ({ ...old, [k]: value }));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const amount = v.kind === 'amount' ? toMinorUnits(v.amount, currency) : 0;
    const minOrder = v.min_order.trim() ? toMinorUnits(v.min_order, currency) : 0;
    const local: Record<string, string> = {};
    if (v.kind === 'amount' && amount === null) local.amount = t('form.invalidAmount');
    if (minOrder === null) local.min_order = t('form.invalidAmount');
    if (Object.keys(local).length) return setErrors(local);
    const body: TPromoCodeInput = {
      code: v.code,
      description: v.description,
      kind: v.kind,
      percent_bp: v.kind === 'percent' ? percentToBp(Number(v.percent)) : 0,
      amount: amount ?? 0,
      experiences: v.experiences,
      categories: v.categories,
      valid_from: v.valid_from || null,
      valid_until: v.valid_until || null,
      departure_from: v.departure_from || null,
      departure_until: v.departure_until || null,
      min_order: minOrder ?? 0,
      max_uses: v.max_uses === '' ? null : v.max_uses,
      max_uses_per_customer: v.max_uses_per_customer === '' ? null : v.max_uses_per_customer,
      store: v.store,
      active: v.active,
    };
    const res = code ? await update({ id: code.id, ...body }) : await create(body);
    if ('error' in res) return setErrors(fieldErrors(res.error));
    notifySuccess(code ? t('form.saved') : t('form.created'));
    onClose(res.data);
  };
  const err = (k: string) => errors[k] ?? Object.entries(errors).find(([a]) => a.startsWith(`${k}.`))?.[1];

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={code ? t('edit') : t('create')}>
      <Stack>
        <TextInput label={t('form.code')} description={t('form.codeHint')} withAsterisk data-autofocus value={v.code} onChange={(e) => set('code', e.currentTarget.value)} error={err('code')} />
        <TextInput label={t('form.description')} value={v.description} onChange={(e) => set('description', e.currentTarget.value)} error={err('description')} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="promo-kind">
            {t('form.kind')}
          </Text>
          <SegmentedControl
            aria-labelledby="promo-kind"
            value={v.kind}
            onChange={(k) => set('kind', k as 'percent' | 'amount')}
            data={[
              { value: 'percent', label: t('form.kind.percent') },
              { value: 'amount', label: t('form.kind.amount') },
            ]}
          />
        </Stack>
        {v.kind === 'percent' ? (
          <NumberInput label={t('form.percent')} min={0.01} max={100} decimalScale={2} suffix=" %" value={v.percent} onChange={(x) => set('percent', Number(x))} error={err('percent_bp')} />
        ) : (
          <TextInput label={t('form.amount')} leftSection={<Text size="xs">{currency}</Text>} leftSectionWidth={44} inputMode="decimal" value={v.amount} onChange={(e) => set('amount', e.currentTarget.value)} error={err('amount')} />
        )}
        <MultiSelect label={t('form.offers')} description={t('form.offersHint')} data={(offers.data ?? []).map((o) => ({ value: o.id, label: o.title }))} value={v.experiences} onChange={(x) => set('experiences', x)} searchable clearable error={err('experiences')} />
        <MultiSelect label={t('form.categories')} description={t('form.categoriesHint')} data={(categories.data ?? []).map((c) => ({ value: c.id, label: c.label }))} value={v.categories} onChange={(x) => set('categories', x)} searchable clearable error={err('categories')} />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <DateField label={t('form.validFrom')} value={v.valid_from} onChange={(x) => set('valid_from', x)} clearable error={err('valid_from')} />
          <DateField label={t('form.validUntil')} value={v.valid_until} onChange={(x) => set('valid_until', x)} clearable error={err('valid_until')} />
          <DateField label={t('form.departureFrom')} value={v.departure_from} onChange={(x) => set('departure_from', x)} clearable error={err('departure_from')} />
          <DateField label={t('form.departureUntil')} value={v.departure_until} onChange={(x) => set('departure_until', x)} clearable error={err('departure_until')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <TextInput label={t('form.minOrder')} leftSection={<Text size="xs">{currency}</Text>} leftSectionWidth={44} inputMode="decimal" value={v.min_order} onChange={(e) => set('min_order', e.currentTarget.value)} error={err('min_order')} />
          <NumberInput label={t('form.maxUses')} placeholder={t('form.noLimit')} min={1} allowDecimal={false} value={v.max_uses} onChange={(x) => set('max_uses', x === '' ? '' : Number(x))} error={err('max_uses')} />
          <NumberInput label={t('form.maxUsesPerCustomer')} placeholder={t('form.noLimit')} min={1} allowDecimal={false} value={v.max_uses_per_customer} onChange={(x) => set('max_uses_per_customer', x === '' ? '' : Number(x))} error={err('max_uses_per_customer')} />
        </SimpleGrid>
        <Select label={t('form.store')} placeholder={t('form.anyStore')} data={(stores.data ?? []).map((s) => ({ value: s.id, label: s.name }))} value={v.store} onChange={(x) => set('store', x)} clearable error={err('store')} />
        <Checkbox label={t('form.active')} checked={v.active} onChange={(e) => set('active', e.currentTarget.checked)} />
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
