import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Badge, Button, Group, Modal, NumberInput, Select, Stack, Table, TagsInput, Textarea, TextInput } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { INVENTORY_TYPES, type TInventoryItem } from '@tourdesk/contracts';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useAppSelector } from '../../shared/hooks/store';
import { applyFieldErrors } from '../../shared/lib/forms';
import { formatMoney, toMajorText, toMinorUnits } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useCategoriesQuery, useDeleteItemMutation, useItemsQuery, useSaveItemMutation } from './api';
import { InventoryTabs } from './InventoryTabs';
import { TranslatedFields } from '../../shared/components/TranslatedFields';
import { itemForm, type ItemForm } from './item-form';
import { useInventoryT } from './texts';

type Form = z.input<ItemForm>;

function ItemEditor({ item, onClose }: { item: TInventoryItem | null; onClose: () => void }) {
  const t = useInventoryT();
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  const { data: categories } = useCategoriesQuery();
  const [save, { isLoading }] = useSaveItemMutation();
  const schema = useMemo(() => itemForm(currency), [currency]);
  const form = useForm<Form, unknown, z.output<ItemForm>>({
    resolver: zodResolver(schema),
    defaultValues: item
      ? { type: item.type, name: item.name, description: item.description, category: item.category?.id ?? null, tags: item.tags, price: toMajorText(item.price, currency), stock: item.stock, buffer_before_minutes: item.buffer_before_minutes, buffer_after_minutes: item.buffer_after_minutes, translations: item.translations }
      : { type: 'Extras', name: '', description: '', category: null, tags: [], price: '', stock: null, buffer_before_minutes: 0, buffer_after_minutes: 0, translations: {} },
  });
  const type = useWatch({ control: form.control, name: 'type' });
  const onSubmit = form.handleSubmit(async (v) => {
    const res = await save({ id: item?.id, ...v, price: toMinorUnits(v.price, currency)! });
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['type', 'name', 'category', 'price', 'stock', 'buffer_before_minutes', 'buffer_after_minutes']);
    notifySuccess(item ? t('itemUpdated') : t('itemCreated'));
    onClose();
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TranslatedFields form={form} fields={[{ name: 'name', label: t('name') }, { name: 'description', label: t('description'), multiline: true }]}>
        <Controller control={form.control} name="type" render={({ field }) => <Select label={t('type')} data={INVENTORY_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))} value={field.value} onChange={(v) => v && field.onChange(v)} allowDeselect={false} />} />
        <TextInput label={t('name')} {...form.register('name')} error={form.formState.errors.name?.message} />
        <Textarea label={t('description')} autosize minRows={2} {...form.register('description')} />
        <Controller
          control={form.control}
          name="category"
          render={({ field, fieldState }) => (
            <Select label={t('category')} clearable data={(categories?.results ?? []).map((c) => ({ value: c.id, label: c.name }))} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <Controller control={form.control} name="tags" render={({ field }) => <TagsInput label={t('tags')} value={field.value} onChange={field.onChange} />} />
        <Group grow>
          <TextInput label={t('price', { currency })} inputMode="decimal" {...form.register('price')} error={form.formState.errors.price?.message} />
          <Controller
            control={form.control}
            name="stock"
            render={({ field, fieldState }) => (
              <NumberInput label={t('stock')} description={t('stockHint')} min={0} value={field.value ?? ''} onChange={(v) => field.onChange(v === '' ? null : Number(v))} error={fieldState.error?.message} />
            )}
          />
        </Group>
        {type === 'Equipment' && (
          <Group grow align="flex-start">
            {(['buffer_before_minutes', 'buffer_after_minutes'] as const).map((name) => (
              <Controller
                key={name}
                control={form.control}
                name={name}
                render={({ field, fieldState }) => (
                  <NumberInput
                    label={t(name === 'buffer_before_minutes' ? 'bufferBefore' : 'bufferAfter')}
                    description={name === 'buffer_before_minutes' ? t('bufferHint') : undefined}
                    min={0}
                    max={1440}
                    allowDecimal={false}
                    value={field.value ?? 0}
                    onChange={(v) => field.onChange(v === '' ? 0 : Number(v))}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ))}
          </Group>
        )}
        </TranslatedFields>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={isLoading}>
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function ItemsPage() {
  const t = useInventoryT();
  const filters = useListFilters();
  const { data, isFetching } = useItemsQuery(filters.apiParams);
  const { data: categories } = useCategoriesQuery();
  const [remove] = useDeleteItemMutation();
  const [editing, setEditing] = useState<TInventoryItem | 'new' | null>(null);
  return (
    <ListPage
      title={t('title')}
      csv={{ url: 'inventory-items/export.csv', params: filters.apiParams, fallbackName: 'inventory-items.csv' }}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('newItem')}
        </Button>
      }
      tabs={<InventoryTabs />}
      search={{ label: t('searchItems'), placeholder: t('searchItems') }}
      filters={
        <>
          <Select
            aria-label={t('typeFilter')}
            data={[{ value: 'All', label: t('allTypes') }, ...INVENTORY_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))]} value={filters.filters.type ?? 'All'} onChange={(v) => filters.setFilter('type', v)} w={150} allowDeselect={false} />
          <Select
            aria-label={t('categoryFilter')}
            data={[{ value: 'All', label: t('allCategories') }, ...(categories?.results ?? []).map((c) => ({ value: c.id, label: c.name }))]}
            value={filters.filters.category ?? 'All'}
            onChange={(v) => filters.setFilter('category', v)}
            w={190}
            allowDeselect={false}
          />
          {filters.filters.tag && (
            <Badge size="lg" variant="light" rightSection={<ActionIcon size="xs" variant="transparent" aria-label={t('clearTag')} onClick={() => filters.setFilter('tag', null)}>×</ActionIcon>}>
              #{filters.filters.tag}
            </Badge>
          )}
        </>
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('itemsLabel')}
        minWidth={760}
        fetching={isFetching}
        highlightOnHover={false}
        columns={[{ label: t('col.item') }, { label: t('col.type') }, { label: t('col.category') }, { label: t('col.tags') }, { label: t('col.price'), align: 'right' }, { label: t('col.stock'), align: 'right' }, {}]}
        rowCount={data?.results.length}
        empty={t('empty')}
      >
        {data?.results.map((i) => (
          <Table.Tr key={i.id}>
            <Table.Td fw={500}>{i.name}</Table.Td>
            <Table.Td>{t(`type.${i.type}`)}</Table.Td>
            <Table.Td>{i.category?.name ?? '—'}</Table.Td>
            <Table.Td>
              <Group gap={4}>
                {i.tags.map((tag) => (
                  <Badge key={tag} size="sm" variant="outline" style={{ cursor: 'pointer' }} onClick={() => filters.setFilter('tag', tag)}>
                    {tag}
                  </Badge>
                ))}
              </Group>
            </Table.Td>
            <Table.Td ta="right">{formatMoney(i.price, i.currency)}</Table.Td>
            <Table.Td ta="right">{i.stock ?? '∞'}</Table.Td>
            <Table.Td w={90}>
              <Group gap={4} wrap="nowrap">
                <ActionIcon variant="subtle" aria-label={t('editNamed', { name: i.name })} onClick={() => setEditing(i)}>
                  <IconPencil size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" color="red" aria-label={t('deleteNamed', { name: i.name })} onClick={async () => !('error' in (await remove(i.id))) && notifySuccess(t('deleted', { name: i.name }))}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? t('newItem') : t('editItem')}>
        {editing !== null && <ItemEditor item={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
    </ListPage>
  );
}
