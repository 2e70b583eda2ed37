import { Anchor, Badge, Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { DATE_RANGE_FILTERS, RESALE_STATUS_FILTERS, type TResale } from '@tourdesk/contracts';
import { Link, useNavigate } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate, formatTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { useResaleFilterOptionsQuery, useResalesQuery } from './api';
import { Figure, Figures, itemsText, LINE_STATUS_COLOR, resalePath, ResalesHeader } from './parts';
import { ExportCsvButton } from '../../shared/components/ExportCsvButton';
import { DateField } from '../../shared/components/DateField';
import { useResalesT } from './texts';

function Row({ line, zone }: { line: TResale; zone?: string }) {
  const t = useResalesT();
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
          {t(`side.${line.side}`)}
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
  const t = useResalesT();
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={LINE_STATUS_COLOR[line.status]} variant="light" size="sm">
        {t(`status.${line.status}`)}
      </Badge>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="resale-settlement">
        {line.settlement ? t(line.settlement.status === 'Settled' ? 'settledNumber' : 'onStatementNumber', { number: line.settlement.number }) : t('notSettled')}
      </Text>
    </Stack>
  );
}

/** The same line as a card, for a phone's width. */
function Card({ line, zone }: { line: TResale; zone?: string }) {
  const t = useResalesT();
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
            {t(`side.${line.side}`)}: {line.partner_name}
            {line.store ? ` · ${line.store.name}` : ''} · {formatDisplayDate(line.sold_at, zone)}
          </Text>
        </div>
        <LineStatus line={line} />
      </Group>
      <Group justify="space-between" mt="xs" gap="xs">
        <Text size="sm">{t('gross', { amount: formatMoney(line.gross, line.currency) })}</Text>
        <Text size="sm">{t('commissionAmount', { amount: formatMoney(line.commission, line.currency) })}</Text>
        <Text size="sm">{t('net', { amount: formatMoney(line.supplier_net, line.currency) })}</Text>
      </Group>
    </Paper>
  );
}

/**
 * /resales/overview: for a supplier, what partners sold of its offers; for a reseller, what it sold
 * of its partners' offers (one list when the organisation is both). Filters live in the address.
 */
export default function ResalesOverviewPage() {
  const t = useResalesT();
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
              aria-label={t('sideFilter')}
              data={[
                { value: 'all', label: t('bothSides') },
                { value: 'supplier', label: t('soldByPartners') },
                { value: 'reseller', label: t('side.reseller') },
              ]}
              value={f.side ?? 'all'}
              onChange={(v) => filters.setFilter('side', v === 'all' ? null : v)}
              w={170}
              allowDeselect={false}
            />
          )}
          <Select
            aria-label={t('partner')}
            data={[{ value: 'All', label: t('allPartners') }, ...(options?.partners ?? []).map((p) => ({ value: p.id, label: p.name }))]}
            value={f.partner ?? 'All'}
            onChange={(v) => filters.setFilter('partner', v)}
            w={200}
            allowDeselect={false}
            searchable
          />
          <Select
            aria-label={t('offer')}
            data={[{ value: 'All', label: t('allOffers') }, ...(options?.offers ?? []).map((o) => ({ value: o.id, label: o.name }))]}
            value={f.offer ?? 'All'}
            onChange={(v) => filters.setFilter('offer', v)}
            w={200}
            allowDeselect={false}
            searchable
          />
          {(options?.stores.length ?? 0) > 0 && (
            <Select
              aria-label={t('store')}
              data={[{ value: 'All', label: t('allStores') }, ...(options?.stores ?? []).map((s) => ({ value: s.id, label: s.name }))]}
              value={f.store ?? 'All'}
              onChange={(v) => filters.setFilter('store', v)}
              w={180}
              allowDeselect={false}
            />
          )}
          <Select
            aria-label={t('status')}
            data={[{ value: 'All', label: t('anyStatus') }, ...RESALE_STATUS_FILTERS.map((s) => ({ value: s, label: t(`status.${s}`) }))]}
            value={f.status ?? 'All'}
            onChange={(v) => filters.setFilter('status', v)}
            w={150}
            allowDeselect={false}
          />
          <Select
            aria-label={t('settled')}
            data={[
              { value: 'All', label: t('settledOrNot') },
              { value: 'no', label: t('notSettled') },
              { value: 'yes', label: t('onStatement') },
            ]}
            value={f.settled ?? 'All'}
            onChange={(v) => filters.setFilter('settled', v)}
            w={160}
            allowDeselect={false}
          />
          <Select
            aria-label={t('dateRange')}
            data={DATE_RANGE_FILTERS.map((v) => ({ value: v, label: t(`range.${v}`) }))}
            value={f.date_range ?? 'all'}
            onChange={(v) => filters.setFilter('date_range', v === 'all' ? null : v)}
            w={150}
            allowDeselect={false}
          />
          <Group gap={6}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed">
                {t('sold')}
              </Text>
              <DateField aria-label={t('soldFrom')} value={f.from} onChange={(v) => filters.setFilter('from', v || null)} w={190} />
            </Group>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed">
                {t('to')}
              </Text>
              <DateField aria-label={t('soldUntil')} value={f.to} onChange={(v) => filters.setFilter('to', v || null)} w={190} />
            </Group>
          </Group>
        </>
      }
      afterFilters={<ExportCsvButton url="resales/export.csv" params={filters.apiParams} fallbackName="resales.csv" />}
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      {totals.map((sum) => (
        <Figures key={sum.currency}>
          <Figure label={t('lines')} value={String(sum.lines)} testId="total-lines" />
          <Figure label={t('grossSales')} value={formatMoney(sum.gross, sum.currency)} testId="total-gross" />
          <Figure label={t('commission')} value={formatMoney(sum.commission, sum.currency)} testId="total-commission" />
          <Figure label={t('supplierNet')} value={formatMoney(sum.supplier_net, sum.currency)} testId="total-net" />
        </Figures>
      ))}
      <Stack gap="xs" hiddenFrom="sm">
        {data?.results.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            {t('empty')}
          </Text>
        )}
        {data?.results.map((l) => <Card key={l.id} line={l} zone={zone} />)}
      </Stack>
      <ListTable
        label={t('title')}
        minWidth={1000}
        visibleFrom="sm"
        fetching={isFetching}
        horizontalSpacing="xs"
        columns={[{ label: t('col.order') }, { label: t('col.sold') }, { label: t('col.offerStart') }, { label: t('col.partner') }, { label: t('col.gross'), align: 'right' }, { label: t('col.commission'), align: 'right' }, { label: t('col.net'), align: 'right' }, { label: t('col.status') }]}
        rowCount={data?.results.length}
        empty={t('empty')}
      >
        {data?.results.map((l) => <Row key={l.id} line={l} zone={zone} />)}
      </ListTable>
    </ListPage>
  );
}
