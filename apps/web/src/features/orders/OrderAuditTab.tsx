import { Badge, Code, Group, Stack, Text, Timeline } from '@mantine/core';
import type { TAuditEvent, TOrder } from '@tourdesk/contracts';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime } from '../../shared/lib/dates';
import { useOrderAuditQuery } from './api';
import { useOrdersT } from './texts';

const SUBJECT_COLOR: Record<TAuditEvent['subject'], string> = { order: 'blue', line: 'teal', payment: 'green', invoice: 'grape' };

/** A change as people read it: "status: Created → Confirmed"; other values as they were recorded. */
function changeText(key: string, value: unknown) {
  if (Array.isArray(value) && value.length === 2) return `${key}: ${String(value[0] ?? '—')} → ${String(value[1] ?? '—')}`;
  if (value !== null && typeof value === 'object') return `${key}: ${JSON.stringify(value)}`;
  return `${key}: ${String(value)}`;
}

/** /orders/editor/{id}/audit: every recorded change of the order, its lines, payments and invoices, oldest first, with who made it. */
export function OrderAuditTab({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: events, isLoading } = useOrderAuditQuery(order.id);
  if (isLoading) return null;
  if (!events?.length) return <Text c="dimmed">{t('audit.none')}</Text>;
  return (
    <Timeline bulletSize={14} lineWidth={2} aria-label={t('audit.label')}>
      {events.map((e) => (
        <Timeline.Item
          key={e.id}
          data-testid="audit-event"
          title={
            <Group gap="xs">
              <Text fw={600} size="sm">
                {e.action}
              </Text>
              <Badge size="xs" variant="light" color={SUBJECT_COLOR[e.subject]}>
                {t(`audit.subject.${e.subject}`)}
              </Badge>
            </Group>
          }
        >
          <Text size="xs" c="dimmed">
            {formatDateTime(e.created_at, zone)} · {e.actor?.name ?? t('audit.system')}
          </Text>
          <Stack gap={2} mt={4}>
            {Object.entries(e.changes).map(([key, value]) => (
              <Code key={key} block={false} fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {changeText(key, value)}
              </Code>
            ))}
          </Stack>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
