import { Badge, Button, Checkbox, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { TStore } from '@tourdesk/contracts';
import { useState } from 'react';
import { ListFooter, ListTable } from '../../../shared/components/ListParts';
import { useListFilters } from '../../../shared/hooks/use-list-filters';
import { notifySuccess } from '../../../shared/lib/toast';
import { useAddStoreOffersMutation, useStoreEligibleOffersQuery } from '../api';
import { OFFER_STATUS_COLOR } from '../constants';
import { Cover } from './ProductsTab';

const added = (n: number) => (n === 1 ? '1 offer added to the store.' : `${n} offers added to the store.`);

/** The Global catalog tab (…/add-products): the organisation's offers the store does not show yet; add one, or many at once. */
export function CatalogTab({ store }: { store: TStore }) {
  const filters = useListFilters();
  const { data, isFetching } = useStoreEligibleOffersQuery({ id: store.id, params: filters.apiParams });
  const [add, { isLoading, originalArgs }] = useAddStoreOffersMutation();
  const [selected, setSelected] = useState<string[]>([]);
  const rows = data?.results ?? [];
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
    notifySuccess(added(ids.length));
  };
  const busy = (ids: string[]) => isLoading && originalArgs?.experiences.length === ids.length && ids.every((id) => originalArgs.experiences.includes(id));

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Offers this store does not show yet: your own (those not Active appear in the store once they are), then those your suppliers share with you under an active contract, which you sell at their prices for your commission.
      </Text>
      <Group justify="space-between">
        <TextInput
          aria-label="Search offers"
          placeholder="Search by title"
          leftSection={<IconSearch size={16} />}
          value={filters.searchInput}
          onChange={(e) => filters.setSearch(e.currentTarget.value)}
          w={{ base: '100%', xs: 280 }}
        />
        <Button leftSection={<IconPlus size={16} />} disabled={selected.length === 0} loading={selected.length > 0 && busy(selected)} onClick={() => addOffers(selected)}>
          {selected.length === 0 ? 'Add to store' : `Add ${selected.length} to store`}
        </Button>
      </Group>
      <ListTable
        label="Global catalog"
        minWidth={340}
        fetching={isFetching}
        columns={[
          {
            w: 40,
            label: (
              <Checkbox
                aria-label="Select every offer on this page"
                checked={allChosen}
                indeterminate={chosenHere.length > 0 && !allChosen}
                onChange={() => setSelected(allChosen ? selected.filter((id) => !onPage.includes(id)) : [...new Set([...selected, ...onPage])])}
              />
            ),
          },
          { w: 80 },
          { label: 'Offer' },
          {},
        ]}
        rowCount={data ? rows.length : undefined}
        empty={filters.search ? 'No offer matches this search.' : 'Every offer you can sell is in this store.'}
      >
        {rows.map((o) => {
          const checked = selected.includes(o.experience);
          return (
            <Table.Tr key={o.experience} data-testid="eligible-offer" bg={checked ? 'var(--mantine-primary-color-light)' : undefined}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${o.title}`}
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
                    {o.status}
                  </Badge>
                  {o.supplier && (
                    <Badge variant="outline" size="xs" color="grape">
                      Partner: {o.supplier}
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td ta="right">
                <Button size="xs" variant="light" aria-label={`Add ${o.title}`} loading={busy([o.experience])} onClick={() => addOffers([o.experience])}>
                  Add
                </Button>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </ListTable>
      <ListFooter count={data?.count} noun="offer" totalPages={data?.total_pages} filters={filters} />
    </Stack>
  );
}
