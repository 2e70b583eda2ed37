import { Button, Stack, Table, Text } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { ListFooter, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime } from '../../shared/lib/dates';
import { notifySuccess } from '../../shared/lib/toast';
import { useFailedJobsQuery, useRetryFailedJobMutation } from './api';
import { useOrganizationT } from './texts';

/**
 * /settings/organization/emails: the organisation's e-mails the mail server never took, after
 * every retry (hours of them): to whom, what, how often it was tried and the server's last answer.
 * "Send again" puts one back in the queue.
 */
export function FailedEmailsTab() {
  const tr = useOrganizationT();
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useFailedJobsQuery(filters.apiParams);
  const [retry, { isLoading: sending, originalArgs }] = useRetryFailedJobMutation();

  return (
    <Stack gap="sm">
      <Text c="dimmed" size="sm">
        {tr('emails.hint')}
      </Text>
      <ListTable
        label={tr('tab.emails')}
        minWidth={640}
        highlightOnHover={false}
        columns={[{ label: tr('emails.col.email') }, { label: tr('emails.col.lastTried') }, { label: tr('emails.col.attempts'), align: 'right' }, { label: tr('emails.col.answer') }, {}]}
        rowCount={data?.results.length}
        empty={isFetching ? tr('emails.loading') : tr('emails.none')}
      >
        {data?.results.map((job) => (
          <Table.Tr key={job.id} data-testid="failed-email">
            <Table.Td>
              <Text size="sm" fw={500}>
                {job.summary}
              </Text>
              <Text size="xs" c="dimmed">
                {tr('emails.to', { recipient: job.recipient ?? '—' })}
              </Text>
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{job.failed_at ? formatDateTime(job.failed_at, zone) : '—'}</Table.Td>
            <Table.Td ta="right">{job.attempts}</Table.Td>
            <Table.Td>
              <Text size="xs" c="dimmed" lineClamp={2} title={job.error}>
                {job.error}
              </Text>
            </Table.Td>
            <Table.Td ta="right">
              <Button
                size="xs"
                variant="light"
                leftSection={<IconMailForward size={14} />}
                loading={sending && originalArgs === job.id}
                onClick={() =>
                  retry(job.id)
                    .unwrap()
                    .then(() => notifySuccess(tr('emails.resent', { recipient: job.recipient ?? tr('emails.itsRecipient') })))
                    .catch(() => undefined)
                }
              >
                {tr('emails.sendAgain')}
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <ListFooter count={data?.count} countLabel={(count) => tr('emails.count', { count })} totalPages={data?.total_pages} filters={filters} />
    </Stack>
  );
}
