import { Anchor, Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconExternalLink, IconPlus, IconSearch } from '@tabler/icons-react';
import type { TStore } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyRow, ListFooter } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { ExportCsvButton } from '../../shared/components/ExportCsvButton';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { useStoresQuery } from './api';
import { storeEditorPath, WHOLE } from './constants';
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
        <Badge variant="light" color={store.active ? 'green' : 'gray'} style={WHOLE}>
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
    <Stack gap="md">
      <Group justify="space-between">
        <div>
          <Title order={2}>Stores</Title>
          <Text c="dimmed" size="sm">
            Web stores where customers book your offers.
          </Text>
        </div>
        <Group gap="xs">
          <HelpVideos topic="stores" />
          <ExportCsvButton url="stores/export.csv" params={filters.apiParams} fallbackName="stores.csv" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create store
          </Button>
        </Group>
      </Group>
      <Group>
        <TextInput
          aria-label="Search stores"
          placeholder="Name or address"
          leftSection={<IconSearch size={16} />}
          value={filters.searchInput}
          onChange={(e) => filters.setSearch(e.currentTarget.value)}
          w={{ base: '100%', xs: 280 }}
        />
        <Select
          aria-label="Status filter"
          data={ACTIVE_FILTER}
          value={filters.filters.active ?? 'All'}
          onChange={(v) => filters.setFilter('active', v)}
          w={150}
          allowDeselect={false}
        />
        <Button variant="subtle" onClick={filters.reset}>
          Reset filters
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" highlightOnHover aria-label="Stores" style={{ opacity: isFetching ? 0.6 : 1 }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th ta="right">Offers</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.results.length === 0 && (
              <EmptyRow colSpan={5}>{filtered ? 'No store matches these filters.' : 'No store yet: create one to sell your offers online.'}</EmptyRow>
            )}
            {data?.results.map((s) => <Row key={s.id} store={s} zone={zone} />)}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListFooter count={data?.count} noun="store" totalPages={data?.total_pages} filters={filters} />
      <Modal opened={creating} onClose={() => setCreating(false)} title="Create store">
        {creating && <CreateStoreForm onClose={() => setCreating(false)} />}
      </Modal>
    </Stack>
  );
}
