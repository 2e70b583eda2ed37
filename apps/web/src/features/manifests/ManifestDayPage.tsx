import { ActionIcon, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconFileSpreadsheet, IconFileTypePdf, IconPrinter } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useToday } from '../../shared/hooks/use-today';
import { useSearchParams } from 'react-router';
import { clock, formatDatePattern, parseDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { useDayManifestsQuery, useManifestDownloadMutation } from './api';
import { ManifestSheet, ManifestTotals } from './ManifestSheet';
import { DateField } from '../../shared/components/DateField';
import { useManifestsT } from './texts';

/** /bookings/manifests?date=…: every departure of a day with its manifest (printed one per page). */
export default function ManifestDayPage() {
  const t = useManifestsT();
  const [params, setParams] = useSearchParams();
  const today = useToday();
  const date = parseDate(params.get('date'))?.format('YYYY-MM-DD') ?? today;
  const setDate = (d: string) => setParams({ date: d }, { replace: true });
  const { data: day, isFetching } = useDayManifestsQuery(date);
  const [download, downloading] = useManifestDownloadMutation();
  const booked = day?.departures.filter((m) => m.bookings.length > 0) ?? [];
  const empty = day?.departures.filter((m) => m.bookings.length === 0) ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" className="no-print">
        <Title order={2}>{t('title')}</Title>
        <Group gap="xs">
          <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()} disabled={booked.length === 0}>
            {t('print')}
          </Button>
          <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} loading={downloading.isLoading && downloading.originalArgs?.url.endsWith('.csv')} onClick={() => void download({ url: 'manifests/export.csv', params: { date }, fallbackName: `manifests-${date}.csv` })}>
            CSV
          </Button>
          <Button variant="default" leftSection={<IconFileTypePdf size={16} />} loading={downloading.isLoading && downloading.originalArgs?.url.endsWith('.pdf')} onClick={() => void download({ url: 'manifests/manifests.pdf', params: { date }, fallbackName: `manifests-${date}.pdf` })}>
            PDF
          </Button>
        </Group>
      </Group>
      <Group gap="xs" className="no-print" align="flex-end">
        <ActionIcon variant="default" size="lg" aria-label={t('previousDay')} onClick={() => setDate(dayjs(date).subtract(1, 'day').format('YYYY-MM-DD'))}>
          <IconChevronLeft size={18} />
        </ActionIcon>
        <DateField aria-label={t('day')} value={date} clearable={false} onChange={(v) => v && setDate(v)} w={200} />
        <ActionIcon variant="default" size="lg" aria-label={t('nextDay')} onClick={() => setDate(dayjs(date).add(1, 'day').format('YYYY-MM-DD'))}>
          <IconChevronRight size={18} />
        </ActionIcon>
        {date !== today && (
          <Button variant="subtle" onClick={() => setDate(today)}>
            {t('today')}
          </Button>
        )}
        <Text c="dimmed" size="sm">
          {formatDatePattern(date, 'dddd, D MMMM YYYY')}
        </Text>
      </Group>
      {!day && isFetching && <Loader />}
      {day && (
        <>
          <Card withBorder padding="md" className="no-print">
            <ManifestTotals totals={day.totals} money={(n) => formatMoney(n, day.currency)} label={t('departures', { count: day.departures.length })} />
          </Card>
          {day.departures.length === 0 && <Text c="dimmed">{t('noDepartures')}</Text>}
          {booked.map((m) => (
            <ManifestSheet key={m.slot} m={m} titleLink />
          ))}
          {empty.length > 0 && (
            <Text c="dimmed" size="sm" className="no-print">
              {t('nobodyYet', { departures: empty.map((m) => `${clock(m.local_time)} ${m.experience_title}`).join(', ') })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
