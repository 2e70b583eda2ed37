import { createApi } from '@reduxjs/toolkit/query/react';
import { QUERY_CACHE_SECONDS } from '@tourdesk/contracts';
import { baseQueryWithReauth } from './base-query';

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
