import { Anchor, Badge, Button, Card, Group, Progress, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, useMantineTheme } from '@mantine/core';
import { IconCheck, IconCircleDashed, IconExternalLink } from '@tabler/icons-react';
import type { TDashboard, TDashboardDeparture, TDashboardRevenue, TOnboarding, TSystemNotification } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { clock, formatDisplayDate } from '../../shared/lib/dates';
import { hasFeatures, hasPermissions } from '../../shared/lib/permissions';
import { BarChart } from '../../shared/components/BarChart';
import { formatMoney } from '../../shared/lib/money';
import { useGetActiveStoresQuery, useGetDashboardQuery, useGetSystemNotificationsQuery, useSetOnboardingDismissedMutation } from './api';
import { HelpVideos } from '../../shared/components/HelpVideos';

const LEVEL_COLOR: Record<TSystemNotification['level'], string> = { info: 'blue', warning: 'orange', critical: 'red' };

/** Seats of a departure as a bar: booked of capacity, with those checked in darker. */
function SeatsBar({ d }: { d: TDashboardDeparture }) {
  const booked = d.capacity ? (100 * d.booked) / d.capacity : 0;
  const arrived = d.capacity ? (100 * d.arrived) / d.capacity : 0;
  return (
    // Each section is a progressbar of its own (Mantine gives it the role): each says what it counts.
    <Progress.Root size="lg">
      <Progress.Section value={arrived} color="green" aria-label={`${d.arrived} of ${d.capacity} seats checked in`} />
      <Progress.Section value={Math.max(0, booked - arrived)} color="blue" aria-label={`${Math.max(0, d.booked - d.arrived)} of ${d.capacity} seats booked, not yet checked in`} />
    </Progress.Root>
  );
}

