import type { TAutoAssignResult, TGuideMembers, TDetail, TPaginated, TRole, TRoleInput, TTeamMember, TTeamMemberUpdate } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';
import type { AuthState } from '../../shared/auth/auth-slice';
import { refreshUser } from '../../shared/auth/refresh-user';

export const teamApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Guides (issue 34): who guides, their days off, and auto-assignment. */
    guideMembers: build.query<TGuideMembers, void>({ query: () => 'guides/', providesTags: ['TeamMember'] }),
    setGuides: build.mutation<void, { id: string; guides: boolean }>({
      query: ({ id, guides }) => ({ url: `guides/${id}/`, method: 'PUT', body: { guides } }),
      invalidatesTags: ['TeamMember'],
      // The signed-in member marked (or unmarked) as a guide: the menu's "My departures" follows at once.
      async onQueryStarted({ id }, { dispatch, getState, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // the error toast says why
        }
        if ((getState() as unknown as { auth: AuthState }).auth.user?.id === id) await refreshUser(dispatch);
      },
    }),
    addDayOff: build.mutation<void, { id: string; starts_on: string; ends_on: string }>({ query: ({ id, ...body }) => ({ url: `guides/${id}/days-off/`, method: 'POST', body }), invalidatesTags: ['TeamMember'] }),
    removeDayOff: build.mutation<void, { id: string; dayOff: string }>({ query: ({ id, dayOff }) => ({ url: `guides/${id}/days-off/${dayOff}/`, method: 'DELETE' }), invalidatesTags: ['TeamMember'] }),
    autoAssign: build.mutation<TAutoAssignResult, { from: string; to: string }>({ query: (body) => ({ url: 'guides/auto-assign/', method: 'POST', body }), invalidatesTags: ['Booking', 'Slot'] }),
    roles: build.query<TPaginated<TRole>, void>({
      query: () => ({ url: 'roles/', params: { page_size: 50 } }),
      providesTags: ['Role'],
    }),
    createRole: build.mutation<TRole, TRoleInput>({
      query: (body) => ({ url: 'roles/', method: 'POST', body }),
      invalidatesTags: ['Role'],
    }),
    updateRole: build.mutation<TRole, { id: string } & Partial<TRoleInput>>({
      query: ({ id, ...body }) => ({ url: `roles/${id}/`, method: 'PATCH', body }),
      invalidatesTags: ['Role', 'TeamMember'],
    }),
    deleteRole: build.mutation<void, string>({
      query: (id) => ({ url: `roles/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['Role'],
    }),
    members: build.query<TPaginated<TTeamMember>, Record<string, string | number>>({
      query: (params) => ({ url: 'team-members/', params }),
      providesTags: ['TeamMember'],
    }),
    inviteMember: build.mutation<TTeamMember, { email: string; first_name: string; last_name: string; role: string }>({
      query: (body) => ({ url: 'team-members/', method: 'POST', body }),
      invalidatesTags: ['TeamMember', 'Role'],
    }),
    updateMember: build.mutation<TTeamMember, { id: string } & TTeamMemberUpdate>({
      query: ({ id, ...body }) => ({ url: `team-members/${id}/`, method: 'PATCH', body }),
      invalidatesTags: ['TeamMember', 'Role'],
    }),
    removeMember: build.mutation<void, string>({
      query: (id) => ({ url: `team-members/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['TeamMember', 'Role'],
    }),
    resendInvitation: build.mutation<TDetail, string>({
      query: (id) => ({ url: `team-members/${id}/resend_invitation/`, method: 'POST', body: {} }),
    }),
    /** Turns a member's calendar feed off (modules/calendar-feeds): its address stops working. */
    removeMemberFeed: build.mutation<void, string>({
      query: (id) => ({ url: `team-members/${id}/calendar-feed/`, method: 'DELETE' }),
    }),
  }),
});

export const {
  useGuideMembersQuery,
  useSetGuidesMutation,
  useAddDayOffMutation,
  useRemoveDayOffMutation,
  useAutoAssignMutation,
  useRolesQuery,
  useCreateRoleMutation,
  useUpdateRoleMutation,
  useDeleteRoleMutation,
  useMembersQuery,
  useInviteMemberMutation,
  useUpdateMemberMutation,
  useRemoveMemberMutation,
  useResendInvitationMutation,
  useRemoveMemberFeedMutation,
} = teamApi;
