import { Anchor, Badge, Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { DATE_RANGE_FILTERS, RESALE_STATUS_FILTERS, type TResale } from '@tourdesk/contracts';
import { Link, useNavigate } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate, formatTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { useResaleFilterOptionsQuery, useResalesQuery } from './api';
import { DATE_RANGE_LABELS, Figure, Figures, itemsText, LINE_STATUS_COLOR, resalePath, ResalesHeader, SIDE_LABEL } from './parts';
import { ExportCsvButton } from '../../shared/components/ExportCsvButton';
import { DateField } from '../../shared/components/DateField';

function Row({ line, zone }: { line: TResale; zone?: string }) {
  const navigate = useNavigate();
  const to = resalePath(line.order_id);
  return (
    <Table.Tr onClick={() => navigate(to)} style={{ cursor: 'pointer' }} data-testid="resale-row">
      <Table.Td>
        <Anchor component={Link} to={to} fw={500} ff="monospace" style={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
          {line.order_reference}
        </Anchor>
        {line.reseller_reference && (
          <Text size="xs" c="dimmed">
            {line.reseller_reference}
          </Text>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{formatDisplayDate(line.sold_at, zone)}</Text>
        <Text size="xs" c="dimmed">
          {SIDE_LABEL[line.side]}
          {line.store ? ` · ${line.store.name}` : ''}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {line.offer.name}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDisplayDate(line.starts_at, line.time_zone)} {formatTime(line.starts_at, line.time_zone)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" data-testid="resale-partner">
          {line.partner_name}
        </Text>
        <Text size="xs" c="dimmed">
          {itemsText(line.items)}
        </Text>
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {formatMoney(line.gross, line.currency)}
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {formatMoney(line.commission, line.currency)}
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {formatMoney(line.supplier_net, line.currency)}
      </Table.Td>
      <Table.Td>
        <LineStatus line={line} />
      </Table.Td>
    </Table.Tr>
  );
}

/** The line's status, and whether a statement settles it. */
function LineStatus({ line }: { line: TResale }) {
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={LINE_STATUS_COLOR[line.status]} variant="light" size="sm">
        {line.status === 'Created' ? 'Unconfirmed' : line.status}
      </Badge>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="resale-settlement">
        {line.settlement ? `${line.settlement.status === 'Settled' ? 'Settled' : 'On statement'} ${line.settlement.number}` : 'Not settled'}
      </Text>
    </Stack>
  );
}

/** The same line as a card, for a phone's width. */
function Card({ line, zone }: { line: TResale; zone?: string }) {
  const navigate = useNavigate();
  return (
    <Paper withBorder radius="md" p="sm" onClick={() => navigate(resalePath(line.order_id))} style={{ cursor: 'pointer' }} data-testid="resale-card">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Anchor component={Link} to={resalePath(line.order_id)} fw={500} ff="monospace" size="sm" onClick={(e) => e.stopPropagation()}>
            {line.order_reference}
          </Anchor>
          <Text size="sm" fw={500}>
            {line.offer.name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDisplayDate(line.starts_at, line.time_zone)} {formatTime(line.starts_at, line.time_zone)} · {itemsText(line.items)}
          </Text>
          <Text size="xs" c="dimmed">
            {SIDE_LABEL[line.side]}: {line.partner_name}
            {line.store ? ` · ${line.store.name}` : ''} · {formatDisplayDate(line.sold_at, zone)}
          </Text>
        </div>
        <LineStatus line={line} />
      </Group>
      <Group justify="space-between" mt="xs" gap="xs">
        <Text size="sm">Gross {formatMoney(line.gross, line.currency)}</Text>
        <Text size="sm">Commission {formatMoney(line.commission, line.currency)}</Text>
        <Text size="sm">Net {formatMoney(line.supplier_net, line.currency)}</Text>
      </Group>
    </Paper>
  );
}

/**
 * /resales/overview: for a supplier, what partners sold of its offers; for a reseller, what it sold
 * of its partners' offers (one list when the organisation is both). Filters live in the address.
 */
export default function ResalesOverviewPage() {
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useResalesQuery(filters.apiParams);
  const { data: options } = useResaleFilterOptionsQuery();
  const f = filters.filters;
  const totals = data?.totals ?? [];
  const bothSides = new Set(options?.partners.map((p) => p.side)).size > 1;

  return (
    <ListPage
      header={<ResalesHeader tab="resales" />}
      filters={
        <>
          {bothSides && (
            <Select
              aria-label="Side"
              data={[
                { value: 'all', label: 'Both sides' },
                { value: 'supplier', label: 'Sold by partners' },
                { value: 'reseller', label: 'Sold by us' },
              ]}
              value={f.side ?? 'all'}
              onChange={(v) => filters.setFilter('side', v === 'all' ? null : v)}
              w={170}
              allowDeselect={false}
            />
          )}
          <Select
            aria-label="Partner"
            data={[{ value: 'All', label: 'All partners' }, ...(options?.partners ?? []).map((p) => ({ value: p.id, label: p.name }))]}
            value={f.partner ?? 'All'}
            onChange={(v) => filters.setFilter('partner', v)}
            w={200}
            allowDeselect={false}
            searchable
          />
          <Select
            aria-label="Offer"
            data={[{ value: 'All', label: 'All offers' }, ...(options?.offers ?? []).map((o) => ({ value: o.id, label: o.name }))]}
            value={f.offer ?? 'All'}
            onChange={(v) => filters.setFilter('offer', v)}
            w={200}
            allowDeselect={false}
            searchable
          />
          {(options?.stores.length ?? 0) > 0 && (
            <Select
              aria-label="Store"
              data={[{ value: 'All', label: 'All stores' }, ...(options?.stores ?? []).map((s) => ({ value: s.id, label: s.name }))]}
              value={f.store ?? 'All'}
              onChange={(v) => filters.setFilter('store', v)}
              w={180}
              allowDeselect={false}
            />
          )}
          <Select
            aria-label="Status"
            data={[{ value: 'All', label: 'Any status' }, ...RESALE_STATUS_FILTERS.map((s) => ({ value: s, label: s }))]}
            value={f.status ?? 'All'}
            onChange={(v) => filters.setFilter('status', v)}
            w={150}
            allowDeselect={false}
          />
          <Select
            aria-label="Settled"
            data={[
              { value: 'All', label: 'Settled or not' },
              { value: 'no', label: 'Not settled' },
              { value: 'yes', label: 'On a statement' },
            ]}
            value={f.settled ?? 'All'}
            onChange={(v) => filters.setFilter('settled', v)}
            w={160}
            allowDeselect={false}
          />
          <Select
            aria-label="Date range"
            data={DATE_RANGE_FILTERS.map((v) => ({ value: v, label: DATE_RANGE_LABELS[v] ?? v }))}
            value={f.date_range ?? 'all'}
            onChange={(v) => filters.setFilter('date_range', v === 'all' ? null : v)}
            w={150}
            allowDeselect={false}
          />
          <Group gap={6}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed">
                Sold
              </Text>
              <DateField aria-label="Sold from" value={f.from} onChange={(v) => filters.setFilter('from', v || null)} w={190} />
            </Group>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed">
                to
              </Text>
              <DateField aria-label="Sold until" value={f.to} onChange={(v) => filters.setFilter('to', v || null)} w={190} />
            </Group>
          </Group>
        </>
      }
      afterFilters={<ExportCsvButton url="resales/export.csv" params={filters.apiParams} fallbackName="resales.csv" />}
      list={filters}
      count={data?.count}
      noun="resale"
      totalPages={data?.total_pages}
    >
      {totals.map((t) => (
        <Figures key={t.currency}>
          <Figure label="Lines" value={String(t.lines)} testId="total-lines" />
          <Figure label="Gross sales" value={formatMoney(t.gross, t.currency)} testId="total-gross" />
          <Figure label="Commission" value={formatMoney(t.commission, t.currency)} testId="total-commission" />
          <Figure label="Supplier net" value={formatMoney(t.supplier_net, t.currency)} testId="total-net" />
        </Figures>
      ))}
      <Stack gap="xs" hiddenFrom="sm">
        {data?.results.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            No resale matches these filters.
          </Text>
        )}
        {data?.results.map((l) => <Card key={l.id} line={l} zone={zone} />)}
      </Stack>
      <ListTable
        label="Resales"
        minWidth={1000}
        visibleFrom="sm"
        fetching={isFetching}
        horizontalSpacing="xs"
        columns={[{ label: 'Order' }, { label: 'Sold' }, { label: 'Offer and start' }, { label: 'Partner' }, { label: 'Gross', align: 'right' }, { label: 'Commission', align: 'right' }, { label: 'Supplier net', align: 'right' }, { label: 'Status' }]}
        rowCount={data?.results.length}
        empty="No resale matches these filters."
      >
        {data?.results.map((l) => <Row key={l.id} line={l} zone={zone} />)}
      </ListTable>
    </ListPage>
  );
}
