import { beforeEach, describe, expect, it } from 'vitest';
import { decideLocally, loadDevice, saveDevice, type DeviceState } from './device';
import { ticket } from './ticket-fixture';

const me = { name: 'Gian Guide', zone: 'Europe/Zurich', canOverride: false, timeFormat: '24h' as const };
const at = new Date('2026-12-18T08:20:00.000Z');
let state: DeviceState;

beforeEach(() => {
  localStorage.clear();
  state = { ...loadDevice('u1'), date: '2026-12-18', slots: ['slot-a'], tickets: { ABCDEF123456: ticket() } };
});

describe('deciding a scan on the device while offline', () => {
  it('admits a kept ticket of a chosen departure, read from lower case or an address', () => {
    const { answer, ticket: admitted } = decideLocally(state, ' https://x.test/t/abcdef123456 ', me, { id: 's1', at });
    expect(answer).toMatchObject({ id: 's1', result: 'admitted', local: true });
    expect(admitted).toMatchObject({ attendance: 'Arrived', checked_in_at: at.toISOString(), checked_in_by: 'Gian Guide', checked_in_device: state.deviceName });
  });

  it('says when and by whom a kept ticket was checked in', () => {
    state.tickets.ABCDEF123456 = ticket({ attendance: 'Arrived', checked_in_at: '2026-12-18T08:05:00.000Z', checked_in_by: 'Dana Demo', checked_in_device: 'Device 1A2B' });
    expect(decideLocally(state, 'ABCDEF123456', me, { id: 's2', at }).answer.detail).toBe('Already checked in at 09:05 by Dana Demo on Device 1A2B.');
  });

  it('tells a wrong departure from a wrong day, and lets only an allowed role override', () => {
    state.tickets.ABCDEF123456 = ticket({ slot: 'slot-b', starts_at: '2026-12-18T14:00:00.000Z' });
    expect(decideLocally(state, 'ABCDEF123456', me, { id: 's3', at, override: true }).answer).toMatchObject({ result: 'wrong_departure', detail: 'Wrong departure: booked for 15:00, Kayak.', can_override: false });
    state.tickets.ABCDEF123456 = ticket({ slot: 'slot-c', local_date: '2026-12-19', starts_at: '2026-12-19T08:30:00.000Z' });
    expect(decideLocally(state, 'ABCDEF123456', me, { id: 's4', at }).answer).toMatchObject({ result: 'wrong_day', detail: 'Wrong day: booked for Sat 19 Dec at 09:30.' });
    expect(decideLocally(state, 'ABCDEF123456', { ...me, canOverride: true }, { id: 's5', at, override: true }).answer).toMatchObject({ result: 'admitted', detail: 'Checked in (override). Booked for Sat 19 Dec at 09:30.' });
  });

  it('answers a ticket of another day "wrong day" with its date when no departure is chosen, as the server does', () => {
    state.slots = [];
    state.tickets.ABCDEF123456 = ticket({ slot: 'slot-c', local_date: '2026-12-19', starts_at: '2026-12-19T09:00:00.000Z' });
    expect(decideLocally(state, 'ABCDEF123456', me, { id: 's11', at }).answer).toMatchObject({ result: 'wrong_day', detail: 'Wrong day: booked for Sat 19 Dec at 10:00.', ticket: { attendance: 'Open' } });
    // Today's ticket, any departure: in.
    state.tickets.ABCDEF123456 = ticket({ slot: 'slot-b' });
    expect(decideLocally(state, 'ABCDEF123456', me, { id: 's12', at }).answer.result).toBe('admitted');
    // Today is the organisation's: 23:30 on the 18th in Zurich is already the 19th.
    state.tickets.ABCDEF123456 = ticket({ slot: 'slot-c', local_date: '2026-12-19', starts_at: '2026-12-19T09:00:00.000Z' });
    expect(decideLocally(state, 'ABCDEF123456', me, { id: 's13', at: new Date('2026-12-18T23:30:00.000Z') }).answer.result).toBe('admitted');
  });

  it('reads times in the organisation’s 12-hour format when it has chosen it, as the server does', () => {
    state.tickets.ABCDEF123456 = ticket({ slot: 'slot-b', starts_at: '2026-12-18T14:00:00.000Z' });
    expect(decideLocally(state, 'ABCDEF123456', { ...me, timeFormat: '12h' }, { id: 's9', at }).answer.detail).toBe('Wrong departure: booked for 3:00 pm, Kayak.');
    expect(decideLocally(state, 'NOPE', me, { id: 's10', at }).answer.detail).toBe('Not on this device’s list: checked again when the network is back.');
  });

  it('refuses cancelled, unconfirmed and unknown tickets', () => {
    state.tickets.ABCDEF123456 = ticket({ status: 'Canceled' });
    expect(decideLocally(state, 'ABCDEF123456', me, { id: 's6', at }).answer.result).toBe('canceled');
    state.tickets.ABCDEF123456 = ticket({ status: 'Created' });
    expect(decideLocally(state, 'ABCDEF123456', me, { id: 's7', at }).answer.result).toBe('unconfirmed');
    expect(decideLocally(state, 'NOPE', me, { id: 's8', at }).answer.result).toBe('unknown');
  });

  it('keeps the device’s id across loads and its state per user', () => {
    saveDevice('u1', { ...state, queue: [{ id: 'q', ticket_code: 'X', scanned_at: at.toISOString(), override: false }] });
    const again = loadDevice('u1');
    expect(again.deviceId).toBe(state.deviceId);
    expect(again.queue).toHaveLength(1);
    expect(loadDevice('u2').queue).toHaveLength(0);
  });
});
