import { Badge, Box, Button, Card, Divider, Group, List, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { TSubscriptionTier } from '@tourdesk/contracts';
import { useSubscriptionT } from './texts';
import { feeWords, featureList, featureWords, isFree, limitsOf, limitWords, priceWords, type Interval, type PlanAction } from './words';

interface PlanCardProps {
  tier: TSubscriptionTier;
  shown: Interval;
  /** The organisation's plan now. */
  current: boolean;
  /** The card's button; none for a plan of the other kind (read only) or when this user may not choose. */
  action: PlanAction | null;
  /** Why the button cannot be used (paid plans without the platform's billing). */
  unavailable?: string | null;
  busy: boolean;
  /** Whether any plan beside it shows a saving or a trial (their rows are kept here, hidden, to line the cards up). */
  rows: { saving: boolean; trial: boolean };
  onChoose: (action: Exclude<PlanAction, { kind: 'current' }>) => void;
}

const ACTION_VARIANT: Record<PlanAction['kind'], 'filled' | 'light' | 'default'> = {
  current: 'default',
  subscribe: 'filled',
  upgrade: 'filled',
  switch: 'light',
  choose: 'filled',
  downgrade: 'default',
};

/** A row another plan shows, kept here unseen beside it (not on a phone, where cards stack) so the cards' buttons and lists line up. */
function Placeholder({ badge = false }: { badge?: boolean }) {
  return badge ? (
    <Badge mt={6} visibleFrom="sm" style={{ visibility: 'hidden' }} aria-hidden>
      —
    </Badge>
  ) : (
    <Text size="sm" mt={6} visibleFrom="sm" style={{ visibility: 'hidden' }} aria-hidden>
      —
    </Text>
  );
}

/** One plan: its price by the interval shown, its limits and fee, its features in words, and the button to take it. */
export function PlanCard({ tier, shown, current, action, unavailable, busy, rows, onChoose }: PlanCardProps) {
  const t = useSubscriptionT();
  const price = priceWords(tier, shown, t);
  const { included, missing } = featureList(tier);
  const limits = limitsOf(tier);
  const hasTrial = tier.trial_days > 0 && !isFree(tier);
  return (
    <Card
      component="section"
      aria-label={tier.name}
      withBorder
      padding="lg"
      radius="md"
      data-current={current || undefined}
      style={{
        borderColor: current ? 'var(--mantine-primary-color-filled)' : undefined,
        borderWidth: current ? 2 : undefined,
      }}
    >
      <Group justify="space-between" align="center" wrap="nowrap" gap="xs">
        <Title order={3} fz="h4">
          {tier.name}
        </Title>
        {current && (
          <Badge variant="filled" style={{ flexShrink: 0 }}>
            {t('current.label')}
          </Badge>
        )}
      </Group>

      <Box mt="sm" data-testid="plan-price">
        <Group gap={6} align="baseline" wrap="wrap">
          <Text fz={30} fw={700} lh={1.1}>
            {price.amount}
          </Text>
          {price.per && (
            <Text c="dimmed" size="sm">
              {price.per}
            </Text>
          )}
        </Group>
        <Text size="sm" c="dimmed" mt={4}>
          {price.note}
        </Text>
        {price.saving ? (
          <Badge mt={6} variant="light" color="green" style={{ textTransform: 'none' }}>
            {price.saving}
          </Badge>
        ) : (
          rows.saving && <Placeholder badge />
        )}
        {hasTrial ? (
          <Text size="sm" mt={6}>
            {t('plan.trial', { days: tier.trial_days })}
          </Text>
        ) : (
          rows.trial && <Placeholder />
        )}
      </Box>

      {action && (
        <Stack gap={4} mt="md">
          <Button
            fullWidth
            variant={ACTION_VARIANT[action.kind]}
            disabled={action.kind === 'current' || Boolean(unavailable)}
            loading={busy}
            onClick={() => action.kind !== 'current' && onChoose(action)}
          >
            {action.label}
          </Button>
          {unavailable && action.kind !== 'current' && (
            <Text size="xs" c="dimmed" ta="center">
              {unavailable}
            </Text>
          )}
        </Stack>
      )}
      <Divider my="md" />
      <List spacing={6} size="sm" aria-label={t('plan.limits', { name: tier.name })} listStyleType="none" styles={{ root: { paddingInlineStart: 0 } }}>
        {limits.map((kind) => (
          <List.Item key={kind}>{limitWords(kind, tier.limits[kind], t)}</List.Item>
        ))}
        <List.Item>{feeWords(tier.application_fee_bp, t)}</List.Item>
      </List>

      <Divider my="md" />
      <List
        spacing={6}
        size="sm"
        center
        aria-label={t('plan.features', { name: tier.name })}
        icon={
          <ThemeIcon size={18} radius="xl" color="teal" variant="light">
            <IconCheck size={12} stroke={3} />
          </ThemeIcon>
        }
      >
        {included.map((f) => (
          <List.Item key={f}>{featureWords(f, t)}</List.Item>
        ))}
        {missing.map((f) => (
          <List.Item
            key={f}
            c="dimmed"
            data-missing
            icon={
              <ThemeIcon size={18} radius="xl" color="gray" variant="light">
                <IconX size={12} stroke={3} />
              </ThemeIcon>
            }
          >
            <VisuallyHidden>{t('plan.notIncluded')}</VisuallyHidden>
            {featureWords(f, t)}
          </List.Item>
        ))}
      </List>

    </Card>
  );
}
