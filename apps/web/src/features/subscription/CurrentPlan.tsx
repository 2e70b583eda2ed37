import { Alert, Badge, Box, Button, Card, Group, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCreditCard } from '@tabler/icons-react';
import type { PlanLimit, TSubscription, TSubscriptionTier } from '@tourdesk/contracts';
import { useSubscriptionT, type SubscriptionT } from './texts';
import { billedWords, dateWords, daysLeft, isFree, limitsOf, paidSubscriptionRuns, usageLevel, usageWords } from './words';

interface CurrentPlanProps {
  subscription: TSubscription;
  /** The free plan of the organisation's kind: where a trial of the platform's own or an unpaid plan ends. */
  freeTier: TSubscriptionTier | undefined;
  timeZone: string | undefined;
  /** Manage billing is offered (an Owner, with a Stripe customer). */
  canManage: boolean;
  managing: boolean;
  onManage: () => void;
  /** A change Stripe has still to confirm. */
  awaiting: string | null;
}

const STATUS_COLOR: Record<TSubscription['status'], string> = { none: 'gray', trialing: 'blue', active: 'green', past_due: 'red', canceled: 'gray' };

const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The lines under the plan's name: where its trial or billing stands, with dates in the user's language and the organisation's zone. */
export function statusLines(s: TSubscription, freeTier: TSubscriptionTier | undefined, t: SubscriptionT, timeZone?: string, now = Date.now()): string[] {
  const date = (iso: string) => dateWords(iso, t.locale, timeZone);
  const billed = s.interval ? billedWords(s.tier, s.interval, t) : null;
  const fallback = freeTier && freeTier.id !== s.tier.id ? t('freeNamed', { name: freeTier.name }) : t('theFreePlan');
  switch (s.status) {
    case 'trialing': {
      const lines: string[] = [];
      if (s.trial_ends_at) {
        const days = daysLeft(s.trial_ends_at, now);
        lines.push(days === 0 ? t('line.trialToday', { date: date(s.trial_ends_at) }) : t('line.trialDays', { days, date: date(s.trial_ends_at) }));
      } else {
        lines.push(t('line.trial'));
      }
      lines.push(
        paidSubscriptionRuns(s) && billed
          ? s.current_period_end && s.trial_ends_at !== s.current_period_end
            ? t('line.thenFrom', { price: billed, date: date(s.current_period_end) })
            : t('line.then', { price: billed })
          : t('line.subscribeBefore', { name: s.tier.name, fallback }),
      );
      return lines;
    }
    case 'active':
      return [billed ? capital(t('line.billed', { price: billed })) : t('line.paid'), s.current_period_end ? t('line.renews', { date: date(s.current_period_end) }) : ''].filter(Boolean);
    case 'past_due':
      return [billed ? capital(t('line.billed', { price: billed })) : t('line.paid'), t('line.failed')];
    case 'canceled':
      return [t(isFree(s.tier) ? 'line.endedFree' : 'line.ended', { name: s.tier.name })];
    case 'none':
    default:
      return isFree(s.tier) ? [t('line.freePlan')] : [t('line.noSubscription', { name: s.tier.name })];
  }
}

const LEVEL_COLOR = { ok: 'blue', near: 'yellow', full: 'orange', over: 'red' } as const;

function Meter({ kind, used, limit, t }: { kind: PlanLimit; used: number; limit: number | undefined; t: SubscriptionT }) {
  const level = usageLevel(used, limit);
  return (
    <Box data-testid={`usage-${kind}`} data-level={level}>
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
        <Text size="sm" fw={500}>
          {usageWords(kind, used, limit, t)}
        </Text>
        {level !== 'ok' && (
          <Badge size="sm" variant="light" color={LEVEL_COLOR[level]} style={{ flexShrink: 0 }}>
            {t(`level.${level}`)}
          </Badge>
        )}
      </Group>
      {limit === undefined ? (
        <Text size="xs" c="dimmed">
          {t('noLimit')}
        </Text>
      ) : (
        <Progress value={limit === 0 ? 100 : Math.min(100, (used / limit) * 100)} color={LEVEL_COLOR[level]} size="md" radius="xl" aria-hidden />
      )}
    </Box>
  );
}

