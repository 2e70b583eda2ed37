import { Alert, Badge, Button, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { IconClipboardList, IconScan } from '@tabler/icons-react';
import { BOOKING_STATUS_FILTERS } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../shared/api/api';
import { errorItems } from '../../shared/api/errors';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useAppSelector } from '../../shared/hooks/store';
import { useToday } from '../../shared/hooks/use-today';
import { useCan } from '../../shared/hooks/use-can';
import { formatDateTime } from '../../shared/lib/dates';
import { notifySuccess } from '../../shared/lib/toast';
import { useBookingsQuery, useCheckInMutation } from './api';
import { ATTENDANCE_COLOR } from './constants';
import { DateField } from '../../shared/components/DateField';
import { useBookingsT } from './texts';

const offersApi = api.injectEndpoints({
  endpoints: (build) => ({
    offerOptions: build.query<{ results: { id: string; title: string }[] }, void>({ query: () => ({ url: 'experiences/', params: { page_size: 50, ordering: 'title' } }) }),
  }),
});

const detailPath = (order: string, booking: string) => `/orders/editor/${order}/booking/${booking}`;

function CheckIn() {
  const t = useBookingsT();
  const [code, setCode] = useState('');
  /** A ticket of another day, refused: its code and why, until it is admitted anyway or another code is typed. */
  const [otherDay, setOtherDay] = useState<{ code: string; detail: string } | null>(null);
  const [checkIn, { isLoading }] = useCheckInMutation();
  const submit = async (override = false) => {
    const typed = override && otherDay ? otherDay.code : code.trim();
    if (typed.length < 6 || isLoading) return;
    const res = await checkIn({ ticket_code: typed, override });
    if (!('error' in res)) {
      notifySuccess(t('checkIn.done', { name: `${res.data.customer.first_name} ${res.data.customer.last_name}`, seats: res.data.seats }));
      setCode('');
      setOtherDay(null);
      return;
    }
    const item = errorItems(res.error)[0];
    setOtherDay(item?.code === 'wrong_day' ? { code: typed, detail: item.detail } : null);
  };
  // A form: Enter submits, as a USB scanner ends each code with Enter.
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Group align="flex-end">
        <TextInput label={t('checkIn.code')} value={code} onChange={(e) => { setCode(e.currentTarget.value); setOtherDay(null); }} w={260} leftSection={<IconScan size={16} />} />
        <Button type="submit" loading={isLoading} disabled={code.trim().length < 6}>
          {t('checkIn.button')}
        </Button>
        <Button component={Link} to="/check-in" variant="subtle">
          {t('checkIn.phone')}
        </Button>
      </Group>
      {otherDay && (
        <Alert color="yellow" mt="sm" title={t('checkIn.wrongDay')} data-testid="check-in-other-day">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{otherDay.detail.replace(/^Wrong day: b/, 'B')}</Text>
            <Button size="xs" color="dark" onClick={() => void submit(true)} loading={isLoading}>
              {t('checkIn.anyway')}
            </Button>
          </Group>
        </Alert>
      )}
    </form>
  );
}

export default function BookingsOverviewPage() {
  const t = useBookingsT();
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const today = useToday();
  const { data, isFetching } = useBookingsQuery(filters.apiParams);
  // The offer filter's options: the catalogue, which a reseller's plan may not include (it books its partners' offers).
  const seesCatalog = useCan(['View experiences'], ['experiences']);
  const { data: offers } = offersApi.useOfferOptionsQuery(undefined, { skip: !seesCatalog });
  return (
    <ListPage
      title={t('title')}
      csv={{ url: 'bookings/export.csv', params: filters.apiParams, fallbackName: 'bookings.csv' }}
      actions={
        <>
          <Button component={Link} to={`/bookings/manifests?date=${today}`} variant="default" leftSection={<IconClipboardList size={16} />}>
            {t('todaysManifests')}
          </Button>
          <Button component={Link} to="/bookings/checkout-editor">
            {t('newBooking')}
          </Button>
        </>
      }
      tabs={<CheckIn />}
      search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
      filters={
        <>
          <Select aria-label={t('statusFilter')} data={[{ value: 'All', label: t('anyStatus') }, ...BOOKING_STATUS_FILTERS.map((s) => ({ value: s, label: t(`status.${s}`) }))]} value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={150} allowDeselect={false} />
          <Select
            aria-label={t('offerFilter')}
            data={[{ value: 'All', label: t('allOffers') }, ...(offers?.results ?? []).map((o) => ({ value: o.id, label: o.title }))]}
            value={filters.filters.experience ?? 'All'}
            onChange={(v) => filters.setFilter('experience', v)}
            w={220}
            allowDeselect={false}
            searchable
          />
          <DateField aria-label={t('from')} value={filters.filters.from} onChange={(v) => filters.setFilter('from', v || null)} w={190} />
          <DateField aria-label={t('to')} value={filters.filters.to} onChange={(v) => filters.setFilter('to', v || null)} w={190} />
        </>
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('title')}
        minWidth={760}
        fetching={isFetching}
        highlightOnHover={false}
        columns={[{ label: t('col.starts') }, { label: t('col.offer') }, { label: t('col.guest') }, { label: t('col.seats'), align: 'right' }, { label: t('col.status') }, { label: t('col.attendance') }]}
        rowCount={data?.results.length}
        empty={t('empty')}
      >
        {data?.results.map((b) => (
          <Table.Tr key={b.id}>
            <Table.Td>
              <Text component={Link} to={detailPath(b.order, b.id)} size="sm" fw={500}>
                {formatDateTime(b.starts_at, zone)}
              </Text>
            </Table.Td>
            <Table.Td>{b.experience_title}</Table.Td>
            <Table.Td>
              {b.customer.first_name} {b.customer.last_name}
            </Table.Td>
            <Table.Td ta="right">{b.seats}</Table.Td>
            <Table.Td>
              <Badge color={b.status === 'Canceled' ? 'red' : 'green'} variant="light">
                {t(`status.${b.status}`)}
              </Badge>
            </Table.Td>
            <Table.Td>
              {b.status === 'Canceled' ? (
                <Text size="sm" c="dimmed">
                  –
                </Text>
              ) : (
                <Badge color={ATTENDANCE_COLOR[b.attendance]} variant="light">
                  {t(`attendance.${b.attendance}`)}
                </Badge>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {!data && isFetching && <Text c="dimmed">{t('loading')}</Text>}
    </ListPage>
  );
}
