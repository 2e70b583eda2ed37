import { createApi } from '@reduxjs/toolkit/query/react';
import { QUERY_CACHE_SECONDS } from '@tourdesk/contracts';
import { baseQueryWithReauth } from './base-query';

/**
 * How long a page's figures of seats and bookings stay cached once the page is left: not at all.
 * They change from outside this browser (the web store, partners, other staff), so a page that
 * shows them (capacity, manifests, bookings, the dashboard) reads them afresh each time it opens
 * rather than first showing the figures from before a sale.
 */
export const READ_AFRESH = 0;

/**
 * The one RTK Query API. Features add their endpoints with `api.injectEndpoints` in their own
 * `api.ts`, so a route chunk carries only its own calls.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  keepUnusedDataFor: QUERY_CACHE_SECONDS,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  tagTypes: ['SystemNotification', 'HelpVideo', 'Health', 'Me', 'Role', 'TeamMember', 'Experience', 'PricingCategory', 'PricingRate', 'Inventory', 'Schedule', 'Booking', 'Slot', 'Cart'],
  endpoints: () => ({}),
});
