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

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const isBase = (r: TPricingRate) => !r.valid_from && !r.valid_to && r.weekdays.length === 0;

function BaseRow({ experience, category, rate, currency }: { experience: TExperience; category: TPricingCategory; rate?: TPricingRate; currency: string }) {
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
    if (!('error' in res)) notifySuccess(`${category.label} price saved.`);
    return !('error' in res);
  };
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500}>{category.label}</Text>
        <Text size="xs" c="dimmed">
          {category.type}
          {category.min_age !== null || category.max_age !== null ? ` · ages ${category.min_age ?? 0}–${category.max_age ?? '∞'}` : ''}
          {!category.occupies_seat && ' · no seat'}
        </Text>
      </Table.Td>
      <Table.Td w={170}>
        <MoneyField label={`${category.label} retail price`} currency={currency} minor={rate?.retail_price ?? null} onCommit={(m) => commit('retail_price', m)} />
      </Table.Td>
      <Table.Td w={170}>
        <MoneyField label={`${category.label} net price`} currency={currency} minor={rate?.net_price ?? null} onCommit={(m) => (rate ? commit('net_price', m) : Promise.resolve(false))} />
      </Table.Td>
      <Table.Td w={50}>
        {rate && (
          <ActionIcon variant="subtle" color="red" aria-label={`Remove the ${category.label} price`} onClick={() => remove(rate.id)}>
            <IconTrash size={16} />
          </ActionIcon>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function SeasonalPrices({ experience, categories, currency }: { experience: TExperience; categories: TPricingCategory[]; currency: string }) {
  const [create, { isLoading }] = useCreateRateMutation();
  const [remove] = useDeleteRateMutation();
  const [draft, setDraft] = useState({ category: '', price: '', from: '', to: '', weekdays: [] as string[] });
  const seasonal = experience.prices.filter((r) => !isBase(r));
  const label = (id: string) => categories.find((c) => c.id === id)?.label ?? '?';
  return (
    <Card withBorder padding="lg">
      <Title order={4}>Seasonal and weekday prices</Title>
      <Text size="sm" c="dimmed" mb="md">
        A price for some dates or weekdays. Two prices of one category may not cover the same day.
      </Text>
      <Stack gap="xs" mb="md">
        {seasonal.length === 0 && <Text c="dimmed" size="sm">None yet.</Text>}
        {seasonal.map((r) => (
          <Group key={r.id} justify="space-between">
            <Text size="sm">
              <b>{label(r.pricing_category)}</b> {formatMoney(r.retail_price, r.currency)} · {r.valid_from ?? 'always'}
              {r.valid_to ? ` → ${r.valid_to}` : ''} {r.weekdays.length > 0 && r.weekdays.map((d) => <Badge key={d} size="xs" variant="light" ml={2}>{WEEKDAYS[d - 1]}</Badge>)}
            </Text>
            <ActionIcon variant="subtle" color="red" aria-label="Remove this price" onClick={() => remove(r.id)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
      <Group align="flex-end">
        <Select label="Category" data={categories.map((c) => ({ value: c.id, label: c.label }))} value={draft.category || null} onChange={(v) => setDraft({ ...draft, category: v ?? '' })} w={160} />
        <TextInput label={`Price (${currency})`} value={draft.price} onChange={(e) => setDraft({ ...draft, price: e.currentTarget.value })} w={110} />
        <DateField label="From" value={draft.from} onChange={(v) => setDraft({ ...draft, from: v })} w={190} />
        <DateField label="To" value={draft.to} onChange={(v) => setDraft({ ...draft, to: v })} w={190} />
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
              notifySuccess('Seasonal price added.');
              setDraft({ category: '', price: '', from: '', to: '', weekdays: [] });
            }
          }}
        >
          Add
        </Button>
      </Group>
      <Chip.Group multiple value={draft.weekdays} onChange={(weekdays) => setDraft({ ...draft, weekdays })}>
        <Group gap={6} mt="sm">
          {WEEKDAYS.map((d, i) => (
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
  return (
    <Stack gap="lg" maw={850}>
      {categories.length === 0 && (
        <Alert color="blue" variant="light">
          Prices are set per pricing category (Adult, Child, …): create your first one here, or on the{' '}
          <Anchor component={Link} to="/products/experiences/pricing-categories">
            Pricing categories
          </Anchor>{' '}
          page.
        </Alert>
      )}
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start">
          <Title order={4}>Prices</Title>
          <NewButton label="New pricing category" onClick={() => setCreating(true)} />
        </Group>
        <NewCategoryDialog opened={creating} onClose={() => setCreating(false)} onCreated={() => setCreating(false)} />
        <Text size="sm" c="dimmed" mb="md">
          The retail price customers pay, and the net price resellers pay, per category. Saved when you leave a field.
        </Text>
        <Table aria-label="Prices per category">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Category</Table.Th>
              <Table.Th>Retail price</Table.Th>
              <Table.Th>Net (reseller) price</Table.Th>
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
