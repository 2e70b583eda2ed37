import type {
  TPoolDay,
  TBooking,
  TBookingOptions,
  TCapacitySlot,
  TCart,
  TCounterOffer,
  TCounterOfferSummary,
  TCounterSaleInput,
  TDayCapacity,
  TExperience,
  THeldLine,
  TOrder,
  TPaginated,
  TPromoPreview, TVoucherPreview,
  TResaleDetail,
  TSlot,
} from '@tourdesk/contracts';
import { QueryStatus } from '@reduxjs/toolkit/query';
import type { Language } from '@tourdesk/contracts/i18n';
import { api, READ_AFRESH } from '../../shared/api/api';
import { withHeldLine } from './booking-logic';

/** What booking needs of an offer: its extras (inventory item ids) and its booking questions. */
export type OfferBookingSettings = Pick<TExperience, 'id' | 'title' | 'extras' | 'booking_questions'>;

export interface CheckoutInput {
  customer: { email: string; first_name: string; last_name: string; phone?: string };
  answers: Record<string, string>;
  /** The cart lines the user sees and books (no more, no fewer). */
  lines: string[];
  /** The customer's language (their e-mails, tickets and invoices); absent: the organisation's main one. */
  language?: Language;
  /** A promo code tried on the cart (the checkout applies it again, or refuses with why). */
  promo_code?: string;
  /** A gift voucher paying part or all of the sale (the checkout spends it, or refuses with why). */
  voucher_code?: string;
  /** One per submission; the same body retried after no definite answer keeps it. */
  idempotencyKey: string;
}

