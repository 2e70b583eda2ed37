import { Anchor, Badge, Button, Card, Group, Progress, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, useMantineTheme } from '@mantine/core';
import { IconCheck, IconCircleDashed, IconExternalLink } from '@tabler/icons-react';
import type { TDashboard, TDashboardDeparture, TDashboardRevenue, TOnboarding, TSystemNotification } from '@tourdesk/contracts';
import { Link } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { clock, formatDatePattern, formatDisplayDate } from '../../shared/lib/dates';
import { hasFeatures, hasPermissions } from '../../shared/lib/permissions';
import { BarChart } from '../../shared/components/BarChart';
import { formatMoney } from '../../shared/lib/money';
import { useGetActiveStoresQuery, useGetDashboardQuery, useGetSystemNotificationsQuery, useSetOnboardingDismissedMutation } from './api';
import { HelpVideos } from '../../shared/components/HelpVideos';
import { useDashboardT } from './texts';

const LEVEL_COLOR: Record<TSystemNotification['level'], string> = { info: 'blue', warning: 'orange', critical: 'red' };

/** Seats of a departure as a bar: booked of capacity, with those checked in darker. */
function SeatsBar({ d }: { d: TDashboardDeparture }) {
  const t = useDashboardT();
  const booked = d.capacity ? (100 * d.booked) / d.capacity : 0;
  const arrived = d.capacity ? (100 * d.arrived) / d.capacity : 0;
  return (
    // Each section is a progressbar of its own (Mantine gives it the role): each says what it counts.
    <Progress.Root size="lg">
      <Progress.Section value={arrived} color="green" aria-label={t('seats.checkedIn', { arrived: d.arrived, capacity: d.capacity })} />
      <Progress.Section value={Math.max(0, booked - arrived)} color="blue" aria-label={t('seats.booked', { booked: Math.max(0, d.booked - d.arrived), capacity: d.capacity })} />
    </Progress.Root>
  );
}

