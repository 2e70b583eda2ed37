import type { TDepartureGuides, TManifest, TManifestDay, TMyDepartures, TWaitlist } from '@tourdesk/contracts';
import { api, READ_AFRESH } from '../../shared/api/api';
import { downloadFile, type DownloadArgs } from '../../shared/api/download';

// Endpoint names are global to the one api (the bookings feature has its own `manifest`): prefixed.
export const manifestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    departureManifest: build.query<TManifest, string>({ query: (slot) => `manifests/${slot}/`, providesTags: ['Booking'], keepUnusedDataFor: READ_AFRESH }),
    dayManifests: build.query<TManifestDay, string>({ query: (date) => ({ url: 'manifests/', params: { date } }), providesTags: ['Booking'], keepUnusedDataFor: READ_AFRESH }),
    /** The departure's waiting list (a slot's); offering seats or removing an entry changes seats: manifests and capacity refetch. */
    departureWaitlist: build.query<TWaitlist, string>({ query: (slot) => `start-times/${slot}/waitlist/`, providesTags: ['Booking'], keepUnusedDataFor: READ_AFRESH }),
    offerWaitlistSeats: build.mutation<TWaitlist, { slot: string; entry: string }>({
      query: ({ slot, entry }) => ({ url: `start-times/${slot}/waitlist/${entry}/offer/`, method: 'POST' }),
      invalidatesTags: ['Booking', 'Slot'],
    }),
    removeWaitlistEntry: build.mutation<TWaitlist, { slot: string; entry: string }>({
      query: ({ slot, entry }) => ({ url: `start-times/${slot}/waitlist/${entry}/`, method: 'DELETE' }),
      invalidatesTags: ['Booking', 'Slot'],
    }),
    /** A departure's guides (issue 34); assigning or removing one changes its seats and manifest. */
    departureGuides: build.query<TDepartureGuides, string>({ query: (slot) => `start-times/${slot}/guides/`, providesTags: ['Booking'], keepUnusedDataFor: READ_AFRESH }),
    assignGuide: build.mutation<TDepartureGuides, { slot: string; guide: string }>({
      query: ({ slot, guide }) => ({ url: `start-times/${slot}/guides/`, method: 'POST', body: { guide } }),
      invalidatesTags: ['Booking', 'Slot'],
    }),
    removeGuide: build.mutation<TDepartureGuides, { slot: string; guide: string }>({
      query: ({ slot, guide }) => ({ url: `start-times/${slot}/guides/${guide}/`, method: 'DELETE' }),
      invalidatesTags: ['Booking', 'Slot'],
    }),
    /** The signed-in guide's departures with their manifests. */
    myDepartures: build.query<TMyDepartures, { from: string; to: string }>({ query: (params) => ({ url: 'guides/me/departures/', params }), providesTags: ['Booking'], keepUnusedDataFor: READ_AFRESH }),
    /** The manifest's CSV or PDF, saved under the name the server gives. */
    manifestDownload: build.mutation<string, DownloadArgs>({ queryFn: downloadFile }),
  }),
});

export const { useDepartureGuidesQuery, useAssignGuideMutation, useRemoveGuideMutation, useMyDeparturesQuery } = manifestsApi;
export const { useDepartureManifestQuery, useDayManifestsQuery, useManifestDownloadMutation, useDepartureWaitlistQuery, useOfferWaitlistSeatsMutation, useRemoveWaitlistEntryMutation } = manifestsApi;
