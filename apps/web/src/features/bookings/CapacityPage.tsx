import { ActionIcon, Anchor, Badge, Box, Button, Card, Group, Loader, NumberInput, Popover, SegmentedControl, SimpleGrid, Stack, Switch, Table, Text, Title, UnstyledButton, useMatches } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { TCapacitySlot } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyRow } from '../../shared/components/ListParts';
import { MonthCalendar } from '../../shared/components/MonthCalendar';
import { useCan } from '../../shared/hooks/use-can';
import { useToday } from '../../shared/hooks/use-today';
import { clock, formatDatePattern, parseDate } from '../../shared/lib/dates';
import { notifySuccess } from '../../shared/lib/toast';
import { useCapacityByDateQuery, useCapacityCalendarQuery, usePoolDayQuery, useUpdateSlotMutation } from './api';
import { PoolTimeline } from './PoolTimeline';
import { seatColor, weekOf } from './booking-logic';
import { HelpVideos } from '../../shared/components/HelpVideos';
import { useCapacityT } from './capacity-texts';

type View = 'month' | 'week';

/** A departure's manifest (who comes), for those who may read manifests (the route's access). */
const manifestPath = (s: TCapacitySlot) => `/bookings/manifests/${s.id}`;
const useSeesManifests = () => useCan(['View experiences'], ['bookings']);

/** The slot's capacity; saved when the field is left (or Enter is pressed), never below booked + held. */
function CapacityInput({ slot: s, withSave = false }: { slot: TCapacitySlot; withSave?: boolean }) {
  const t = useCapacityT();
  const [update, { isLoading }] = useUpdateSlotMutation();
  const [value, setValue] = useState<number | string>(s.capacity);
  const save = async () => {
    const capacity = Number(value);
    if (!Number.isInteger(capacity) || capacity === s.capacity) return;
    if (!('error' in (await update({ id: s.id, capacity })))) notifySuccess(t('capacityNow', { time: clock(s.local_time), capacity }));
  };
  const input = (
    <NumberInput
      aria-label={t('capacityAt', { time: clock(s.local_time) })}
      min={s.booked + s.held}
      value={value}
      onChange={setValue}
      onBlur={withSave ? undefined : save}
      onKeyDown={(e) => e.key === 'Enter' && void save()}
      w={withSave ? 110 : undefined}
    />
  );
  if (!withSave) return input;
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      {input}
      <Button variant="light" onClick={save} loading={isLoading} disabled={Number(value) === s.capacity}>
        {t('save')}
      </Button>
    </Group>
  );
}

/** Open or closed: a closed slot sells nothing, and its bookings stay. */
function OpenSwitch({ slot: s, withLabel = false }: { slot: TCapacitySlot; withLabel?: boolean }) {
  const t = useCapacityT();
  const [update] = useUpdateSlotMutation();
  return (
    <Switch
      aria-label={t('openAt', { time: clock(s.local_time) })}
      label={withLabel ? (s.closed ? t('closed') : t('open')) : undefined}
      checked={!s.closed}
      onChange={async (e) => {
        const closed = !e.currentTarget.checked;
        if (!('error' in (await update({ id: s.id, closed })))) notifySuccess(closed ? t('closedToast', { time: clock(s.local_time) }) : t('reopened', { time: clock(s.local_time) }));
      }}
    />
  );
}

