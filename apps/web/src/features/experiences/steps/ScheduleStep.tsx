import { ActionIcon, Badge, Button, Card, Chip, Group, NumberInput, SegmentedControl, SimpleGrid, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { TExperience } from '@tourdesk/contracts';
import { useState } from 'react';
import { clock, formatDisplayDate } from '../../../shared/lib/dates';
import { notifyError, notifySuccess } from '../../../shared/lib/toast';
import {
  useAddAgendaItemMutation,
  useAgendaQuery,
  useBookingDefaultsQuery,
  useCloseDateMutation,
  useCreateScheduleRuleMutation,
  useDeleteAgendaItemMutation,
  useDeleteScheduleRuleMutation,
  useScheduleRulesQuery,
  useUpcomingSlotsQuery,
} from '../api';
import { parseTypedTime } from '../../../shared/lib/typed-date';
import { DateField } from '../../../shared/components/DateField';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const today = () => new Date().toISOString().slice(0, 10);
/** A typed time as the organisation reads times (02:30 PM or 14:30); left as typed when it is not a time. */
const shownTime = (typed: string) => {
  const parsed = parseTypedTime(typed);
  return parsed ? clock(parsed) : typed;
};
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

function RuleForm({ experience }: { experience: TExperience }) {
  const [create, { isLoading }] = useCreateScheduleRuleMutation();
  const [kind, setKind] = useState<'start_times' | 'opening_hours'>('start_times');
  const [from, setFrom] = useState(today());
  const [to, setTo] = useState('');
  const [weekdays, setWeekdays] = useState<string[]>([]);
  const [times, setTimes] = useState<string[]>([]);
  const [closing, setClosing] = useState('');
  // Until the user types one, the organisation's default (Settings → Product configuration).
  const { data: defaults } = useBookingDefaultsQuery();
  const [typedCapacity, setCapacity] = useState<number | '' | null>(null);
  const capacity = typedCapacity ?? defaults?.default_capacity ?? 10;
  const [error, setError] = useState<string>();
  const [closingError, setClosingError] = useState<string>();
  const submit = async () => {
    const bad = times.find((t) => !parseTypedTime(t));
    if (bad) return setError(`"${bad}" is not a time such as ${clock('09:00')}.`);
    if (times.length === 0) return setError('Add at least one start time.');
    const closingTime = kind === 'opening_hours' && closing ? parseTypedTime(closing) : null;
    if (kind === 'opening_hours' && closing && !closingTime) return setClosingError(`"${closing}" is not a time such as ${clock('17:00')}.`);
    setClosingError(undefined);
    setError(undefined);
    const res = await create({
      experience: experience.id,
      kind,
      valid_from: from,
      valid_to: to || null,
      weekdays: weekdays.map(Number),
      start_times: times.map((t) => parseTypedTime(t)!),
      closing_time: closingTime,
      capacity: Number(capacity),
    });
    if ('error' in res) return;
    notifySuccess('Schedule added: its time slots are ready.');
    setTimes([]);
  };
  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="sm">
        Add a schedule
      </Title>
      <Stack>
        <SegmentedControl value={kind} onChange={(v) => setKind(v as typeof kind)} data={[{ value: 'start_times', label: 'Start times' }, { value: 'opening_hours', label: 'Opening hours' }]} />
        <Group grow>
          <DateField label="From" value={from} onChange={setFrom} />
          <DateField label="Until (optional)" value={to} onChange={setTo} />
        </Group>
        <div>
          <Text size="sm" fw={500} mb={4}>
            Weekdays (none chosen: every day)
          </Text>
          <Chip.Group multiple value={weekdays} onChange={setWeekdays}>
            <Group gap={6}>
              {WEEKDAYS.map((d, i) => (
                <Chip key={d} value={String(i + 1)} size="sm">
                  {d}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        <Group grow align="flex-start">
          <TagsInput
            label={kind === 'start_times' ? 'Start times (local)' : 'Opening time (local)'}
            description={`e.g. ${clock('09:00')} — press Enter after each`}
            value={times}
            // Each time is shown as the organisation reads times (12- or 24-hour), whichever way it was typed.
            // 9:00 beside 09:00 is one time: the tags are compared once written the same way.
            onChange={(tags) => setTimes([...new Set(tags.map(shownTime))])}
            maxTags={kind === 'start_times' ? 48 : 1}
            error={error}
          />
          {kind === 'opening_hours' && <TextInput label="Closing time" placeholder={clock('17:00')} value={closing} onChange={(e) => setClosing(e.currentTarget.value)} onBlur={() => setClosing(shownTime(closing))} error={closingError} />}
          <NumberInput label={kind === 'start_times' ? 'Seats per start time' : 'Seats per day'} min={1} value={capacity} onChange={(v) => setCapacity(v === '' ? '' : Number(v))} />
        </Group>
        <Group justify="flex-end">
          <Button loading={isLoading} onClick={submit}>
            Add schedule
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The itinerary: what happens when, counted from the start. */
function Itinerary({ experience }: { experience: TExperience }) {
  const { data } = useAgendaQuery(experience.id);
  const [add, { isLoading }] = useAddAgendaItemMutation();
  const [remove] = useDeleteAgendaItemMutation();
  const [minutes, setMinutes] = useState<number | ''>(0);
  const [title, setTitle] = useState('');
  return (
    <Card withBorder padding="lg" aria-label="Itinerary">
      <Title order={4} mb="sm">
        Itinerary
      </Title>
      <Stack gap={4} mb="md">
        {data?.results.length === 0 && <Text c="dimmed" size="sm">No stops yet.</Text>}
        {data?.results.map((item) => (
          <Group key={item.id} justify="space-between" data-testid="agenda-item">
            <Text size="sm">
              <b>+{Math.floor(item.minutes_from_start / 60)}:{String(item.minutes_from_start % 60).padStart(2, '0')}</b> {item.title}
            </Text>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove ${item.title}`} onClick={() => remove(item.id)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
      <Group align="flex-end">
        <NumberInput label="Minutes after the start" min={0} value={minutes} onChange={(v) => setMinutes(v === '' ? '' : Number(v))} w={170} />
        <TextInput label="What happens" value={title} onChange={(e) => setTitle(e.currentTarget.value)} style={{ flex: 1 }} />
        <Button
          variant="default"
          loading={isLoading}
          disabled={!title.trim()}
          onClick={async () => {
            const res = await add({ experience: experience.id, minutes_from_start: Number(minutes) || 0, title: title.trim(), description: '' });
            if (!('error' in res)) setTitle('');
          }}
        >
          Add stop
        </Button>
      </Group>
    </Card>
  );
}

/** The editor's schedule step: rules, closed dates, the itinerary, and the next slots they create. */
export function ScheduleStep({ experience }: { experience: TExperience }) {
  const { data: rules } = useScheduleRulesQuery(experience.id);
  const { data: slots } = useUpcomingSlotsQuery({ experience: experience.id, from: today(), to: inDays(14) });
  const [remove] = useDeleteScheduleRuleMutation();
  const [closeDate] = useCloseDateMutation();
  const [closing, setClosing] = useState('');
  return (
    <Stack gap="lg" maw={1100}>
      <Card withBorder padding="lg">
        <Title order={4} mb="sm">
          Schedules
        </Title>
        {rules?.length === 0 && <Text c="dimmed">No schedule yet: add one below to create time slots.</Text>}
        <Stack gap="xs">
          {rules?.map((r) => (
            <Group key={r.id} justify="space-between" data-testid="schedule-rule">
              <Text size="sm">
                {r.kind === 'opening_hours' ? `Open ${r.start_times[0]}–${r.closing_time}` : r.start_times.join(', ')} · {r.capacity} seats · from {formatDisplayDate(r.valid_from)}
                {r.valid_to ? ` until ${formatDisplayDate(r.valid_to)}` : ''} · {r.weekdays.length ? r.weekdays.map((d) => WEEKDAYS[d - 1]).join(' ') : 'every day'}
              </Text>
              <ActionIcon variant="subtle" color="red" aria-label="Remove this schedule" onClick={async () => {
                  const res = await remove(r.id);
                  if (!('error' in res)) notifySuccess(`Schedule removed. ${res.data.detail}`);
                }}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      </Card>
      <RuleForm experience={experience} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            Next time slots
          </Title>
          <Stack gap={4} aria-label="Next time slots">
            {slots?.length === 0 && <Text c="dimmed" size="sm">None in the next two weeks.</Text>}
            {slots?.slice(0, 12).map((s) => (
              <Group key={s.id} justify="space-between">
                <Text size="sm">
                  {formatDisplayDate(s.local_date)} · {clock(s.local_time)}
                </Text>
                <Badge variant="light" color={s.status === 'closed' ? 'gray' : s.status === 'sold_out' ? 'red' : s.status === 'limited' ? 'orange' : 'green'}>
                  {s.remaining}/{s.capacity}
                </Badge>
              </Group>
            ))}
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            Closed dates
          </Title>
          <Group align="flex-end">
            <DateField label="Date" value={closing} onChange={setClosing} w={200} />
            <Button
              variant="default"
              disabled={!closing}
              onClick={async () => {
                const res = await closeDate({ experience: experience.id, date: closing });
                if ('error' in res) notifyError('That date could not be closed.');
                else notifySuccess(`Closed on ${formatDisplayDate(closing)}.`);
              }}
            >
              Close this date
            </Button>
          </Group>
        </Card>
      </SimpleGrid>
      <Itinerary experience={experience} />
    </Stack>
  );
}
