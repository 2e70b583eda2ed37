import { Alert, Card, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { TStore, TStoreAnalytics } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDisplayDate, parseDate } from '../../../shared/lib/dates';
import { formatMoney, fractionDigits } from '../../../shared/lib/money';
import { useStoreAnalyticsQuery } from '../api';
import { percent } from '../constants';
import { useStoresT } from '../texts';
import { BarChart } from '../../../shared/components/BarChart';
import { DateField } from '../../../shared/components/DateField';

/** The last 30 days up to today, in the browser's own calendar. */
export function defaultRange(today = dayjs()) {
  return { from: today.subtract(29, 'day').format('YYYY-MM-DD'), to: today.format('YYYY-MM-DD') };
}

const MAX_DAYS = 366;
type Metric = 'revenue' | 'orders' | 'visits';

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="xl" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

function Report({ data, metric, onMetric }: { data: TStoreAnalytics; metric: Metric; onMetric: (m: Metric) => void }) {
  const t = useStoresT();
  const money = (n: number) => formatMoney(n, data.currency);
  const { totals } = data;
  const chart = {
    revenue: { label: t('analytics.revenue'), format: money, color: 'var(--mantine-color-blue-filled)', minStep: 10 ** fractionDigits(data.currency), empty: t('analytics.noSales') },
    orders: { label: t('analytics.orders'), format: String, color: 'var(--mantine-color-teal-filled)', minStep: 1, empty: t('analytics.noOrders') },
    visits: { label: t('analytics.visits'), format: String, color: 'var(--mantine-color-grape-filled)', minStep: 1, empty: t('analytics.noVisits') },
  }[metric];
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="sm" aria-label={t('analytics.totals')}>
        <Figure label={t('analytics.visits')} value={String(totals.visits)} />
        <Figure label={t('analytics.carts')} value={String(totals.carts)} />
        <Figure label={t('analytics.orders')} value={String(totals.orders)} />
        <Figure label={t('analytics.seats')} value={String(totals.seats)} />
        <Figure label={t('analytics.revenue')} value={money(totals.revenue)} />
        <Figure label={t('analytics.conversion')} value={percent(totals.conversion)} hint={t('analytics.conversionHint')} />
      </SimpleGrid>
      <Card withBorder padding="md">
        <Group justify="space-between" mb="sm">
          <Text fw={600}>{t('analytics.perDayTitle', { metric: chart.label })}</Text>
          <SegmentedControl
            size="xs"
            aria-label={t('analytics.chart')}
            value={metric}
            onChange={(v) => onMetric(v as Metric)}
            data={[
              { value: 'revenue', label: t('analytics.revenue') },
              { value: 'orders', label: t('analytics.orders') },
              { value: 'visits', label: t('analytics.visits') },
            ]}
          />
        </Group>
        <BarChart
          bars={data.days.map((d) => ({ date: d.date, value: d[metric] }))}
          format={chart.format}
          color={chart.color}
          minStep={chart.minStep}
          empty={chart.empty}
          label={t('analytics.chartLabel', { metric: chart.label, days: data.days.length, total: chart.format(totals[metric]) })}
        />
      </Card>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" striped aria-label={t('analytics.perDay')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('analytics.day')}</Table.Th>
              <Table.Th ta="right">{t('analytics.visits')}</Table.Th>
              <Table.Th ta="right">{t('analytics.carts')}</Table.Th>
              <Table.Th ta="right">{t('analytics.orders')}</Table.Th>
              <Table.Th ta="right">{t('analytics.seats')}</Table.Th>
              <Table.Th ta="right">{t('analytics.revenue')}</Table.Th>
              <Table.Th ta="right">{t('analytics.conversion')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.days.map((d) => (
              <Table.Tr key={d.date}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDisplayDate(d.date)}</Table.Td>
                <Table.Td ta="right">{d.visits}</Table.Td>
                <Table.Td ta="right">{d.carts}</Table.Td>
                <Table.Td ta="right">{d.orders}</Table.Td>
                <Table.Td ta="right">{d.seats}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {money(d.revenue)}
                </Table.Td>
                <Table.Td ta="right">{percent(d.conversion)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={700}>
              <Table.Td>{t('analytics.total')}</Table.Td>
              <Table.Td ta="right">{totals.visits}</Table.Td>
              <Table.Td ta="right">{totals.carts}</Table.Td>
              <Table.Td ta="right">{totals.orders}</Table.Td>
              <Table.Td ta="right">{totals.seats}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {money(totals.revenue)}
              </Table.Td>
              <Table.Td ta="right">{percent(totals.conversion)}</Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/**
 * The Analytics tab (…/overview): visits, carts, orders, seats and revenue per day of a range
 * (the last 30 days unless the address says otherwise: ?from=…&to=…), their totals and conversion.
 */
export function AnalyticsTab({ store }: { store: TStore }) {
  const t = useStoresT();
  const [params, setParams] = useSearchParams();
  const [metric, setMetric] = useState<Metric>('revenue');
  const fallback = defaultRange();
  const from = params.get('from') ?? fallback.from;
  const to = params.get('to') ?? fallback.to;
  const start = parseDate(from);
  const end = parseDate(to);
  const problem = !start || !end ? t('analytics.bothDates') : end.isBefore(start) ? t('analytics.endsBefore') : end.diff(start, 'day') >= MAX_DAYS ? t('analytics.atMostYear') : null;
  const { data, isFetching, isError } = useStoreAnalyticsQuery({ id: store.id, from, to }, { skip: Boolean(problem) });
  const setDate = (name: 'from' | 'to', value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set(name, value);
        return next;
      },
      { replace: true },
    );

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <DateField label={t('analytics.from')} value={from} onChange={(v) => setDate('from', v)} clearable={false} w={190} miw={0} style={{ flexShrink: 1 }} />
        <DateField label={t('analytics.to')} value={to} onChange={(v) => setDate('to', v)} clearable={false} w={190} miw={0} style={{ flexShrink: 1 }} />
        {isFetching && <Loader size="sm" mb={8} style={{ flexShrink: 0 }} />}
      </Group>
      {problem ? (
        <Alert color="orange" variant="light">
          {problem}
        </Alert>
      ) : data ? (
        <div style={{ opacity: isFetching ? 0.6 : 1 }}>
          <Report data={data} metric={metric} onMetric={setMetric} />
        </div>
      ) : isError ? (
        <Alert color="red" variant="light">
          {t('analytics.notLoaded')}
        </Alert>
      ) : (
        <Loader />
      )}
    </Stack>
  );
}
