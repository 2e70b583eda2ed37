import type { TOrganization, TOrganizationPatch } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Organization'] });

/** GET / PATCH /api/account/: the organisation's contact, legal and billing details ('Manage account'). */
export const organizationApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    organization: build.query<TOrganization, void>({
      query: () => 'account/',
      providesTags: ['Organization'],
    }),
    updateOrganization: build.mutation<TOrganization, TOrganizationPatch>({
      query: (body) => ({ url: 'account/', method: 'PATCH', body }),
      // The answer is the organisation as saved: it becomes the cached one, without a second read.
      async onQueryStarted(_patch, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(organizationApi.util.upsertQueryData('organization', undefined, data));
        } catch {
          // The error is shown by the form and the session listener.
        }
      },
      // The profile shows the organisation's name; a new time zone moves future slots.
      invalidatesTags: (result, _error, patch) => (!result ? [] : patch.time_zone !== undefined ? ['Me', 'Slot'] : ['Me']),
    }),
  }),
});

export const { useOrganizationQuery, useUpdateOrganizationMutation } = organizationApi;
