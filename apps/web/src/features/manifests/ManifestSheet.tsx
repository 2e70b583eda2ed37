import { Anchor, Badge, Card, Checkbox, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { TManifest, TManifestBooking, TManifestCount } from '@tourdesk/contracts';
import { Link } from 'react-router';
import { useCan } from '../../shared/hooks/use-can';
import { clock, formatDatePattern, formatTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import './manifests.css';
import { useManifestsT } from './texts';

/** "2 Adult, 1 Child". */
export const countsText = (counts: TManifestCount[]) => counts.map((c) => `${c.quantity} ${c.label}`).join(', ');
const ATTENDANCE_COLOR = { Open: 'gray', Arrived: 'green', 'No show': 'red' } as const;
const bookingPath = (b: TManifestBooking) => `/orders/editor/${b.order}/booking/${b.id}`;

function CheckIn({ b, zone }: { b: TManifestBooking; zone: string }) {
  const tx = useManifestsT();
  return (
    <Group gap={6} wrap="nowrap">
      <Checkbox aria-label={tx('arrivedBox', { name: `${b.customer.first_name} ${b.customer.last_name}` })} checked={b.attendance === 'Arrived'} readOnly tabIndex={-1} size="xs" />
      <Badge variant="light" color={ATTENDANCE_COLOR[b.attendance]} size="sm">
        {b.attendance === 'Arrived' && b.checked_in_at ? tx('arrivedAt', { time: formatTime(b.checked_in_at, zone) }) : tx(`attendance.${b.attendance}`)}
      </Badge>
    </Group>
  );
}

function Details({ b }: { b: TManifestBooking }) {
  const tx = useManifestsT();
  return (
    <Stack gap={2}>
      {b.missing_answers.length > 0 && (
        <Text size="sm" c="orange.8" fw={500} data-testid="missing-answers">
          {tx('missingAnswers', { questions: b.missing_answers.join('; ') })}
        </Text>
      )}
      {b.extras.length > 0 && <Text size="sm">{countsText(b.extras)}</Text>}
      {b.answers.map((a) => (
        <Text size="sm" key={a.question}>
          <Text span c="dimmed" size="sm">
            {a.question}
          </Text>{' '}
          {a.answer}
        </Text>
      ))}
      {b.notes && (
        <Text size="sm" fs="italic" style={{ whiteSpace: 'pre-line' }}>
          {b.notes}
        </Text>
      )}
    </Stack>
  );
}

const Phone = ({ phone }: { phone: string | null }) =>
  phone ? (
    <Anchor href={`tel:${phone.replace(/[^\d+]/g, '')}`} size="sm">
      {phone}
    </Anchor>
  ) : null;

/** A booking's ticket code: a link to the booking for those who may open orders, else its text. */
function Ticket({ b, size }: { b: TManifestBooking; size: 'sm' | 'xs' }) {
  const canOpen = useCan(['Manage orders']);
  return canOpen ? (
    <Anchor component={Link} to={bookingPath(b)} size={size} ff="monospace">
      {b.ticket_code}
    </Anchor>
  ) : (
    <Text size={size} ff="monospace">
      {b.ticket_code}
    </Text>
  );
}

/**
 * One departure's manifest: who comes, what they booked, what is left to pay, who arrived; its
 * totals. Phones and balances are there when the server sent them (the reader's role allows).
 */
export function ManifestSheet({ m, titleLink = false }: { m: TManifest; titleLink?: boolean }) {
  const tx = useManifestsT();
  const money = (n: number) => formatMoney(n, m.currency);
  const t = m.totals;
  const showsPayment = t.balance_due !== null;
  const title = `${clock(m.local_time)} ${m.experience_title}`;
  return (
    <Card withBorder padding="lg" className="manifest-sheet" aria-label={tx('sheetLabel', { title })} data-testid="manifest-sheet">
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={3}>
            {titleLink ? (
              <Anchor component={Link} to={`/bookings/manifests/${m.slot}`} inherit>
                {title}
              </Anchor>
            ) : (
              title
            )}
          </Title>
          <Text c="dimmed" size="sm">
            {formatDatePattern(m.local_date, 'dddd, D MMMM YYYY')}, {clock(m.local_time)}–{formatTime(m.ends_at, m.time_zone)} ({m.time_zone})
          </Text>
          {m.guides.length > 0 && (
            <Text size="sm" data-testid="manifest-guides">
              {tx('guides.line', { count: m.guides.length, names: m.guides.map((g) => g.name).join(', ') })}
            </Text>
          )}
        </div>
        <Group gap="xs">
          {m.closed && <Badge color="gray">{tx('closed')}</Badge>}
          <Badge size="lg" variant="light" data-testid="manifest-seats">
            {tx('seatsOf', { seats: t.seats, capacity: m.capacity })}
          </Badge>
        </Group>
      </Group>

      {m.bookings.length === 0 ? (
        <Text c="dimmed">{tx('nobody')}</Text>
      ) : (
        <>
          <div className="manifest-table">
            <Table.ScrollContainer minWidth={820}>
              <Table verticalSpacing="xs" striped aria-label={tx('bookingsOf', { title })}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{tx('col.checkIn')}</Table.Th>
                    <Table.Th>{tx('col.guest')}</Table.Th>
                    <Table.Th>{tx('col.booked')}</Table.Th>
                    <Table.Th>{tx('col.details')}</Table.Th>
                    <Table.Th>{tx('col.ticket')}</Table.Th>
                    {showsPayment && <Table.Th ta="right">{tx('col.toPay')}</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {m.bookings.map((b) => (
                    <Table.Tr key={b.id} data-testid="manifest-booking">
                      <Table.Td>
                        <CheckIn b={b} zone={m.time_zone} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {b.customer.first_name} {b.customer.last_name}
                        </Text>
                        <Phone phone={b.customer.phone} />
                        {b.status === 'Created' && (
                          <Badge size="xs" color="yellow" variant="light" ml={4}>
                            {tx('unconfirmed')}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" data-testid="manifest-split">
                          {countsText(b.categories)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {tx('seats', { count: b.seats })}
                        </Text>
                      </Table.Td>
                      <Table.Td maw={300}>
                        <Details b={b} />
                      </Table.Td>
                      <Table.Td>
                        <Ticket b={b} size="sm" />
                        <Text size="xs" c="dimmed">
                          {b.order_reference}
                        </Text>
                      </Table.Td>
                      {b.balance_due !== null && (
                        <Table.Td ta="right">
                          <Text size="sm" fw={b.balance_due > 0 ? 600 : undefined} c={b.balance_due > 0 ? undefined : 'dimmed'}>
                            {b.balance_due > 0 ? money(b.balance_due) : '–'}
                          </Text>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </div>
          <Stack gap="xs" className="manifest-cards">
            {m.bookings.map((b) => (
              <Card key={b.id} withBorder padding="sm" data-testid="manifest-card">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div>
                    <Text fw={600}>
                      {b.customer.first_name} {b.customer.last_name}
                    </Text>
                    <Phone phone={b.customer.phone} />
                  </div>
                  <CheckIn b={b} zone={m.time_zone} />
                </Group>
                <Text size="sm" mt={4}>
                  {countsText(b.categories)}{' '}
                  <Text span size="xs" c="dimmed">
                    ({tx('seats', { count: b.seats })})
                  </Text>
                </Text>
                <Details b={b} />
                <Group justify="space-between" mt={4}>
                  <Ticket b={b} size="xs" />
                  {b.balance_due !== null && b.balance_due > 0 && (
                    <Text size="sm" fw={600}>
                      {tx('toPay', { amount: money(b.balance_due) })}
                    </Text>
                  )}
                </Group>
              </Card>
            ))}
          </Stack>
        </>
      )}
      <ManifestTotals totals={t} money={money} />
    </Card>
  );
}

export function ManifestTotals({ totals: t, money, label }: { totals: TManifest['totals']; money: (n: number) => string; label?: string }) {
  const tx = useManifestsT();
  return (
    <SimpleGrid cols={{ base: 2, sm: t.balance_due === null ? 3 : 4 }} mt="md" data-testid="manifest-totals" aria-label={label ?? tx('total')}>
      <div>
        <Text size="xs" c="dimmed" tt="uppercase">
          {label ?? tx('total')}
        </Text>
        <Text fw={600}>
          {tx('totalLine', { seats: t.seats, bookings: t.bookings })}
        </Text>
      </div>
      <div>
        <Text size="xs" c="dimmed" tt="uppercase">
          {tx('byCategory')}
        </Text>
        <Text fw={600}>{countsText(t.categories) || '–'}</Text>
        {t.extras.length > 0 && <Text size="sm">{countsText(t.extras)}</Text>}
      </div>
      <div>
        <Text size="xs" c="dimmed" tt="uppercase">
          {tx('checkedIn')}
        </Text>
        <Text fw={600}>
          {t.no_show ? tx('arrivedOfNoShow', { arrived: t.arrived, seats: t.seats, noShow: t.no_show }) : tx('arrivedOf', { arrived: t.arrived, seats: t.seats })}
        </Text>
      </div>
      {t.balance_due !== null && (
        <div>
          <Text size="xs" c="dimmed" tt="uppercase">
            {tx('toPayOnSite')}
          </Text>
          <Text fw={600}>{money(t.balance_due)}</Text>
        </div>
      )}
    </SimpleGrid>
  );
}
