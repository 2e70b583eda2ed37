import type { TPaginated, TWebhookDelivery, TWebhookEndpoint, TWebhookEndpointInput, TWebhookEndpointPatch, TWebhookEndpointWithSecret } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['WebhookEndpoint', 'WebhookDelivery'] });

/** Settings → Webhooks (Owners only): endpoints, their secret (answered once), their deliveries. */
export const webhooksApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    webhookEndpoints: build.query<TPaginated<TWebhookEndpoint>, Record<string, string | number>>({
      query: (params) => ({ url: 'webhooks/endpoints/', params }),
      providesTags: [{ type: 'WebhookEndpoint', id: 'LIST' }],
    }),
    webhookEndpoint: build.query<TWebhookEndpoint, string>({
      query: (id) => `webhooks/endpoints/${id}/`,
      providesTags: (_r, _e, id) => [{ type: 'WebhookEndpoint', id }],
    }),
    createWebhookEndpoint: build.mutation<TWebhookEndpointWithSecret, TWebhookEndpointInput>({
      query: (body) => ({ url: 'webhooks/endpoints/', method: 'POST', body }),
      invalidatesTags: (_r, e) => (e ? [] : [{ type: 'WebhookEndpoint', id: 'LIST' }]),
    }),
    updateWebhookEndpoint: build.mutation<TWebhookEndpoint, TWebhookEndpointPatch & { id: string }>({
      query: ({ id, ...body }) => ({ url: `webhooks/endpoints/${id}/`, method: 'PATCH', body }),
      invalidatesTags: (r) => (r ? [{ type: 'WebhookEndpoint', id: 'LIST' }, { type: 'WebhookEndpoint', id: r.id }] : []),
    }),
    rotateWebhookSecret: build.mutation<TWebhookEndpointWithSecret, string>({
      query: (id) => ({ url: `webhooks/endpoints/${id}/rotate-secret/`, method: 'POST', body: {} }),
      invalidatesTags: (r) => (r ? [{ type: 'WebhookEndpoint', id: 'LIST' }, { type: 'WebhookEndpoint', id: r.id }] : []),
    }),
    deleteWebhookEndpoint: build.mutation<void, string>({
      query: (id) => ({ url: `webhooks/endpoints/${id}/`, method: 'DELETE' }),
      invalidatesTags: (_r, e) => (e ? [] : [{ type: 'WebhookEndpoint', id: 'LIST' }]),
    }),
    webhookDeliveries: build.query<TPaginated<TWebhookDelivery>, { id: string; params: Record<string, string | number> }>({
      query: ({ id, params }) => ({ url: `webhooks/endpoints/${id}/deliveries/`, params }),
      providesTags: (_r, _e, { id }) => [{ type: 'WebhookDelivery', id }],
    }),
    resendWebhookDelivery: build.mutation<TWebhookDelivery, { id: string; delivery: string }>({
      query: ({ id, delivery }) => ({ url: `webhooks/endpoints/${id}/deliveries/${delivery}/resend/`, method: 'POST', body: {} }),
      invalidatesTags: (_r, e, { id }) => (e ? [] : [{ type: 'WebhookDelivery', id }]),
    }),
  }),
});

export const {
  useWebhookEndpointsQuery,
  useWebhookEndpointQuery,
  useCreateWebhookEndpointMutation,
  useUpdateWebhookEndpointMutation,
  useRotateWebhookSecretMutation,
  useDeleteWebhookEndpointMutation,
  useWebhookDeliveriesQuery,
  useResendWebhookDeliveryMutation,
} = webhooksApi;