/** "offers and stores", "offers or stores". */
function nouns(kinds: PlanLimit[], t: SubscriptionT, join: 'limits.and' | 'limits.or') {
  return kinds.map((k) => t(`noun.${k}`)).reduce((a, b) => t(join, { a, b }));
}

/** The organisation's plan now: its status, how it is billed, what it uses of its limits, and Stripe's billing portal. */
export function CurrentPlan({ subscription: s, freeTier, timeZone, canManage, managing, onManage, awaiting }: CurrentPlanProps) {
  const t = useSubscriptionT();
  const badge = s.status === 'none' && isFree(s.tier) ? { label: t('status.free'), color: 'gray' } : { label: t(`status.${s.status}`), color: STATUS_COLOR[s.status] };
  const limits = limitsOf(s.tier);
  const atLimit = limits.filter((kind) => usageLevel(s.usage[kind], s.tier.limits[kind]) === 'full');
  const overLimit = limits.filter((kind) => usageLevel(s.usage[kind], s.tier.limits[kind]) === 'over');
  const trialSoon = s.status === 'trialing' && s.trial_ends_at && daysLeft(s.trial_ends_at) <= 3;
  return (
    <Card component="section" aria-label={t('current.region')} withBorder padding="lg" radius="md">
      <Group justify="space-between" align="flex-start" gap="md">
        <div style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Text size="sm" c="dimmed">
            {t('current.label')}
          </Text>
          <Group gap="xs" align="center">
            <Title order={3} data-testid="current-plan-name">
              {s.tier.name}
            </Title>
            <Badge variant="light" color={badge.color} data-testid="current-plan-status" style={{ flexShrink: 0 }}>
              {badge.label}
            </Badge>
            {s.interval && paidSubscriptionRuns(s) && (
              <Badge variant="outline" color="gray" style={{ flexShrink: 0 }}>
                {s.interval === 'year' ? t('billedYearly') : t('billedMonthly')}
              </Badge>
            )}
          </Group>
          <Stack gap={2} mt={6} data-testid="current-plan-status-lines">
            {statusLines(s, freeTier, t, timeZone).map((line, i) => (
              <Text key={line} size="sm" c={trialSoon && i === 0 ? 'orange' : undefined}>
                {line}
              </Text>
            ))}
          </Stack>
        </div>
        {canManage && (
          <Stack gap={4} align="flex-start">
            <Button variant="default" leftSection={<IconCreditCard size={18} />} loading={managing} onClick={onManage}>
              {t('manageBilling')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('manageHint')}
            </Text>
          </Stack>
        )}
      </Group>

      {awaiting && (
        <Group gap="xs" mt="md" role="status">
          <Loader size="xs" />
          <Text size="sm">{t('waiting', { name: awaiting })}</Text>
        </Group>
      )}

      {s.status === 'past_due' && (
        <Alert mt="md" color="red" variant="light" icon={<IconAlertTriangle />} title={t('pastDue.title')}>
          {t('pastDue.body', { fallback: freeTier && freeTier.id !== s.tier.id ? freeTier.name : t('theFreePlan') })}
        </Alert>
      )}

      {limits.length > 0 && (
        <>
          <Title order={4} fz="h5" mt="lg" mb="xs">
            {t('usage')}
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg" verticalSpacing="md" aria-label={t('usage')}>
            {limits.map((kind) => (
              <Meter key={kind} kind={kind} used={s.usage[kind]} limit={s.tier.limits[kind]} t={t} />
            ))}
          </SimpleGrid>
        </>
      )}

      {(atLimit.length > 0 || overLimit.length > 0) && (
        <Alert mt="md" color={overLimit.length ? 'red' : 'orange'} variant="light" icon={<IconAlertTriangle />} title={overLimit.length ? t('limits.overTitle') : t('limits.atTitle')}>
          {overLimit.length > 0 && `${t('limits.over', { things: nouns(overLimit, t, 'limits.and'), name: s.tier.name })} `}
          {atLimit.length > 0 && `${t('limits.at', { things: nouns(atLimit, t, 'limits.or'), name: s.tier.name })} `}
          {t('limits.upgrade')}
        </Alert>
      )}
    </Card>
  );
}
