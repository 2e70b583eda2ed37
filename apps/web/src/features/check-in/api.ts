import type { TCheckInBatch, TCheckInBatchResult, TCheckInDepartures, TCheckInTicket, TPaginated } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

export const checkInApi = api.injectEndpoints({
  endpoints: (build) => ({
    checkInDepartures: build.query<TCheckInDepartures, { date?: string }>({
      query: (params) => ({ url: 'check-in/departures/', params }),
      providesTags: ['Booking'],
    }),
    checkInTickets: build.query<TPaginated<TCheckInTicket>, { slots: string; page: number }>({
      query: ({ slots, page }) => ({ url: 'check-in/tickets/', params: { slots, page, page_size: 50 } }),
      keepUnusedDataFor: 0,
    }),
    sendScans: build.mutation<TCheckInBatchResult, TCheckInBatch>({
      query: (body) => ({ url: 'check-in/scans/', method: 'POST', body }),
    }),
    undoCheckIn: build.mutation<TCheckInTicket, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `check-in/tickets/${id}/undo/`, method: 'POST', body: { reason } }),
      invalidatesTags: ['Booking'],
    }),
  }),
});

export const { useCheckInDeparturesQuery, useSendScansMutation, useUndoCheckInMutation } = checkInApi;
