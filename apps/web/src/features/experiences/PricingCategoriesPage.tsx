import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { PRICING_CATEGORY_TYPES, ZPricingCategoryInput, type TPricingCategory } from '@tourdesk/contracts';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreatePricingCategoryMutation, useDeletePricingCategoryMutation, usePricingCategoriesQuery, useUpdatePricingCategoryMutation } from './api';
import { ExperiencesTabs } from './ExperiencesTabs';
import { ExportCsvButton } from '../../shared/components/ExportCsvButton';
import { TranslatedFields } from '../../shared/components/TranslatedFields';

type Form = z.input<typeof ZPricingCategoryInput>;

function Editor({ category, onClose }: { category: TPricingCategory | null; onClose: () => void }) {
  const [create, c] = useCreatePricingCategoryMutation();
  const [update, u] = useUpdatePricingCategoryMutation();
  const form = useForm<Form>({
    resolver: zodResolver(ZPricingCategoryInput),
    defaultValues: category ?? { type: 'Adult', label: '', min_age: null, max_age: null, occupies_seat: true, translations: {} },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const body = ZPricingCategoryInput.parse(values);
    const res = category ? await update({ id: category.id, ...body }) : await create(body);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['type', 'label', 'min_age', 'max_age']);
    notifySuccess(category ? 'Category updated.' : 'Category created.');
    onClose();
  });
  const age = (name: 'min_age' | 'max_age', label: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput label={label} min={0} max={120} value={field.value ?? ''} onChange={(v) => field.onChange(v === '' ? null : Number(v))} error={fieldState.error?.message} />
      )}
    />
  );
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TranslatedFields form={form} fields={[{ name: 'label', label: 'Label' }]}>
        <Controller
          control={form.control}
          name="type"
          render={({ field, fieldState }) => <Select label="Type" data={[...PRICING_CATEGORY_TYPES]} value={field.value} onChange={(v) => v && field.onChange(v)} error={fieldState.error?.message} allowDeselect={false} />}
        />
        <TextInput label="Label" description="What customers read, e.g. “Adult (16+)”." {...form.register('label')} error={form.formState.errors.label?.message} />
        <Group grow>
          {age('min_age', 'From age')}
          {age('max_age', 'To age')}
        </Group>
        <Controller
          control={form.control}
          name="occupies_seat"
          render={({ field }) => <Checkbox label="Takes a seat (counts against capacity)" checked={field.value ?? true} onChange={(e) => field.onChange(e.currentTarget.checked)} />}
        />
        </TranslatedFields>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={c.isLoading || u.isLoading}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function PricingCategoriesPage() {
  const { data } = usePricingCategoriesQuery();
  const [remove] = useDeletePricingCategoryMutation();
  const [editing, setEditing] = useState<TPricingCategory | 'new' | null>(null);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Pricing categories</Title>
        <Group gap="xs">
          <ExportCsvButton url="pricing-categories/export.csv" params={{}} fallbackName="pricing-categories.csv" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            New category
          </Button>
        </Group>
      </Group>
      <ExperiencesTabs />
      <Table verticalSpacing="sm" aria-label="Pricing categories">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Label</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Ages</Table.Th>
            <Table.Th>Seat</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data?.results.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text c="dimmed">No category yet: add Adult, Child and the others you sell.</Text>
              </Table.Td>
            </Table.Tr>
          )}
          {data?.results.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td fw={500}>{c.label}</Table.Td>
              <Table.Td>{c.type}</Table.Td>
              <Table.Td>{c.min_age === null && c.max_age === null ? 'any' : `${c.min_age ?? 0}–${c.max_age ?? '∞'}`}</Table.Td>
              <Table.Td>{c.occupies_seat ? 'yes' : 'no'}</Table.Td>
              <Table.Td w={90}>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={`Edit ${c.label}`} onClick={() => setEditing(c)}>
                    <IconPencil size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${c.label}`}
                    onClick={async () => {
                      const res = await remove(c.id);
                      if (!('error' in res)) notifySuccess(`${c.label} deleted.`);
                    }}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Pricing category">
        {editing !== null && <Editor category={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
    </Stack>
  );
}
