import { Alert, Badge, Button, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { IconClipboardList, IconScan } from '@tabler/icons-react';
import { BOOKING_STATUS_FILTERS } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../shared/api/api';
import { errorItems } from '../../shared/api/errors';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime } from '../../shared/lib/dates';
import { notifySuccess } from '../../shared/lib/toast';
import { useBookingsQuery, useCheckInMutation } from './api';
import { ATTENDANCE_COLOR } from './constants';
import { DateField } from '../../shared/components/DateField';

const offersApi = api.injectEndpoints({
  endpoints: (build) => ({
    offerOptions: build.query<{ results: { id: string; title: string }[] }, void>({ query: () => ({ url: 'experiences/', params: { page_size: 50, ordering: 'title' } }) }),
  }),
});

const detailPath = (order: string, booking: string) => `/orders/editor/${order}/booking/${booking}`;

function CheckIn() {
  const [code, setCode] = useState('');
  /** A ticket of another day, refused: its code and why, until it is admitted anyway or another code is typed. */
  const [otherDay, setOtherDay] = useState<{ code: string; detail: string } | null>(null);
  const [checkIn, { isLoading }] = useCheckInMutation();
  const submit = async (override = false) => {
    const typed = override && otherDay ? otherDay.code : code.trim();
    if (typed.length < 6 || isLoading) return;
    const res = await checkIn({ ticket_code: typed, override });
    if (!('error' in res)) {
      notifySuccess(`${res.data.customer.first_name} ${res.data.customer.last_name} checked in (${res.data.seats} seat${res.data.seats === 1 ? '' : 's'}).`);
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
        <TextInput label="Scan or type a ticket code" value={code} onChange={(e) => { setCode(e.currentTarget.value); setOtherDay(null); }} w={260} leftSection={<IconScan size={16} />} />
        <Button type="submit" loading={isLoading} disabled={code.trim().length < 6}>
          Check in
        </Button>
        <Button component={Link} to="/check-in" variant="subtle">
          Check-in on a phone
        </Button>
      </Group>
      {otherDay && (
        <Alert color="yellow" mt="sm" title="Wrong day" data-testid="check-in-other-day">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{otherDay.detail.replace(/^Wrong day: b/, 'B')}</Text>
            <Button size="xs" color="dark" onClick={() => void submit(true)} loading={isLoading}>
              Check in anyway
            </Button>
          </Group>
        </Alert>
      )}
    </form>
  );
}

export default function BookingsOverviewPage() {
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useBookingsQuery(filters.apiParams);
  const { data: offers } = offersApi.useOfferOptionsQuery();
  return (
    <ListPage
      title="Bookings"
      csv={{ url: 'bookings/export.csv', params: filters.apiParams, fallbackName: 'bookings.csv' }}
      actions={
        <>
          <Button component={Link} to={`/bookings/manifests?date=${dayjs().format('YYYY-MM-DD')}`} variant="default" leftSection={<IconClipboardList size={16} />}>
            Today’s manifests
          </Button>
          <Button component={Link} to="/bookings/checkout-editor">
            New booking
          </Button>
        </>
      }
      tabs={<CheckIn />}
      search={{ label: 'Search bookings', placeholder: 'Guest, e-mail, order or ticket' }}
      filters={
        <>
          <Select aria-label="Status filter" data={[{ value: 'All', label: 'Any status' }, ...BOOKING_STATUS_FILTERS]} value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={150} allowDeselect={false} />
          <Select
            aria-label="Offer filter"
            data={[{ value: 'All', label: 'All offers' }, ...(offers?.results ?? []).map((o) => ({ value: o.id, label: o.title }))]}
            value={filters.filters.experience ?? 'All'}
            onChange={(v) => filters.setFilter('experience', v)}
            w={220}
            allowDeselect={false}
            searchable
          />
          <DateField aria-label="From" value={filters.filters.from} onChange={(v) => filters.setFilter('from', v || null)} w={190} />
          <DateField aria-label="To" value={filters.filters.to} onChange={(v) => filters.setFilter('to', v || null)} w={190} />
        </>
      }
      list={filters}
      count={data?.count}
      noun="booking"
      totalPages={data?.total_pages}
    >
      <ListTable
        label="Bookings"
        minWidth={760}
        fetching={isFetching}
        highlightOnHover={false}
        columns={[{ label: 'Starts' }, { label: 'Offer' }, { label: 'Guest' }, { label: 'Seats', align: 'right' }, { label: 'Status' }, { label: 'Attendance' }]}
        rowCount={data?.results.length}
        empty="No booking matches these filters."
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
                {b.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              {b.status === 'Canceled' ? (
                <Text size="sm" c="dimmed">
                  –
                </Text>
              ) : (
                <Badge color={ATTENDANCE_COLOR[b.attendance]} variant="light">
                  {b.attendance}
                </Badge>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {!data && isFetching && <Text c="dimmed">Loading…</Text>}
    </ListPage>
  );
}
