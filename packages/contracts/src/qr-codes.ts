import { z } from 'zod';

/**
 * QR codes (/api/qr-codes/): a printed code that leads, through /q/{code} on the organisation's
 * host (which counts the scan), to a store or to an offer in a store. The order the scan leads
 * to records the code (cart → order, whether paid on site or online), so the list shows scans,
 * orders and revenue per code. A supplier's code may lead to a partner's store (a reseller's store
 * that sells its offers): the scan counts for the supplier and the orders of its offers sold there
 * (in its books) record the code.
 */
export const QR_OWNERSHIPS = ['Internal', 'External'] as const;
export const QR_TARGETS = ['store', 'experience', 'partner_store'] as const;
export const QR_TARGET_LABEL: Record<(typeof QR_TARGETS)[number], string> = { store: 'A store', experience: 'An offer in a store', partner_store: 'A partner’s store' };
/** The code of a QR code's address: 8 characters of lower-case base32 (40 random bits). */
export const QR_CODE_PATTERN = /^[a-z2-7]{8}$/;

export const ZQrCodeInput = z.object({
  name: z.string().trim().min(1, { error: 'Give the QR code a name.' }).max(120),
  campaign: z.string().trim().max(120).default(''),
  ownership: z.enum(QR_OWNERSHIPS).default('Internal'),
  target: z.enum(QR_TARGETS).default('store'),
  /** The store the code leads to (for an offer: the store that sells it; for a partner's store, one of partner-stores). */
  store: z.uuid({ error: 'Choose a store.' }),
  /** The offer, when the target is 'experience'. */
  experience: z.uuid().nullable().default(null),
});
export type TQrCodeInput = z.input<typeof ZQrCodeInput>;

export const ZQrCode = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  campaign: z.string(),
  ownership: z.enum(QR_OWNERSHIPS),
  target: z.enum(QR_TARGETS),
  store: z.uuid().nullable(),
  store_name: z.string().nullable(),
  /** For a partner's store: the reseller whose store it is. */
  partner_name: z.string().nullable(),
  experience: z.uuid().nullable(),
  experience_title: z.string().nullable(),
  /** The address printed in the code: {organisation host}/q/{code}. */
  url: z.string(),
  /** Where a scan leads (without the ?qr= the scan adds). */
  target_url: z.string().nullable(),
  scans: z.number().int(),
  last_scanned_at: z.string().nullable(),
  /** Orders the code brought (any status). */
  orders: z.number().int(),
  /** The total of those orders that are not cancelled, in minor units of `currency`. */
  revenue: z.number().int(),
  currency: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TQrCode = z.infer<typeof ZQrCode>;

export const ZQrCodeListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  ownership: z.enum(QR_OWNERSHIPS).optional(),
});

/** A reseller's store that sells this organisation's offers now: what a code may lead to as 'partner_store'. */
export const ZPartnerStore = z.object({ id: z.uuid(), name: z.string(), partner: z.string(), partnership: z.uuid(), url: z.string() }).meta({ id: 'PartnerStore' });
export type TPartnerStore = z.infer<typeof ZPartnerStore>;
