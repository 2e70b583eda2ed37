import { todayIn, type TCheckInTicket } from '@tourdesk/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../shared/hooks/store';
import { notifyError, notifySuccess } from '../../shared/lib/toast';
import { checkInApi, useCheckInDeparturesQuery, useSendScansMutation, useUndoCheckInMutation } from './api';
import { decideLocally, fromOutcome, loadDevice, saveDevice, uuid, type DeviceState, type QueuedScan, type ScanAnswer } from './device';

/** Who scans at this door: their name on offline admissions, the zone and 12/24-hour format of the words, and whether they may override. */
export type DoorStaff = Parameters<typeof decideLocally>[2];

/** What the page sees of the device and may ask of it. */
export interface CheckInDevice {
  /** What this device keeps: chosen day and departures, their tickets, the queue, the latest answers (newest first). */
  device: DeviceState;
  /** The day checked in: the one chosen, else today in the organisation's zone. */
  date: string;
  /** That day's departures: the server's, or those kept on the device while offline. */
  departures: DeviceState['departures'];
  online: boolean;
  /** A scan waits for the server's answer. */
  scanning: boolean;
  /** The chosen departures' tickets are being read. */
  downloading: boolean;
  /** An undo waits for the server. */
  undoing: boolean;
  /** One scan (the code as read or typed); `override` admits a ticket of another day or departure. */
  scan: (code: string, options?: { override?: boolean }) => Promise<void>;
  /** Undoes a check-in on the server (a reason is required); true when it was undone. */
  undo: (ticket: TCheckInTicket, reason: string) => Promise<boolean>;
  /** Another day: its departures are chosen anew. */
  chooseDay: (date: string) => void;
  /** The departures checked in; their tickets are downloaded. */
  chooseDepartures: (slots: string[]) => void;
  /** Reads the chosen departures' tickets again. */
  refresh: () => void;
  /** Sends the queue now. */
  sendNow: () => void;
}

