import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZOrganization, ZOrganizationPatch, type TOrganization } from '@tourdesk/contracts';
import { baseAccount, scheduleRule } from '../../db/schema';
import { regenerateSlots } from '../availability/slots';
import { nextInvoiceNumber } from '../orders/invoices';
import type { RouteAccess } from '../../lib/access';
import { tenantScope, type TenantCtx } from '../../lib/crud';

/** The organisation's contact, legal and billing details (/settings/organization/*). */

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope };
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
};
