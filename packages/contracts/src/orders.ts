import { z } from 'zod';
import { DATE_RANGE_FILTERS, ORDER_STATUS_FILTERS, ORDER_STATUSES, PAYMENT_STATUSES } from './constants';
import { ZBooking, ZCustomerInput, ZQuantities } from './availability';
import { patchOf, ZPaginationQuery } from './pagination';
import { LANGUAGES } from './i18n/languages';
import { ZDiscount } from './promo-codes';

/** Orders, their lines (bookings) and payments, invoices, the audit trail and customers. */

/** What staff record by hand. */
export const PAYMENT_METHODS = ['cash', 'card terminal', 'bank transfer', 'other'] as const;
/** …and what the payment provider records (`voucher`: a gift voucher spent, recorded by redeemVoucher(); its refund goes back on the voucher): a card payment in the web store (Stripe), and its refunds. */
export const PAYMENT_METHODS_ALL = [...PAYMENT_METHODS, 'online', 'voucher'] as const;
export const ORDER_ORDERINGS = ['created_at', '-created_at', 'total', '-total', 'reference', '-reference'] as const;

const ZUuid = z.uuid({ error: 'Must be a valid id.' });
const ZPerson = z.object({ id: z.uuid(), email: z.string(), first_name: z.string(), last_name: z.string() });

// --- the order routes' path parameters and headers ----------------------------------------
export const ZOrderIdParam = z.object({ id: ZUuid });
export const ZOrderLineParams = z.object({ id: z.uuid(), lineId: z.uuid() });
export const ZOrderPaymentParams = z.object({ id: z.uuid(), paymentId: z.uuid() });
export const ZOrderInvoiceParams = z.object({ id: z.uuid(), invoiceId: z.uuid() });
/** The optional Idempotency-Key header of order create, payment create and checkout. */
export const ZIdempotencyHeaders = z.object({ 'idempotency-key': z.string().optional() });

export const ZOrderListQuery = ZPaginationQuery.extend({
  date_range: z.enum(DATE_RANGE_FILTERS).optional(),
  payment_status: z.enum(PAYMENT_STATUSES).optional(),
  status: z.enum(ORDER_STATUS_FILTERS).optional(),
  seller: ZUuid.optional(),
  store: ZUuid.optional(),
  customer: ZUuid.optional(),
  search: z.string().trim().max(100).optional(),
  ordering: z.enum(ORDER_ORDERINGS).default('-created_at'),
});
export type TOrderListQuery = z.input<typeof ZOrderListQuery>;