function useOnline() {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

const isNetworkError = (e: unknown) => {
  const status = (e as { status?: unknown })?.status;
  return status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR' || (typeof status === 'number' && status >= 500);
};
const errorDetail = (e: unknown) => (e as { data?: { errors?: { detail: string }[] } })?.data?.errors?.[0]?.detail ?? 'The server refused this scan.';

/**
 * The check-in device of a signed-in user, the page's engine: what this browser keeps
 * (`device.ts`, localStorage), the online flag, and the traffic with the server. A scan is sent
 * to the server when it can be reached and nothing waits before it; otherwise this device decides
 * it against the kept tickets (`decideLocally`) and queues it. The queue goes out in chunks of 100
 * after each queued scan, when the network returns and every 30 s; the server's answers replace the
 * device's (a toast when the server decided otherwise), and the chosen departures' tickets are read
 * again (pages of 50). A chunk that fails on the network stays queued; one the server refuses is
 * dropped with a toast.
 */
export function useCheckInDevice(userId: string, me: DoorStaff): CheckInDevice {
  const dispatch = useAppDispatch();
  const online = useOnline();
  const [device, setDevice] = useState<DeviceState>(() => loadDevice(userId));
  const deviceRef = useRef(device);
  const update = useCallback(
    (change: (d: DeviceState) => DeviceState) => {
      const next = change(deviceRef.current);
      deviceRef.current = next;
      setDevice(next);
      saveDevice(userId, next);
    },
    [userId],
  );
  const date = device.date ?? todayIn(me.zone);
  const { data: departuresData, refetch: refetchDepartures } = useCheckInDeparturesQuery({ date }, { skip: !online });
  const departures = departuresData?.date === date ? departuresData.departures : device.departures;
  useEffect(() => {
    if (departuresData && departuresData.date === date) update((d) => ({ ...d, departures: departuresData.departures }));
  }, [departuresData, date, update]);

  const [sendScans] = useSendScansMutation();
  const [undoCheckIn, undoState] = useUndoCheckInMutation();
  const [scanning, setScanning] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const syncing = useRef(false);

  /** Sends the queued scans (100 at a time); the server's answers replace the device's. */
  const sync = useCallback(async () => {
    if (syncing.current || !navigator.onLine) return;
    syncing.current = true;
    try {
      while (deviceRef.current.queue.length > 0) {
        const d = deviceRef.current;
        const chunk = d.queue.slice(0, 100);
        let results;
        try {
          results = (await sendScans({ device_id: d.deviceId, device_name: d.deviceName, slots: d.slots, scans: chunk }).unwrap()).results;
        } catch (e) {
          if (isNetworkError(e)) return;
          notifyError(`Queued scans refused: ${errorDetail(e)}`);
          update((x) => ({ ...x, queue: x.queue.filter((q) => !chunk.some((c) => c.id === q.id)) }));
          continue;
        }
        update((x) => {
          const tickets = { ...x.tickets };
          const byId = new Map(results.map((r) => [r.id, r]));
          for (const r of results) if (r.ticket) tickets[r.ticket.ticket_code] = r.ticket;
          const answers = x.answers.map((a) => {
            const r = byId.get(a.id);
            return r ? { ...fromOutcome(r, a.code, a.scanned_at), corrected: a.result !== r.result } : a;
          });
          return { ...x, tickets, answers, queue: x.queue.filter((q) => !byId.has(q.id)) };
        });
        for (const r of results) {
          const was = d.answers.find((a) => a.id === r.id);
          if (was && was.result !== r.result) notifyError(`${r.ticket?.name ?? 'A ticket'}: ${r.detail}`);
        }
      }
    } finally {
      syncing.current = false;
    }
  }, [sendScans, update]);

  /** Downloads every ticket of the chosen departures (pages of 50) to keep on the device. */
  const download = useCallback(
    async (slots: string[]) => {
      if (slots.length === 0 || !navigator.onLine) return;
      setDownloading(true);
      try {
        await sync();
        const tickets: Record<string, TCheckInTicket> = {};
        for (let page = 1; ; page++) {
          const res = await dispatch(checkInApi.endpoints.checkInTickets.initiate({ slots: slots.join(','), page }, { forceRefetch: true })).unwrap();
          for (const t of res.results) tickets[t.ticket_code] = t;
          if (!res.next) break;
        }
        // Scans still queued keep what this device decided.
        const queued = new Set(deviceRef.current.queue.map((q) => q.ticket_code));
        update((d) => {
          const kept = Object.fromEntries(Object.entries(d.tickets).filter(([c]) => queued.has(c)));
          return { ...d, tickets: { ...tickets, ...kept }, downloadedAt: new Date().toISOString() };
        });
      } catch (e) {
        if (!isNetworkError(e)) notifyError(`Tickets not downloaded: ${errorDetail(e)}`);
      } finally {
        setDownloading(false);
      }
    },
    [dispatch, sync, update],
  );

  // Back online: send what was queued, then refresh the tickets (other devices' check-ins).
  useEffect(() => {
    if (!online) return;
    void (async () => {
      await sync();
      await download(deviceRef.current.slots);
      // The page may have closed, or gone offline again (the query skipped), while these ran: RTK
      // Query then refuses a refetch (it throws), and there is nothing to read again anyway.
      try {
        refetchDepartures();
      } catch {
        // Not subscribed any more.
      }
    })();
  }, [online, sync, download, refetchDepartures]);
  // While online: every 30 s, the queue and the list again.
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (navigator.onLine) void download(deviceRef.current.slots);
    }, 30_000);
    return () => window.clearInterval(timer);
  }, [download]);

  const show = useCallback((answer: ScanAnswer) => update((d) => ({ ...d, answers: [answer, ...d.answers.filter((a) => a.id !== answer.id)].slice(0, 20) })), [update]);

  /** One scan: the server answers when it can be reached; otherwise this device decides and queues it. */
  const scan = useCallback(
    async (text: string, { override = false }: { override?: boolean } = {}) => {
      const raw = text.trim();
      if (!raw) return;
      const queued: QueuedScan = { id: uuid(), ticket_code: raw, scanned_at: new Date().toISOString(), override };
      const offline = () => {
        const { answer, ticket } = decideLocally(deviceRef.current, raw, me, { id: queued.id, at: new Date(queued.scanned_at), override });
        update((d) => ({ ...d, queue: [...d.queue, { ...queued, offline: true }], tickets: ticket ? { ...d.tickets, [ticket.ticket_code]: ticket } : d.tickets }));
        show(answer);
      };
      if (!navigator.onLine || deviceRef.current.queue.length > 0) {
        offline();
        void sync();
        return;
      }
      setScanning(true);
      try {
        const d = deviceRef.current;
        const [r] = (await sendScans({ device_id: d.deviceId, device_name: d.deviceName, slots: d.slots, scans: [queued] }).unwrap()).results;
        if (r) {
          if (r.ticket) update((x) => ({ ...x, tickets: { ...x.tickets, [r.ticket!.ticket_code]: r.ticket! } }));
          show(fromOutcome(r, raw.toUpperCase(), queued.scanned_at));
        }
      } catch (e) {
        if (isNetworkError(e)) offline();
        else notifyError(errorDetail(e));
      } finally {
        setScanning(false);
      }
    },
    [me, update, show, sync, sendScans],
  );

  const undo = useCallback(
    async (ticket: TCheckInTicket, reason: string) => {
      try {
        const undone = await undoCheckIn({ id: ticket.booking, reason }).unwrap();
        update((d) => ({ ...d, tickets: { ...d.tickets, [undone.ticket_code]: undone }, answers: d.answers.filter((a) => a.ticket?.booking !== undone.booking) }));
        notifySuccess(`Check-in of ${undone.name} undone.`);
        return true;
      } catch (err) {
        notifyError(errorDetail(err));
        return false;
      }
    },
    [undoCheckIn, update],
  );

  const chooseDay = useCallback((day: string) => update((d) => ({ ...d, date: day, slots: [], departures: [] })), [update]);
  const chooseDepartures = (slots: string[]) => {
    update((d) => ({ ...d, slots, date, tickets: slots.length ? d.tickets : {} }));
    void download(slots);
  };
  const refresh = () => void download(device.slots);
  const sendNow = () => void sync();

  return { device, date, departures, online, scanning, downloading, undoing: undoState.isLoading, scan, undo, chooseDay, chooseDepartures, refresh, sendNow };
}
