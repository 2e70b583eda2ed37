import { ActionIcon, Badge, Button, Card, Chip, Group, NumberInput, SegmentedControl, SimpleGrid, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { SCHEDULE_KINDS, type TExperience } from '@tourdesk/contracts';
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
import { useToday } from '../../../shared/hooks/use-today';
import { useOfferSettingsT, useWeekdays } from '../settings-texts';
import { ResourcesCard } from './ResourcesCard';

/** A typed time as the organisation reads times (02:30 PM or 14:30); left as typed when it is not a time. */
const shownTime = (typed: string) => {
  const parsed = parseTypedTime(typed);
  return parsed ? clock(parsed) : typed;
};
/** The day `n` days after a YYYY-MM-DD day. */
const inDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function RuleForm({ experience }: { experience: TExperience }) {
  const t = useOfferSettingsT();
  const weekdayNames = useWeekdays();
  const [create, { isLoading }] = useCreateScheduleRuleMutation();
  const [kind, setKind] = useState<'start_times' | 'opening_hours'>('start_times');
  const today = useToday();
  const [from, setFrom] = useState(today);
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
    const bad = times.find((typed) => !parseTypedTime(typed));
    if (bad) return setError(t('rule.badTime', { typed: bad, example: clock('09:00') }));
    if (times.length === 0) return setError(t('rule.noTimes'));
    const closingTime = kind === 'opening_hours' && closing ? parseTypedTime(closing) : null;
    if (kind === 'opening_hours' && closing && !closingTime) return setClosingError(t('rule.badTime', { typed: closing, example: clock('17:00') }));
    setClosingError(undefined);
    setError(undefined);
    const res = await create({
      experience: experience.id,
      kind,
      valid_from: from,
      valid_to: to || null,
      weekdays: weekdays.map(Number),
      start_times: times.map((typed) => parseTypedTime(typed)!),
      closing_time: closingTime,
      capacity: Number(capacity),
    });
    if ('error' in res) return;
    notifySuccess(t('rule.added'));
    setTimes([]);
  };
  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="sm">
        {t('rule.title')}
      </Title>
      <Stack>
        <SegmentedControl value={kind} onChange={(v) => setKind(v as typeof kind)} data={SCHEDULE_KINDS.map((value) => ({ value, label: t(`kind.${value}`) }))} />
        <Group grow>
          <DateField label={t('rule.from')} value={from} onChange={setFrom} />
          <DateField label={t('rule.until')} value={to} onChange={setTo} />
        </Group>
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('rule.weekdays')}
          </Text>
          <Chip.Group multiple value={weekdays} onChange={setWeekdays}>
            <Group gap={6}>
              {weekdayNames.map((d, i) => (
                <Chip key={d} value={String(i + 1)} size="sm">
                  {d}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        <Group grow align="flex-start">
          <TagsInput
            label={kind === 'start_times' ? t('rule.startTimes') : t('rule.openingTime')}
            description={t('rule.timesHint', { example: clock('09:00') })}
            value={times}
            // Each time is shown as the organisation reads times (12- or 24-hour), whichever way it was typed.
            // 9:00 beside 09:00 is one time: the tags are compared once written the same way.
            onChange={(tags) => setTimes([...new Set(tags.map(shownTime))])}
            maxTags={kind === 'start_times' ? 48 : 1}
            error={error}
          />
          {kind === 'opening_hours' && <TextInput label={t('rule.closingTime')} placeholder={clock('17:00')} value={closing} onChange={(e) => setClosing(e.currentTarget.value)} onBlur={() => setClosing(shownTime(closing))} error={closingError} />}
          <NumberInput label={kind === 'start_times' ? t('rule.seatsPerStart') : t('rule.seatsPerDay')} min={1} value={capacity} onChange={(v) => setCapacity(v === '' ? '' : Number(v))} />
        </Group>
        <Group justify="flex-end">
          <Button loading={isLoading} onClick={submit}>
            {t('rule.add')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The itinerary: what happens when, counted from the start. */
function Itinerary({ experience }: { experience: TExperience }) {
  const t = useOfferSettingsT();
  const { data } = useAgendaQuery(experience.id);
  const [add, { isLoading }] = useAddAgendaItemMutation();
  const [remove] = useDeleteAgendaItemMutation();
  const [minutes, setMinutes] = useState<number | ''>(0);
  const [title, setTitle] = useState('');
  return (
    <Card withBorder padding="lg" aria-label={t('itinerary.title')}>
      <Title order={4} mb="sm">
        {t('itinerary.title')}
      </Title>
      <Stack gap={4} mb="md">
        {data?.results.length === 0 && <Text c="dimmed" size="sm">{t('itinerary.empty')}</Text>}
        {data?.results.map((item) => (
          <Group key={item.id} justify="space-between" data-testid="agenda-item">
            <Text size="sm">
              <b>+{Math.floor(item.minutes_from_start / 60)}:{String(item.minutes_from_start % 60).padStart(2, '0')}</b> {item.title}
            </Text>
            <ActionIcon variant="subtle" color="red" aria-label={t('itinerary.remove', { title: item.title })} onClick={() => remove(item.id)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
      <Group align="flex-end">
        <NumberInput label={t('itinerary.minutes')} min={0} value={minutes} onChange={(v) => setMinutes(v === '' ? '' : Number(v))} w={170} />
        <TextInput label={t('itinerary.what')} value={title} onChange={(e) => setTitle(e.currentTarget.value)} style={{ flex: 1 }} />
        <Button
          variant="default"
          loading={isLoading}
          disabled={!title.trim()}
          onClick={async () => {
            const res = await add({ experience: experience.id, minutes_from_start: Number(minutes) || 0, title: title.trim(), description: '' });
            if (!('error' in res)) setTitle('');
          }}
        >
          {t('itinerary.add')}
        </Button>
      </Group>
    </Card>
  );
}

/** The editor's schedule step: rules, closed dates, the itinerary, and the next slots they create. */
export function ScheduleStep({ experience }: { experience: TExperience }) {
  const t = useOfferSettingsT();
  const weekdayNames = useWeekdays();
  const { data: rules } = useScheduleRulesQuery(experience.id);
  const today = useToday();
  const { data: slots } = useUpcomingSlotsQuery({ experience: experience.id, from: today, to: inDays(today, 14) });
  const [remove] = useDeleteScheduleRuleMutation();
  const [closeDate] = useCloseDateMutation();
  const [closing, setClosing] = useState('');
  return (
    <Stack gap="lg" maw={1100}>
      <Card withBorder padding="lg">
        <Title order={4} mb="sm">
          {t('schedules.title')}
        </Title>
        {rules?.length === 0 && <Text c="dimmed">{t('schedules.empty')}</Text>}
        <Stack gap="xs">
          {rules?.map((r) => (
            <Group key={r.id} justify="space-between" data-testid="schedule-rule">
              <Text size="sm">
                {r.kind === 'opening_hours' ? t('schedules.open', { from: clock(r.start_times[0] ?? ''), to: clock(r.closing_time ?? '') }) : r.start_times.map((time) => clock(time)).join(', ')} ·{' '}
                {t('schedules.seats', { count: r.capacity })} · {t('schedules.from', { date: formatDisplayDate(r.valid_from) })}
                {r.valid_to ? ` ${t('schedules.until', { date: formatDisplayDate(r.valid_to) })}` : ''} · {r.weekdays.length ? r.weekdays.map((d) => weekdayNames[d - 1]).join(' ') : t('schedules.everyDay')}
              </Text>
              <ActionIcon variant="subtle" color="red" aria-label={t('schedules.remove')} onClick={async () => {
                  const res = await remove(r.id);
                  if (!('error' in res)) notifySuccess(t('schedules.removed', { kept: res.data.kept_slots }));
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
            {t('slots.title')}
          </Title>
          <Stack gap={4} aria-label={t('slots.title')}>
            {slots?.length === 0 && <Text c="dimmed" size="sm">{t('slots.empty')}</Text>}
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
            {t('closed.title')}
          </Title>
          <Group align="flex-end">
            <DateField label={t('closed.date')} value={closing} onChange={setClosing} w={200} />
            <Button
              variant="default"
              disabled={!closing}
              onClick={async () => {
                const res = await closeDate({ experience: experience.id, date: closing });
                if ('error' in res) notifyError(t('closed.failed'));
                else notifySuccess(t('closed.done', { date: formatDisplayDate(closing) }));
              }}
            >
              {t('closed.action')}
            </Button>
          </Group>
        </Card>
      </SimpleGrid>
      <ResourcesCard experience={experience} />
      <Itinerary experience={experience} />
    </Stack>
  );
}
