import { ActionIcon, Anchor, Badge, Box, Button, Card, Group, Loader, NumberInput, Popover, SegmentedControl, SimpleGrid, Stack, Switch, Table, Text, Title, UnstyledButton, useMatches } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { TCapacitySlot } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyRow } from '../../shared/components/ListParts';
import { MonthCalendar } from '../../shared/components/MonthCalendar';
import { useCan } from '../../shared/hooks/use-can';
import { clock, parseDate } from '../../shared/lib/dates';
import { notifySuccess } from '../../shared/lib/toast';
import { useCapacityByDateQuery, useCapacityCalendarQuery, useUpdateSlotMutation } from './api';
import { seatColor, weekOf } from './booking-logic';
import { HelpVideos } from '../../shared/components/HelpVideos';

type View = 'month' | 'week';
const VIEWS = [
  { value: 'month', label: 'Month' },
  { value: 'week', label: 'Week' },
];

/** A departure's manifest (who comes), for those who may read manifests (the route's access). */
const manifestPath = (s: TCapacitySlot) => `/bookings/manifests/${s.id}`;
const useSeesManifests = () => useCan(['View experiences'], ['bookings']);

/** The slot's capacity; saved when the field is left (or Enter is pressed), never below booked + held. */
function CapacityInput({ slot: s, withSave = false }: { slot: TCapacitySlot; withSave?: boolean }) {
  const [update, { isLoading }] = useUpdateSlotMutation();
  const [value, setValue] = useState<number | string>(s.capacity);
  const save = async () => {
    const capacity = Number(value);
    if (!Number.isInteger(capacity) || capacity === s.capacity) return;
    if (!('error' in (await update({ id: s.id, capacity })))) notifySuccess(`Capacity at ${clock(s.local_time)} is now ${capacity}.`);
  };
  const input = (
    <NumberInput
      aria-label={`Capacity at ${clock(s.local_time)}`}
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
        Save
      </Button>
    </Group>
  );
}

/** Open or closed: a closed slot sells nothing, and its bookings stay. */
function OpenSwitch({ slot: s, withLabel = false }: { slot: TCapacitySlot; withLabel?: boolean }) {
  const [update] = useUpdateSlotMutation();
  return (
    <Switch
      aria-label={`Open at ${clock(s.local_time)}`}
      label={withLabel ? (s.closed ? 'Closed' : 'Open') : undefined}
      checked={!s.closed}
      onChange={async (e) => {
        const closed = !e.currentTarget.checked;
        if (!('error' in (await update({ id: s.id, closed })))) notifySuccess(closed ? `${clock(s.local_time)} closed.` : `${clock(s.local_time)} reopened.`);
      }}
    />
  );
}

