import { Badge, Button, Checkbox, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { TStore } from '@tourdesk/contracts';
import { useState } from 'react';
import { ListFooter, ListTable } from '../../../shared/components/ListParts';
import { useListFilters } from '../../../shared/hooks/use-list-filters';
import { notifySuccess } from '../../../shared/lib/toast';
import { useAddStoreOffersMutation, useStoreEligibleOffersQuery } from '../api';
import { OFFER_STATUS_COLOR } from '../constants';
import { useStoresT } from '../texts';
import { Cover } from './ProductsTab';

/** The Global catalog tab (…/add-products): the organisation's offers the store does not show yet; add one, or many at once. */
export function CatalogTab({ store }: { store: TStore }) {
  const t = useStoresT();
  const filters = useListFilters();
  const { data, isFetching } = useStoreEligibleOffersQuery({ id: store.id, params: filters.apiParams });
  const [add, { isLoading, originalArgs }] = useAddStoreOffersMutation();
  const [selected, setSelected] = useState<string[]>([]);
  const rows = data?.results ?? [];
  const status: Record<string, string> = { Draft: t('products.status.Draft'), Active: t('products.status.Active'), Inactive: t('products.status.Inactive') };
  const onPage = rows.map((r) => r.experience);
  // The selection outlives a search or another page: "Add N" adds every offer chosen.
  const chosenHere = onPage.filter((id) => selected.includes(id));
  const allChosen = onPage.length > 0 && chosenHere.length === onPage.length;

  const addOffers = async (ids: string[]) => {
    // Adding every offer of a later page empties it: go back a page first (a page past the end is a 404).
    if (filters.page > 1 && onPage.every((id) => ids.includes(id))) filters.setPage(filters.page - 1);
    const res = await add({ id: store.id, experiences: ids });
    if ('error' in res) return;
    setSelected((s) => s.filter((id) => !ids.includes(id)));
    notifySuccess(t('catalog.added', { count: ids.length }));
  };
  const busy = (ids: string[]) => isLoading && originalArgs?.experiences.length === ids.length && ids.every((id) => originalArgs.experiences.includes(id));

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('catalog.hint')}
      </Text>
      <Group justify="space-between">
        <TextInput
          aria-label={t('catalog.search')}
          placeholder={t('catalog.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={filters.searchInput}
          onChange={(e) => filters.setSearch(e.currentTarget.value)}
          w={{ base: '100%', xs: 280 }}
        />
        <Button leftSection={<IconPlus size={16} />} disabled={selected.length === 0} loading={selected.length > 0 && busy(selected)} onClick={() => addOffers(selected)}>
          {selected.length === 0 ? t('catalog.addNone') : t('catalog.addSome', { count: selected.length })}
        </Button>
      </Group>
      <ListTable
        label={t('catalog.label')}
        minWidth={340}
        fetching={isFetching}
        columns={[
          {
            w: 40,
            label: (
              <Checkbox
                aria-label={t('catalog.selectPage')}
                checked={allChosen}
                indeterminate={chosenHere.length > 0 && !allChosen}
                onChange={() => setSelected(allChosen ? selected.filter((id) => !onPage.includes(id)) : [...new Set([...selected, ...onPage])])}
              />
            ),
          },
          { w: 80 },
          { label: t('catalog.offer') },
          {},
        ]}
        rowCount={data ? rows.length : undefined}
        empty={filters.search ? t('catalog.noMatch') : t('catalog.allIn')}
      >
        {rows.map((o) => {
          const checked = selected.includes(o.experience);
          return (
            <Table.Tr key={o.experience} data-testid="eligible-offer" bg={checked ? 'var(--mantine-primary-color-light)' : undefined}>
              <Table.Td>
                <Checkbox
                  aria-label={t('catalog.select', { title: o.title })}
                  checked={checked}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setSelected((s) => (on ? [...s, o.experience] : s.filter((id) => id !== o.experience)));
                  }}
                />
              </Table.Td>
              <Table.Td>
                <Cover url={o.cover_url} />
              </Table.Td>
              <Table.Td>
                <Text fw={500} size="sm">
                  {o.title}
                </Text>
                <Group gap={6} mt={4}>
                  <Badge variant="light" size="xs" color={OFFER_STATUS_COLOR[o.status] ?? 'gray'}>
                    {status[o.status] ?? o.status}
                  </Badge>
                  {o.supplier && (
                    <Badge variant="outline" size="xs" color="grape">
                      {t('catalog.partner', { supplier: o.supplier })}
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td ta="right">
                <Button size="xs" variant="light" aria-label={t('catalog.addOne', { title: o.title })} loading={busy([o.experience])} onClick={() => addOffers([o.experience])}>
                  {t('catalog.add')}
                </Button>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </ListTable>
      <ListFooter count={data?.count} countLabel={(count) => t('catalog.count', { count })} totalPages={data?.total_pages} filters={filters} />
    </Stack>
  );
}
