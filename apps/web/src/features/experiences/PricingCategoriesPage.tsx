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
import { usePricingT } from './pricing-texts';

type Form = z.input<typeof ZPricingCategoryInput>;

function Editor({ category, onClose }: { category: TPricingCategory | null; onClose: () => void }) {
  const t = usePricingT();
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
    notifySuccess(category ? t('categories.updated') : t('categories.created'));
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
        <TranslatedFields form={form} fields={[{ name: 'label', label: t('categories.label') }]}>
        <Controller
          control={form.control}
          name="type"
          render={({ field, fieldState }) => <Select label={t('categories.type')} data={[...PRICING_CATEGORY_TYPES]} value={field.value} onChange={(v) => v && field.onChange(v)} error={fieldState.error?.message} allowDeselect={false} />}
        />
        <TextInput label={t('categories.label')} description={t('categories.labelHint')} {...form.register('label')} error={form.formState.errors.label?.message} />
        <Group grow>
          {age('min_age', t('categories.fromAge'))}
          {age('max_age', t('categories.toAge'))}
        </Group>
        <Controller
          control={form.control}
          name="occupies_seat"
          render={({ field }) => <Checkbox label={t('categories.takesSeat')} checked={field.value ?? true} onChange={(e) => field.onChange(e.currentTarget.checked)} />}
        />
        </TranslatedFields>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('categories.cancel')}
          </Button>
          <Button type="submit" loading={c.isLoading || u.isLoading}>
            {t('categories.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function PricingCategoriesPage() {
  const t = usePricingT();
  const { data } = usePricingCategoriesQuery();
  const [remove] = useDeletePricingCategoryMutation();
  const [editing, setEditing] = useState<TPricingCategory | 'new' | null>(null);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('categories.title')}</Title>
        <Group gap="xs">
          <ExportCsvButton url="pricing-categories/export.csv" params={{}} fallbackName="pricing-categories.csv" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('categories.new')}
          </Button>
        </Group>
      </Group>
      <ExperiencesTabs />
      <Table verticalSpacing="sm" aria-label={t('categories.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('categories.label')}</Table.Th>
            <Table.Th>{t('categories.type')}</Table.Th>
            <Table.Th>{t('categories.ages')}</Table.Th>
            <Table.Th>{t('categories.seat')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data?.results.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text c="dimmed">{t('categories.empty')}</Text>
              </Table.Td>
            </Table.Tr>
          )}
          {data?.results.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td fw={500}>{c.label}</Table.Td>
              <Table.Td>{c.type}</Table.Td>
              <Table.Td>{c.min_age === null && c.max_age === null ? t('categories.anyAge') : `${c.min_age ?? 0}–${c.max_age ?? '∞'}`}</Table.Td>
              <Table.Td>{c.occupies_seat ? t('categories.yes') : t('categories.no')}</Table.Td>
              <Table.Td w={90}>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={t('categories.edit', { label: c.label })} onClick={() => setEditing(c)}>
                    <IconPencil size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('categories.delete', { label: c.label })}
                    onClick={async () => {
                      const res = await remove(c.id);
                      if (!('error' in res)) notifySuccess(t('categories.deleted', { label: c.label }));
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
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t('categories.dialog')}>
        {editing !== null && <Editor category={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
    </Stack>
  );
}
