import type { TCheckInTicket } from '@tourdesk/contracts';

/** A confirmed kayak ticket as the server sends it to a door device, with `over` changed (tests only). */
export const ticket = (over: Partial<TCheckInTicket> = {}): TCheckInTicket => ({
  booking: '00000000-0000-4000-8000-000000000001',
  ticket_code: 'ABCDEF123456',
  order_reference: 'TD-1',
  slot: 'slot-a',
  experience_title: 'Kayak',
  starts_at: '2026-12-18T08:30:00.000Z',
  local_date: '2026-12-18',
  local_time: '09:30',
  status: 'Confirmed',
  attendance: 'Open',
  name: 'Wendy Web',
  seats: 2,
  categories: [{ label: 'Adult', quantity: 2 }],
  extras: [],
  answers: [],
  notes: '',
  balance_due: 0,
  currency: 'CHF',
  checked_in_at: null,
  checked_in_by: null,
  checked_in_device: null,
  contact: null,
  payment: null,
  ...over,
});
