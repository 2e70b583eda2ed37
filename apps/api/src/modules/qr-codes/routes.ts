import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { patchOf, toMajorText, ZErrorEnvelope, ZIdParam, ZPartnerStore, ZQrCode, ZQrCodeInput } from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { registerCrud, tenantScope } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { requestHost } from '../../lib/host';
import { flyerPdf, qrPng, qrSvg } from './files';
import * as q from './queries';
import * as svc from './service';

/**
 * /api/qr-codes/: full CRUD (the list with scans, orders and revenue per code), the code's PNG,
 * SVG and printable flyer; and /q/{code} on the organisation's host, the address in the code,
 * which counts the scan and sends the customer to the store or offer with ?qr={code}.
 */
const manageQr: RouteAccess = { permissions: ['Manage stores'], features: ['qr_codes'] };
const tags = ['qr-codes'];

export function registerQrCodes(untyped: FastifyInstance) {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/qr-codes/partner-stores/',
    {
      config: { access: manageQr },
      schema: { tags, summary: 'The stores of this organisation’s resellers that sell its offers now: where a code may lead as a partner’s store', response: { 200: z.array(ZPartnerStore), 401: ZErrorEnvelope, 403: ZErrorEnvelope } },
    },
    (request) => tenantScope(request, (ctx) => svc.partnerStores(ctx, app.config)),
  );
  registerCrud(untyped, {
    path: '/api/qr-codes/',
    tag: 'qr-codes',
    noun: 'QR code',
    ...q.qrCrud,
    read: manageQr,
    write: manageQr,
    input: ZQrCodeInput,
    patch: patchOf(ZQrCodeInput),
    output: ZQrCode,
    values: (ctx, input, existing) => svc.qrValues(ctx, input, existing),
    present: (ctx, rows) => svc.presentQrCodes(ctx, app.config, rows),
    unique: { attr: 'code', detail: 'This code is taken: try again.' },
    csv: {
      file: 'qr-codes',
      columns: [
        { header: 'name', value: (c) => c.name },
        { header: 'campaign', value: (c) => c.campaign },
        { header: 'ownership', value: (c) => c.ownership },
        { header: 'leads_to', value: (c) => (c.target === 'experience' ? `${c.experience_title ?? ''} in ${c.store_name ?? ''}` : c.target === 'partner_store' ? `${c.store_name ?? ''} (${c.partner_name ?? ''})` : (c.store_name ?? '')) },
        { header: 'address', value: (c) => c.url },
        { header: 'scans', value: (c) => c.scans },
        { header: 'last_scanned_at', value: (c) => c.last_scanned_at ?? '' },
        { header: 'orders', value: (c) => c.orders },
        { header: 'currency', value: (c) => c.currency },
        { header: 'revenue', value: (c) => ({ amount: toMajorText(c.revenue, c.currency) }) },
        { header: 'created_at', value: (c) => c.created_at },
      ],
    },
  });

  const file = (summary: string) => ({ config: { access: manageQr }, schema: { tags, summary, params: ZIdParam } });
  const named = (dto: { name: string; code: string }, ext: string) => `qr-${dto.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'code'}-${dto.code}.${ext}`;

  app.get('/api/qr-codes/:id/qr.png', file('The code as a PNG image (1024 px)'), async (request, reply) => {
    const dto = await tenantScope(request, async (ctx) => (await svc.presentQrCodes(ctx, app.config, [await svc.loadQrCode(ctx, request.params.id)]))[0]!);
    return reply.type('image/png').header('content-disposition', `attachment; filename="${named(dto, 'png')}"`).header('cache-control', 'private, no-store').send(await qrPng(dto.url));
  });
  app.get('/api/qr-codes/:id/qr.svg', file('The code as an SVG image'), async (request, reply) => {
    const dto = await tenantScope(request, async (ctx) => (await svc.presentQrCodes(ctx, app.config, [await svc.loadQrCode(ctx, request.params.id)]))[0]!);
    return reply.type('image/svg+xml').header('content-disposition', `attachment; filename="${named(dto, 'svg')}"`).header('cache-control', 'private, no-store').send(await qrSvg(dto.url));
  });
  app.get('/api/qr-codes/:id/flyer.pdf', file('A printable A5 flyer with the code, what it leads to and its address'), async (request, reply) => {
    const f = await tenantScope(request, (ctx) => svc.flyerFacts(ctx, app.config, request.params.id));
    const pdf = await flyerPdf({
      organisation: f.organisation,
      title: f.experience_title ?? f.store_name ?? f.name,
      subtitle: f.experience_title ? f.store_name : null,
      url: f.url,
      code: f.code,
    });
    return reply.type('application/pdf').header('content-disposition', `attachment; filename="${named(f, 'pdf')}"`).header('cache-control', 'private, no-store').send(Buffer.from(pdf));
  });

  // The address in the code. A page, not an API operation: left out of the OpenAPI document.
  untyped.get<{ Params: { code: string } }>(
    '/q/:code',
    { config: { access: { public: true, reason: 'the address printed in a QR code: counts the scan and leads to the store' } }, schema: { hide: true } },
    async (request, reply) => {
      // Only a real visit counts: not a HEAD, nor a browser's prefetch of a link.
      const purpose = String(request.headers['sec-purpose'] ?? request.headers.purpose ?? '');
      const count = request.method === 'GET' && !/prefetch|prerender/i.test(purpose);
      try {
        const to = await svc.scan(app.database.db, app.config, requestHost(request).subdomain, request.params.code.toLowerCase(), count);
        return reply.header('cache-control', 'no-store').redirect(to, 302);
      } catch (error) {
        if (error instanceof AppError && error.status === 404) {
          return reply
            .status(404)
            .header('cache-control', 'no-store')
            .type('text/html; charset=utf-8')
            .send('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title><meta name="robots" content="noindex"></head><body><main><h1>Not found</h1><p>This QR code does not lead anywhere. Check the address, or ask the people who gave it to you.</p></main></body></html>');
        }
        throw error;
      }
    },
  );
}
