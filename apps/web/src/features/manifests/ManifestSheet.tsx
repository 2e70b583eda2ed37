import { Anchor, Badge, Card, Checkbox, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { TManifest, TManifestBooking, TManifestCount } from '@tourdesk/contracts';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { useCan } from '../../shared/hooks/use-can';
import { clock, formatTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import './manifests.css';

/** "2 Adult, 1 Child". */
export const countsText = (counts: TManifestCount[]) => counts.map((c) => `${c.quantity} ${c.label}`).join(', ');
const ATTENDANCE_COLOR = { Open: 'gray', Arrived: 'green', 'No show': 'red' } as const;
const bookingPath = (b: TManifestBooking) => `/orders/editor/${b.order}/booking/${b.id}`;

function CheckIn({ b, zone }: { b: TManifestBooking; zone: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Checkbox aria-label={`${b.customer.first_name} ${b.customer.last_name} arrived`} checked={b.attendance === 'Arrived'} readOnly tabIndex={-1} size="xs" />
      <Badge variant="light" color={ATTENDANCE_COLOR[b.attendance]} size="sm">
        {b.attendance === 'Arrived' && b.checked_in_at ? `Arrived ${formatTime(b.checked_in_at, zone)}` : b.attendance}
      </Badge>
    </Group>
  );
}

function Details({ b }: { b: TManifestBooking }) {
  return (
    <Stack gap={2}>
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
  const money = (n: number) => formatMoney(n, m.currency);
  const t = m.totals;
  const showsPayment = t.balance_due !== null;
  const title = `${clock(m.local_time)} ${m.experience_title}`;
  return (
    <Card withBorder padding="lg" className="manifest-sheet" aria-label={`Manifest ${title}`} data-testid="manifest-sheet">
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
            {dayjs(m.local_date).format('dddd, D MMMM YYYY')}, {clock(m.local_time)}–{formatTime(m.ends_at, m.time_zone)} ({m.time_zone})
          </Text>
        </div>
        <Group gap="xs">
          {m.closed && <Badge color="gray">Closed for sale</Badge>}
          <Badge size="lg" variant="light" data-testid="manifest-seats">
            {t.seats} of {m.capacity} seats
          </Badge>
        </Group>
      </Group>

      {m.bookings.length === 0 ? (
        <Text c="dimmed">Nobody is booked on this departure.</Text>
      ) : (
        <>
          <div className="manifest-table">
            <Table.ScrollContainer minWidth={820}>
              <Table verticalSpacing="xs" striped aria-label={`Bookings of ${title}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Check-in</Table.Th>
                    <Table.Th>Guest</Table.Th>
                    <Table.Th>Booked</Table.Th>
                    <Table.Th>Extras, answers, notes</Table.Th>
                    <Table.Th>Ticket</Table.Th>
                    {showsPayment && <Table.Th ta="right">To pay</Table.Th>}
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
                            unconfirmed
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" data-testid="manifest-split">
                          {countsText(b.categories)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {b.seats} seat{b.seats === 1 ? '' : 's'}
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
                    ({b.seats} seat{b.seats === 1 ? '' : 's'})
                  </Text>
                </Text>
                <Details b={b} />
                <Group justify="space-between" mt={4}>
                  <Ticket b={b} size="xs" />
                  {b.balance_due !== null && b.balance_due > 0 && (
                    <Text size="sm" fw={600}>
                      To pay {money(b.balance_due)}
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

export function ManifestTotals({ totals: t, money, label = 'Total' }: { totals: TManifest['totals']; money: (n: number) => string; label?: string }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: t.balance_due === null ? 3 : 4 }} mt="md" data-testid="manifest-totals" aria-label={label}>
      <div>
        <Text size="xs" c="dimmed" tt="uppercase">
          {label}
        </Text>
        <Text fw={600}>
          {t.seats} seats · {t.bookings} booking{t.bookings === 1 ? '' : 's'}
        </Text>
      </div>
      <div>
        <Text size="xs" c="dimmed" tt="uppercase">
          By category
        </Text>
        <Text fw={600}>{countsText(t.categories) || '–'}</Text>
        {t.extras.length > 0 && <Text size="sm">{countsText(t.extras)}</Text>}
      </div>
      <div>
        <Text size="xs" c="dimmed" tt="uppercase">
          Checked in
        </Text>
        <Text fw={600}>
          {t.arrived} of {t.seats} arrived{t.no_show ? ` · ${t.no_show} no show` : ''}
        </Text>
      </div>
      {t.balance_due !== null && (
        <div>
          <Text size="xs" c="dimmed" tt="uppercase">
            To pay on site
          </Text>
          <Text fw={600}>{money(t.balance_due)}</Text>
        </div>
      )}
    </SimpleGrid>
  );
}
