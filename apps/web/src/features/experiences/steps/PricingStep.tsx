import { ActionIcon, Alert, Anchor, Badge, Button, Card, Chip, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { TExperience, TPricingCategory, TPricingRate } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../shared/hooks/store';
import { formatMoney, toMinorUnits } from '../../../shared/lib/money';
import { MoneyField } from '../MoneyField';
import { notifySuccess } from '../../../shared/lib/toast';
import { useCreateRateMutation, useDeleteRateMutation, usePricingCategoriesQuery, useUpdateRateMutation } from '../api';
import { NewButton, NewCategoryDialog } from './InlineCreate';
import { DateField } from '../../../shared/components/DateField';
import { formatDisplayDate } from '../../../shared/lib/dates';
import { useOfferSettingsT, useWeekdays } from '../settings-texts';

const isBase = (r: TPricingRate) => !r.valid_from && !r.valid_to && r.weekdays.length === 0;

function BaseRow({ experience, category, rate, currency }: { experience: TExperience; category: TPricingCategory; rate?: TPricingRate; currency: string }) {
  const t = useOfferSettingsT();
  const [create] = useCreateRateMutation();
  const [update] = useUpdateRateMutation();
  const [remove] = useDeleteRateMutation();
  const commit = async (field: 'retail_price' | 'net_price', minor: number | null) => {
    if (!rate) {
      if (field !== 'retail_price' || minor === null) return false;
      const res = await create({ experience: experience.id, pricing_category: category.id, retail_price: minor });
      if (!('error' in res)) notifySuccess(`${category.label}: ${formatMoney(minor, currency)}`);
      return !('error' in res);
    }
    if (field === 'retail_price' && minor === null) return false;
    const res = await update({ id: rate.id, [field]: minor });
    if (!('error' in res)) notifySuccess(t('pricing.priceSaved', { category: category.label }));
    return !('error' in res);
  };
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500}>{category.label}</Text>
        <Text size="xs" c="dimmed">
          {t(`categoryType.${category.type}`)}
          {category.min_age !== null || category.max_age !== null ? ` · ${t('pricing.ages', { min: category.min_age ?? 0, max: category.max_age ?? '∞' })}` : ''}
          {!category.occupies_seat && ` · ${t('pricing.noSeat')}`}
        </Text>
      </Table.Td>
      <Table.Td w={170}>
        <MoneyField label={t('pricing.retailPriceOf', { category: category.label })} currency={currency} minor={rate?.retail_price ?? null} onCommit={(m) => commit('retail_price', m)} />
      </Table.Td>
      <Table.Td w={170}>
        <MoneyField label={t('pricing.netPriceOf', { category: category.label })} currency={currency} minor={rate?.net_price ?? null} onCommit={(m) => (rate ? commit('net_price', m) : Promise.resolve(false))} />
      </Table.Td>
      <Table.Td w={50}>
        {rate && (
          <ActionIcon variant="subtle" color="red" aria-label={t('pricing.removePrice', { category: category.label })} onClick={() => remove(rate.id)}>
            <IconTrash size={16} />
          </ActionIcon>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function SeasonalPrices({ experience, categories, currency }: { experience: TExperience; categories: TPricingCategory[]; currency: string }) {
  const t = useOfferSettingsT();
  const weekdayNames = useWeekdays();
  const [create, { isLoading }] = useCreateRateMutation();
  const [remove] = useDeleteRateMutation();
  const [draft, setDraft] = useState({ category: '', price: '', from: '', to: '', weekdays: [] as string[] });
  const seasonal = experience.prices.filter((r) => !isBase(r));
  const label = (id: string) => categories.find((c) => c.id === id)?.label ?? '?';
  return (
    <Card withBorder padding="lg">
      <Title order={4}>{t('seasonal.title')}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('seasonal.hint')}
      </Text>
      <Stack gap="xs" mb="md">
        {seasonal.length === 0 && <Text c="dimmed" size="sm">{t('seasonal.none')}</Text>}
        {seasonal.map((r) => (
          <Group key={r.id} justify="space-between">
            <Text size="sm">
              <b>{label(r.pricing_category)}</b> {formatMoney(r.retail_price, r.currency)} · {r.valid_from ? formatDisplayDate(r.valid_from) : t('seasonal.always')}
              {r.valid_to ? ` → ${formatDisplayDate(r.valid_to)}` : ''} {r.weekdays.length > 0 && r.weekdays.map((d) => <Badge key={d} size="xs" variant="light" ml={2}>{weekdayNames[d - 1]}</Badge>)}
            </Text>
            <ActionIcon variant="subtle" color="red" aria-label={t('seasonal.remove')} onClick={() => remove(r.id)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
      <Group align="flex-end">
        <Select label={t('pricing.category')} data={categories.map((c) => ({ value: c.id, label: c.label }))} value={draft.category || null} onChange={(v) => setDraft({ ...draft, category: v ?? '' })} w={160} />
        <TextInput label={t('seasonal.price', { currency })} value={draft.price} onChange={(e) => setDraft({ ...draft, price: e.currentTarget.value })} w={110} />
        <DateField label={t('seasonal.from')} value={draft.from} onChange={(v) => setDraft({ ...draft, from: v })} w={190} />
        <DateField label={t('seasonal.to')} value={draft.to} onChange={(v) => setDraft({ ...draft, to: v })} w={190} />
        <Button
          loading={isLoading}
          disabled={!draft.category || !draft.price}
          onClick={async () => {
            const minor = toMinorUnits(draft.price, currency);
            if (minor === null) return;
            const res = await create({
              experience: experience.id,
              pricing_category: draft.category,
              retail_price: minor,
              valid_from: draft.from || null,
              valid_to: draft.to || null,
              weekdays: draft.weekdays.map(Number),
            });
            if (!('error' in res)) {
              notifySuccess(t('seasonal.added'));
              setDraft({ category: '', price: '', from: '', to: '', weekdays: [] });
            }
          }}
        >
          {t('seasonal.add')}
        </Button>
      </Group>
      <Chip.Group multiple value={draft.weekdays} onChange={(weekdays) => setDraft({ ...draft, weekdays })}>
        <Group gap={6} mt="sm">
          {weekdayNames.map((d, i) => (
            <Chip key={d} value={String(i + 1)} size="xs">
              {d}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </Card>
  );
}

export function PricingStep({ experience }: { experience: TExperience }) {
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  const { data } = usePricingCategoriesQuery();
  const categories = data?.results ?? [];
  const base = new Map(experience.prices.filter(isBase).map((r) => [r.pricing_category, r]));
  const [creating, setCreating] = useState(false);
  const t = useOfferSettingsT();
  return (
    <Stack gap="lg" maw={850}>
      {categories.length === 0 && (
        <Alert color="blue" variant="light">
          {t('pricing.firstCategory')}{' '}
          <Anchor component={Link} to="/products/experiences/pricing-categories">
            {t('pricing.firstCategoryLink')}
          </Anchor>
          {t('pricing.firstCategoryAfter')}
        </Alert>
      )}
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start">
          <Title order={4}>{t('pricing.title')}</Title>
          <NewButton label={t('category.new')} onClick={() => setCreating(true)} />
        </Group>
        <NewCategoryDialog opened={creating} onClose={() => setCreating(false)} onCreated={() => setCreating(false)} />
        <Text size="sm" c="dimmed" mb="md">
          {t('pricing.hint')}
        </Text>
        <Table aria-label={t('pricing.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('pricing.category')}</Table.Th>
              <Table.Th>{t('pricing.retailPrice')}</Table.Th>
              <Table.Th>{t('pricing.netPrice')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {categories.map((c) => (
              <BaseRow key={c.id} experience={experience} category={c} rate={base.get(c.id)} currency={currency} />
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <SeasonalPrices experience={experience} categories={categories} currency={currency} />
    </Stack>
  );
}
