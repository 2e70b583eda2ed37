import { Alert, Badge, Box, Button, Card, Group, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCreditCard } from '@tabler/icons-react';
import type { PlanLimit, TSubscription, TSubscriptionTier } from '@tourdesk/contracts';
import { billedWords, dateWords, daysLeft, isFree, limitsOf, paidSubscriptionRuns, usageLevel, usageWords } from './words';

interface CurrentPlanProps {
  subscription: TSubscription;
  /** The free plan of the organisation's kind: where a trial of the platform's own or an unpaid plan ends. */
  freeTier: TSubscriptionTier | undefined;
  locale: string;
  timeZone: string | undefined;
  /** Manage billing is offered (an Owner, with a Stripe customer). */
  canManage: boolean;
  managing: boolean;
  onManage: () => void;
  /** A change Stripe has still to confirm. */
  awaiting: string | null;
}

const STATUS_BADGE: Record<TSubscription['status'], { label: string; color: string }> = {
  none: { label: 'Not billed', color: 'gray' },
  trialing: { label: 'Trial', color: 'blue' },
  active: { label: 'Active', color: 'green' },
  past_due: { label: 'Payment overdue', color: 'red' },
  canceled: { label: 'Subscription ended', color: 'gray' },
};

/** The lines under the plan's name: where its trial or billing stands, with dates in the organisation's locale and zone. */
export function statusLines(s: TSubscription, freeTier: TSubscriptionTier | undefined, locale: string, timeZone?: string, now = Date.now()): string[] {
  const date = (iso: string) => dateWords(iso, locale, timeZone);
  const billed = s.interval ? billedWords(s.tier, s.interval, locale) : null;
  const fallback = freeTier && freeTier.id !== s.tier.id ? `${freeTier.name} (free)` : 'the free plan';
  switch (s.status) {
    case 'trialing': {
      const lines: string[] = [];
      if (s.trial_ends_at) {
        const days = daysLeft(s.trial_ends_at, now);
        lines.push(days === 0 ? `Your free trial ends today (${date(s.trial_ends_at)}).` : `Free trial: ${days} ${days === 1 ? 'day' : 'days'} left, until ${date(s.trial_ends_at)}.`);
      } else {
        lines.push('Free trial.');
      }
      lines.push(
        paidSubscriptionRuns(s) && billed
          ? `Then ${billed}, charged to your card${s.current_period_end && s.trial_ends_at !== s.current_period_end ? ` from ${date(s.current_period_end)}` : ''}.`
          : `Subscribe before it ends to keep ${s.tier.name}; otherwise your organisation moves to ${fallback}.`,
      );
      return lines;
    }
    case 'active':
      return [
        billed ? `${billed.charAt(0).toUpperCase()}${billed.slice(1)}.` : 'Paid by subscription.',
        s.current_period_end ? `Renews on ${date(s.current_period_end)}.` : '',
      ].filter(Boolean);
    case 'past_due':
      return [billed ? `${billed.charAt(0).toUpperCase()}${billed.slice(1)}.` : 'Paid by subscription.', 'The last payment failed.'];
    case 'canceled':
      return [`Your paid subscription has ended: your organisation is on ${s.tier.name}${isFree(s.tier) ? ', free of charge' : ''}.`];
    case 'none':
    default:
      return isFree(s.tier) ? ['A free plan: nothing is billed.'] : [`Nothing is billed for ${s.tier.name}: it runs without a subscription.`];
  }
}

const LEVEL_COLOR = { ok: 'blue', near: 'yellow', full: 'orange', over: 'red' } as const;
const LEVEL_WORDS = { near: 'Nearly full', full: 'Limit reached', over: 'Over the limit' } as const;

function Meter({ kind, used, limit, locale }: { kind: PlanLimit; used: number; limit: number | undefined; locale: string }) {
  const level = usageLevel(used, limit);
  return (
    <Box data-testid={`usage-${kind}`} data-level={level}>
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
        <Text size="sm" fw={500}>
          {usageWords(kind, used, limit, locale)}
        </Text>
        {level !== 'ok' && (
          <Badge size="sm" variant="light" color={LEVEL_COLOR[level]} style={{ flexShrink: 0 }}>
            {LEVEL_WORDS[level]}
          </Badge>
        )}
      </Group>
      {limit === undefined ? (
        <Text size="xs" c="dimmed">
          No limit on your plan
        </Text>
      ) : (
        <Progress value={limit === 0 ? 100 : Math.min(100, (used / limit) * 100)} color={LEVEL_COLOR[level]} size="md" radius="xl" aria-hidden />
      )}
    </Box>
  );
}

