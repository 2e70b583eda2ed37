import { Anchor, Badge, Button, Modal, Table, Text } from '@mantine/core';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import type { TWebhookEndpointWithSecret } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useWebhookEndpointsQuery } from './api';
import { EndpointForm } from './EndpointForm';
import { SecretOnce } from './SecretOnce';
import { useWebhooksT } from './texts';

/** /settings/webhooks: the organisation's webhook endpoints (Owners only); adding one shows its secret once. */
export default function WebhooksPage() {
  const t = useWebhooksT();
  const filters = useListFilters();
  const navigate = useNavigate();
  const { data, isFetching } = useWebhookEndpointsQuery(filters.apiParams);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<TWebhookEndpointWithSecret | null>(null);
  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          {t('add')}
        </Button>
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('title')}
        minWidth={640}
        fetching={isFetching}
        columns={[{ label: t('col.url') }, { label: t('col.events') }, { label: t('col.status') }]}
        rowCount={data?.results.length}
        empty={t('empty')}
      >
        {data?.results.map((e) => (
          <Table.Tr key={e.id} data-testid="webhook-endpoint">
            <Table.Td>
              <Anchor component={Link} to={`/settings/webhooks/${e.id}`} fw={500} style={{ wordBreak: 'break-all' }}>
                <IconWebhook size={16} style={{ verticalAlign: 'text-bottom', marginRight: 6 }} />
                {e.url}
              </Anchor>
              {e.description && (
                <Text size="xs" c="dimmed">
                  {e.description}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{t('eventsCount', { count: e.event_types.length })}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={e.enabled ? 'green' : 'gray'}>
                {e.enabled ? t('enabled') : t('disabled')}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('form.title')} size="lg">
        {adding && (
          <EndpointForm
            onClose={(made) => {
              setAdding(false);
              if (made) setCreated(made);
            }}
          />
        )}
      </Modal>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={t('secret.title')} closeOnClickOutside={false}>
        {created && (
          <SecretOnce
            secret={created.secret}
            onDone={() => {
              const id = created.id;
              setCreated(null);
              void navigate(`/settings/webhooks/${id}`);
            }}
          />
        )}
      </Modal>
    </ListPage>
  );
}
