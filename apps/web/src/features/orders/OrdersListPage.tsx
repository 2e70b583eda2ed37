import { Anchor, Badge, Button, Select, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { DATE_RANGE_FILTERS, ORDER_STATUS_FILTERS, PAYMENT_STATUSES, type TOrderSummary } from '@tourdesk/contracts';
import { Link, useNavigate } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate, formatTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { useOrderFilterOptionsQuery, useOrdersQuery } from './api';
import {
  DEFAULT_ORDERING,
  fullName,
  ORDER_STATUS_COLOR,
  orderPath,
  ORDERINGS,
  PAYMENT_STATUS_COLOR,
} from './constants';
import { HelpVideos } from '../../shared/components/HelpVideos';
import { useOrdersT } from './texts';

const EXPORT_URL = 'orders/export.csv';

function Row({ order, zone }: { order: TOrderSummary; zone?: string }) {
  const t = useOrdersT();
  const navigate = useNavigate();
  const to = orderPath(order.id);
  return (
    <Table.Tr onClick={() => navigate(to)} style={{ cursor: 'pointer' }} data-testid="order-row">
      <Table.Td>
        <Anchor component={Link} to={to} fw={500} ff="monospace" style={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
          {order.reference}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {fullName(order.customer)}
        </Text>
        <Text size="xs" c="dimmed">
          {order.customer.email}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{formatDisplayDate(order.created_at, zone)}</Text>
        <Text size="xs" c="dimmed">
          {formatTime(order.created_at, zone)}
        </Text>
      </Table.Td>
      <Table.Td ta="right">{order.lines}</Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{formatMoney(order.total, order.currency)}</Text>
        {order.sold_total !== order.total && (
          <Text size="xs" c="dimmed" data-testid="sold-total">
            {t('soldFor', { amount: formatMoney(order.sold_total, order.currency) })}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{formatMoney(order.paid, order.currency)}</Text>
        {order.refunded > 0 && (
          <Text size="xs" c="dimmed">
            {t('refunded', { amount: formatMoney(order.refunded, order.currency) })}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Badge color={PAYMENT_STATUS_COLOR[order.payment_status]} variant="light" size="sm" data-testid="payment-status">
          {t(`payment.${order.payment_status}`)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Badge color={ORDER_STATUS_COLOR[order.status]} variant="light" size="sm">
          {t(`orderStatus.${order.status}`)}
        </Badge>
      </Table.Td>
    </Table.Tr>
  );
}

/** /orders/list: every order, filtered in the address, exportable as CSV. */
export default function OrdersListPage() {
  const t = useOrdersT();
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const ordering = filters.filters.ordering ?? DEFAULT_ORDERING;
  const { data, isFetching } = useOrdersQuery({ ...filters.apiParams, ordering });
  const { data: options } = useOrderFilterOptionsQuery();
  // The export takes the list's filters and order, not its page.
  const exportParams: Record<string, string> = { ...filters.filters, ordering, ...(filters.search ? { search: filters.search } : {}) };

  return (
    <ListPage
      title={t('title')}
      actions={
        <>
          <HelpVideos topic="orders" />
          <Button component={Link} to="/bookings/checkout-editor" leftSection={<IconPlus size={16} />}>
            {t('newOrder')}
          </Button>
        </>
      }
      csv={{ url: EXPORT_URL, params: exportParams, fallbackName: 'orders.csv' }}
      search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
      filters={
        <>
          <Select
            aria-label={t('dateRange')}
            data={DATE_RANGE_FILTERS.map((v) => ({ value: v, label: t(`range.${v}`) }))}
            value={filters.filters.date_range ?? 'all'}
            onChange={(v) => filters.setFilter('date_range', v === 'all' ? null : v)}
            w={160}
            allowDeselect={false}
          />
          <Select
            aria-label={t('paymentStatus')}
            data={[{ value: 'All', label: t('anyPayment') }, ...PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`payment.${s}`) }))]}
            value={filters.filters.payment_status ?? 'All'}
            onChange={(v) => filters.setFilter('payment_status', v)}
            w={160}
            allowDeselect={false}
          />
          <Select
            aria-label={t('status')}
            data={[{ value: 'All', label: t('anyStatus') }, ...ORDER_STATUS_FILTERS.map((s) => ({ value: s, label: t(`orderStatus.${s}`) }))]}
            value={filters.filters.status ?? 'All'}
            onChange={(v) => filters.setFilter('status', v)}
            w={150}
            allowDeselect={false}
          />
          <Select
            aria-label={t('seller')}
            data={[{ value: 'All', label: t('allSellers') }, ...(options?.sellers ?? []).map((s) => ({ value: s.id, label: s.name }))]}
            value={filters.filters.seller ?? 'All'}
            onChange={(v) => filters.setFilter('seller', v)}
            w={180}
            allowDeselect={false}
            searchable
          />
          <Select
            aria-label={t('store')}
            data={[{ value: 'All', label: t('allStores') }, ...(options?.stores ?? []).map((s) => ({ value: s.id, label: s.name }))]}
            value={filters.filters.store ?? 'All'}
            onChange={(v) => filters.setFilter('store', v)}
            w={180}
            allowDeselect={false}
            searchable
          />
          <Select
            aria-label={t('orderBy')}
            data={ORDERINGS.map((o) => ({ value: o.value, label: t(`ordering.${o.value}` as Parameters<typeof t>[0]) }))}
            value={ordering}
            onChange={(v) => filters.setFilter('ordering', v === DEFAULT_ORDERING ? null : v)}
            w={170}
            allowDeselect={false}
          />
        </>
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('title')}
        minWidth={980}
        fetching={isFetching}
        horizontalSpacing="xs"
        columns={[{ label: t('col.reference') }, { label: t('col.customer') }, { label: t('col.created') }, { label: t('col.lines'), align: 'right' }, { label: t('col.total'), align: 'right' }, { label: t('col.paid'), align: 'right' }, { label: t('col.payment') }, { label: t('col.status') }]}
        rowCount={data?.results.length}
        empty={t('empty')}
      >
        {data?.results.map((o) => <Row key={o.id} order={o} zone={zone} />)}
      </ListTable>
    </ListPage>
  );
}
