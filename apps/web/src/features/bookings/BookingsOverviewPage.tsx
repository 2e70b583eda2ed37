import { Badge, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconClipboardList, IconScan, IconSearch } from '@tabler/icons-react';
import { BOOKING_STATUS_FILTERS } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../shared/api/api';
import { ExportCsvButton } from '../../shared/components/ExportCsvButton';
import { EmptyRow, ListFooter } from '../../shared/components/ListParts';
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
  const [checkIn, { isLoading }] = useCheckInMutation();
  const submit = async () => {
    if (code.trim().length < 6 || isLoading) return;
    const res = await checkIn(code.trim());
    if (!('error' in res)) {
      notifySuccess(`${res.data.customer.first_name} ${res.data.customer.last_name} checked in (${res.data.seats} seat${res.data.seats === 1 ? '' : 's'}).`);
      setCode('');
    }
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
        <TextInput label="Scan or type a ticket code" value={code} onChange={(e) => setCode(e.currentTarget.value)} w={260} leftSection={<IconScan size={16} />} />
        <Button type="submit" loading={isLoading} disabled={code.trim().length < 6}>
          Check in
        </Button>
        <Button component={Link} to="/check-in" variant="subtle">
          Check-in on a phone
        </Button>
      </Group>
    </form>
  );
}

export default function BookingsOverviewPage() {
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useBookingsQuery(filters.apiParams);
  const { data: offers } = offersApi.useOfferOptionsQuery();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Bookings</Title>
        <Group gap="xs">
          <ExportCsvButton url="bookings/export.csv" params={filters.apiParams} fallbackName="bookings.csv" />
          <Button component={Link} to={`/bookings/manifests?date=${dayjs().format('YYYY-MM-DD')}`} variant="default" leftSection={<IconClipboardList size={16} />}>
            Today’s manifests
          </Button>
          <Button component={Link} to="/bookings/checkout-editor">
            New booking
          </Button>
        </Group>
      </Group>
      <CheckIn />
      <Group>
        <TextInput aria-label="Search bookings" placeholder="Guest, e-mail, order or ticket" leftSection={<IconSearch size={16} />} value={filters.searchInput} onChange={(e) => filters.setSearch(e.currentTarget.value)} w={260} />
        <Select aria-label="Status filter" data={['All', ...BOOKING_STATUS_FILTERS]} value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={150} allowDeselect={false} />
        <Select
          aria-label="Offer filter"
          data={[{ value: 'All', label: 'All offers' }, ...(offers?.results ?? []).map((o) => ({ value: o.id, label: o.title }))]}
          value={filters.filters.experience ?? 'All'}
          onChange={(v) => filters.setFilter('experience', v)}
          w={220}
          allowDeselect={false}
          searchable
        />
        <DateField aria-label="From" value={filters.filters.from} max={filters.filters.to} onChange={(v) => filters.setFilter('from', v || null)} w={190} />
        <DateField aria-label="To" value={filters.filters.to} min={filters.filters.from} onChange={(v) => filters.setFilter('to', v || null)} w={190} />
        <Button variant="subtle" onClick={filters.reset}>
          Reset filters
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" aria-label="Bookings" style={{ opacity: isFetching ? 0.6 : 1 }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Starts</Table.Th>
              <Table.Th>Offer</Table.Th>
              <Table.Th>Guest</Table.Th>
              <Table.Th ta="right">Seats</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Attendance</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.results.length === 0 && <EmptyRow colSpan={6}>No booking matches these filters.</EmptyRow>}
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
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListFooter count={data?.count} noun="booking" totalPages={data?.total_pages} filters={filters} />
      {!data && isFetching && <Text c="dimmed">Loading…</Text>}
    </Stack>
  );
}