export const ZOrderSummary = z
  .object({
    id: z.uuid(),
    reference: z.string(),
    status: z.enum(ORDER_STATUSES),
    payment_status: z.enum(PAYMENT_STATUSES),
    /** What is owed now (lines not cancelled). */
    total: z.number().int(),
    /** What the order was sold for, cancelled lines included: a cancelled order keeps it visible. */
    sold_total: z.number().int(),
    /** Payments net of refunds, and the refunds alone. */
    paid: z.number().int(),
    refunded: z.number().int(),
    currency: z.string(),
    customer: ZPerson,
    seller: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    store: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    lines: z.number().int(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'OrderSummary' });
export type TOrderSummary = z.infer<typeof ZOrderSummary>;

/** One line of an invoice: one pricing category or extra of a booking, as sold (VAT included). */
export const ZInvoiceLine = z.object({
  description: z.string(),
  quantity: z.number().int(),
  unit_price: z.number().int(),
  vat_rate_bp: z.number().int(),
  net: z.number().int(),
  tax: z.number().int(),
  total: z.number().int(),
});
export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
const ZParty = z.object({ name: z.string(), address: z.string(), vat_number: z.string() });
/**
 * An invoice or a credit note as issued, never changed afterwards. A credit note cancels an earlier
 * invoice of the order (`credits`): its lines and totals are that invoice's, negated.
 */
export const ZInvoice = z
  .object({
    id: z.uuid(),
    order: z.uuid(),
    kind: z.enum(INVOICE_KINDS),
    number: z.string(),
    /** The organisation's local date of issue (the invoice date) and the instant. */
    issued_on: z.iso.date(),
    issued_at: z.iso.datetime(),
    credits: z.object({ id: z.uuid(), number: z.string(), issued_on: z.iso.date() }).nullable(),
    currency: z.string(),
    order_reference: z.string(),
    seller: ZParty.extend({ legal_name: z.string(), email: z.string() }),
    customer: ZParty.extend({ email: z.string(), country: z.string().nullable() }),
    lines: z.array(ZInvoiceLine),
    taxes: z.array(z.object({ vat_rate_bp: z.number().int(), net: z.number().int(), tax: z.number().int(), gross: z.number().int() })),
    net_total: z.number().int(),
    tax_total: z.number().int(),
    total: z.number().int(),
    paid: z.number().int(),
    balance: z.number().int(),
    /** The language it was issued in (en, de, fr, it, es; the order's then): its PDF's words, dates and money, and the sheet's on screen. */
    language: z.string(),
  })
  .meta({ id: 'Invoice' });
/** An invoice or credit note as an order lists them. */
export const ZInvoiceSummary = z
  .object({ id: z.uuid(), kind: z.enum(INVOICE_KINDS), number: z.string(), issued_on: z.iso.date(), issued_at: z.iso.datetime(), total: z.number().int(), currency: z.string(), credits: z.string().nullable(), credited_by: z.string().nullable() })
  .meta({ id: 'InvoiceSummary' });
export type TInvoiceSummary = z.infer<typeof ZInvoiceSummary>;
export type TInvoice = z.infer<typeof ZInvoice>;

export const ZOrder = ZOrderSummary.extend({
  /** The QR code whose scan brought the customer (a web order), if any. */
  qr_code: z.object({ id: z.uuid(), name: z.string() }).nullable().optional(),
  tax_total: z.number().int(),
  /** What every line ever sold in it was worth, cancelled ones included (a cancelled order keeps it visible). */
  sold_total: z.number().int(),
  /**
   * What a cancelled order keeps under its cancellation policy (what was paid less the policy's
   * refund); part of `total` and `tax_total`. 0 for an open order and one cancelled free of charge.
   */
  cancellation_fee: z.number().int(),
  /** The promo code's discount on the lines not cancelled, with its VAT per rate (part of `total` and `tax_total` already); null without a code. */
  discount: ZDiscount.nullable(),
  balance: z.number().int(),
  /** Paid by a deposit online (issue 32): the local date the balance is due by; null: on site (or nothing left). */
  balance_due_on: z.string().nullable(),
  refunded: z.number().int(),
  notes: z.string(),
  /** The customer's language (en, de, fr, it, es): their e-mails, tickets and invoices are in it. */
  language: z.string(),
  /** The current invoice (the newest that no credit note cancels), if any. */
  invoice: z.object({ id: z.uuid(), number: z.string(), issued_at: z.iso.datetime() }).nullable(),
  /** Every invoice and credit note of the order, oldest first. */
  invoices: z.array(ZInvoiceSummary),
  bookings: z.array(ZBooking),
  updated_at: z.iso.datetime(),
}).meta({ id: 'Order' });
export type TOrder = z.infer<typeof ZOrder>;

/**
 * Cancelling an order from the back office: free of charge (the default, as before), or keeping
 * the fee its cancellation policy allows now (what was paid less the policy's refund).
 */
export const ZOrderCancel = z.object({
  keep_cancellation_fee: z.boolean({ error: 'Say whether the cancellation fee is kept: true or false.' }).default(false),
});
export type TOrderCancel = z.input<typeof ZOrderCancel>;

/**
 * The refund to propose for an order: of an open one, what was paid beyond what is owed or what its
 * cancellation policy gives back now; of a cancelled one, what was paid less the fee it keeps.
 * `cancellation_fee`: what cancelling now would keep under the policy (null when the policy does
 * not allow cancelling now), or the fee a cancelled order keeps.
 */
export const ZRefundProposal = z
  .object({ amount: z.number().int(), reason: z.string(), cancellation_fee: z.number().int().nullable() })
  .meta({ id: 'RefundProposal' });
export type TRefundProposal = z.infer<typeof ZRefundProposal>;

export const ZOrderLineInput = z.object({ slot: ZUuid, quantities: ZQuantities, extras: z.record(z.uuid(), z.number().int().min(0).max(100)).default({}) });
export const ZOrderCreate = z.object({
  customer: ZCustomerInput,
  lines: z.array(ZOrderLineInput).min(1, { error: 'Add at least one line.' }).max(20),
  answers: z.record(z.uuid(), z.string().max(1000)).default({}),
  notes: z.string().trim().max(2000).default(''),
  /** The customer's language (their e-mails, tickets and invoices); absent: the organisation's main one. */
  language: z.enum(LANGUAGES, { error: `Choose one of: ${LANGUAGES.join(', ')}.` }).optional(),
  /** A promo code (issue 32): refused with a promo_* code on `promo_code` when it does not apply. */
  promo_code: z.string().trim().min(1).max(40).optional(),
});
export const ZOrderUpdate = z.object({
  notes: z.string().trim().max(2000).default(''),
  customer: ZUuid.optional(),
  /** The customer's language for what is sent from now on (an issued invoice keeps its own). */
  language: z.enum(LANGUAGES, { error: `Choose one of: ${LANGUAGES.join(', ')}.` }).optional(),
});
export const ZOrderPatch = patchOf(ZOrderUpdate);
export const ZOrderLinePatch = z.object({ quantities: ZQuantities, extras: z.record(z.uuid(), z.number().int().min(0).max(100)).optional() });

export const ZPaymentInput = z.object({
  amount: z
    .number({ error: 'Enter the amount in minor units (cents).' })
    .int({ error: 'Enter the amount in minor units (cents).' })
    .refine((n) => n !== 0, { error: 'The amount cannot be zero.' }),
  currency: z.string().regex(/^[A-Z]{3}$/, { error: 'Use a three-letter currency code.' }),
  /** 'online' only for a refund of an online payment: it goes back to the card through the payment provider. */
  method: z.enum(PAYMENT_METHODS_ALL),
  reference: z.string().trim().max(200).default(''),
  /** A refund (negative amount): the payment of this order it gives money back from, and why. */
  refund_of: z.uuid({ error: 'Choose the payment this refund gives back.' }).optional(),
  reason: z.string().trim().max(500).default(''),
  /** Method `voucher` (a payment): the gift voucher's code, whose balance pays it (issue 32). */
  voucher_code: z.string().trim().min(4).max(40).optional(),
});
export type TPaymentInput = z.input<typeof ZPaymentInput>;
export const ZPayment = z
  .object({
    id: z.uuid(),
    order: z.uuid(),
    amount: z.number().int(),
    currency: z.string(),
    method: z.enum(PAYMENT_METHODS_ALL),
    reference: z.string(),
    kind: z.enum(['payment', 'refund']),
    refund_of: z.uuid().nullable(),
    reason: z.string(),
    /** A payment: how much of it was refunded so far (pending refunds count; failed ones do not). */
    refunded: z.number().int(),
    /**
     * `succeeded`; a refund through the payment provider may be `pending` (counted as refunded until
     * the provider says) or `failed` (its money is back in what was paid: it counts nowhere).
     */
    status: z.enum(['succeeded', 'pending', 'failed']),
    recorded_by: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'OrderPayment' });
export type TPayment = z.infer<typeof ZPayment>;

/** A payment link e-mailed for an order's balance: to whom, and the balance when it was sent (what is paid is the balance when the customer opens it). */
export const ZPaymentLinkSent = z
  .object({ id: z.uuid(), order: z.uuid(), email: z.string(), amount: z.number().int(), currency: z.string(), created_at: z.iso.datetime() })
  .meta({ id: 'PaymentLinkSent' });
export type TPaymentLinkSent = z.infer<typeof ZPaymentLinkSent>;
/** A payment link's address: its secret, and Stripe's session id when Stripe sends the customer back. */
export const ZPaymentLinkTokenParam = z.object({ token: z.string().min(1).max(200) });
export const ZPaymentLinkReturnQuery = z.object({ session_id: z.string().max(200).optional() });

export const ZFilterOptions = z
  .object({ sellers: z.array(z.object({ id: z.uuid(), name: z.string() })), stores: z.array(z.object({ id: z.uuid(), name: z.string() })) })
  .meta({ id: 'OrderFilterOptions' });
export type TFilterOptions = z.infer<typeof ZFilterOptions>;

export const ZAuditEvent = z
  .object({
    id: z.uuid(),
    subject: z.enum(['order', 'line', 'payment', 'invoice']),
    subject_id: z.uuid(),
    action: z.string(),
    changes: z.record(z.string(), z.unknown()),
    actor: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'AuditEvent' });
export type TAuditEvent = z.infer<typeof ZAuditEvent>;


export const ZCustomer = z
  .object({
    id: z.uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string(),
    country: z.string().nullable(),
    company: z.string(),
    address: z.string(),
    vat_number: z.string(),
    marketing_consent: z.boolean(),
    notes: z.string(),
    orders: z.number().int(),
    total_spent: z.number().int(),
    currency: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Customer' });
export type TCustomer = z.infer<typeof ZCustomer>;
export const ZCustomerCreate = ZCustomerInput.extend({
  notes: z.string().trim().max(5000).default(''),
  /** What an invoice to a business shows: its name, postal address and VAT number. */
  company: z.string().trim().max(200).default(''),
  address: z.string().trim().max(500).default(''),
  vat_number: z.string().trim().max(40).default(''),
});
export const ZCustomerPatch = patchOf(ZCustomerCreate);
export const ZCustomerListQuery = ZPaginationQuery.extend({ search: z.string().trim().max(100).optional() });