const NOUNS: Record<PlanLimit, string> = { offers: 'offers', stores: 'stores', team_members: 'team members', bookings_per_month: 'bookings this month' };

/** The organisation's plan now: its status, how it is billed, what it uses of its limits, and Stripe's billing portal. */
export function CurrentPlan({ subscription: s, freeTier, locale, timeZone, canManage, managing, onManage, awaiting }: CurrentPlanProps) {
  const badge = s.status === 'none' && isFree(s.tier) ? { label: 'Free', color: 'gray' } : STATUS_BADGE[s.status];
  const limits = limitsOf(s.tier);
  const atLimit = limits.filter((kind) => usageLevel(s.usage[kind], s.tier.limits[kind]) === 'full');
  const overLimit = limits.filter((kind) => usageLevel(s.usage[kind], s.tier.limits[kind]) === 'over');
  const trialSoon = s.status === 'trialing' && s.trial_ends_at && daysLeft(s.trial_ends_at) <= 3;
  return (
    <Card component="section" aria-label="Current plan" withBorder padding="lg" radius="md">
      <Group justify="space-between" align="flex-start" gap="md">
        <div style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Text size="sm" c="dimmed">
            Current plan
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
                {s.interval === 'year' ? 'Billed yearly' : 'Billed monthly'}
              </Badge>
            )}
          </Group>
          <Stack gap={2} mt={6} data-testid="current-plan-status-lines">
            {statusLines(s, freeTier, locale, timeZone).map((line) => (
              <Text key={line} size="sm" c={trialSoon && line.startsWith('Free trial') ? 'orange' : undefined}>
                {line}
              </Text>
            ))}
          </Stack>
        </div>
        {canManage && (
          <Stack gap={4} align="flex-start">
            <Button variant="default" leftSection={<IconCreditCard size={18} />} loading={managing} onClick={onManage}>
              Manage billing
            </Button>
            <Text size="xs" c="dimmed">
              Card, invoices and cancelling, on Stripe
            </Text>
          </Stack>
        )}
      </Group>

      {awaiting && (
        <Group gap="xs" mt="md" role="status">
          <Loader size="xs" />
          <Text size="sm">Waiting for Stripe to confirm {awaiting}…</Text>
        </Group>
      )}

      {s.status === 'past_due' && (
        <Alert mt="md" color="red" variant="light" icon={<IconAlertTriangle />} title="Your last payment failed">
          Stripe tries the card again over the next days. Update your card in Manage billing: if the payment keeps failing, the subscription ends and your organisation
          moves to {freeTier && freeTier.id !== s.tier.id ? freeTier.name : 'the free plan'}.
        </Alert>
      )}

      {limits.length > 0 && (
        <>
          <Title order={4} fz="h5" mt="lg" mb="xs">
            Usage
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg" verticalSpacing="md" aria-label="Usage">
            {limits.map((kind) => (
              <Meter key={kind} kind={kind} used={s.usage[kind]} limit={s.tier.limits[kind]} locale={locale} />
            ))}
          </SimpleGrid>
        </>
      )}

      {(atLimit.length > 0 || overLimit.length > 0) && (
        <Alert mt="md" color={overLimit.length ? 'red' : 'orange'} variant="light" icon={<IconAlertTriangle />} title={overLimit.length ? 'Over your plan’s limits' : 'At your plan’s limits'}>
          {overLimit.length > 0 && `You have more ${overLimit.map((k) => NOUNS[k]).join(' and ')} than ${s.tier.name} allows: nothing is deleted and everything stays editable, but adding more is refused. `}
          {atLimit.length > 0 && `You cannot add more ${atLimit.map((k) => NOUNS[k]).join(' or ')} on ${s.tier.name}. `}
          Upgrade to raise the limits.
        </Alert>
      )}
    </Card>
  );
}
