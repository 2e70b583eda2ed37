import { Anchor, Badge, Button, Card, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconKey, IconPlayerPause, IconPlayerPlay, IconSend, IconTrash } from '@tabler/icons-react';
import type { TWebhookDelivery } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../shared/components/ConfirmButton';
import { ErrorPanel } from '../../shared/components/ErrorPanel';
import { ListFooter, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDateTime, formatDisplayDate } from '../../shared/lib/dates';
import { notifySuccess } from '../../shared/lib/toast';
import {
  useDeleteWebhookEndpointMutation,
  useResendWebhookDeliveryMutation,
  useRotateWebhookSecretMutation,
  useUpdateWebhookEndpointMutation,
  useWebhookDeliveriesQuery,
  useWebhookEndpointQuery,
} from './api';
import { SecretOnce } from './SecretOnce';
import { useWebhooksT } from './texts';

const STATUS_COLOR: Record<TWebhookDelivery['status'], string> = { pending: 'yellow', succeeded: 'green', failed: 'red' };

/** The endpoint's deliveries, newest first (paged by the server), each with its outcome and "Resend". */
function Deliveries({ endpoint }: { endpoint: string }) {
  const t = useWebhooksT();
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  // Refreshed while the page is open: a delivery goes out a moment after its event.
  const { data, isFetching } = useWebhookDeliveriesQuery({ id: endpoint, params: filters.apiParams }, { pollingInterval: 3000 });
  const [resend, resending] = useResendWebhookDeliveryMutation();
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t('deliveries')}
      </Title>
      <ListTable
        label={t('deliveries')}
        minWidth={760}
        fetching={isFetching && !data}
        columns={[{ label: t('col.event') }, { label: t('col.deliveryStatus') }, { label: t('col.http'), align: 'right' }, { label: t('col.attempts'), align: 'right' }, { label: t('col.duration'), align: 'right' }, { label: t('col.time') }, { label: t('col.answer') }, {}]}
        rowCount={data?.results.length}
        empty={t('noDeliveries')}
      >
        {data?.results.map((d) => (
          <Table.Tr key={d.id} data-testid="webhook-delivery" data-status={d.status} data-event={d.event_type}>
            <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
              {d.event_type}
            </Table.Td>
            <Table.Td>
              <Badge variant="light" color={STATUS_COLOR[d.status]}>
                {t(`status.${d.status}`)}
              </Badge>
            </Table.Td>
            <Table.Td ta="right">{d.http_status ?? '—'}</Table.Td>
            <Table.Td ta="right">{d.attempts}</Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {d.duration_ms === null ? '—' : t('durationMs', { ms: d.duration_ms })}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(d.last_attempt_at ?? d.created_at, zone)}</Table.Td>
            <Table.Td>
              <Text size="xs" c="dimmed" lineClamp={2} title={d.response ?? ''} maw={240}>
                {d.response || '—'}
              </Text>
            </Table.Td>
            <Table.Td ta="right">
              <Button
                size="xs"
                variant="light"
                leftSection={<IconSend size={14} />}
                loading={resending.isLoading && resending.originalArgs?.delivery === d.id}
                onClick={() =>
                  resend({ id: endpoint, delivery: d.id })
                    .unwrap()
                    .then(() => notifySuccess(t('resent')))
                    .catch(() => undefined)
                }
              >
                {t('resend')}
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <ListFooter count={data?.count} countLabel={(count) => t('deliveriesCount', { count })} totalPages={data?.total_pages} filters={filters} />
    </Stack>
  );
}

/** /settings/webhooks/:endpointId: one endpoint: its events, enable/disable, rotate its secret, delete it, and its deliveries. */
export default function WebhookEndpointPage() {
  const t = useWebhooksT();
  const { endpointId = '' } = useParams();
  const navigate = useNavigate();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: e, error, isLoading } = useWebhookEndpointQuery(endpointId);
  const [update, updating] = useUpdateWebhookEndpointMutation();
  const [rotate] = useRotateWebhookSecretMutation();
  const [remove] = useDeleteWebhookEndpointMutation();
  const [secret, setSecret] = useState<string | null>(null);

  if (isLoading) return <Loader m="xl" />;
  if (error || !e) return <ErrorPanel message={t('notFound')} actionPath="/settings/webhooks" actionLabel={t('back')} />;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/settings/webhooks" size="sm">
        <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} /> {t('back')}
      </Anchor>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 320px' }}>
              <Title order={2} size="h3" style={{ wordBreak: 'break-all' }} data-testid="webhook-url">
                {e.url}
              </Title>
              {e.description && <Text c="dimmed">{e.description}</Text>}
              <Text size="xs" c="dimmed">
                {t('detail.created', { date: formatDisplayDate(e.created_at, zone) })}
                {e.secret_hint ? ` · ${t('secret.hint', { hint: e.secret_hint })}` : ` · ${t('secret.none')}`}
              </Text>
            </Stack>
            <Badge size="lg" variant="light" color={e.enabled ? 'green' : 'gray'}>
              {e.enabled ? t('enabled') : t('disabled')}
            </Badge>
          </Group>
          <Text size="sm" fw={500}>
            {t('detail.events')}
          </Text>
          <Group gap={6}>
            {e.event_types.map((type) => (
              <Badge key={type} variant="outline" color="gray" tt="none" ff="monospace" data-testid="webhook-event-type">
                {type}
              </Badge>
            ))}
          </Group>
          <Group gap="xs" mt="sm">
            <Button
              variant="default"
              leftSection={e.enabled ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
              loading={updating.isLoading}
              onClick={() =>
                update({ id: e.id, enabled: !e.enabled })
                  .unwrap()
                  .then((r) => notifySuccess(r.enabled ? t('enabledNow') : t('disabledNow')))
                  .catch(() => undefined)
              }
            >
              {e.enabled ? t('disable') : t('enable')}
            </Button>
            <ConfirmButton
              variant="default"
              leftSection={<IconKey size={16} />}
              title={t('rotateTitle')}
              message={t('rotateMessage')}
              confirmLabel={t('rotateConfirm')}
              onConfirm={async () => {
                const res = await rotate(e.id);
                if ('error' in res) return false;
                setSecret(res.data.secret);
                return true;
              }}
            >
              {t('rotate')}
            </ConfirmButton>
            <ConfirmButton
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} />}
              title={t('deleteTitle')}
              message={t('deleteMessage')}
              confirmLabel={t('deleteConfirm')}
              onConfirm={async () => {
                const res = await remove(e.id);
                if ('error' in res) return false;
                notifySuccess(t('deleted'));
                void navigate('/settings/webhooks');
                return true;
              }}
            >
              {t('delete')}
            </ConfirmButton>
          </Group>
        </Stack>
      </Card>
      <Deliveries endpoint={e.id} />
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title={t('secret.title')} closeOnClickOutside={false}>
        {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      </Modal>
    </Stack>
  );
}
