import { Anchor, Badge, Button, Card, Divider, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatDateTime } from '../../shared/lib/dates';
import { LineItems } from '../../shared/components/LineItems';
import { notifySuccess } from '../../shared/lib/toast';
import { TicketActions } from '../../shared/components/TicketActions';
import { useAppSelector } from '../../shared/hooks/store';
import { useBookingQuery, useCancelBookingMutation, useSetAttendanceMutation } from './api';
import { BookingAddOns } from './BookingAddOns';
import { ATTENDANCE_COLOR } from './constants';
import { useBookingCatalog } from './use-booking-catalog';

/** /orders/editor/{orderID}/booking/{bookingId}: one booking — guests, extras, answers, attendance, cancel, the QR ticket. */
export default function BookingDetailPage() {
  const { bookingId = '' } = useParams();
  const navigate = useNavigate();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: b, isError } = useBookingQuery(bookingId);
  const catalog = useBookingCatalog();
  const [attend, attending] = useSetAttendanceMutation();
  const [cancel, canceling] = useCancelBookingMutation();
  const [qr, setQr] = useState<string>();
  useEffect(() => {
    if (b) void QRCode.toDataURL(b.ticket_code, { margin: 1, width: 220 }).then(setQr);
  }, [b]);
  useEffect(() => {
    if (isError) navigate('/bookings/overview', { replace: true });
  }, [isError, navigate]);
  if (!b) return null;
  const canceled = b.status === 'Canceled';
  return (
    <Stack gap="lg" maw={1100}>
      <Anchor component={Link} to="/bookings/overview" size="sm">
        ← All bookings
      </Anchor>
      <Group justify="space-between">
        <div>
          <Title order={2}>{b.experience_title}</Title>
          <Text c="dimmed">
            {formatDateTime(b.starts_at, zone)} · order{' '}
            <Anchor component={Link} to={`/orders/editor/${b.order}/details`} inherit data-testid="booking-order">
              {b.order_reference}
            </Anchor>
          </Text>
        </div>
        <Group>
          <Badge size="lg" color={canceled ? 'red' : 'green'} variant="light" data-testid="booking-status">
            {b.status}
          </Badge>
          {/* A cancelled booking has no attendance to show: nobody is expected. */}
          {!canceled && (
            <Badge size="lg" color={ATTENDANCE_COLOR[b.attendance]} variant="light" data-testid="booking-attendance">
              {b.attendance}
            </Badge>
          )}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            Guests
          </Title>
          <Text fw={500}>
            {b.customer.first_name} {b.customer.last_name}
          </Text>
          <Text size="sm" c="dimmed" mb="md">
            {b.customer.email}
          </Text>
          <LineItems line={b} />
          <Divider my="md" />
          <BookingAddOns extras={b.extras} answers={b.answers} catalog={catalog} />
          <Group mt="lg" display={canceled ? 'none' : undefined}>
            {(['Arrived', 'No show', 'Open'] as const).map((a) => (
              <Button
                key={a}
                variant={b.attendance === a ? 'filled' : 'light'}
                color={ATTENDANCE_COLOR[a]}
                disabled={canceled || b.attendance === a}
                loading={attending.isLoading}
                onClick={async () => !('error' in (await attend({ id: b.id, attendance: a }))) && notifySuccess(`Marked ${a}.`)}
              >
                {a === 'Open' ? 'Reset attendance' : `Mark ${a.toLowerCase()}`}
              </Button>
            ))}
          </Group>
          <Group mt="md">
            <Button
              color="red"
              variant="outline"
              disabled={canceled}
              loading={canceling.isLoading}
              onClick={async () => {
                if (!window.confirm('Cancel this booking? Its seats are released at once.')) return;
                if (!('error' in (await cancel(b.id)))) notifySuccess('Booking cancelled: its seats are free again.');
              }}
            >
              Cancel booking
            </Button>
          </Group>
        </Card>
        <Card withBorder padding="lg" aria-label="Ticket">
          <Title order={4} mb="sm">
            Ticket
          </Title>
          {qr && <Image src={qr} w={220} h={220} alt={`QR code of ticket ${b.ticket_code}`} />}
          <Text ff="monospace" size="lg" mt="sm" data-testid="ticket-code">
            {b.ticket_code}
          </Text>
          {b.checked_in_at && (
            <Text size="sm" c="dimmed">
              Checked in {formatDateTime(b.checked_in_at, zone)}
            </Text>
          )}
          <Stack gap="xs" mt="md">
            <TicketActions order={{ id: b.order, reference: b.order_reference, customer: b.customer }} booking={b} hasTickets={!canceled} />
            <Anchor component={Link} to={`/bookings/manifests/${b.slot}`} size="sm" className="no-print">
              Manifest of this departure
            </Anchor>
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