function Today({ departures, date }: { departures: TDashboardDeparture[]; date: string }) {
  const t = useDashboardT();
  const booked = departures.reduce((n, d) => n + d.booked, 0);
  const arrived = departures.reduce((n, d) => n + d.arrived, 0);
  return (
    <Card withBorder padding="lg" aria-label={t('today.title')}>
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('today.title')}</Text>
        <Anchor component={Link} to={`/bookings/manifests?date=${date}`} size="sm">
          {t('today.manifests')}
        </Anchor>
      </Group>
      {departures.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('today.none')}
        </Text>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" data-testid="today-summary">
            {t('today.summary', { booked, departures: departures.length, arrived })}
          </Text>
          {departures.map((d) => (
            <div key={d.slot} data-testid="today-departure">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Anchor component={Link} to={`/bookings/manifests/${d.slot}`} size="sm" fw={600} truncate>
                  {clock(d.local_time)} {d.experience_title}
                </Anchor>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {t('today.line', { booked: d.booked, capacity: d.capacity, arrived: d.arrived })}
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
  const t = useDashboardT();
  return (
    <Card withBorder padding="lg" aria-label={t('nearlyFull.label')}>
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('nearlyFull.title')}</Text>
        <Anchor component={Link} to="/capacity/overview" size="sm">
          {t('nearlyFull.capacity')}
        </Anchor>
      </Group>
      {slots.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('nearlyFull.none')}
        </Text>
      ) : (
        <Stack gap={6}>
          {slots.map((d) => (
            <Group key={d.slot} justify="space-between" wrap="nowrap" data-testid="nearly-full">
              <Anchor component={Link} to={`/capacity/overview?date=${d.local_date}`} size="sm" truncate>
                {formatDatePattern(d.local_date, 'ddd DD. MMM')}, {clock(d.local_time)} {d.experience_title}
              </Anchor>
              <Badge color={d.status === 'sold_out' ? 'red' : 'orange'} variant="light" style={{ flexShrink: 0 }}>
                {d.status === 'sold_out' ? t('nearlyFull.soldOut') : t('nearlyFull.left', { remaining: d.remaining })}
              </Badge>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function Revenue({ revenue, money }: { revenue: TDashboardRevenue; money: (n: number) => string }) {
  const t = useDashboardT();
  const theme = useMantineTheme();
  const figures = [
    { id: 'today', label: t('revenue.today'), value: revenue.today },
    { id: 'last-7-days', label: t('revenue.last7'), value: revenue.last_7_days },
    { id: 'last-30-days', label: t('revenue.last30'), value: revenue.last_30_days },
  ];
  return (
    <Card withBorder padding="lg" aria-label={t('revenue.title')}>
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('revenue.title')}</Text>
        <Anchor component={Link} to="/orders/list" size="sm">
          {t('revenue.orders')}
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs" mb="md">
        {figures.map((f) => (
          <div key={f.id}>
            <Text size="xs" c="dimmed" tt="uppercase">
              {f.label}
            </Text>
            <Text fw={700} size="lg" data-testid={`revenue-${f.id}`}>
              {money(f.value)}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      <BarChart bars={revenue.days.map((d) => ({ date: d.date, value: d.revenue }))} format={money} color={theme.colors.blue[6]} label={t('revenue.chart')} minStep={100} empty={t('revenue.empty')} />
    </Card>
  );
}

function MoneyDue({ due, money }: { due: NonNullable<TDashboard['money_due']>; money: (n: number) => string }) {
  const t = useDashboardT();
  return (
    <Card withBorder padding="lg" aria-label={t('due.title')}>
      <Text fw={600} mb="sm">
        {t('due.title')}
      </Text>
      <Stack gap="xs">
        <Group justify="space-between">
          <Anchor component={Link} to="/orders/list?payment_status=Not+paid" size="sm">
            {t('due.unpaid', { count: due.unpaid_orders })}
          </Anchor>
          <Text fw={600} data-testid="unpaid-amount">
            {money(due.unpaid_amount)}
          </Text>
        </Group>
        <Group justify="space-between">
          <Anchor component={Link} to="/orders/list?payment_status=Refund+due" size="sm">
            {t('due.refunds', { count: due.refunds_due })}
          </Anchor>
          <Text fw={600} c={due.refunds_due ? 'red' : undefined} data-testid="refunds-amount">
            {money(due.refunds_amount)}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

/** Deposits' balances due by a date (issue 32): count and sum, the next few orders with their due dates. */
function BalancesDue({ due, money }: { due: NonNullable<TDashboard['balances_due']>; money: (n: number) => string }) {
  const t = useDashboardT();
  return (
    <Card withBorder padding="lg" aria-label={t('balances.title')}>
      <Text fw={600} mb="sm">
        {t('balances.title')}
      </Text>
      <Stack gap="xs">
        <Group justify="space-between">
          <Anchor component={Link} to="/orders/list?payment_status=Partially+paid" size="sm">
            {t('balances.count', { count: due.orders })}
          </Anchor>
          <Text fw={600} data-testid="balances-amount">
            {money(due.amount)}
          </Text>
        </Group>
        {due.next.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('balances.none')}
          </Text>
        ) : (
          due.next.map((n) => (
            <Group key={n.order} justify="space-between" wrap="nowrap" data-testid="balance-due-row">
              <Anchor component={Link} to={`/orders/editor/${n.order}/details`} size="sm">
                {n.reference} · {n.customer}
              </Anchor>
              <Text size="sm">{t('balances.dueOn', { amount: money(n.balance), date: formatDisplayDate(n.due_on) })}</Text>
            </Group>
          ))
        )}
      </Stack>
    </Card>
  );
}

const STEP_KEYS = ['offer', 'schedule', 'prices', 'payments', 'store', 'team'] as const;
type StepKey = (typeof STEP_KEYS)[number];
const isStepKey = (key: string): key is StepKey => (STEP_KEYS as readonly string[]).includes(key);

function Onboarding({ onboarding }: { onboarding: TOnboarding }) {
  const t = useDashboardT();
  const [dismiss, dismissing] = useSetOnboardingDismissedMutation();
  const total = onboarding.steps.length;
  return (
    <Card withBorder padding="lg" aria-label={t('onboarding.title')}>
      <Group justify="space-between" mb="xs">
        <div>
          <Text fw={600}>{t('onboarding.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('onboarding.done', { done: onboarding.done, total })}
          </Text>
        </div>
        <Button variant="subtle" size="xs" loading={dismissing.isLoading} onClick={() => dismiss(true)}>
          {t('onboarding.dismiss')}
        </Button>
      </Group>
      <Progress value={total ? (100 * onboarding.done) / total : 0} mb="md" aria-label={t('onboarding.stepsDone', { done: onboarding.done, total })} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {onboarding.steps.map((step) => (
          <Group key={step.key} gap="sm" wrap="nowrap" align="flex-start" data-testid="onboarding-step" data-done={step.done}>
            <ThemeIcon color={step.done ? 'green' : 'gray'} variant={step.done ? 'filled' : 'light'} radius="xl" size="sm" mt={2}>
              {step.done ? <IconCheck size={14} /> : <IconCircleDashed size={14} />}
            </ThemeIcon>
            <div>
              <Anchor component={Link} to={step.path} size="sm" fw={600} td={step.done ? 'line-through' : undefined}>
                {isStepKey(step.key) ? t(`onboarding.${step.key}.title`) : step.title}
              </Anchor>
              <Text size="xs" c="dimmed">
                {isStepKey(step.key) ? t(`onboarding.${step.key}.description`) : step.description}
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
  const t = useDashboardT();
  const [show] = useSetOnboardingDismissedMutation();
  return (
    <Group>
      <Button variant="subtle" size="xs" onClick={() => show(false)}>
        {t('onboarding.show')}
      </Button>
    </Group>
  );
}

function Announcements() {
  const t = useDashboardT();
  const { data, isLoading } = useGetSystemNotificationsQuery({ page: 1, page_size: 5 });
  return (
    <Card withBorder padding="lg" aria-label={t('announcements.title')}>
      <Text fw={600} mb="sm">
        {t('announcements.title')}
      </Text>
      {isLoading && <Skeleton h={60} />}
      {data?.results.length === 0 && <Text c="dimmed">{t('announcements.none')}</Text>}
      <Stack gap="md">
        {data?.results.map((n) => (
          <div key={n.id}>
            <Group gap="xs" mb={2}>
              <Badge size="xs" color={LEVEL_COLOR[n.level]} variant="light">
                {t(`level.${n.level}`)}
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
  const t = useDashboardT();
  const { data, isLoading } = useGetActiveStoresQuery();
  return (
    <Card withBorder padding="lg" aria-label={t('stores.title')}>
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('stores.title')}</Text>
        <Anchor component={Link} to="/sales/stores" size="sm">
          {t('stores.all')}
        </Anchor>
      </Group>
      {isLoading && <Skeleton h={40} />}
      {data?.results.length === 0 && (
        <Stack gap="xs" align="flex-start">
          <Text c="dimmed" size="sm">
            {t('stores.none')}
          </Text>
          <Button component={Link} to="/sales/stores" size="xs" variant="light">
            {t('stores.create')}
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
                {t('stores.offers', { count: s.experience_count })}
              </Text>
            </div>
            <Button component="a" href={s.url} target="_blank" rel="noopener" size="xs" variant="light" rightSection={<IconExternalLink size={14} />}>
              {t('stores.open')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

export default function DashboardPage() {
  const t = useDashboardT();
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  const stores = hasPermissions(user, appInfo, ['Manage stores']) && hasFeatures(user, ['stores']);
  const { data, isLoading } = useGetDashboardQuery();
  const money = (n: number) => formatMoney(n, data?.currency ?? 'CHF');
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>{t('title')}</Title>
          {/* The line keeps its height while the day loads, so nothing below it moves when it comes. */}
          <Text c="dimmed" size="sm">
            {data ? `${formatDatePattern(data.date, 'dddd, DD. MMMM YYYY')} · ${data.time_zone}` : '\u00a0'}
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
            {data.balances_due && <BalancesDue due={data.balances_due} money={money} />}
            {stores && <WebStores />}
            <Announcements />
          </SimpleGrid>
          {data.onboarding?.dismissed && <ShowOnboarding />}
        </>
      )}
    </Stack>
  );
}