function Today({ departures, date }: { departures: TDashboardDeparture[]; date: string }) {
  const booked = departures.reduce((n, d) => n + d.booked, 0);
  const arrived = departures.reduce((n, d) => n + d.arrived, 0);
  return (
    <Card withBorder padding="lg" aria-label="Today’s departures">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Today’s departures</Text>
        <Anchor component={Link} to={`/bookings/manifests?date=${date}`} size="sm">
          Manifests
        </Anchor>
      </Group>
      {departures.length === 0 ? (
        <Text c="dimmed" size="sm">
          No departures today.
        </Text>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" data-testid="today-summary">
            {booked} seat{booked === 1 ? '' : 's'} booked on {departures.length} departure{departures.length === 1 ? '' : 's'}, {arrived} checked in
          </Text>
          {departures.map((d) => (
            <div key={d.slot} data-testid="today-departure">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Anchor component={Link} to={`/bookings/manifests/${d.slot}`} size="sm" fw={600} truncate>
                  {clock(d.local_time)} {d.experience_title}
                </Anchor>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {d.booked}/{d.capacity} · {d.arrived} in
                </Text>
              </Group>
              <SeatsBar d={d} />
            </div>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function NearlyFull({ slots }: { slots: TDashboardDeparture[] }) {
  return (
    <Card withBorder padding="lg" aria-label="Nearly full">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Nearly full in the next 7 days</Text>
        <Anchor component={Link} to="/capacity/overview" size="sm">
          Capacity
        </Anchor>
      </Group>
      {slots.length === 0 ? (
        <Text c="dimmed" size="sm">
          Nothing is nearly full.
        </Text>
      ) : (
        <Stack gap={6}>
          {slots.map((d) => (
            <Group key={d.slot} justify="space-between" wrap="nowrap" data-testid="nearly-full">
              <Anchor component={Link} to={`/capacity/overview?date=${d.local_date}`} size="sm" truncate>
                {dayjs(d.local_date).format('ddd DD. MMM')}, {clock(d.local_time)} {d.experience_title}
              </Anchor>
              <Badge color={d.status === 'sold_out' ? 'red' : 'orange'} variant="light" style={{ flexShrink: 0 }}>
                {d.status === 'sold_out' ? 'Sold out' : `${d.remaining} left`}
              </Badge>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function Revenue({ revenue, money }: { revenue: TDashboardRevenue; money: (n: number) => string }) {
  const theme = useMantineTheme();
  const figures = [
    { label: 'Today', value: revenue.today },
    { label: 'Last 7 days', value: revenue.last_7_days },
    { label: 'Last 30 days', value: revenue.last_30_days },
  ];
  return (
    <Card withBorder padding="lg" aria-label="Revenue">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Revenue</Text>
        <Anchor component={Link} to="/orders/list" size="sm">
          Orders
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs" mb="md">
        {figures.map((f) => (
          <div key={f.label}>
            <Text size="xs" c="dimmed" tt="uppercase">
              {f.label}
            </Text>
            <Text fw={700} size="lg" data-testid={`revenue-${f.label.toLowerCase().replace(/ /g, '-')}`}>
              {money(f.value)}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      <BarChart bars={revenue.days.map((d) => ({ date: d.date, value: d.revenue }))} format={money} color={theme.colors.blue[6]} label="Revenue per day, last 30 days" minStep={100} empty="No sales in the last 30 days" />
    </Card>
  );
}

function MoneyDue({ due, money }: { due: NonNullable<TDashboard['money_due']>; money: (n: number) => string }) {
  return (
    <Card withBorder padding="lg" aria-label="Money due">
      <Text fw={600} mb="sm">
        Money due
      </Text>
      <Stack gap="xs">
        <Group justify="space-between">
          <Anchor component={Link} to="/orders/list?payment_status=Not+paid" size="sm">
            {due.unpaid_orders} order{due.unpaid_orders === 1 ? '' : 's'} not fully paid
          </Anchor>
          <Text fw={600} data-testid="unpaid-amount">
            {money(due.unpaid_amount)}
          </Text>
        </Group>
        <Group justify="space-between">
          <Anchor component={Link} to="/orders/list?payment_status=Refund+due" size="sm">
            {due.refunds_due} refund{due.refunds_due === 1 ? '' : 's'} due
          </Anchor>
          <Text fw={600} c={due.refunds_due ? 'red' : undefined} data-testid="refunds-amount">
            {money(due.refunds_amount)}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

function Onboarding({ onboarding }: { onboarding: TOnboarding }) {
  const [dismiss, dismissing] = useSetOnboardingDismissedMutation();
  const total = onboarding.steps.length;
  return (
    <Card withBorder padding="lg" aria-label="Getting started">
      <Group justify="space-between" mb="xs">
        <div>
          <Text fw={600}>Getting started</Text>
          <Text size="sm" c="dimmed">
            {onboarding.done} of {total} done
          </Text>
        </div>
        <Button variant="subtle" size="xs" loading={dismissing.isLoading} onClick={() => dismiss(true)}>
          Dismiss
        </Button>
      </Group>
      <Progress value={total ? (100 * onboarding.done) / total : 0} mb="md" aria-label={`${onboarding.done} of ${total} steps done`} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {onboarding.steps.map((step) => (
          <Group key={step.key} gap="sm" wrap="nowrap" align="flex-start" data-testid="onboarding-step" data-done={step.done}>
            <ThemeIcon color={step.done ? 'green' : 'gray'} variant={step.done ? 'filled' : 'light'} radius="xl" size="sm" mt={2}>
              {step.done ? <IconCheck size={14} /> : <IconCircleDashed size={14} />}
            </ThemeIcon>
            <div>
              <Anchor component={Link} to={step.path} size="sm" fw={600} td={step.done ? 'line-through' : undefined}>
                {step.title}
              </Anchor>
              <Text size="xs" c="dimmed">
                {step.description}
              </Text>
            </div>
          </Group>
        ))}
      </SimpleGrid>
    </Card>
  );
}

/** A dismissed checklist can come back. */
function ShowOnboarding() {
  const [show] = useSetOnboardingDismissedMutation();
  return (
    <Group>
      <Button variant="subtle" size="xs" onClick={() => show(false)}>
        Show the getting-started checklist
      </Button>
    </Group>
  );
}

function Announcements() {
  const { data, isLoading } = useGetSystemNotificationsQuery({ page: 1, page_size: 5 });
  return (
    <Card withBorder padding="lg" aria-label="Announcements">
      <Text fw={600} mb="sm">
        Announcements
      </Text>
      {isLoading && <Skeleton h={60} />}
      {data?.results.length === 0 && <Text c="dimmed">Nothing new.</Text>}
      <Stack gap="md">
        {data?.results.map((n) => (
          <div key={n.id}>
            <Group gap="xs" mb={2}>
              <Badge size="xs" color={LEVEL_COLOR[n.level]} variant="light">
                {n.level}
              </Badge>
              <Text size="xs" c="dimmed">
                {formatDisplayDate(n.published_at)}
              </Text>
            </Group>
            <Text fw={500}>{n.title}</Text>
            <Text size="sm" c="dimmed">
              {n.body}
            </Text>
          </div>
        ))}
      </Stack>
    </Card>
  );
}

/** Where customers book online: the organisation's active stores, each a link to its public page. */
function WebStores() {
  const { data, isLoading } = useGetActiveStoresQuery();
  return (
    <Card withBorder padding="lg" aria-label="Your web stores">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Your web stores</Text>
        <Anchor component={Link} to="/sales/stores" size="sm">
          All stores
        </Anchor>
      </Group>
      {isLoading && <Skeleton h={40} />}
      {data?.results.length === 0 && (
        <Stack gap="xs" align="flex-start">
          <Text c="dimmed" size="sm">
            No store is open yet: open one and customers can book online.
          </Text>
          <Button component={Link} to="/sales/stores" size="xs" variant="light">
            Create a store
          </Button>
        </Stack>
      )}
      <Stack gap="sm">
        {data?.results.map((s) => (
          <Group key={s.id} justify="space-between" wrap="nowrap">
            <div style={{ minWidth: 0 }}>
              <Text fw={500} truncate>
                {s.name}
              </Text>
              <Text size="xs" c="dimmed">
                {s.experience_count} offer{s.experience_count === 1 ? '' : 's'}
              </Text>
            </div>
            <Button component="a" href={s.url} target="_blank" rel="noopener" size="xs" variant="light" rightSection={<IconExternalLink size={14} />}>
              Open
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

export default function DashboardPage() {
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  const stores = hasPermissions(user, appInfo, ['Manage stores']) && hasFeatures(user, ['stores']);
  const { data, isLoading } = useGetDashboardQuery();
  const money = (n: number) => formatMoney(n, data?.currency ?? 'CHF');
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>Dashboard</Title>
          {/* The line keeps its height while the day loads, so nothing below it moves when it comes. */}
          <Text c="dimmed" size="sm">
            {data ? `${dayjs(data.date).format('dddd, DD. MMMM YYYY')} · ${data.time_zone}` : '\u00a0'}
          </Text>
        </div>
        <HelpVideos topic="dashboard" />
      </Group>
      {/* Until the day is read, one placeholder stands for the whole page: the cards then appear in
          their places at once instead of being pushed down by the ones above them (layout shift). */}
      {!data && isLoading && <Skeleton h={640} />}
      {data && (
        <>
          {data.onboarding && !data.onboarding.dismissed && <Onboarding onboarding={data.onboarding} />}
          {data.revenue && <Revenue revenue={data.revenue} money={money} />}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {data.departures && <Today departures={data.departures} date={data.date} />}
            {data.nearly_full && <NearlyFull slots={data.nearly_full} />}
            {data.money_due && <MoneyDue due={data.money_due} money={money} />}
            {stores && <WebStores />}
            <Announcements />
          </SimpleGrid>
          {data.onboarding?.dismissed && <ShowOnboarding />}
        </>
      )}
    </Stack>
  );
}
