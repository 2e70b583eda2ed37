import { Badge, Box, Button, Checkbox, Group, Modal, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconCamera, IconCameraOff, IconCloudUpload, IconRefresh, IconWifiOff } from '@tabler/icons-react';
import { todayIn, type TCheckInTicket } from '@tourdesk/contracts';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useAppSelector } from '../../shared/hooks/store';
import { formatMoney } from '../../shared/lib/money';
import { hasPermissions } from '../../shared/lib/permissions';
import { notifyError } from '../../shared/lib/toast';
import { startCamera, type CameraError } from './camera';
import { split, type ScanAnswer } from './device';
import { useCheckInDevice } from './use-check-in-device';
import { clock, formatDateTime, formatTime, timeFormat } from '../../shared/lib/dates';
import { DateField } from '../../shared/components/DateField';
import { HelpVideos } from '../../shared/components/HelpVideos';
import { useCheckInT } from './texts';

/**
 * Check-in at the door, made for a phone: the day's departures, their tickets kept on the device,
 * the camera or a typed code (a USB scanner types and ends with Enter), and a large coloured answer
 * at once. Without a network, scans are decided against the kept tickets and queued; they are sent
 * when the network returns, and the server's answer replaces the device's. That engine is
 * `useCheckInDevice` (use-check-in-device.ts); this page only shows it.
 */


/** Each answer's colour; its title is the catalog's `result.<answer>`. */
const LOOK: Record<ScanAnswer['result'], { color: string }> = {
  admitted: { color: 'green' },
  already_checked_in: { color: 'orange' },
  wrong_day: { color: 'yellow' },
  wrong_departure: { color: 'yellow' },
  canceled: { color: 'red' },
  unconfirmed: { color: 'red' },
  unknown: { color: 'red' },
};

/**
 * The detail under its title: "Wrong day: booked for …" reads "Booked for …", "Already checked in at …"
 * reads "At …", "Checked in (override). Booked for …" reads "Override. Booked for …".
 */
