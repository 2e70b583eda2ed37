import { ActionIcon, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { notifySuccess } from '../../shared/lib/toast';
import { useCategoriesQuery, useDeleteCategoryMutation, useSaveCategoryMutation } from './api';
import { InventoryTabs } from './InventoryTabs';
import { ExportCsvButton } from '../../shared/components/ExportCsvButton';
import { useInventoryT } from './texts';

export default function CategoriesPage() {
  const t = useInventoryT();
  const { data } = useCategoriesQuery();
  const [save, { isLoading }] = useSaveCategoryMutation();
  const [remove] = useDeleteCategoryMutation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  return (
    <Stack gap="md">
      <Title order={2}>{t('title')}</Title>
      <InventoryTabs />
      <Group align="flex-start">
        <TextInput aria-label={t('newCategoryName')} placeholder={t('newCategory')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} />
        <Button
          loading={isLoading}
          disabled={!name.trim()}
          onClick={async () => {
            const res = await save({ name: name.trim() });
            if ('error' in res) return setError((res.error as { data?: { errors?: { detail: string }[] } }).data?.errors?.[0]?.detail);
            setError(undefined);
            setName('');
            notifySuccess(t('categoryCreated'));
          }}
        >
          {t('addCategory')}
        </Button>
        <ExportCsvButton url="inventory-item-categories/export.csv" params={{}} fallbackName="inventory-categories.csv" />
      </Group>
      <Table verticalSpacing="sm" aria-label={t('categoriesLabel')} maw={640}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('col.category')}</Table.Th>
            <Table.Th ta="right">{t('col.items')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data?.results.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>
                <TextInput
                  aria-label={t('nameOf', { name: c.name })}
                  defaultValue={c.name}
                  variant="unstyled"
                  onBlur={async (e) => {
                    const next = e.currentTarget.value.trim();
                    if (next && next !== c.name && !('error' in (await save({ id: c.id, name: next })))) notifySuccess(t('categoryRenamed'));
                  }}
                />
              </Table.Td>
              <Table.Td ta="right">
                <Text component={Link} to={`/products/experiences/inventory/overview?category=${c.id}`} size="sm">
                  {c.item_count}
                </Text>
              </Table.Td>
              <Table.Td w={50}>
                <ActionIcon variant="subtle" color="red" aria-label={t('deleteNamed', { name: c.name })} onClick={async () => !('error' in (await remove(c.id))) && notifySuccess(t('deleted', { name: c.name }))}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
