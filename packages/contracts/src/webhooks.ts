import { z } from 'zod';
import { ZHttpUrl } from './text';

/**
 * Outgoing webhooks (/api/webhooks/endpoints/): an Owner's endpoints, each told of the events it
 * subscribes to, signed per Standard Webhooks (standardwebhooks.com). A message is
 * `{ type, timestamp, data }`, `data` the API's own shape of the order or booking (ZOrder, ZBooking).
 */
export const WEBHOOK_EVENT_TYPES = [
  'order.created',
  'order.paid',
  'order.refunded',
  'order.cancelled',
  'booking.created',
  'booking.changed',
  'booking.cancelled',
  'booking.checked_in',
  'booking.no_show',
  'partner_booking.confirmed',
  'partner_booking.cancelled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const ZEventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, { error: 'Choose at least one event.' })
  // Each once, in the list's order.
  .transform((types) => WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type)));

export const ZWebhookEndpointInput = z.object({
  url: ZHttpUrl('Enter the full address of the endpoint (https://…).').max(2000),
  description: z.string().trim().max(200).default(''),
  event_types: ZEventTypes,
  enabled: z.boolean().default(true),
});
export type TWebhookEndpointInput = z.input<typeof ZWebhookEndpointInput>;

export const ZWebhookEndpointPatch = z.object({
  url: ZHttpUrl('Enter the full address of the endpoint (https://…).').max(2000).optional(),
  description: z.string().trim().max(200).optional(),
  event_types: ZEventTypes.optional(),
  enabled: z.boolean().optional(),
});
export type TWebhookEndpointPatch = z.input<typeof ZWebhookEndpointPatch>;

export const ZWebhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    /** The secret's first characters (whsec_ and four more), to tell secrets apart, never the whole; empty while it has none (the demo's). */
    secret_hint: z.string(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** Answered once, when an endpoint is made or its secret rotated: the whole signing secret (whsec_…). */
export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({ secret: z.string() }).meta({ id: 'WebhookEndpointWithSecret' });
export type TWebhookEndpointWithSecret = z.infer<typeof ZWebhookEndpointWithSecret>;

export const ZWebhookDelivery = z
  .object({
    id: z.uuid(),
    /** The message's id (header webhook-id): the same for every attempt and resend of one event. */
    message_id: z.string(),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    http_status: z.number().int().nullable(),
    /** The start of the endpoint's answer (up to 500 characters), or why there was none. */
    response: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
    created_at: z.iso.datetime(),
    last_attempt_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryParams = z.object({ id: z.uuid(), delivery: z.uuid() });