function withoutTitle(detail: string) {
  const rest = detail.replace(/^Checked in \(override\)\. ?/, 'Override. ').replace(/^(Checked in\. |Already checked in |[^:]{1,30}: )/, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

function TicketFacts({ ticket, zone }: { ticket: TCheckInTicket; zone: string }) {
  const t = useCheckInT();
  return (
    <Stack gap={4}>
      <Text fz={28} fw={800} lh={1.15} data-testid="check-in-name">
        {ticket.name}
      </Text>
      <Text fz="xl" fw={600}>
        {split(ticket.categories) || t('seats', { count: ticket.seats })}
      </Text>
      {ticket.extras.length > 0 && <Text fz="lg">{t('extras', { extras: split(ticket.extras) })}</Text>}
      <Text fz="sm">
        {ticket.experience_title} · {ticket.local_date === todayIn(zone) ? formatTime(ticket.starts_at, zone) : formatDateTime(ticket.starts_at, zone)} · {ticket.order_reference}
      </Text>
      {ticket.balance_due > 0 && (
        <Text fz="xl" fw={800}>
          {t('toPay', { amount: formatMoney(ticket.balance_due, ticket.currency) })}
        </Text>
      )}
      {ticket.answers.map((a) => (
        <Text key={a.question} fz="sm">
          {a.question} <b>{a.answer}</b>
        </Text>
      ))}
      {ticket.notes && <Text fz="sm">{t('note', { note: ticket.notes })}</Text>}
      {ticket.contact && (
        <Text fz="sm">
          {ticket.contact.phone || ticket.contact.email}
        </Text>
      )}
    </Stack>
  );
}

function Answer({ answer, zone, onOverride, onUndo, online }: { answer: ScanAnswer; zone: string; onOverride: () => void; onUndo: () => void; online: boolean }) {
  const t = useCheckInT();
  const look = LOOK[answer.result];
  const dark = look.color === 'yellow' || look.color === 'orange';
  return (
    <Paper
      role="status"
      aria-live="assertive"
      data-testid="check-in-answer"
      data-result={answer.result}
      radius="md"
      p="lg"
      bg={`${look.color}.${dark ? 4 : 9}`}
      c={dark ? 'dark.9' : 'white'}
    >
      <Stack gap="xs">
        <Text fz={34} fw={900} lh={1.1}>
          {t(`result.${answer.result}`)}
        </Text>
        {/* An admission says more than its title only with an override or another day's ticket. */}
        {(answer.result !== 'admitted' || answer.detail !== 'Checked in.') && (
          <Text fz="lg" fw={600}>
            {withoutTitle(answer.detail)}
          </Text>
        )}
        {answer.ticket && <TicketFacts ticket={answer.ticket} zone={zone} />}
        {answer.local && <Text fz="sm" fw={600}>{t('decidedLocally')}</Text>}
        {answer.corrected && <Text fz="sm" fw={700}>{t('corrected')}</Text>}
        <Group gap="xs">
          {answer.can_override && (
            <Button color="dark" onClick={onOverride}>
              {t('anyway')}
            </Button>
          )}
          {(answer.result === 'admitted' || answer.result === 'already_checked_in') && answer.ticket?.attendance === 'Arrived' && !answer.local && (
            <Button variant="white" color="dark" onClick={onUndo} disabled={!online}>
              {t('undo')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

export default function CheckInPage() {
  const t = useCheckInT();
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  const zone = user?.base_account?.time_zone ?? 'UTC';
  const userId = (user as { id?: string } | null)?.id ?? 'me';
  const me = useMemo(
    () => ({ name: [user?.first_name, user?.last_name].filter(Boolean).join(' ') || 'me', zone, canOverride: hasPermissions(user, appInfo, ['Manage orders']), timeFormat: timeFormat() }),
    [user, appInfo, zone],
  );
  const { device, date, departures, online, scanning, downloading, undoing: undoBusy, scan, undo, chooseDay, chooseDepartures, refresh, sendNow } = useCheckInDevice(userId, me);
  const [code, setCode] = useState('');
  const [undoing, setUndoing] = useState<TCheckInTicket | null>(null);
  const [reason, setReason] = useState('');

  // The camera: a code in view is read many times a second; the same code counts again after 4 s.
  const video = useRef<HTMLVideoElement>(null);
  const camera = useRef<{ stop: () => void } | null>(null);
  const [cameraOn, setCameraOn] = useState(false);
  const lastRead = useRef<{ text: string; at: number }>({ text: '', at: 0 });
  const scanRef = useRef(scan);
  useEffect(() => {
    scanRef.current = scan;
  });
  const toggleCamera = async () => {
    if (camera.current) {
      camera.current.stop();
      camera.current = null;
      setCameraOn(false);
      return;
    }
    if (!video.current) return;
    try {
      camera.current = await startCamera(video.current, (text) => {
        const now = Date.now();
        if (text === lastRead.current.text && now - lastRead.current.at < 4000) return;
        lastRead.current = { text, at: now };
        navigator.vibrate?.(80);
        void scanRef.current(text);
      });
      setCameraOn(true);
    } catch (e) {
      const kind = (e as { kind?: CameraError }).kind;
      notifyError(kind ? t(`cameraError.${kind}`) : (e as Error).message);
    }
  };
  useEffect(() => () => camera.current?.stop(), []);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const text = code;
    setCode('');
    void scan(text);
  };

  const chosen = Object.values(device.tickets).filter((t) => device.slots.includes(t.slot) && t.status !== 'Canceled');
  const arrived = chosen.filter((t) => t.attendance === 'Arrived');
  const latest = device.answers[0];

  return (
    <Box maw={640} mx="auto">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={2}>{t('title')}</Title>
          <Group gap="xs">
            <HelpVideos topic="check-in" />
            {online ? (
              <Badge color="green" variant="light" size="lg">
                {t('online')}
              </Badge>
            ) : (
              <Badge color="red" variant="filled" size="lg" leftSection={<IconWifiOff size={14} />}>
                {t('offline')}
              </Badge>
            )}
          </Group>
        </Group>

        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <DateField
              label={t('day')}
              value={date}
              clearable={false}
              onChange={(value) => {
                if (value) chooseDay(value);
              }}
            />
            <Checkbox.Group label={t('departures')} value={device.slots} onChange={chooseDepartures}>
              <Stack gap={6} mt={6}>
                {departures.length === 0 && (
                  <Text c="dimmed" fz="sm">
                    {online ? t('noDepartures') : t('noDeparturesKept')}
                  </Text>
                )}
                {departures.map((d) => {
                  // A departure kept on the device counts from its tickets (this device's scans included).
                  const kept = device.slots.includes(d.slot) ? chosen.filter((t) => t.slot === d.slot) : null;
                  const seats = kept ? kept.reduce((n, t) => n + t.seats, 0) : d.seats;
                  const inside = kept ? kept.filter((t) => t.attendance === 'Arrived').reduce((n, t) => n + t.seats, 0) : d.arrived_seats;
                  return <Checkbox key={d.slot} value={d.slot} size="md" label={t('departure', { time: clock(d.local_time), title: d.experience_title, inside, seats })} />;
                })}
              </Stack>
            </Checkbox.Group>
            <Group justify="space-between" gap="xs">
              <Text fz="sm" data-testid="check-in-kept">
                {device.slots.length === 0
                  ? t('chooseDepartures')
                  : device.downloadedAt
                    ? t('keptUpdated', { count: chosen.length, arrived: arrived.length, time: formatTime(device.downloadedAt, zone) })
                    : t('kept', { count: chosen.length, arrived: arrived.length })}
              </Text>
              <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} loading={downloading} disabled={!online || device.slots.length === 0} onClick={refresh}>
                {t('refresh')}
              </Button>
            </Group>
            {device.queue.length > 0 && (
              <Group justify="space-between" gap="xs">
                <Text fz="sm" fw={700} data-testid="check-in-queue">
                  {t('queue', { count: device.queue.length })}
                </Text>
                <Button size="xs" leftSection={<IconCloudUpload size={14} />} disabled={!online} onClick={sendNow}>
                  {t('sendNow')}
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>

        <Stack gap="xs">
          <Button variant={cameraOn ? 'default' : 'filled'} size="md" leftSection={cameraOn ? <IconCameraOff size={18} /> : <IconCamera size={18} />} onClick={() => void toggleCamera()}>
            {cameraOn ? t('stopCamera') : t('scanCamera')}
          </Button>
          <Box pos="relative" style={{ display: cameraOn ? 'block' : 'none' }}>
            <video ref={video} aria-label={t('camera')} style={{ width: '100%', maxHeight: 260, objectFit: 'cover', borderRadius: 8, display: 'block', background: '#000' }} />
            {/* The latest answer over the picture too, where the eyes are while scanning. */}
            {cameraOn && latest && (
              <Paper pos="absolute" bottom={8} left={8} right={8} p="xs" radius="sm" bg={`${LOOK[latest.result].color}.${LOOK[latest.result].color === 'yellow' || LOOK[latest.result].color === 'orange' ? 4 : 9}`} c={LOOK[latest.result].color === 'yellow' || LOOK[latest.result].color === 'orange' ? 'dark.9' : 'white'} aria-hidden>
                <Text fw={800} fz="lg" truncate>
                  {t(`result.${latest.result}`)}
                  {latest.ticket ? ` · ${latest.ticket.name}` : ''}
                </Text>
              </Paper>
            )}
          </Box>
        </Stack>

        <form onSubmit={onSubmit}>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              label={t('code')}
              placeholder={t('codePlaceholder')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              size="lg"
              style={{ flex: 1 }}
              data-autofocus
            />
            <Button type="submit" size="lg" loading={scanning} disabled={!code.trim()}>
              {t('checkIn')}
            </Button>
          </Group>
        </form>


        {latest && (
          <Answer
            answer={latest}
            zone={zone}
            online={online}
            onOverride={() => void scan(latest.code, { override: true })}
            onUndo={() => {
              setReason('');
              setUndoing(latest.ticket);
            }}
          />
        )}


        {device.answers.length > 1 && (
          <Stack gap={4}>
            <Title order={4}>{t('earlier')}</Title>
            {device.answers.slice(1, 10).map((a) => (
              <Group key={a.id} gap="xs" wrap="nowrap">
                <Badge color={LOOK[a.result].color} variant="light" miw={130}>
                  {t(`result.${a.result}`)}
                </Badge>
                <Text fz="sm" truncate>
                  {formatTime(a.scanned_at, zone)} {a.ticket?.name ?? a.code}
                  {a.local ? t('onDevice') : ''}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>

      <Modal opened={undoing !== null} onClose={() => setUndoing(null)} title={t('undoTitle', { name: undoing?.name ?? '' })}>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (!undoing) return;
            if (await undo(undoing, reason)) setUndoing(null);
          }}
        >
          <Stack>
            <Textarea label={t('reason')} required value={reason} onChange={(e) => setReason(e.currentTarget.value)} minRows={2} data-autofocus />
            <Button type="submit" color="red" loading={undoBusy} disabled={!reason.trim()}>
              {t('undo')}
            </Button>
          </Stack>
        </form>
      </Modal>
    </Box>
  );
}
