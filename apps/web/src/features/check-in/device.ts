import { decideScan, describeScan, normaliseTicketCode, type CheckInResult, type TTimeFormat, type TCheckInOutcome, type TCheckInDeparture, type TCheckInScanInput, type TCheckInTicket } from '@tourdesk/contracts';

/**
 * What a check-in device keeps (localStorage, per organisation host and user): its id, the day and
 * departures it checks in, their tickets, the scans not yet sent, and the latest answers. Scans
 * made without a network are decided here against the tickets, queued, and sent when it returns;
 * the server's answer then replaces the local one.
 */
export interface QueuedScan extends Required<Pick<TCheckInScanInput, 'id' | 'ticket_code' | 'scanned_at'>> {
  override: boolean;
  /** Decided on this device (queued): the server lets it take the place of a later admission. */
  offline?: boolean;
}

/** One answer shown at the door: the server's, or this device's while offline (`local`). */
export interface ScanAnswer {
  id: string;
  code: string;
  result: CheckInResult;
  detail: string;
  ticket: TCheckInTicket | null;
  scanned_at: string;
  local: boolean;
  can_override: boolean;
  /** The server decided otherwise than this device did offline. */
  corrected?: boolean;
}

export interface DeviceState {
  deviceId: string;
  deviceName: string;
  date: string | null;
  slots: string[];
  tickets: Record<string, TCheckInTicket>;
  downloadedAt: string | null;
  queue: QueuedScan[];
  answers: ScanAnswer[];
  /** The departures of `date` as last read from the server (shown offline). */
  departures: TCheckInDeparture[];
}

/** A v4 UUID (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function uuid() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const PREFIX = 'tourdesk.check-in.v1.';
const KEY = (userId: string) => `${PREFIX}${userId}`;
const DEVICE_KEY = 'tourdesk.check-in.device';

function deviceIdentity() {
  try {
    const kept = localStorage.getItem(DEVICE_KEY);
    if (kept) return JSON.parse(kept) as { id: string; name: string };
  } catch {
    /* a fresh identity below */
  }
  const id = uuid();
  const identity = { id, name: `Device ${id.slice(0, 4).toUpperCase()}` };
  localStorage.setItem(DEVICE_KEY, JSON.stringify(identity));
  return identity;
}

export function loadDevice(userId: string): DeviceState {
  const identity = deviceIdentity();
  const empty: DeviceState = { deviceId: identity.id, deviceName: identity.name, date: null, slots: [], tickets: {}, downloadedAt: null, queue: [], answers: [], departures: [] };
  try {
    const raw = localStorage.getItem(KEY(userId));
    if (!raw) return empty;
    return { ...empty, ...(JSON.parse(raw) as Partial<DeviceState>), deviceId: identity.id, deviceName: identity.name };
  } catch {
    return empty;
  }
}

export function saveDevice(userId: string, state: DeviceState) {
  try {
    localStorage.setItem(KEY(userId), JSON.stringify({ ...state, answers: state.answers.slice(0, 20) }));
  } catch {
    /* storage full or blocked: the page keeps working from memory */
  }
}

/**
 * Sign-out (or a session that ended) wipes what this browser keeps of customers for every user:
 * their tickets, the latest answers and the departures. Scans not sent yet stay queued (codes and
 * times only), to be sent when their user signs in here again.
 */
export function forgetTickets() {
  try {
    for (const key of Object.keys(localStorage).filter((k) => k.startsWith(PREFIX))) {
      let queue: QueuedScan[] = [];
      try {
        queue = (JSON.parse(localStorage.getItem(key) ?? '{}') as Partial<DeviceState>).queue ?? [];
      } catch {
        /* unreadable: nothing to keep */
      }
      if (queue.length > 0) localStorage.setItem(key, JSON.stringify({ queue }));
      else localStorage.removeItem(key);
    }
  } catch {
    /* storage blocked: nothing kept either */
  }
}

/**
 * This device's decision while offline, by the server's own rule (decideScan and describeScan in
 * the contracts): the door is today (in the organisation's zone) and the chosen departures, the scan an
 * offline one. It answers with
 * the ticket as it will be once admitted; the scan is queued and the server settles it.
 */
export function decideLocally(
  state: DeviceState,
  text: string,
  me: { name: string; zone: string; canOverride: boolean; timeFormat: TTimeFormat },
  scan: { id: string; at: Date; override?: boolean },
): { answer: ScanAnswer; ticket: TCheckInTicket | null } {
  const now = scan.at;
  const code = normaliseTicketCode(text);
  const ticket = state.tickets[code] ?? null;
  const door = { slots: new Set(state.slots), zone: me.zone, canOverride: me.canOverride };
  const held = ticket && { ...ticket, checked_in_at: ticket.checked_in_at ? new Date(ticket.checked_in_at) : null };
  const d = decideScan(held, { at: now, offline: true, override: scan.override ?? false }, door);
  const admitted: TCheckInTicket | null =
    d.result === 'admitted' && ticket ? { ...ticket, attendance: 'Arrived', checked_in_at: now.toISOString(), checked_in_by: me.name, checked_in_device: state.deviceName } : null;
  const shown = admitted ?? ticket;
  const answer: ScanAnswer = {
    id: scan.id,
    code,
    result: d.result,
    detail: describeScan(d.result, shown, { zone: me.zone, timeFormat: me.timeFormat, override: d.override, now, local: true }),
    ticket: shown,
    scanned_at: now.toISOString(),
    local: true,
    can_override: (d.result === 'wrong_day' || d.result === 'wrong_departure') && me.canOverride,
  };
  return { answer, ticket: admitted };
}

/** The server's outcome as an answer (it replaces the local one of the same scan id). */
export const fromOutcome = (o: TCheckInOutcome, code: string, scannedAt: string): ScanAnswer => ({
  id: o.id,
  code,
  result: o.result,
  detail: o.detail,
  ticket: o.ticket,
  scanned_at: scannedAt,
  local: false,
  can_override: o.can_override,
});

/** "2 Adult, 1 Child" */
export const split = (items: { label: string; quantity: number }[]) => items.map((i) => `${i.quantity} ${i.label}`).join(', ');
