import type { TFailedJob, TOrganization, TOrganizationPatch, TPaginated } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Organization', 'FailedJob'] });

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
    /** GET /api/jobs/failed/: the organisation's e-mails that could not be delivered (Owners). */
    failedJobs: build.query<TPaginated<TFailedJob>, Record<string, string | number>>({
      query: (params) => ({ url: 'jobs/failed/', params }),
      providesTags: ['FailedJob'],
    }),
    retryFailedJob: build.mutation<void, string>({
      query: (id) => ({ url: `jobs/failed/${id}/retry/`, method: 'POST' }),
      invalidatesTags: ['FailedJob'],
    }),
  }),
});

export const { useOrganizationQuery, useUpdateOrganizationMutation, useFailedJobsQuery, useRetryFailedJobMutation } = organizationApi;
