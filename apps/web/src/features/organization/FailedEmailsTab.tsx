import { Button, Stack, Table, Text } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { ListFooter, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime } from '../../shared/lib/dates';
import { notifySuccess } from '../../shared/lib/toast';
import { useFailedJobsQuery, useRetryFailedJobMutation } from './api';

/**
 * /settings/organization/emails: the organisation's e-mails the mail server never took, after
 * every retry (hours of them): to whom, what, how often it was tried and the server's last answer.
 * "Send again" puts one back in the queue.
 */
export function FailedEmailsTab() {
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useFailedJobsQuery(filters.apiParams);
  const [retry, { isLoading: sending, originalArgs }] = useRetryFailedJobMutation();

  return (
    <Stack gap="sm">
      <Text c="dimmed" size="sm">
        E-mails are tried again for hours when the mail server does not take them. Those listed here were never delivered; send one again once the mail
        server works.
      </Text>
      <ListTable
        label="Failed e-mails"
        minWidth={640}
        highlightOnHover={false}
        columns={[{ label: 'E-mail' }, { label: 'Last tried' }, { label: 'Attempts', align: 'right' }, { label: 'Mail server’s answer' }, {}]}
        rowCount={data?.results.length}
        empty={isFetching ? 'Loading…' : 'Every e-mail was delivered.'}
      >
        {data?.results.map((job) => (
          <Table.Tr key={job.id} data-testid="failed-email">
            <Table.Td>
              <Text size="sm" fw={500}>
                {job.summary}
              </Text>
              <Text size="xs" c="dimmed">
                to {job.recipient ?? '—'}
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
                    .then(() => notifySuccess(`The e-mail to ${job.recipient ?? 'its recipient'} is being sent again.`))
                    .catch(() => undefined)
                }
              >
                Send again
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <ListFooter count={data?.count} noun="failed e-mail" totalPages={data?.total_pages} filters={filters} />
    </Stack>
  );
}
