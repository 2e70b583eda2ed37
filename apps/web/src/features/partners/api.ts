import type { TApiKey, TApiKeyCreated, TPaginated, TPartnerContractPatch, TPartnerInvitation, TPartnerInviteInput, TPartnerOffers, TPartnership } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Partnership', 'PartnerOffers', 'PartnerApiKey'] });

type Action = 'accept' | 'decline' | 'suspend' | 'resume' | 'end';

// Endpoint names are global to the one api: everything here names the partner.
export const partnersApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    partnerships: build.query<TPaginated<TPartnership>, Record<string, string | number>>({
      query: (params) => ({ url: 'partners/', params }),
      providesTags: [{ type: 'Partnership', id: 'LIST' }],
    }),
    partnership: build.query<TPartnership, string>({
      query: (id) => `partners/${id}/`,
      providesTags: (_r, _e, id) => [{ type: 'Partnership', id }],
    }),
    invitePartner: build.mutation<TPartnership, TPartnerInviteInput>({
      query: (body) => ({ url: 'partners/', method: 'POST', body }),
      invalidatesTags: [{ type: 'Partnership', id: 'LIST' }],
    }),
    updatePartnerContract: build.mutation<TPartnership, TPartnerContractPatch & { id: string }>({
      query: ({ id, ...body }) => ({ url: `partners/${id}/`, method: 'PATCH', body }),
      invalidatesTags: (_r, e, { id }) => (e ? [] : [{ type: 'Partnership', id }, { type: 'Partnership', id: 'LIST' }, { type: 'PartnerOffers', id }]),
    }),
    partnershipAction: build.mutation<TPartnership, { id: string; action: Action }>({
      query: ({ id, action }) => ({ url: `partners/${id}/${action}/`, method: 'POST' }),
      invalidatesTags: (_r, e, { id }) => (e ? [] : [{ type: 'Partnership', id }, { type: 'Partnership', id: 'LIST' }, { type: 'PartnerApiKey', id }]),
    }),
    partnerOfferChoices: build.query<TPartnerOffers, string>({
      query: (id) => `partners/${id}/offers/`,
      providesTags: (_r, _e, id) => [{ type: 'PartnerOffers', id }],
    }),
    partnerApiKeys: build.query<TPaginated<TApiKey>, { id: string; page: number }>({
      query: ({ id, page }) => ({ url: `partners/${id}/api-keys/`, params: { page, page_size: 10 } }),
      providesTags: (_r, _e, { id }) => [{ type: 'PartnerApiKey', id }],
    }),
    createPartnerApiKey: build.mutation<TApiKeyCreated, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `partners/${id}/api-keys/`, method: 'POST', body: { name } }),
      invalidatesTags: (_r, e, { id }) => (e ? [] : [{ type: 'PartnerApiKey', id }]),
    }),
    revokePartnerApiKey: build.mutation<TApiKey, { id: string; keyId: string }>({
      query: ({ id, keyId }) => ({ url: `partners/${id}/api-keys/${keyId}/revoke/`, method: 'POST' }),
      invalidatesTags: (_r, e, { id }) => (e ? [] : [{ type: 'PartnerApiKey', id }]),
    }),
    partnerInvitation: build.query<TPartnerInvitation, string>({
      query: (token) => `partner-invitations/${token}/`,
    }),
    answerPartnerInvitation: build.mutation<TPartnership | null, { token: string; accept: boolean }>({
      query: ({ token, accept }) => ({ url: `partner-invitations/${token}/${accept ? 'accept' : 'decline'}/`, method: 'POST' }),
      invalidatesTags: [{ type: 'Partnership', id: 'LIST' }],
    }),
  }),
});

export const {
  usePartnershipsQuery,
  usePartnershipQuery,
  useInvitePartnerMutation,
  useUpdatePartnerContractMutation,
  usePartnershipActionMutation,
  usePartnerOfferChoicesQuery,
  usePartnerApiKeysQuery,
  useCreatePartnerApiKeyMutation,
  useRevokePartnerApiKeyMutation,
  usePartnerInvitationQuery,
  useAnswerPartnerInvitationMutation,
} = partnersApi;
