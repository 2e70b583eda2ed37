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
import { useBookingsT } from './texts';

/** /orders/editor/{orderID}/booking/{bookingId}: one booking — guests, extras, answers, attendance, cancel, the QR ticket. */
export default function BookingDetailPage() {
  const t = useBookingsT();
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
        {t('detail.all')}
      </Anchor>
      <Group justify="space-between">
        <div>
          <Title order={2}>{b.experience_title}</Title>
          <Text c="dimmed">
            {formatDateTime(b.starts_at, zone)} · {t('detail.order')}{' '}
            <Anchor component={Link} to={`/orders/editor/${b.order}/details`} inherit data-testid="booking-order">
              {b.order_reference}
            </Anchor>
          </Text>
        </div>
        <Group>
          <Badge size="lg" color={canceled ? 'red' : 'green'} variant="light" data-testid="booking-status">
            {t(`status.${b.status}`)}
          </Badge>
          {/* A cancelled booking has no attendance to show: nobody is expected. */}
          {!canceled && (
            <Badge size="lg" color={ATTENDANCE_COLOR[b.attendance]} variant="light" data-testid="booking-attendance">
              {t(`attendance.${b.attendance}`)}
            </Badge>
          )}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            {t('detail.guests')}
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
                onClick={async () => !('error' in (await attend({ id: b.id, attendance: a }))) && notifySuccess(t('detail.marked', { attendance: t(`attendance.${a}`) }))}
              >
                {a === 'Open' ? t('detail.resetAttendance') : a === 'Arrived' ? t('detail.markArrived') : t('detail.markNoShow')}
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
                if (!window.confirm(t('detail.cancelConfirm'))) return;
                if (!('error' in (await cancel(b.id)))) notifySuccess(t('detail.cancelled'));
              }}
            >
              {t('detail.cancel')}
            </Button>
          </Group>
        </Card>
        <Card withBorder padding="lg" aria-label={t('detail.ticket')}>
          <Title order={4} mb="sm">
            {t('detail.ticket')}
          </Title>
          {qr && <Image src={qr} w={220} h={220} alt={t('detail.qr', { code: b.ticket_code })} />}
          <Text ff="monospace" size="lg" mt="sm" data-testid="ticket-code">
            {b.ticket_code}
          </Text>
          {b.checked_in_at && (
            <Text size="sm" c="dimmed">
              {t('detail.checkedIn', { when: formatDateTime(b.checked_in_at, zone) })}
            </Text>
          )}
          <Stack gap="xs" mt="md">
            <TicketActions order={{ id: b.order, reference: b.order_reference, customer: b.customer }} booking={b} hasTickets={!canceled} />
            <Anchor component={Link} to={`/bookings/manifests/${b.slot}`} size="sm" className="no-print">
              {t('detail.manifest')}
            </Anchor>
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
