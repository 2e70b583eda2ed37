import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZErrorEnvelope, ZOrganization, ZOrganizationPatch, ZProductConfiguration, ZProductConfigurationPatch } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { productConfiguration, updateProductConfiguration } from './product-configuration';
import { organization, updateOrganization } from './service';

/** The organisation's contact, legal and billing details (/settings/organization/*). */

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const manageAccount: RouteAccess = { permissions: ['Manage account'] };

export const organizationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/account/',
    { config: { access: manageAccount }, schema: { tags: ['organization'], summary: 'Your organisation’s contact, legal and billing details', response: { 200: ZOrganization, ...errors } } },
    (request) => tenantScope(request, organization),
  );
  app.patch(
    '/api/account/',
    { config: { access: manageAccount }, schema: { tags: ['organization'], summary: 'Change your organisation’s details (the next invoices show them)', body: ZOrganizationPatch, response: { 200: ZOrganization, ...errors } } },
    (request) => updateOrganization({ run: (fn) => tenantScope(request, fn), db: request.server.database.db }, request.body),
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
