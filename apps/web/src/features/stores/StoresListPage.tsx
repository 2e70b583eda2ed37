import { Anchor, Badge, Button, Group, Modal, Select, Table, Text } from '@mantine/core';
import { IconExternalLink, IconPlus } from '@tabler/icons-react';
import type { TStore } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { useStoresQuery } from './api';
import { storeEditorPath } from './constants';
import { CreateStoreForm } from './CreateStoreForm';
import { HelpVideos } from '../../shared/components/HelpVideos';
import { useStoresT } from './texts';

/** The Active/Inactive filter: `active=true|false` in the address, as the API takes it. */

function Row({ store, zone }: { store: TStore; zone?: string }) {
  const t = useStoresT();
  return (
    <Table.Tr data-testid="store-row">
      <Table.Td>
        <Anchor component={Link} to={storeEditorPath(store.id)} fw={500}>
          {store.name}
        </Anchor>
        <Anchor href={store.url} target="_blank" rel="noopener noreferrer" size="xs" c="dimmed" display="block" aria-label={t('publicPage', { name: store.name })}>
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
          {store.active ? t('active') : t('inactive')}
        </Badge>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDisplayDate(store.created_at, zone)}</Table.Td>
    </Table.Tr>
  );
}

/** /sales/stores: where the organisation sells online; search, Active/Inactive, and "Create store". */
export default function StoresListPage() {
  const t = useStoresT();
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useStoresQuery(filters.apiParams);
  // ?new=1 (and an offer's id in ?offer=) opens the dialog: an offer's "Create a store with this offer".
  const [params, setParams] = useSearchParams();
  const fromOffer = params.get('offer') ?? undefined;
  const [creating, setCreating] = useState(params.get('new') === '1');
  const close = () => {
    setCreating(false);
    if (params.has('new') || params.has('offer')) {
      const rest = new URLSearchParams(params);
      rest.delete('new');
      rest.delete('offer');
      setParams(rest, { replace: true });
    }
  };
  const filtered = Boolean(filters.search || filters.filters.active);
  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      csv={{ url: 'stores/export.csv', params: filters.apiParams, fallbackName: 'stores.csv' }}
      actions={
        <>
          <HelpVideos topic="stores" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('create')}
          </Button>
        </>
      }
      search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
      filters={
        <Select
          aria-label={t('statusFilter')}
          data={[
            { value: 'All', label: t('allStores') },
            { value: 'true', label: t('active') },
            { value: 'false', label: t('inactive') },
          ]}
          value={filters.filters.active ?? 'All'} onChange={(v) => filters.setFilter('active', v)} w={150} allowDeselect={false} />
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('title')}
        minWidth={720}
        fetching={isFetching}
        columns={[{ label: t('col.name') }, { label: t('col.address') }, { label: t('col.offers'), align: 'right' }, { label: t('col.status') }, { label: t('col.created') }]}
        rowCount={data?.results.length}
        empty={filtered ? t('emptyFiltered') : t('empty')}
      >
        {data?.results.map((s) => <Row key={s.id} store={s} zone={zone} />)}
      </ListTable>
      <Modal opened={creating} onClose={close} title={t('create')}>
        {creating && <CreateStoreForm onClose={close} offer={fromOffer} />}
      </Modal>
    </ListPage>
  );
}
