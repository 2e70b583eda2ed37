import { act, renderHook, screen, waitFor } from '@testing-library/react';
import { todayIn, type TCheckInBatch, type TCheckInOutcome, type TCheckInTicket } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { ToastContainer } from 'react-toastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '../../shared/store';
import { loadDevice, saveDevice, type DeviceState } from './device';
import { useCheckInDevice, type DoorStaff } from './use-check-in-device';
import { ticket as fixture } from './ticket-fixture';

/**
 * The check-in device's engine against a real HTTP server (Fastify on a random port), not a mock of
 * fetch or of the hook's modules. The browser's network is jsdom's `navigator.onLine` and its
 * `online` / `offline` events, switched by the test; what the device keeps is jsdom's localStorage.
 */
const SLOT = '00000000-0000-4000-8000-0000000000a1';
/** Today in the organisation's zone: the door admits only today's tickets. */
const DAY = todayIn('Europe/Zurich');
const USER = 'u-door';
const me: DoorStaff = { name: 'Gian Guide', zone: 'Europe/Zurich', canOverride: false, timeFormat: '24h' };

const ticket = (over: Partial<TCheckInTicket> = {}): TCheckInTicket => fixture({ slot: SLOT, local_date: DAY, ...over });
/** Checked in elsewhere, before this device's offline scan reached the server. */
const ELSEWHERE = ticket({ attendance: 'Arrived', checked_in_at: '2026-12-18T08:05:00.000Z', checked_in_by: 'Dana Demo', checked_in_device: 'Device 1A2B' });

interface ServerState {
  /** Every batch the server received, dropped ones included. */
  batches: TCheckInBatch[];
  ticketReads: number;
  tickets: TCheckInTicket[];
  /** The scans route drops the connection (the network fails mid-request). */
  drop: boolean;
  /** The server's decision for each scan. */
  decide: (scan: TCheckInBatch['scans'][number]) => TCheckInOutcome;
}
const admit = (scan: TCheckInBatch['scans'][number]): TCheckInOutcome => ({
  id: scan.id,
  result: 'admitted',
  detail: 'Checked in.',
  replayed: false,
  override: false,
  can_override: false,
  ticket: ticket({ attendance: 'Arrived', checked_in_at: scan.scanned_at, checked_in_by: 'Gian Guide' }),
});
const fresh = (): ServerState => ({ batches: [], ticketReads: 0, tickets: [ticket()], drop: false, decide: admit });
const state: ServerState = fresh();

let server: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  server = Fastify();
  server.get('/api/check-in/departures/', async (req) => ({ date: (req.query as { date?: string }).date ?? DAY, time_zone: 'Europe/Zurich', departures: [] }));
  server.get('/api/check-in/tickets/', async () => {
    state.ticketReads++;
    return { count: state.tickets.length, total_pages: 1, current_page_number: 1, next: null, previous: null, results: state.tickets };
  });
  server.post('/api/check-in/scans/', async (req, reply) => {
    const batch = req.body as TCheckInBatch;
    state.batches.push(batch);
    if (state.drop) {
      reply.hijack();
      req.raw.socket.destroy();
      return;
    }
    return { results: batch.scans.map((s) => state.decide(s)) };
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());

/** The browser's network, as jsdom's navigator reports it. */
let networkUp = true;
Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => networkUp });
function network(up: boolean) {
  networkUp = up;
  act(() => void window.dispatchEvent(new Event(up ? 'online' : 'offline')));
}

beforeEach(() => {
  Object.assign(state, fresh());
  networkUp = true;
  localStorage.clear();
  // The door chose the day's kayak and kept its ticket (a download earlier).
  saveDevice(USER, { ...loadDevice(USER), date: DAY, slots: [SLOT], tickets: { ABCDEF123456: ticket() }, downloadedAt: null });
});
afterEach(() => {
  networkUp = true;
});

