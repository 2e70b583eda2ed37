import { Anchor, Badge, Button, Group, Modal, Select, Table, Text } from '@mantine/core';
import { IconExternalLink, IconPlus } from '@tabler/icons-react';
import type { TStore } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { useStoresQuery } from './api';
import { storeEditorPath } from './constants';
import { CreateStoreForm } from './CreateStoreForm';
import { HelpVideos } from '../../shared/components/HelpVideos';

/** The Active/Inactive filter: `active=true|false` in the address, as the API takes it. */
const ACTIVE_FILTER = [
  { value: 'All', label: 'All stores' },
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

function Row({ store, zone }: { store: TStore; zone?: string }) {
  return (
    <Table.Tr data-testid="store-row">
      <Table.Td>
        <Anchor component={Link} to={storeEditorPath(store.id)} fw={500}>
          {store.name}
        </Anchor>
        <Anchor href={store.url} target="_blank" rel="noopener noreferrer" size="xs" c="dimmed" display="block" aria-label={`${store.name}: public page (opens in a new tab)`}>
          <Group gap={4} wrap="nowrap" component="span">
            <span style={{ wordBreak: 'break-all' }}>{store.url}</span>
            <IconExternalLink size={12} style={{ flexShrink: 0 }} />
          </Group>
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          /s/{store.slug}/
        </Text>
      </Table.Td>
      <Table.Td ta="right">{store.experience_count}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={store.active ? 'green' : 'gray'}>
          {store.active ? 'Active' : 'Inactive'}
        </Badge>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDisplayDate(store.created_at, zone)}</Table.Td>
    </Table.Tr>
  );
}

/** /sales/stores: where the organisation sells online; search, Active/Inactive, and "Create store". */
export default function StoresListPage() {
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useStoresQuery(filters.apiParams);
  const [creating, setCreating] = useState(false);
  const filtered = Boolean(filters.search || filters.filters.active);
  return (
    <ListPage
      title="Stores"
      description="Web stores where customers book your offers."
      csv={{ url: 'stores/export.csv', params: filters.apiParams, fallbackName: 'stores.csv' }}
      actions={
        <>
          <HelpVideos topic="stores" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create store
          </Button>
        </>
      }
      search={{ label: 'Search stores', placeholder: 'Name or address' }}
      filters={
        <Select aria-label="Status filter" data={ACTIVE_FILTER} value={filters.filters.active ?? 'All'} onChange={(v) => filters.setFilter('active', v)} w={150} allowDeselect={false} />
      }
      list={filters}
      count={data?.count}
      noun="store"
      totalPages={data?.total_pages}
    >
      <ListTable
        label="Stores"
        minWidth={720}
        fetching={isFetching}
        columns={[{ label: 'Name' }, { label: 'Address' }, { label: 'Offers', align: 'right' }, { label: 'Status' }, { label: 'Created' }]}
        rowCount={data?.results.length}
        empty={filtered ? 'No store matches these filters.' : 'No store yet: create one to sell your offers online.'}
      >
        {data?.results.map((s) => <Row key={s.id} store={s} zone={zone} />)}
      </ListTable>
      <Modal opened={creating} onClose={() => setCreating(false)} title="Create store">
        {creating && <CreateStoreForm onClose={() => setCreating(false)} />}
      </Modal>
    </ListPage>
  );
}
