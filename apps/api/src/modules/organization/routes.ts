import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fractionDigits, ZErrorEnvelope, ZOrganization, ZOrganizationPatch, ZProductConfiguration, ZProductConfigurationPatch, type TOrganization } from '@tourdesk/contracts';
import { baseAccount, cartLine, inventoryItem, order, pricingRate, scheduleRule } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { regenerateSlots } from '../availability/slots';
import { nextInvoiceNumber } from '../orders/invoices';
import type { RouteAccess } from '../../lib/access';
import { tenantScope, type TenantCtx } from '../../lib/crud';
import { productConfiguration, updateProductConfiguration } from './product-configuration';

/** The organisation's contact, legal and billing details (/settings/organization/*). */

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const manageAccount: RouteAccess = { permissions: ['Manage account'] };

async function load(ctx: TenantCtx): Promise<TOrganization> {
  const [a] = await ctx.tx.select().from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return {
    id: a!.id,
    name: a!.name,
    subdomain: a!.subdomain,
    kind: a!.kind as TOrganization['kind'],
    currency: a!.currency,
    time_zone: a!.time_zone,
    legal_name: a!.legal_name,
    vat_number: a!.vat_number,
    billing_address: a!.billing_address,
    billing_email: a!.billing_email,
    vat_rate_bp: a!.vat_rate_bp,
    next_invoice_number: await nextInvoiceNumber(ctx),
  };
}

/**
 * The currency can change until the first sale: once an order exists, or seats are held in a
 * cart, amounts in the old currency are on record, so the change is refused (409). Prices and
 * extras move to the new currency keeping what people read (49.00 EUR → 49 JPY).
 */
async function changeCurrency(ctx: TenantCtx, from: string, to: string) {
  // The organisation's row first: a sale or hold that starts now reads the currency after this commits.
  await ctx.tx.execute(sql`select 1 from ${baseAccount} where id = ${ctx.accountId}::uuid for update`);
  const sold = (await ctx.tx.execute(sql`
    select exists (select 1 from ${order} where account_id = ${ctx.accountId}::uuid)
        or exists (select 1 from ${cartLine} where account_id = ${ctx.accountId}::uuid) as sold`)) as unknown as { rows: { sold: boolean }[] };
  if (sold.rows[0]!.sold) {
    throw new AppError('conflict', `The currency cannot change after the first sale: orders and carts are recorded in ${from}.`, 'currency');
  }
  const factor = 10 ** (fractionDigits(to) - fractionDigits(from));
  await ctx.tx
    .update(pricingRate)
    .set({ currency: to, retail_price: sql`round(${pricingRate.retail_price} * ${factor}::numeric)::int`, net_price: sql`round(${pricingRate.net_price} * ${factor}::numeric)::int`, updated_at: new Date() })
    .where(eq(pricingRate.account_id, ctx.accountId));
  await ctx.tx
    .update(inventoryItem)
    .set({ currency: to, price: sql`round(${inventoryItem.price} * ${factor}::numeric)::int`, updated_at: new Date() })
    .where(eq(inventoryItem.account_id, ctx.accountId));
}

export const organizationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/account/',
    { config: { access: manageAccount }, schema: { tags: ['organization'], summary: 'Your organisation’s contact, legal and billing details', response: { 200: ZOrganization, ...errors } } },
    (request) => tenantScope(request, load),
  );
  app.patch(
    '/api/account/',
    { config: { access: manageAccount }, schema: { tags: ['organization'], summary: 'Change your organisation’s details (the next invoices show them)', body: ZOrganizationPatch, response: { 200: ZOrganization, ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const before = await load(ctx);
        if (request.body.currency && request.body.currency !== before.currency) await changeCurrency(ctx, before.currency, request.body.currency);
        await ctx.tx.update(baseAccount).set({ ...request.body, updated_at: new Date() }).where(eq(baseAccount.id, ctx.accountId));
        if (request.body.time_zone && request.body.time_zone !== before.time_zone) {
          // Start times are local: every scheduled experience's future slots follow the new zone
          // (slots with bookings keep their instant and are closed, as on any rule change).
          const scheduled = await ctx.tx.selectDistinct({ id: scheduleRule.experience_id }).from(scheduleRule).where(eq(scheduleRule.account_id, ctx.accountId));
          for (const { id } of scheduled) await regenerateSlots(ctx, id);
        }
        return load(ctx);
      }),
  );
  app.get(
    '/api/product-configuration/',
    { config: { access: manageAccount }, schema: { tags: ['organization'], summary: 'How times read, new offers’ defaults, booking cut-off and hold, VAT per offer type, and what tickets show', response: { 200: ZProductConfiguration, ...errors } } },
    (request) => tenantScope(request, productConfiguration),
  );
  app.patch(
    '/api/product-configuration/',
    { config: { access: manageAccount }, schema: { tags: ['organization'], summary: 'Change the product configuration (a VAT rate of null gives the type back the organisation’s rate)', body: ZProductConfigurationPatch, response: { 200: ZProductConfiguration, ...errors } } },
    (request) => tenantScope(request, (ctx) => updateProductConfiguration(ctx, request.body)),
  );
};
