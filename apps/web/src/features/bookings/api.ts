import type { TBooking, TCart, TOrder, TPaginated, TSlot } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

export interface DayCapacity {
  date: string;
  slots: number;
  capacity: number;
  booked: number;
  held: number;
  remaining: number;
}

export const bookingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    bookings: build.query<TPaginated<TBooking>, Record<string, string | number>>({
      query: (params) => ({ url: 'bookings/', params }),
      providesTags: ['Booking'],
    }),
    booking: build.query<TBooking, string>({ query: (id) => `bookings/${id}/`, providesTags: ['Booking'] }),
    manifest: build.query<TBooking[], { date?: string; slot?: string }>({
      query: (params) => ({ url: 'bookings/by-date/', params }),
      providesTags: ['Booking'],
    }),
    cancelBooking: build.mutation<TBooking, string>({
      query: (id) => ({ url: `bookings/${id}/cancel/`, method: 'POST', body: {} }),
      invalidatesTags: ['Booking', 'Slot'],
    }),
    setAttendance: build.mutation<TBooking, { id: string; attendance: TBooking['attendance'] }>({
      query: ({ id, attendance }) => ({ url: `bookings/${id}/attendance/`, method: 'PATCH', body: { attendance } }),
      invalidatesTags: ['Booking'],
    }),
    checkIn: build.mutation<TBooking, string>({
      query: (ticket_code) => ({ url: 'bookings/check-in/', method: 'POST', body: { ticket_code } }),
      invalidatesTags: ['Booking'],
    }),
    slots: build.query<TSlot[], { experience: string; from: string; to: string }>({
      query: (params) => ({ url: 'bookings/check-availability/', params }),
      providesTags: ['Slot'],
    }),
    capacityCalendar: build.query<DayCapacity[], { from: string; to: string; experience?: string }>({
      query: (params) => ({ url: 'capacity/calendar/', params }),
      providesTags: ['Slot'],
    }),
    capacityByDate: build.query<(TSlot & { experience_title: string })[], string>({
      query: (date) => ({ url: 'capacity/by-date/', params: { date } }),
      providesTags: ['Slot'],
    }),
    updateSlot: build.mutation<TSlot, { id: string; capacity?: number; closed?: boolean }>({
      query: ({ id, ...body }) => ({ url: `start-times/${id}/`, method: 'PATCH', body }),
      invalidatesTags: ['Slot'],
    }),
    cart: build.query<TCart, void>({ query: () => 'cart/', providesTags: ['Cart'] }),
    holdSeats: build.mutation<TCart, { slot: string; quantities: Record<string, number> }>({
      query: (body) => ({ url: 'cart/lines/', method: 'POST', body }),
      invalidatesTags: ['Cart', 'Slot'],
    }),
    releaseLine: build.mutation<TCart, string>({
      query: (id) => ({ url: `cart/lines/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['Cart', 'Slot'],
    }),
    checkout: build.mutation<TOrder, { customer: { email: string; first_name: string; last_name: string; phone?: string } }>({
      query: (body) => ({ url: 'cart/checkout/', method: 'POST', body }),
      invalidatesTags: ['Cart', 'Slot', 'Booking'],
    }),
  }),
});

export const {
  useBookingsQuery,
  useBookingQuery,
  useManifestQuery,
  useCancelBookingMutation,
  useSetAttendanceMutation,
  useCheckInMutation,
  useSlotsQuery,
  useCapacityCalendarQuery,
  useCapacityByDateQuery,
  useUpdateSlotMutation,
  useCartQuery,
  useHoldSeatsMutation,
  useReleaseLineMutation,
  useCheckoutMutation,
} = bookingsApi;
