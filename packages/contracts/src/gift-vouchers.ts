import { z } from 'zod';
import { LANGUAGES } from './i18n/languages';
import { ZDate } from './text';

/**
 * Gift vouchers (issue 32, /api/gift-vouchers/): multi-purpose vouchers sold in the web store (paid
 * online) or issued by staff, spent as a means of payment (payment method `voucher`) on orders, in
 * part or whole, their balance a ledger. A voucher sold carries no VAT (a liability); the booking it
 * pays carries the VAT.
 */
export const VOUCHER_STATUSES = ['active', 'used', 'expired', 'cancelled'] as const;
export const VOUCHER_ENTRY_KINDS = ['issue', 'redemption', 'refund', 'cancel', 'extend'] as const;
/** A voucher's code as typed: letters and digits, dashes and spaces ignored, any case. */
export const VOUCHER_CODE_INPUT = z.string().trim().min(4, { error: 'Enter the voucher code.' }).max(40);
/** Why a code is refused: the error envelope's `code` (attr `voucher_code`). */
export const VOUCHER_REFUSALS = ['voucher_unknown', 'voucher_expired', 'voucher_cancelled', 'voucher_used_up', 'voucher_currency'] as const;

/** Codes are compared without case, dashes or spaces. */
export const normalizeVoucherCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

const ZMinor = z.number().int().min(1, { error: 'Give an amount.' }).max(100_000_000);
const ZEmail = z.email({ error: 'Enter a valid e-mail address.' }).max(254);

/** Staff issue a voucher (compensation, a prize): no payment. */
export const ZGiftVoucherIssue = z.object({
  value: ZMinor,
  recipient_name: z.string().trim().max(200).default(''),
  recipient_email: z.union([ZEmail, z.literal('')]).default(''),
  message: z.string().trim().max(1000).default(''),
  /** Why it is given (kept in its ledger). */
  reason: z.string().trim().min(1, { error: 'Say why this voucher is issued.' }).max(500),
  language: z.enum(LANGUAGES).optional(),
  /** E-mail it now to the recipient (needs recipient_email). */
  send: z.boolean().default(false),
});
export type TGiftVoucherIssue = z.input<typeof ZGiftVoucherIssue>;

export const ZGiftVoucherCancel = z.object({ reason: z.string().trim().min(1, { error: 'Say why this voucher is cancelled.' }).max(500) });
export const ZGiftVoucherExtend = z.object({
  expires_on: ZDate,
  reason: z.string().trim().min(1, { error: 'Say why this voucher is extended.' }).max(500),
});

export const ZGiftVoucherEntry = z
  .object({
    id: z.uuid(),
    kind: z.enum(VOUCHER_ENTRY_KINDS),
    amount: z.number().int(),
    balance_after: z.number().int(),
    order: z.uuid().nullable(),
    order_reference: z.string().nullable(),
    expires_at: z.string().nullable(),
    reason: z.string(),
    actor: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'GiftVoucherEntry' });

export const ZGiftVoucher = z
  .object({
    id: z.uuid(),
    code: z.string(),
    currency: z.string(),
    value: z.number().int(),
    balance: z.number().int(),
    status: z.enum(VOUCHER_STATUSES),
    expires_at: z.string(),
    source: z.enum(['store', 'staff']),
    buyer_name: z.string(),
    buyer_email: z.string(),
    recipient_name: z.string(),
    recipient_email: z.string(),
    message: z.string(),
    deliver_on: z.string(),
    delivered_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'GiftVoucher' });
export type TGiftVoucher = z.infer<typeof ZGiftVoucher>;
export const ZGiftVoucherDetail = ZGiftVoucher.extend({ ledger: z.array(ZGiftVoucherEntry) }).meta({ id: 'GiftVoucherDetail' });
export type TGiftVoucherDetail = z.infer<typeof ZGiftVoucherDetail>;

export const ZGiftVoucherListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.enum(VOUCHER_STATUSES).optional(),
});

/** Trying a voucher (the store's cart, the counter): its balance, expiry, and what it would cover of `due`. */
export const ZVoucherTry = z.object({
  code: VOUCHER_CODE_INPUT,
  /** The cart lines to be booked (without: every line still held). */
  lines: z.array(z.uuid()).max(100).optional(),
  /** A promo code typed too: what is due is after its discount. */
  promo_code: z.string().trim().min(1).max(40).optional(),
});
export const ZVoucherPreview = z
  .object({
    code: z.string(),
    balance: z.number().int(),
    currency: z.string(),
    expires_at: z.string(),
    /** What is due on the cart, and what the voucher would pay of it (min(balance, due)). */
    due: z.number().int(),
    covers: z.number().int(),
  })
  .meta({ id: 'VoucherPreview' });
export type TVoucherPreview = z.infer<typeof ZVoucherPreview>;

/** The fields an order's checkout takes for paying part of it with a voucher. */
export const voucherFields = {
  /** A gift voucher (issue 32) paying part or all of the order: refused with a voucher_* code on `voucher_code`. */
  voucher_code: VOUCHER_CODE_INPUT.optional(),
  /** How much of it to spend (minor units); default min(balance, due). */
  voucher_amount: z.number().int().min(1).max(100_000_000).optional(),
};

/** What a store's voucher page offers (GET /api/web-stores/{slug}/vouchers/). */
export const ZStoreVoucherOffer = z
  .object({ currency: z.string(), amounts: z.array(z.number().int()), min: z.number().int(), max: z.number().int(), validity_months: z.number().int(), /** Whether the store takes payments online now (a voucher is paid online only). */ online: z.boolean() })
  .meta({ id: 'StoreVoucherOffer' });
export type TStoreVoucherOffer = z.infer<typeof ZStoreVoucherOffer>;

/** Buying a voucher in the web store (paid online, POST /api/web-stores/{slug}/vouchers/). */
export const ZVoucherPurchase = z.object({
  amount: ZMinor,
  buyer_name: z.string().trim().min(1, { error: 'Enter your name.' }).max(200),
  buyer_email: ZEmail,
  recipient_name: z.string().trim().max(200).default(''),
  recipient_email: z.union([ZEmail, z.literal('')]).default(''),
  message: z.string().trim().max(1000).default(''),
  /** The day it is e-mailed (the organisation's local date); absent: today. */
  deliver_on: ZDate.optional(),
  accept_terms: z.literal(true, { error: 'Accept the terms to buy.' }),
});
export type TVoucherPurchase = z.input<typeof ZVoucherPurchase>;
export const ZVoucherPurchaseStart = z.object({ checkout: z.uuid(), payment_url: z.string() }).meta({ id: 'VoucherPurchaseStart' });
export const ZVoucherPurchaseState = z.object({ status: z.enum(['open', 'paid', 'expired', 'failed', 'refunded']), code_sent_to: z.string().nullable() }).meta({ id: 'VoucherPurchaseState' });
