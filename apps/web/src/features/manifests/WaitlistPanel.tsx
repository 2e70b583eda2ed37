import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { TWaitlistEntry } from '@tourdesk/contracts';
import { Link } from 'react-router';
import { useCan } from '../../shared/hooks/use-can';
import { formatDateTime } from '../../shared/lib/dates';
import { notifySuccess } from '../../shared/lib/toast';
import { useDepartureWaitlistQuery, useOfferWaitlistSeatsMutation, useRemoveWaitlistEntryMutation } from './api';
import { useManifestsT } from './texts';

const COLOR: Record<TWaitlistEntry['status'], string> = { waiting: 'blue', offered: 'orange', booked: 'green', expired: 'gray', removed: 'gray' };

/**
 * A departure's waiting list (issue 32): who waits, in the order they joined, and where each stands;
 * staff who manage orders remove an entry or offer it seats by hand (a waiting or expired one).
 */
export function WaitlistPanel({ slot, zone }: { slot: string; zone: string }) {
  const t = useManifestsT();
  const manage = useCan(['Manage orders'], ['bookings']);
  const { data } = useDepartureWaitlistQuery(slot);
  const [offer, offering] = useOfferWaitlistSeatsMutation();
  const [remove, removing] = useRemoveWaitlistEntryMutation();
  if (!data) return null;
  const status = (e: TWaitlistEntry) =>
    e.status === 'offered' && e.offered_until
      ? t('waitlist.status.offered', { until: formatDateTime(e.offered_until, zone) })
      : e.status === 'booked' && e.order_reference
        ? t('waitlist.status.bookedOrder', { reference: e.order_reference })
        : t(`waitlist.status.${e.status}`);
  return (
    <Paper withBorder p="md" className="no-print" aria-labelledby="waitlist-title" component="section" data-testid="waitlist">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} id="waitlist-title">
            {t('waitlist.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('waitlist.seatsLeft', { n: data.seats_left })}
          </Text>
        </Group>
        <Text size="sm">{t('waitlist.intro', { hours: Math.round((data.hold_minutes / 60) * 10) / 10 })}</Text>
        {data.results.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('waitlist.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-labelledby="waitlist-title">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('waitlist.position')}</Table.Th>
                  <Table.Th>{t('waitlist.name')}</Table.Th>
                  <Table.Th>{t('waitlist.email')}</Table.Th>
                  <Table.Th>{t('waitlist.seats')}</Table.Th>
                  <Table.Th>{t('waitlist.status')}</Table.Th>
                  <Table.Th>{t('waitlist.joined')}</Table.Th>
                  {manage && <Table.Th />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((e) => (
                  <Table.Tr key={e.id} data-testid="waitlist-entry">
                    <Table.Td>{e.position || ''}</Table.Td>
                    <Table.Td>{e.name}</Table.Td>
                    <Table.Td>{e.email}</Table.Td>
                    <Table.Td>{e.seats}</Table.Td>
                    <Table.Td>
                      <Badge color={COLOR[e.status]} variant="light" tt="none">
                        {status(e)}
                      </Badge>
                      {e.status === 'booked' && e.order && (
                        <Anchor component={Link} to={`/orders/editor/${e.order}`} size="xs" ml="xs">
                          {e.order_reference}
                        </Anchor>
                      )}
                    </Table.Td>
                    <Table.Td>{formatDateTime(e.created_at, zone)}</Table.Td>
                    {manage && (
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap" justify="flex-end">
                          {(e.status === 'waiting' || e.status === 'expired') && (
                            <Button
                              size="xs"
                              variant="light"
                              aria-label={t('waitlist.offerLabel', { name: e.name })}
                              loading={offering.isLoading && offering.originalArgs?.entry === e.id}
                              onClick={() => void offer({ slot, entry: e.id }).unwrap().then(() => notifySuccess(t('waitlist.offered', { name: e.name })), () => undefined)}
                            >
                              {t('waitlist.offer')}
                            </Button>
                          )}
                          {(e.status === 'waiting' || e.status === 'offered' || e.status === 'expired') && (
                            <Button
                              size="xs"
                              variant="subtle"
                              color="red"
                              aria-label={t('waitlist.removeLabel', { name: e.name })}
                              loading={removing.isLoading && removing.originalArgs?.entry === e.id}
                              onClick={() => void remove({ slot, entry: e.id }).unwrap().then(() => notifySuccess(t('waitlist.removed', { name: e.name })), () => undefined)}
                            >
                              {t('waitlist.remove')}
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
