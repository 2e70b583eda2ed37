import { z } from 'zod';
import { PARTNER_TYPES } from './constants';
import { ZEmail, ZSubdomain } from './identity';
import { ZPaginationQuery } from './pagination';
import { ZDate } from './text';

/**
 * Partners (/api/partners/): a supplier and a reseller under one contract, which both sides read.
 * Seen from the caller's side: in the tab "Resellers" the caller is the supplier, in "Suppliers"
 * the reseller. Invited by subdomain (answered in the invitee's list) or by e-mail (answered with
 * the link's token, /sales/partners/invitation/{token}).
 */

export const PARTNERSHIP_STATUSES = ['Invited', 'Active', 'Declined', 'Suspended', 'Ended'] as const;
export type TPartnershipStatus = (typeof PARTNERSHIP_STATUSES)[number];
export const PARTNER_PRICING = ['commission', 'net'] as const;
export const PARTNER_PRICING_LABEL: Record<(typeof PARTNER_PRICING)[number], string> = { commission: 'Commission on retail price', net: 'Net rates per pricing category' };
export const PAYMENT_COLLECTORS = ['reseller', 'supplier'] as const;
export const PAYMENT_COLLECTOR_LABEL: Record<(typeof PAYMENT_COLLECTORS)[number], string> = { reseller: 'The reseller collects', supplier: 'The supplier collects' };
export type TPartnerType = (typeof PARTNER_TYPES)[number];

/** Net rate per pricing category id, in minor units of the supplier's currency. */
const ZNetRates = z.record(z.uuid({ error: 'Not a valid pricing category id.' }), z.number().int({ error: 'A net rate is a whole number of minor units.' }).min(0).max(100_000_000));

export const ZPartnerOfferInput = z.object({
  experience_id: z.uuid({ error: 'Not a valid offer id.' }),
  net_rates: ZNetRates.default({}),
});

/** Basis points of the retail price the reseller keeps (1500 = 15 %). */
const ZCommissionBp = z
  .number()
  .int({ error: 'Give the commission in basis points (1500 = 15 %).' })
  .min(0, { error: 'A commission is between 0 and 100 %.' })
  .max(10_000, { error: 'A commission is between 0 and 100 %.' });

const contractShape = {
  pricing: z.enum(PARTNER_PRICING).default('commission'),
  commission_bp: ZCommissionBp.default(0),
  payment_collector: z.enum(PAYMENT_COLLECTORS).default('reseller'),
  valid_from: ZDate.nullable().default(null),
  valid_to: ZDate.nullable().default(null),
  notes: z.string().max(5000).default(''),
  offers: z.array(ZPartnerOfferInput).max(500).default([]),
};

const datesInOrder = (c: { valid_from?: string | null; valid_to?: string | null }) => !c.valid_from || !c.valid_to || c.valid_to >= c.valid_from;
const datesError = { error: 'The contract cannot end before it starts.', path: ['valid_to'] };

export const ZPartnerContractInput = z.object(contractShape).refine(datesInOrder, datesError);

/** PATCH /api/partners/{id}/: any of the contract's fields (the supplier side only). */
export const ZPartnerContractPatch = z
  .object({
    pricing: z.enum(PARTNER_PRICING).optional(),
    commission_bp: ZCommissionBp.optional(),
    payment_collector: z.enum(PAYMENT_COLLECTORS).optional(),
    valid_from: ZDate.nullable().optional(),
    valid_to: ZDate.nullable().optional(),
    notes: z.string().max(5000).optional(),
    offers: z.array(ZPartnerOfferInput).max(500).optional(),
  })
  .refine(datesInOrder, datesError);

/**
 * POST /api/partners/: `partner_type` is what the OTHER organisation will be (Resellers: it resells
 * my offers, I am its supplier; Suppliers: I resell its offers); exactly one of subdomain or e-mail.
 */
export const ZPartnerInviteInput = z
  .object({
    partner_type: z.enum(PARTNER_TYPES),
    subdomain: ZSubdomain.optional(),
    email: ZEmail.optional(),
    ...contractShape,
  })
  .refine((i) => Boolean(i.subdomain) !== Boolean(i.email), { error: 'Invite by the organisation’s subdomain or by an e-mail address (one of them).', path: ['subdomain'] })
  .refine(datesInOrder, datesError);

