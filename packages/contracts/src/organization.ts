import { z } from 'zod';
import { ZCurrency, ZTimeZone } from './money';
import { patchOf } from './pagination';

/** The organisation's own details: contact, legal and billing info (what its invoices show). */


export const ZOrganizationFields = z.object({
  name: z.string().trim().min(1, { error: 'Give the organisation a name.' }).max(150),
  time_zone: ZTimeZone,
  /** Changeable until the first sale (an order or a held cart line); then 409. */
  currency: ZCurrency,
  legal_name: z.string().trim().max(200).default(''),
  vat_number: z.string().trim().max(50).default(''),
  billing_address: z.string().trim().max(1000).default(''),
  billing_email: z.union([z.literal(''), z.email({ error: 'Enter a valid e-mail address.' })]).default(''),
  /** VAT rate in basis points: 810 = 8.1 %. */
  vat_rate_bp: z.number().int({ error: 'A whole number of basis points (810 = 8.1 %).' }).min(0).max(10000).default(0),
});
export const ZOrganizationPatch = patchOf(ZOrganizationFields);
export type TOrganizationPatch = z.input<typeof ZOrganizationPatch>;

export const ZOrganization = ZOrganizationFields.extend({
  id: z.uuid(),
  subdomain: z.string(),
  kind: z.enum(['supplier', 'affiliate']),
  /** The number the next invoice will have (this local year's INV sequence). */
  next_invoice_number: z.string(),
}).meta({ id: 'Organization' });
export type TOrganization = z.infer<typeof ZOrganization>;