export const bookingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    bookings: build.query<TPaginated<TBooking>, Record<string, string | number>>({
      query: (params) => ({ url: 'bookings/', params }),
      providesTags: ['Booking'],
      keepUnusedDataFor: READ_AFRESH,
    }),
    booking: build.query<TBooking, string>({ query: (id) => `bookings/${id}/`, providesTags: ['Booking'], keepUnusedDataFor: READ_AFRESH }),
    cancelBooking: build.mutation<TBooking, string>({
      query: (id) => ({ url: `bookings/${id}/cancel/`, method: 'POST', body: {} }),
      invalidatesTags: ['Booking', 'Slot'],
    }),
    setAttendance: build.mutation<TBooking, { id: string; attendance: TBooking['attendance'] }>({
      query: ({ id, attendance }) => ({ url: `bookings/${id}/attendance/`, method: 'PATCH', body: { attendance } }),
      invalidatesTags: ['Booking'],
    }),
    checkIn: build.mutation<TBooking, { ticket_code: string; override?: boolean }>({
      query: (body) => ({ url: 'bookings/check-in/', method: 'POST', body }),
      invalidatesTags: ['Booking'],
    }),
    slots: build.query<TSlot[], { experience: string; from: string; to: string }>({
      query: (params) => ({ url: 'bookings/check-availability/', params }),
      providesTags: ['Slot'],
      keepUnusedDataFor: READ_AFRESH,
    }),
    capacityCalendar: build.query<TDayCapacity[], { from: string; to: string; experience?: string }>({
      query: (params) => ({ url: 'capacity/calendar/', params }),
      providesTags: ['Slot'],
      keepUnusedDataFor: READ_AFRESH,
    }),
    capacityByDate: build.query<TCapacitySlot[], string>({
      query: (date) => ({ url: 'capacity/by-date/', params: { date } }),
      providesTags: ['Slot'],
      keepUnusedDataFor: READ_AFRESH,
    }),
    /** Each resource pool's use over a day, and the departures a pool limits (issue 34). */
    poolDay: build.query<TPoolDay, string>({
      query: (date) => ({ url: 'pools/day/', params: { date } }),
      providesTags: ['Slot'],
      keepUnusedDataFor: READ_AFRESH,
    }),
    updateSlot: build.mutation<TSlot, { id: string; capacity?: number; closed?: boolean }>({
      query: ({ id, ...body }) => ({ url: `start-times/${id}/`, method: 'PATCH', body }),
      invalidatesTags: ['Slot'],
    }),
    cart: build.query<TCart, void>({ query: () => 'cart/', providesTags: ['Cart'] }),
    holdSeats: build.mutation<THeldLine, { slot: string; quantities: Record<string, number>; extras: Record<string, number> }>({
      query: (body) => ({ url: 'cart/lines/', method: 'POST', body }),
      // The answer is the new line: it joins the cached cart, without a second read. The cart is
      // read again instead when none is cached, the line went into another one, or a read of the
      // cart is under way (its older answer would land after the merge).
      async onQueryStarted(_body, { dispatch, getState, queryFulfilled }) {
        try {
          const { data: line } = await queryFulfilled;
          const cached = bookingsApi.endpoints.cart.select()(getState() as never);
          const cart = cached.status === QueryStatus.pending ? null : withHeldLine(cached.data, line, new Date());
          dispatch(cart ? bookingsApi.util.upsertQueryData('cart', undefined, cart) : bookingsApi.util.invalidateTags(['Cart']));
        } catch {
          // The error is toasted where the mutation was called.
        }
      },
      invalidatesTags: ['Slot'],
    }),
    releaseLine: build.mutation<TCart, string>({
      query: (id) => ({ url: `cart/lines/${id}/`, method: 'DELETE' }),
      onQueryStarted: (_id, { dispatch, queryFulfilled }) => cartFromAnswer(dispatch, queryFulfilled),
      invalidatesTags: ['Slot'],
    }),
    /** What a promo code would take off the cart (or why it is refused): the checkout's own rule. */
    tryCounterPromo: build.mutation<TPromoPreview, { code: string; lines: string[]; email?: string }>({
      query: (body) => ({ url: 'cart/promo-code/', method: 'POST', body }),
    }),
    /** A gift voucher's balance and what it would pay of the cart (or why it is refused); nothing is taken. */
    tryCounterVoucher: build.mutation<TVoucherPreview, { code: string; lines: string[]; promo_code?: string }>({
      query: (body) => ({ url: 'cart/voucher/', method: 'POST', body }),
    }),
    checkout: build.mutation<TOrder, CheckoutInput>({
      query: ({ idempotencyKey, ...body }) => ({ url: 'cart/checkout/', method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey } }),
      invalidatesTags: ['Cart', 'Slot', 'Booking'],
    }),
    // The catalogue as booking reads it. Names are prefixed: endpoint names are global to the one
    // api, and other features define their own `extras`, `questions` and `categories`.
    bookingOffers: build.query<OfferBookingSettings[], string[]>({
      queryFn: async (ids, _api, _extra, baseQuery) => {
        const answers = await Promise.all(ids.map((id) => baseQuery(`experiences/${id}/`)));
        const failed = answers.find((a) => a.error);
        if (failed?.error) return { error: failed.error };
        return {
          data: answers.map((a) => {
            const e = a.data as TExperience;
            return { id: e.id, title: e.title, extras: e.extras, booking_questions: e.booking_questions };
          }),
        };
      },
      providesTags: ['Experience'],
    }),
    /** The extras offered with the offers (names, prices) and the booking questions: readable by anyone who sells. */
    bookingOptions: build.query<TBookingOptions, void>({ query: () => 'bookings/options/', providesTags: ['Inventory', 'Experience'] }),
    // A partner's offers sold at this counter (a reseller's): read and booked in the supplier's books.
    counterOffers: build.query<TPaginated<TCounterOfferSummary>, void>({ query: () => ({ url: 'resales/counter/offers/', params: { page_size: 50 } }) }),
    counterOffer: build.query<TCounterOffer, string>({ query: (id) => `resales/counter/offers/${id}/` }),
    counterSlots: build.query<TSlot[], { experience: string; from: string; to: string }>({
      query: ({ experience, ...params }) => ({ url: `resales/counter/offers/${experience}/slots/`, params }),
      providesTags: ['Slot'],
      keepUnusedDataFor: READ_AFRESH,
    }),
    sellAtCounter: build.mutation<TResaleDetail, TCounterSaleInput>({
      query: (body) => ({ url: 'resales/counter/', method: 'POST', body }),
      invalidatesTags: ['Slot'],
    }),
  }),
});

/** A cart mutation's answer is the whole cart: cache it as the user's cart. */
async function cartFromAnswer(dispatch: (action: unknown) => unknown, queryFulfilled: Promise<{ data: TCart }>) {
  try {
    const { data } = await queryFulfilled;
    dispatch(bookingsApi.util.upsertQueryData('cart', undefined, data));
  } catch {
    // The error is toasted where the mutation was called.
  }
}

export const {
  usePoolDayQuery,
  useTryCounterPromoMutation,
  useTryCounterVoucherMutation,
  useBookingsQuery,
  useBookingQuery,
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
  useBookingOffersQuery,
  useBookingOptionsQuery,
  useCounterOffersQuery,
  useCounterOfferQuery,
  useCounterSlotsQuery,
  useSellAtCounterMutation,
} = bookingsApi;