export const ZPartnerListQuery = ZPaginationQuery.extend({
  partner_type: z.enum(PARTNER_TYPES).default('Resellers'),
  status: z.enum(PARTNERSHIP_STATUSES).optional(),
  search: z.string().trim().max(100).optional(),
});

export const ZPartnerOffer = z.object({ experience_id: z.uuid(), title: z.string(), net_rates: z.record(z.string(), z.number().int()) });

export const ZPartnership = z.object({
  id: z.uuid(),
  /** The caller's view: 'Resellers' when the caller supplies, 'Suppliers' when it resells. */
  partner_type: z.enum(PARTNER_TYPES),
  /** The caller's side of the contract. */
  side: z.enum(['supplier', 'reseller']),
  status: z.enum(PARTNERSHIP_STATUSES),
  partner: z.object({ id: z.uuid().nullable(), name: z.string().nullable(), subdomain: z.string().nullable(), email: z.string().nullable() }),
  supplier_account_id: z.uuid().nullable(),
  reseller_account_id: z.uuid().nullable(),
  /** Whether the caller sent the invitation (the other side answers it). */
  invited_by_me: z.boolean(),
  /** Whether the caller may answer the invitation (accept or decline). */
  can_respond: z.boolean(),
  /** Whether the caller may edit the contract (the supplier side, while not ended). */
  can_edit: z.boolean(),
  pricing: z.enum(PARTNER_PRICING),
  commission_bp: z.number().int(),
  payment_collector: z.enum(PAYMENT_COLLECTORS),
  valid_from: z.string().nullable(),
  valid_to: z.string().nullable(),
  currency: z.string(),
  notes: z.string(),
  offers: z.array(ZPartnerOffer),
  responded_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** GET /api/partners/{id}/offers/: the supplier's offers, whether the contract shares each, and prices to prefill net rates. */
export const ZPartnerOfferChoice = z.object({
  experience_id: z.uuid(),
  title: z.string(),
  status: z.string(),
  shared: z.boolean(),
  net_rates: z.record(z.string(), z.number().int()),
  prices: z.array(z.object({ pricing_category_id: z.uuid(), label: z.string(), type: z.string(), retail_price: z.number().int(), net_price: z.number().int().nullable() })),
});
export const ZPartnerOffers = z.object({ currency: z.string(), results: z.array(ZPartnerOfferChoice) });

/** The invitation behind an e-mail link, as the invitee sees it before answering. */
export const ZPartnerInvitation = z.object({
  status: z.enum(PARTNERSHIP_STATUSES),
  /** What the invitee becomes: 'reseller' (it resells the inviter's offers) or 'supplier'. */
  invitee_side: z.enum(['supplier', 'reseller']),
  inviter: z.object({ name: z.string(), subdomain: z.string() }),
  email: z.string(),
  pricing: z.enum(PARTNER_PRICING),
  commission_bp: z.number().int(),
  payment_collector: z.enum(PAYMENT_COLLECTORS),
  valid_from: z.string().nullable(),
  valid_to: z.string().nullable(),
  currency: z.string(),
  offer_count: z.number().int(),
});
export const ZInvitationTokenParam = z.object({ token: z.string().min(20).max(100) });

export const ZApiKeyInput = z.object({ name: z.string().trim().min(1, { error: 'Give the key a name.' }).max(100) });
export const ZApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
/** The answer to creating a key: the only time its secret is shown. */
export const ZApiKeyCreated = ZApiKey.extend({ secret: z.string() });
export const ZApiKeyParams = z.object({ id: z.uuid({ error: 'Not a valid id.' }), keyId: z.uuid({ error: 'Not a valid id.' }) });

export type TPartnership = z.infer<typeof ZPartnership>;
export type TPartnerInviteInput = z.input<typeof ZPartnerInviteInput>;
export type TPartnerContractPatch = z.input<typeof ZPartnerContractPatch>;
export type TPartnerOffers = z.infer<typeof ZPartnerOffers>;
export type TPartnerOfferChoice = z.infer<typeof ZPartnerOfferChoice>;
export type TPartnerInvitation = z.infer<typeof ZPartnerInvitation>;
export type TApiKey = z.infer<typeof ZApiKey>;
export type TApiKeyCreated = z.infer<typeof ZApiKeyCreated>;
