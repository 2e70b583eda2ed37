import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  paginated,
  toMajorText,
  ZErrorEnvelope,
  ZGiftVoucher,
  ZGiftVoucherCancel,
  ZGiftVoucherDetail,
  ZGiftVoucherExtend,
  ZGiftVoucherIssue,
  ZGiftVoucherListQuery,
  ZIdParam,
  ZPaginationQuery,
  type TGiftVoucher,
} from '@tourdesk/contracts';
import { z } from 'zod';
import type { RouteAccess } from '../../lib/access';
import { tenantScope } from '../../lib/crud';
import { QUEUES } from '../../lib/jobs';
import { listCsv, sendCsv } from '../../lib/list-export';
import { paginate } from '../../lib/pagination';
import * as svc from './service';

/**
 * /api/gift-vouchers/: the organisation's gift vouchers (list with balances, paginated in SQL, its
 * CSV), one with its ledger, issue one (staff: no payment), cancel or extend one with a reason.
 * The same access as promo codes: Manage stores, plan feature `stores`.
 */
const manageVouchers: RouteAccess = { permissions: ['Manage stores'], features: ['stores'] };
const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope };
const tags = ['gift-vouchers'];
const ZListQuery = ZPaginationQuery.extend(ZGiftVoucherListQuery.shape);

export const giftVoucherRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/gift-vouchers/',
    { config: { access: manageVouchers }, schema: { tags, summary: 'List gift vouchers (newest first; `search` in code, buyer and recipient; `status`)', querystring: ZListQuery, response: { 200: paginated(ZGiftVoucher), ...errors } } },
    (request) =>
      tenantScope(request, (ctx) =>
        paginate(
          request,
          request.query,
          () => svc.voucherCount(ctx, request.query),
          (limit, offset) => svc.voucherPage(ctx, request.query, limit, offset),
        ),
      ),
  );
  app.get(
    '/api/gift-vouchers/export.csv',
    { config: { access: manageVouchers }, schema: { tags, summary: 'The gift vouchers as CSV, filtered and ordered as the list', querystring: ZGiftVoucherListQuery, response: { 200: z.string(), ...errors } } },
    async (request, reply) => {
      const money = (n: number, c: string) => ({ amount: toMajorText(n, c) });
      const body = await tenantScope(
        request,
        (ctx) =>
          listCsv<TGiftVoucher>(
            [
              { header: 'code', value: (v) => v.code },
              { header: 'status', value: (v) => v.status },
              { header: 'currency', value: (v) => v.currency },
              { header: 'value', value: (v) => money(v.value, v.currency) },
              { header: 'balance', value: (v) => money(v.balance, v.currency) },
              { header: 'expires_at', value: (v) => v.expires_at },
              { header: 'source', value: (v) => v.source },
              { header: 'buyer_name', value: (v) => v.buyer_name },
              { header: 'buyer_email', value: (v) => v.buyer_email },
              { header: 'recipient_name', value: (v) => v.recipient_name },
              { header: 'recipient_email', value: (v) => v.recipient_email },
              { header: 'deliver_on', value: (v) => v.deliver_on },
              { header: 'created_at', value: (v) => v.created_at },
            ],
            (limit, offset) => svc.voucherPage(ctx, request.query, limit, offset),
          ),
        { snapshot: true },
      );
      return sendCsv(reply, 'gift-vouchers', body);
    },
  );
  app.post(
    '/api/gift-vouchers/',
    { config: { access: manageVouchers }, schema: { tags, summary: 'Issue a gift voucher (no payment: compensation, a prize), a reason required; `send` e-mails it to the recipient now', body: ZGiftVoucherIssue, response: { 201: ZGiftVoucherDetail, ...errors } } },
    async (request, reply) => {
      const made = await tenantScope(request, async (ctx) => {
        const b = request.body;
        const v = await svc.issueVoucher(ctx, request.server.jobs, { value: b.value, source: 'staff', recipientName: b.recipient_name, recipientEmail: b.recipient_email, message: b.message, language: b.language, reason: b.reason, send: b.send && Boolean(b.recipient_email) });
        return svc.voucherDetail(ctx, v.id);
      });
      request.server.jobs.wake(QUEUES.voucherMail);
      return reply.status(201).send(made);
    },
  );
  app.get(
    '/api/gift-vouchers/:id/',
    { config: { access: manageVouchers }, schema: { tags, summary: 'A gift voucher with its ledger', params: ZIdParam, response: { 200: ZGiftVoucherDetail, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.voucherDetail(ctx, request.params.id)),
  );
  app.post(
    '/api/gift-vouchers/:id/cancel/',
    { config: { access: manageVouchers }, schema: { tags, summary: 'Cancel a gift voucher (what is left is taken off), with a reason in its ledger and the audit trail', params: ZIdParam, body: ZGiftVoucherCancel, response: { 200: ZGiftVoucherDetail, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.cancelVoucher(ctx, request.params.id, request.body.reason)),
  );
  app.post(
    '/api/gift-vouchers/:id/extend/',
    { config: { access: manageVouchers }, schema: { tags, summary: 'Move a gift voucher’s expiry (valid through `expires_on`), with a reason in its ledger and the audit trail', params: ZIdParam, body: ZGiftVoucherExtend, response: { 200: ZGiftVoucherDetail, ...errors } } },
    (request) => tenantScope(request, (ctx) => svc.extendVoucher(ctx, request.params.id, request.body)),
  );
};
