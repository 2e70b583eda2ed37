import { ActionIcon, Anchor, Badge, Button, Modal, Table, Text } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import type { TCustomer } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { useCustomersQuery } from './api';
import { CustomerForm } from './CustomerForm';
import { customerPath, fullName } from './constants';
import { useCustomersT } from './texts';

function Row({ customer, zone, onEdit }: { customer: TCustomer; zone?: string; onEdit: () => void }) {
  const t = useCustomersT();
  const navigate = useNavigate();
  const to = customerPath(customer.id);
  return (
    <Table.Tr onClick={() => navigate(to)} style={{ cursor: 'pointer' }} data-testid="customer-row">
      <Table.Td>
        <Anchor component={Link} to={to} fw={500} onClick={(e) => e.stopPropagation()}>
          {fullName(customer)}
        </Anchor>
        <Text size="xs" c="dimmed">
          {customer.email}
        </Text>
      </Table.Td>
      <Table.Td>{customer.phone || <Text c="dimmed">—</Text>}</Table.Td>
      <Table.Td>{customer.country ?? <Text c="dimmed">—</Text>}</Table.Td>
      <Table.Td>
        {customer.marketing_consent ? (
          <Badge variant="light" color="teal">
            {t('yes')}
          </Badge>
        ) : (
          <Text c="dimmed" size="sm">
            {t('no')}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right">{customer.orders}</Table.Td>
      <Table.Td ta="right">{formatMoney(customer.total_spent, customer.currency)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDisplayDate(customer.created_at, zone)}</Table.Td>
      <Table.Td w={50}>
        <ActionIcon
          variant="subtle"
          aria-label={t('editNamed', { name: fullName(customer) })}
          onClick={(e) => {
            e.stopPropagation();
            onEdit();
          }}
        >
          <IconPencil size={16} />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
}

/** /customers/list: who bought, searchable; create and edit in a dialog. */
export default function CustomersListPage() {
  const t = useCustomersT();
  const filters = useListFilters();
  const navigate = useNavigate();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useCustomersQuery(filters.apiParams);
  const [editing, setEditing] = useState<TCustomer | 'new' | null>(null);
  const close = () => setEditing(null);
  return (
    <ListPage
      title={t('title')}
      csv={{ url: 'customers/export.csv', params: filters.apiParams, fallbackName: 'customers.csv' }}
      actions={
        <>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('newCustomer')}
          </Button>
        </>
      }
      search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('title')}
        minWidth={860}
        fetching={isFetching}
        columns={[{ label: t('col.name') }, { label: t('col.phone') }, { label: t('col.country') }, { label: t('col.marketing') }, { label: t('col.orders'), align: 'right' }, { label: t('col.spent'), align: 'right' }, { label: t('col.since') }, {}]}
        rowCount={data?.results.length}
        empty={t('empty')}
      >
        {data?.results.map((c) => <Row key={c.id} customer={c} zone={zone} onEdit={() => setEditing(c)} />)}
      </ListTable>
      <Modal opened={editing !== null} onClose={close} title={editing === 'new' ? t('newCustomer') : t('editCustomer')} size="lg">
        {editing !== null && (
          <CustomerForm
            customer={editing === 'new' ? null : editing}
            onCancel={close}
            onDone={(c) => {
              close();
              if (editing === 'new') navigate(customerPath(c.id));
            }}
          />
        )}
      </Modal>
    </ListPage>
  );
}