/** The hook as the page uses it, in the app's store pointed at the test server (a fresh store: a fresh page load). */
function open() {
  const store = makeStore({ apiBaseUrl: baseUrl });
  return renderHook(() => useCheckInDevice(USER, me), {
    wrapper: ({ children }: { children: ReactNode }) => (
      <Provider store={store}>
        <ToastContainer />
        {children}
      </Provider>
    ),
  });
}
const kept = (): Partial<DeviceState> => JSON.parse(localStorage.getItem(`tourdesk.check-in.v1.${USER}`) ?? '{}');

describe('useCheckInDevice', () => {
  it('sends a scan to the server when online and shows the server’s answer', async () => {
    const { result } = open();
    // Opening online: the chosen departures' tickets are read.
    await waitFor(() => expect(result.current.device.downloadedAt).not.toBeNull());
    expect(result.current.online).toBe(true);

    await act(() => result.current.scan(' abcdef123456 '));

    expect(state.batches).toHaveLength(1);
    const [batch] = state.batches;
    expect(batch).toMatchObject({ device_id: result.current.device.deviceId, device_name: result.current.device.deviceName, slots: [SLOT] });
    expect(batch!.scans).toEqual([{ id: expect.any(String), ticket_code: 'abcdef123456', scanned_at: expect.any(String), override: false }]);
    expect(result.current.device.answers[0]).toMatchObject({ id: batch!.scans[0]!.id, code: 'ABCDEF123456', result: 'admitted', detail: 'Checked in.', local: false });
    expect(result.current.device.tickets.ABCDEF123456).toMatchObject({ attendance: 'Arrived', checked_in_by: 'Gian Guide' });
    expect(result.current.device.queue).toEqual([]);
    expect(result.current.scanning).toBe(false);
  });

  it('decides a scan on the device while offline and queues it, sending nothing', async () => {
    networkUp = false;
    const { result } = open();
    expect(result.current.online).toBe(false);

    await act(() => result.current.scan('ABCDEF123456'));

    expect(state.batches).toHaveLength(0);
    expect(state.ticketReads).toBe(0);
    const [answer] = result.current.device.answers;
    expect(answer).toMatchObject({ result: 'admitted', local: true, ticket: { name: 'Wendy Web', attendance: 'Arrived', checked_in_by: 'Gian Guide' } });
    expect(result.current.device.queue).toEqual([{ id: answer!.id, ticket_code: 'ABCDEF123456', scanned_at: answer!.scanned_at, override: false, offline: true }]);
    // The same ticket again, still offline: this device knows it let them in.
    await act(() => result.current.scan('ABCDEF123456'));
    expect(result.current.device.answers[0]).toMatchObject({ result: 'already_checked_in', local: true });
    expect(result.current.device.queue).toHaveLength(2);
  });

  it('sends the queue when the network returns; the server’s answer replaces the device’s and a correction is reported', async () => {
    networkUp = false;
    const { result } = open();
    await act(() => result.current.scan('ABCDEF123456'));
    const local = result.current.device.answers[0]!;
    expect(local).toMatchObject({ result: 'admitted', local: true });
    // Meanwhile another phone let the guest in, and the server says so.
    state.decide = (scan) => ({ ...admit(scan), result: 'already_checked_in', detail: 'Already checked in at 09:05 by Dana Demo on Device 1A2B.', ticket: ELSEWHERE });
    state.tickets = [ELSEWHERE];

    network(true);

    await waitFor(() => expect(result.current.device.queue).toEqual([]));
    expect(state.batches).toHaveLength(1);
    expect(state.batches[0]!.scans).toEqual([{ id: local.id, ticket_code: 'ABCDEF123456', scanned_at: local.scanned_at, override: false, offline: true }]);
    expect(result.current.device.answers).toHaveLength(1);
    expect(result.current.device.answers[0]).toMatchObject({ id: local.id, result: 'already_checked_in', local: false, corrected: true, ticket: { checked_in_by: 'Dana Demo' } });
    expect(await screen.findByText('Wendy Web: Already checked in at 09:05 by Dana Demo on Device 1A2B.')).toBeInTheDocument();
    // Then the tickets are read again (other devices' check-ins).
    await waitFor(() => expect(result.current.device.downloadedAt).not.toBeNull());
    expect(state.ticketReads).toBe(1);
    expect(kept().queue).toEqual([]);
  });

  it('sends a long queue in chunks of 100; an answer the server agrees with is not a correction', async () => {
    const at = '2026-12-18T08:20:00.000Z';
    const scans = Array.from({ length: 150 }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, ticket_code: 'ABCDEF123456', scanned_at: at, override: false, offline: true }));
    const first = { id: scans[0]!.id, code: 'ABCDEF123456', result: 'admitted' as const, detail: 'Checked in.', ticket: ticket(), scanned_at: at, local: true, can_override: false };
    saveDevice(USER, { ...loadDevice(USER), queue: scans, answers: [first] });

    const { result } = open();

    await waitFor(() => expect(result.current.device.queue).toEqual([]));
    expect(state.batches.map((b) => b.scans.length)).toEqual([100, 50]);
    expect(state.batches.flatMap((b) => b.scans.map((s) => s.id))).toEqual(scans.map((s) => s.id));
    expect(result.current.device.answers[0]).toMatchObject({ id: first.id, result: 'admitted', local: false, corrected: false });
  });

  it('keeps a chunk queued when the network fails while sending it, and sends it later', async () => {
    networkUp = false;
    const { result } = open();
    await act(() => result.current.scan('ABCDEF123456'));
    const local = result.current.device.answers[0]!;
    state.drop = true;

    network(true);

    // The send was tried and failed (on the network's return, and again before the tickets were read).
    await waitFor(() => expect(result.current.device.downloadedAt).not.toBeNull());
    expect(state.batches.map((b) => b.scans.map((s) => s.id))).toEqual([[local.id], [local.id]]);
    expect(result.current.device.queue.map((q) => q.id)).toEqual([local.id]);
    expect(kept().queue?.map((q) => q.id)).toEqual([local.id]);
    expect(result.current.device.answers[0]).toMatchObject({ id: local.id, local: true });
    // The ticket this device admitted keeps its answer while the scan is queued.
    expect(result.current.device.tickets.ABCDEF123456).toMatchObject({ attendance: 'Arrived', checked_in_by: 'Gian Guide' });

    state.drop = false;
    act(() => result.current.sendNow());

    await waitFor(() => expect(result.current.device.queue).toEqual([]));
    expect(state.batches).toHaveLength(3);
    expect(state.batches[2]!.scans.map((s) => s.id)).toEqual([local.id]);
    expect(result.current.device.answers[0]).toMatchObject({ id: local.id, result: 'admitted', local: false, corrected: false });
  });

  it('keeps the queue and its answers across a reload (localStorage)', async () => {
    networkUp = false;
    const first = open();
    await act(() => first.result.current.scan('ABCDEF123456'));
    const { deviceId } = first.result.current.device;
    const local = first.result.current.device.answers[0]!;
    first.unmount();

    const again = open();

    expect(again.result.current.device.deviceId).toBe(deviceId);
    expect(again.result.current.device.queue.map((q) => q.id)).toEqual([local.id]);
    expect(again.result.current.device.answers[0]).toEqual(local);
    expect(again.result.current.device.tickets.ABCDEF123456).toMatchObject({ attendance: 'Arrived' });
    expect(again.result.current.date).toBe(DAY);
    expect(again.result.current.device.slots).toEqual([SLOT]);
    // A scan after the reload waits behind the queue, decided here.
    await act(() => again.result.current.scan('ABCDEF123456'));
    expect(again.result.current.device.queue).toHaveLength(2);
    expect(again.result.current.device.answers[0]).toMatchObject({ result: 'already_checked_in', local: true });
    expect(state.batches).toHaveLength(0);
  });
});