/** One day's slots in a table: seats, capacity and open state, all editable. */
function DayTable({ date }: { date: string }) {
  const { data: slots } = useCapacityByDateQuery(date);
  const manifests = useSeesManifests();
  return (
    <Card withBorder padding="md" aria-label="Slots of the day">
      <Title order={4} mb="sm">
        {dayjs(date).format('dddd, DD. MMMM YYYY')}
      </Title>
      <Table.ScrollContainer minWidth={460}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Offer</Table.Th>
              <Table.Th ta="right">Booked / held</Table.Th>
              <Table.Th>Capacity</Table.Th>
              <Table.Th>Open</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {slots?.length === 0 && <EmptyRow colSpan={5}>No time slot on this day.</EmptyRow>}
            {slots?.map((s) => (
              <Table.Tr key={s.id} data-testid="capacity-slot">
                <Table.Td>
                  {manifests ? (
                    <Anchor component={Link} to={manifestPath(s)} aria-label={`Manifest of ${clock(s.local_time)} ${s.experience_title}`} fw={600} size="sm">
                      {clock(s.local_time)}
                    </Anchor>
                  ) : (
                    s.local_time
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{s.experience_title}</Text>
                  <Badge size="xs" variant="light" color={seatColor(s.remaining, s.capacity, s.closed)}>
                    {s.closed ? 'closed · ' : ''}
                    {s.remaining} left
                  </Badge>
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
          Capacity can be lowered down to what is booked and held.{manifests ? ' A time opens its manifest.' : ''}
        </Text>
        {manifests && (
          <Anchor component={Link} to={`/bookings/manifests?date=${date}`} size="xs">
            All manifests of the day
          </Anchor>
        )}
      </Group>
    </Card>
  );
}

/** A slot in the week: its time, offer and seats, coloured like the month; a click opens its controls. */
function WeekSlot({ slot: s }: { slot: TCapacitySlot }) {
  const [opened, setOpened] = useState(false);
  const manifests = useSeesManifests();
  const color = seatColor(s.remaining, s.capacity, s.closed);
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom" withArrow shadow="md" width={280} trapFocus>
      <Popover.Target>
        <UnstyledButton
          data-testid="week-slot"
          aria-label={`${clock(s.local_time)} ${s.experience_title}: ${s.closed ? 'closed' : `${s.remaining} of ${s.capacity} seats left`}`}
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
              {s.closed ? 'Closed' : `${s.remaining}/${s.capacity} left`}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }} td={s.closed ? 'line-through' : undefined}>
            {s.experience_title}
          </Text>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown aria-label={`Slot at ${clock(s.local_time)}`}>
        <Stack gap="sm">
          <div>
            <Text fw={600} size="sm">
              {dayjs(s.local_date).format('ddd, DD. MMM')}, {clock(s.local_time)}
            </Text>
            <Text size="xs" c="dimmed">
              {s.experience_title}
            </Text>
          </div>
          <Text size="sm">
            {s.booked} booked · {s.held} held · {s.remaining} left
          </Text>
          <CapacityInput key={`${s.id}-${s.capacity}`} slot={s} withSave />
          <OpenSwitch slot={s} withLabel />
          {manifests && (
            <Button component={Link} to={manifestPath(s)} variant="light" size="xs">
              Manifest
            </Button>
          )}
          <Text size="xs" c="dimmed">
            Capacity can be lowered down to what is booked and held.
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
  const { data: slots, isLoading } = useCapacityByDateQuery(date);
  const today = date === dayjs().format('YYYY-MM-DD');
  const d = dayjs(date);
  return (
    <Box component="section" aria-label={d.format('dddd, DD. MMMM YYYY')} data-date={date} style={{ minWidth: 0 }}>
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
          {d.format('ddd')}
        </Text>
        <Text fw={600} c={today ? 'var(--mantine-primary-color-filled)' : undefined}>
          {d.format('D MMM')}
        </Text>
      </UnstyledButton>
      {isLoading && <Loader size="xs" mx="auto" display="block" />}
      {slots?.length === 0 && (
        <Text size="xs" c="dimmed" ta={stacked ? 'left' : 'center'} px={stacked ? 8 : 0}>
          No slots
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
  const days = weekOf(date);
  const stacked = useMatches({ base: true, md: false });
  const first = dayjs(days[0]);
  const last = dayjs(days[6]);
  const range = first.month() === last.month() ? `${first.format('D')} – ${last.format('D MMMM YYYY')}` : `${first.format('D MMM')} – ${last.format('D MMM YYYY')}`;
  return (
    <Card withBorder padding="md" aria-label="Week">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <ActionIcon variant="subtle" aria-label="Previous week" onClick={() => onDate(dayjs(date).subtract(7, 'day').format('YYYY-MM-DD'))}>
          <IconChevronLeft size={18} />
        </ActionIcon>
        <Group gap="sm">
          <Text fw={600}>{range}</Text>
          {!days.includes(dayjs().format('YYYY-MM-DD')) && (
            <Button size="compact-xs" variant="subtle" onClick={() => onDate(dayjs().format('YYYY-MM-DD'))}>
              This week
            </Button>
          )}
        </Group>
        <ActionIcon variant="subtle" aria-label="Next week" onClick={() => onDate(dayjs(date).add(7, 'day').format('YYYY-MM-DD'))}>
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
  const items = [
    { color: 'green', label: 'Seats left' },
    { color: 'orange', label: 'Nearly full' },
    { color: 'red', label: 'Sold out' },
    { color: 'gray', label: 'Closed' },
  ];
  return (
    <Group gap="md" mb="sm" aria-label="Legend" role="list">
      {items.map((i) => (
        <Group key={i.label} gap={6} role="listitem">
          <Box w={12} h={12} bg={`${i.color}.6`} style={{ borderRadius: 3 }} aria-hidden />
          <Text size="xs">{i.label}</Text>
        </Group>
      ))}
      <Text size="xs" c="dimmed">
        Seats left / capacity of the day
      </Text>
    </Group>
  );
}

/** /capacity/overview: a month of seats or a week of slots, and one day's slots to edit. */
export default function CapacityPage() {
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'week' ? 'week' : 'month';
  const today = dayjs().format('YYYY-MM-DD');
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
        <Title order={2}>Capacity</Title>
        <Group gap="sm">
          <HelpVideos topic="capacity" />
          <SegmentedControl aria-label="View" data={VIEWS} value={view} onChange={setView} />
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