/** One day's slots in a table: seats, capacity and open state, all editable. */
function DayTable({ date }: { date: string }) {
  const t = useCapacityT();
  const { data: slots } = useCapacityByDateQuery(date);
  const { data: pools } = usePoolDayQuery(date);
  const limited = new Map((pools?.limited ?? []).map((l) => [l.slot, l.pool_seats]));
  const manifests = useSeesManifests();
  return (
    <Stack gap="md">
      <Card withBorder padding="md" aria-label={t('slotsOfDay')}>
        <Title order={4} mb="sm">
          {formatDatePattern(date, 'dddd, DD. MMMM YYYY')}
        </Title>
        <Table.ScrollContainer minWidth={460}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('col.time')}</Table.Th>
                <Table.Th>{t('col.offer')}</Table.Th>
                <Table.Th ta="right">{t('col.bookedHeld')}</Table.Th>
                <Table.Th>{t('col.capacity')}</Table.Th>
                <Table.Th>{t('col.open')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {slots?.length === 0 && <EmptyRow colSpan={5}>{t('noSlot')}</EmptyRow>}
              {slots?.map((s) => (
                <Table.Tr key={s.id} data-testid="capacity-slot">
                  <Table.Td>
                    {manifests ? (
                      <Anchor component={Link} to={manifestPath(s)} aria-label={t('manifestOf', { time: clock(s.local_time), title: s.experience_title })} fw={600} size="sm">
                        {clock(s.local_time)}
                      </Anchor>
                    ) : (
                      s.local_time
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{s.experience_title}</Text>
                    <Group gap={4}>
                      <Badge size="xs" variant="light" color={seatColor(s.remaining, s.capacity, s.closed)}>
                        {s.closed ? t('closedLeft', { remaining: s.remaining }) : t('left', { remaining: s.remaining })}
                      </Badge>
                      {limited.has(s.id) && (
                        <Badge size="xs" variant="outline" color="grape" data-testid="pool-limited">
                          {t('pool.limited', { seats: limited.get(s.id)! })}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">
                    {s.booked} / {s.held}
                  </Table.Td>
                  <Table.Td w={110}>
                    <CapacityInput key={`${s.id}-${s.capacity}`} slot={s} />
                  </Table.Td>
                  <Table.Td>
                    <OpenSwitch slot={s} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group mt="sm">
          <Text size="xs" c="dimmed">
            {manifests ? t('lowerNoteManifest') : t('lowerNote')}
          </Text>
          {manifests && (
            <Anchor component={Link} to={`/bookings/manifests?date=${date}`} size="xs">
              {t('allManifests')}
            </Anchor>
          )}
        </Group>
      </Card>
      <PoolTimeline day={pools} />
    </Stack>
  );
}

/** A slot in the week: its time, offer and seats, coloured like the month; a click opens its controls. */
function WeekSlot({ slot: s }: { slot: TCapacitySlot }) {
  const t = useCapacityT();
  const [opened, setOpened] = useState(false);
  const manifests = useSeesManifests();
  const color = seatColor(s.remaining, s.capacity, s.closed);
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom" withArrow shadow="md" width={280} trapFocus>
      <Popover.Target>
        <UnstyledButton
          data-testid="week-slot"
          aria-label={s.closed ? t('slotClosed', { time: clock(s.local_time), title: s.experience_title }) : t('slotLeft', { time: clock(s.local_time), title: s.experience_title, remaining: s.remaining, capacity: s.capacity })}
          aria-expanded={opened}
          onClick={() => setOpened((o) => !o)}
          p={8}
          w="100%"
          style={{
            borderRadius: 'var(--mantine-radius-sm)',
            background: `var(--mantine-color-${color}-light)`,
            borderLeft: `3px solid var(--mantine-color-${color}-filled)`,
          }}
        >
          <Group justify="space-between" gap={4} wrap="nowrap">
            <Text size="sm" fw={600}>
              {clock(s.local_time)}
            </Text>
            <Text size="xs" fw={500} c={s.closed ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
              {s.closed ? t('closed') : t('leftOf', { remaining: s.remaining, capacity: s.capacity })}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }} td={s.closed ? 'line-through' : undefined}>
            {s.experience_title}
          </Text>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown aria-label={t('slotAt', { time: clock(s.local_time) })}>
        <Stack gap="sm">
          <div>
            <Text fw={600} size="sm">
              {formatDatePattern(s.local_date, 'ddd, DD. MMM')}, {clock(s.local_time)}
            </Text>
            <Text size="xs" c="dimmed">
              {s.experience_title}
            </Text>
          </div>
          <Text size="sm">
            {t('slotFigures', { booked: s.booked, held: s.held, remaining: s.remaining })}
          </Text>
          <CapacityInput key={`${s.id}-${s.capacity}`} slot={s} withSave />
          <OpenSwitch slot={s} withLabel />
          {manifests && (
            <Button component={Link} to={manifestPath(s)} variant="light" size="xs">
              {t('manifest')}
            </Button>
          )}
          <Text size="xs" c="dimmed">
            {t('lowerNote')}
          </Text>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * One day of the week: its slots (one request per day: the API has no range of slots). A column
 * on wide screens; on narrow ones the days are stacked, each with its slots beneath.
 */
function WeekDay({ date, selected, onSelect, stacked }: { date: string; selected: boolean; onSelect: (date: string) => void; stacked: boolean }) {
  const t = useCapacityT();
  const { data: slots, isLoading } = useCapacityByDateQuery(date);
  const today = date === useToday();
  const d = dayjs(date);
  return (
    <Box component="section" aria-label={formatDatePattern(d, 'dddd, DD. MMMM YYYY')} data-date={date} style={{ minWidth: 0 }}>
      <UnstyledButton
        onClick={() => onSelect(date)}
        aria-pressed={selected}
        w={stacked ? undefined : '100%'}
        px={stacked ? 8 : 6}
        py={stacked ? 4 : 6}
        mb={6}
        style={{
          borderRadius: 'var(--mantine-radius-sm)',
          outline: selected ? '2px solid var(--mantine-primary-color-filled)' : undefined,
          textAlign: stacked ? 'left' : 'center',
          display: stacked ? 'flex' : 'block',
          gap: 8,
          alignItems: 'baseline',
        }}
      >
        <Text size="xs" c="dimmed" tt="uppercase">
          {formatDatePattern(d, 'ddd')}
        </Text>
        <Text fw={600} c={today ? 'var(--mantine-primary-color-filled)' : undefined}>
          {formatDatePattern(d, 'D MMM')}
        </Text>
      </UnstyledButton>
      {isLoading && <Loader size="xs" mx="auto" display="block" />}
      {slots?.length === 0 && (
        <Text size="xs" c="dimmed" ta={stacked ? 'left' : 'center'} px={stacked ? 8 : 0}>
          {t('noSlots')}
        </Text>
      )}
      {slots && slots.length > 0 && (
        <SimpleGrid cols={stacked ? { base: 1, xs: 2 } : 1} spacing={6} verticalSpacing={6}>
          {slots.map((s) => (
            <WeekSlot key={s.id} slot={s} />
          ))}
        </SimpleGrid>
      )}
    </Box>
  );
}

/** Seven days, Monday first, of the week that holds `date`. */
function WeekView({ date, onDate }: { date: string; onDate: (date: string) => void }) {
  const t = useCapacityT();
  const days = weekOf(date);
  const today = useToday();
  const stacked = useMatches({ base: true, md: false });
  const first = dayjs(days[0]);
  const last = dayjs(days[6]);
  const range = first.month() === last.month() ? `${formatDatePattern(first, 'D')} – ${formatDatePattern(last, 'D MMMM YYYY')}` : `${formatDatePattern(first, 'D MMM')} – ${formatDatePattern(last, 'D MMM YYYY')}`;
  return (
    <Card withBorder padding="md" aria-label={t('weekLabel')}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <ActionIcon variant="subtle" aria-label={t('previousWeek')} onClick={() => onDate(dayjs(date).subtract(7, 'day').format('YYYY-MM-DD'))}>
          <IconChevronLeft size={18} />
        </ActionIcon>
        <Group gap="sm">
          <Text fw={600}>{range}</Text>
          {!days.includes(today) && (
            <Button size="compact-xs" variant="subtle" onClick={() => onDate(today)}>
              {t('thisWeek')}
            </Button>
          )}
        </Group>
        <ActionIcon variant="subtle" aria-label={t('nextWeek')} onClick={() => onDate(dayjs(date).add(7, 'day').format('YYYY-MM-DD'))}>
          <IconChevronRight size={18} />
        </ActionIcon>
      </Group>
      {stacked ? (
        <Stack gap="md">
          {days.map((d) => (
            <WeekDay key={d} date={d} selected={d === date} onSelect={onDate} stacked />
          ))}
        </Stack>
      ) : (
        <Box style={{ overflowX: 'auto', padding: 2 }}>
          <Box style={{ display: 'grid', gridTemplateColumns: 'repeat(7, minmax(120px, 1fr))', gap: 8 }}>
            {days.map((d) => (
              <WeekDay key={d} date={d} selected={d === date} onSelect={onDate} stacked={false} />
            ))}
          </Box>
        </Box>
      )}
    </Card>
  );
}

/** What the days' and times' colours say. */
function Legend() {
  const t = useCapacityT();
  const items = [
    { color: 'green', label: t('seatsLeft') },
    { color: 'orange', label: t('nearlyFull') },
    { color: 'red', label: t('soldOut') },
    { color: 'gray', label: t('closed') },
  ];
  return (
    <Group gap="md" mb="sm" aria-label={t('legend')} role="list">
      {items.map((i) => (
        <Group key={i.label} gap={6} role="listitem">
          <Box w={12} h={12} bg={`${i.color}.6`} style={{ borderRadius: 3 }} aria-hidden />
          <Text size="xs">{i.label}</Text>
        </Group>
      ))}
      <Text size="xs" c="dimmed">
        {t('legendNote')}
      </Text>
    </Group>
  );
}

/** /capacity/overview: a month of seats or a week of slots, and one day's slots to edit. */
export default function CapacityPage() {
  const t = useCapacityT();
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'week' ? 'week' : 'month';
  const today = useToday();
  const chosen = parseDate(params.get('date'))?.format('YYYY-MM-DD');
  const [month, setMonth] = useState((chosen ?? today).slice(0, 7));
  const from = `${month}-01`;
  const to = dayjs(from).endOf('month').format('YYYY-MM-DD');
  const { data: days } = useCapacityCalendarQuery({ from, to }, { skip: view !== 'month' });
  const byDate = new Map((days ?? []).map((d) => [d.date, d]));
  // Without a chosen day, the page opens on the next day that has departures (today's if it has some).
  const nextWithDepartures = (days ?? []).filter((d) => d.date >= today && d.slots > 0).map((d) => d.date).sort()[0];
  const date = chosen ?? nextWithDepartures ?? today;

  /** The view and the chosen day live in the address, so a reload or a shared link shows the same. */
  const setParam = (name: 'view' | 'date', value: string, replace = false) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set(name, value);
        return next;
      },
      { replace },
    );
  const setView = (v: string) => {
    if (v === 'month') setMonth(date.slice(0, 7));
    setParam('view', v);
  };
  const setDate = (d: string) => setParam('date', d, true);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        <Group gap="sm">
          <HelpVideos topic="capacity" />
          <SegmentedControl
            aria-label={t('view')}
            data={[
              { value: 'month', label: t('month') },
              { value: 'week', label: t('week') },
            ]}
            value={view} onChange={setView} />
        </Group>
      </Group>
      {view === 'month' ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Card withBorder padding="md">
            <Legend />
            <MonthCalendar
              month={month}
              onMonth={setMonth}
              selected={date}
              onSelect={setDate}
              color={(d) => {
                const day = byDate.get(d);
                return day ? seatColor(day.remaining, day.capacity) : undefined;
              }}
              render={(d) => {
                const day = byDate.get(d);
                return day ? (
                  <Text size="xs" c="dimmed">
                    {day.remaining}/{day.capacity}
                  </Text>
                ) : null;
              }}
            />
          </Card>
          <DayTable date={date} />
        </SimpleGrid>
      ) : (
        <WeekView date={date} onDate={setDate} />
      )}
    </Stack>
  );
}
