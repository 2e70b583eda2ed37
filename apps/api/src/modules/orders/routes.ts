import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paginated,
  ZAuditEvent,
  ZCustomer,
  ZCustomerCreate,
  ZCustomerListQuery,
  ZCustomerPatch,
  ZErrorEnvelope,
  ZFilterOptions,
  ZIdempotencyHeaders,
  ZIdParam,
  ZInvoice,
  ZInvoiceSummary,
  type TCustomer,
  toMajorText,
  ZOrder,
  ZOrderCancel,
  ZOrderCreate,
  ZOrderIdParam,
  ZOrderInvoiceParams,
  ZOrderLineParams,
  ZOrderLinePatch,
  ZOrderListQuery,
  ZOrderPatch,
  ZOrderPaymentParams,
  ZOrderSummary,
  ZOrderUpdate,
  ZPayment,
  ZPaymentInput,
  ZRefundProposal,
} from '@tourdesk/contracts';
import type { RouteAccess } from '../../lib/access';
import { tenantRead, tenantScope } from '../../lib/crud';
import { QUEUES } from '../../lib/jobs';
import { queueOrderMail } from '../order-mail/service';
import { notFound } from '../../lib/errors';
import { listCsv, sendCsv } from '../../lib/list-export';
import { paginate } from '../../lib/pagination';
import { refundProposal } from './cancellation';
import * as customers from './customers';
import { idempotent } from './idempotency-routes';
import * as invoices from './invoices';
import { invoiceOrder, presentOrder } from './records';
import * as orders from './service';
import { redeemVoucher, refundsElsewhere, voucherRefunds } from '../gift-vouchers/service';

const errors = { 400: ZErrorEnvelope, 401: ZErrorEnvelope, 403: ZErrorEnvelope, 404: ZErrorEnvelope, 409: ZErrorEnvelope, 422: ZErrorEnvelope, 503: ZErrorEnvelope };
const manageOrders: RouteAccess = { permissions: ['Manage orders'], features: ['bookings'] };
const manageCustomers: RouteAccess = { permissions: ['Manage customers'] };

/** An invoice or credit note as a PDF download named after its number, in the language it was issued in. */
async function sendPdf(reply: FastifyReply, doc: invoices.IssuedDocument) {
  const inv = doc.invoice;
  const pdf = await invoices.invoicePdf(doc);
  return reply.type('application/pdf').header('content-disposition', `attachment; filename="${inv.kind === 'credit_note' ? 'credit-note' : 'invoice'}-${inv.number}.pdf"`).send(Buffer.from(pdf));
}

const listFilters = ZOrderListQuery.omit({ page: true, page_size: true });

export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/orders/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Orders, filtered (date range, payment status, status, seller, store, customer, search), ordered and paged in SQL', querystring: ZOrderListQuery, response: { 200: paginated(ZOrderSummary), ...errors } } },
    (request) =>
      tenantRead(request, (ctx) =>
        paginate(request, request.query, () => orders.countOrders(ctx, request.query), (limit, offset) => orders.pageOrders(ctx, request.query, limit, offset)),
      ),
  );
  app.get(
    '/api/orders/export.csv',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: `The filtered orders list as CSV (at most ${orders.EXPORT_LIMIT} orders)`, querystring: listFilters, response: { 200: z.string(), ...errors } } },
    async (request, reply) => {
      const csv = await tenantRead(request, (ctx) => orders.ordersCsv(ctx, request.query));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`)
        .send(csv);
    },
  );
  app.get(
    '/api/orders/filter-options/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'The sellers and stores that occur in this organisation’s orders', response: { 200: ZFilterOptions, ...errors } } },
    (request) => tenantRead(request, (ctx) => orders.filterOptions(ctx)),
  );
  app.post(
    '/api/orders/',
    {
      config: { access: manageOrders },
      schema: { tags: ['orders'], summary: 'Book lines directly into a new order, all or none (Idempotency-Key honoured)', headers: ZIdempotencyHeaders, body: ZOrderCreate, response: { 201: ZOrder, ...errors } },
    },
    (request, reply) => tenantScope(request, (ctx) => idempotent(ctx, request, reply, 'order:create', 201, () => orders.createOrder(ctx, request.body))),
  );
  app.get(
    '/api/orders/:id/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'One order with its lines (bookings), totals and payment status', params: ZIdParam, response: { 200: ZOrder, ...errors } } },
    (request) => tenantScope(request, (ctx) => presentOrder(ctx, request.params.id)),
  );
  app.get(
    '/api/orders/:id/detail/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'The single-order retrieve (the same order, for direct links)', params: ZIdParam, response: { 200: ZOrder, ...errors } } },
    (request) => tenantScope(request, (ctx) => presentOrder(ctx, request.params.id)),
  );
  app.put(
    '/api/orders/:id/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Change an order’s notes and customer', params: ZIdParam, body: ZOrderUpdate, response: { 200: ZOrder, ...errors } } },
    (request) => tenantScope(request, (ctx) => orders.updateOrder(ctx, request.params.id, request.body)),
  );
  app.patch(
    '/api/orders/:id/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Change some of an order’s fields', params: ZIdParam, body: ZOrderPatch, response: { 200: ZOrder, ...errors } } },
    (request) => tenantScope(request, (ctx) => orders.updateOrder(ctx, request.params.id, request.body)),
  );
  app.delete(
    '/api/orders/:id/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Delete an order with no confirmed bookings and no payments', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => orders.deleteOrder(ctx, request.params.id));
      return reply.status(204).send();
    },
  );
  app.post(
    '/api/orders/:id/cancel/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['orders'],
        summary: 'Cancel every line (seats released); payments stay, to be refunded — free of charge, or keeping the fee the cancellation policy allows now (keep_cancellation_fee)',
        params: ZIdParam,
        body: ZOrderCancel.optional(),
        response: { 200: ZOrder, ...errors },
      },
    },
    (request) => tenantScope(request, (ctx) => orders.cancelOrder(ctx, request.params.id, { keepCancellationFee: request.body?.keep_cancellation_fee ?? false })),
  );
  app.post(
    '/api/orders/:id/confirm/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Confirm an order that waits for it (an experience confirmed by hand)', params: ZIdParam, response: { 200: ZOrder, ...errors } } },
    (request) => tenantScope(request, (ctx) => orders.confirmOrder(ctx, request.params.id)),
  );
  app.get(
    '/api/orders/:id/lines/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'An order’s lines (its bookings)', params: ZIdParam, response: { 200: ZOrder.shape.bookings, ...errors } } },
    (request) => tenantScope(request, async (ctx) => (await presentOrder(ctx, request.params.id)).bookings),
  );
  app.get(
    '/api/orders/:id/lines/:lineId/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'One line of an order', params: ZOrderLineParams, response: { 200: ZOrder.shape.bookings.element, ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        const line = (await presentOrder(ctx, request.params.id)).bookings.find((b) => b.id === request.params.lineId);
        if (!line) throw notFound('No line with this id in this order.');
        return line;
      }),
  );
  app.patch(
    '/api/orders/:id/lines/:lineId/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Change a line’s quantities: capacity checked again, totals recomputed, in one transaction', params: ZOrderLineParams, body: ZOrderLinePatch, response: { 200: ZOrder, ...errors } } },
    (request) => tenantScope(request, (ctx) => orders.changeLine(ctx, request.params.id, request.params.lineId, request.body)),
  );
  app.post(
    '/api/orders/:id/lines/:lineId/cancel/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Cancel one line: its seats are released, the totals recomputed', params: ZOrderLineParams, response: { 200: ZOrder, ...errors } } },
    (request) => tenantScope(request, (ctx) => orders.cancelLine(ctx, request.params.id, request.params.lineId)),
  );
  app.get(
    '/api/orders/:id/payments/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'An order’s payments and refunds', params: ZOrderIdParam, response: { 200: z.array(ZPayment), ...errors } } },
    (request) => tenantScope(request, (ctx) => orders.listPayments(ctx, request.params.id)),
  );
  app.post(
    '/api/orders/:id/payments/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['orders'],
        summary: 'Record a payment, or a refund (a negative amount; of an online payment, through the payment provider) (Idempotency-Key honoured)',
        params: ZOrderIdParam,
        headers: ZIdempotencyHeaders,
        body: ZPaymentInput,
        response: { 201: ZPayment, ...errors },
      },
    },
    async (request, reply) => {
      const { jobs } = request.server;
      const answer = await tenantScope(request, (ctx) =>
        idempotent(
          ctx,
          request,
          reply,
          'payment:create',
          () => 201,
          async () => {
            const { method, amount, voucher_code: voucherCode, refund_of: refundOf } = request.body;
            // A voucher payment's refund goes back on its voucher, or another way once it is cancelled or expired.
            const voucherClosed = amount < 0 && method !== 'voucher' && refundOf ? await refundsElsewhere(ctx, refundOf) : false;
            const payment =
              method === 'voucher' && amount > 0
                ? await redeemVoucher(ctx, { orderId: request.params.id, code: voucherCode ?? '', amount })
                : await orders.recordPayment(ctx, request.params.id, request.body, method === 'online' ? request.server.onlinePayments.refunds(ctx, request.headers['idempotency-key'] as string | undefined) : method === 'voucher' ? voucherRefunds(ctx) : undefined, voucherClosed);
            // A refund is told to the customer, in the order's language (order-mail), in this transaction;
            // one still pending at the card network is told once it goes through (onRefundUpdated()).
            if (payment.amount < 0 && payment.status === 'succeeded') await queueOrderMail(jobs, ctx.tx, { account: ctx.accountId, store: null, order: request.params.id, kind: 'refund', refund: { amount: -payment.amount, method: payment.method }, subject: 'Refund' });
            return payment;
          },
        ),
      );
      jobs.wake(QUEUES.orderMail);
      return answer;
    },
  );
  app.get(
    '/api/orders/:id/refund-proposal/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['orders'],
        summary: 'The refund to propose: what was paid beyond what is owed, or what the cancellation policy gives back now; of a cancelled order, what was paid less its cancellation fee',
        params: ZOrderIdParam,
        response: { 200: ZRefundProposal, ...errors },
      },
    },
    (request) => tenantScope(request, (ctx) => refundProposal(ctx, request.params.id)),
  );
  app.get(
    '/api/orders/:id/payments/:paymentId/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'One payment', params: ZOrderPaymentParams, response: { 200: ZPayment, ...errors } } },
    (request) => tenantScope(request, (ctx) => orders.getPayment(ctx, request.params.id, request.params.paymentId)),
  );
  app.post(
    '/api/orders/:id/invoice/',
    {
      config: { access: manageOrders },
      schema: {
        tags: ['orders'],
        summary: 'Issue the order’s invoice (the next number of this year’s sequence) once the seller’s address, VAT number and VAT rate are set; the current one if already issued',
        params: ZOrderIdParam,
        response: { 200: ZInvoice, ...errors },
      },
    },
    (request) => tenantScope(request, (ctx) => invoiceOrder(ctx, request.params.id)),
  );
  app.get(
    '/api/orders/:id/invoice/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'The order’s current invoice (the newest that no credit note cancels)', params: ZOrderIdParam, response: { 200: ZInvoice, ...errors } } },
    (request) => tenantScope(request, (ctx) => invoices.getInvoice(ctx, request.params.id)),
  );
  app.get(
    '/api/orders/:id/invoice.pdf',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'The order’s current invoice as a PDF', params: ZOrderIdParam, response: { 200: z.any(), ...errors } } },
    async (request, reply) => sendPdf(reply, await tenantScope(request, (ctx) => invoices.currentInvoiceToPrint(ctx, request.params.id))),
  );
  app.get(
    '/api/orders/:id/invoices/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Every invoice and credit note of the order, oldest first', params: ZOrderIdParam, response: { 200: z.array(ZInvoiceSummary), ...errors } } },
    (request) =>
      tenantScope(request, async (ctx) => {
        await invoices.assertOrder(ctx, request.params.id);
        return invoices.listDocuments(ctx, request.params.id);
      }),
  );
  app.get(
    '/api/orders/:id/invoices/:invoiceId/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'One invoice or credit note of the order, as issued', params: ZOrderInvoiceParams, response: { 200: ZInvoice, ...errors } } },
    (request) => tenantScope(request, (ctx) => invoices.getDocument(ctx, request.params.id, request.params.invoiceId)),
  );
  app.get(
    '/api/orders/:id/invoices/:invoiceId/pdf/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'One invoice or credit note of the order as a PDF', params: ZOrderInvoiceParams, response: { 200: z.any(), ...errors } } },
    async (request, reply) => sendPdf(reply, await tenantScope(request, (ctx) => invoices.documentToPrint(ctx, request.params.id, request.params.invoiceId))),
  );
  app.get(
    '/api/orders/:id/audit/',
    { config: { access: manageOrders }, schema: { tags: ['orders'], summary: 'Who changed what in the order, its lines, payments and invoice, and when', params: ZOrderIdParam, response: { 200: z.array(ZAuditEvent), ...errors } } },
    (request) => tenantScope(request, (ctx) => orders.listAudit(ctx, request.params.id)),
  );

  // --- customers --------------------------------------------------------------------------
  app.get(
    '/api/customers/',
    { config: { access: manageCustomers }, schema: { tags: ['customers'], summary: 'Customers, searched by name, e-mail or phone, paged in SQL', querystring: ZCustomerListQuery, response: { 200: paginated(ZCustomer), ...errors } } },
    (request) =>
      tenantScope(request, (ctx) =>
        paginate(request, request.query, () => customers.countCustomers(ctx, request.query.search), (limit, offset) => customers.pageCustomers(ctx, request.query.search, limit, offset)),
      ),
  );
  app.get(
    '/api/customers/export.csv',
    { config: { access: manageCustomers }, schema: { tags: ['customers'], summary: 'The customers (searched as the list) as CSV', querystring: ZCustomerListQuery.omit({ page: true, page_size: true }), response: { 200: z.string(), ...errors } } },
    async (request, reply) => {
      const body = await tenantScope(request, (ctx) =>
        listCsv<TCustomer>(
          [
            { header: 'first_name', value: (c) => c.first_name },
            { header: 'last_name', value: (c) => c.last_name },
            { header: 'email', value: (c) => c.email },
            { header: 'phone', value: (c) => c.phone },
            { header: 'country', value: (c) => c.country ?? '' },
            { header: 'company', value: (c) => c.company },
            { header: 'marketing_consent', value: (c) => (c.marketing_consent ? 'yes' : 'no') },
            { header: 'orders', value: (c) => c.orders },
            { header: 'currency', value: (c) => c.currency },
            { header: 'total_spent', value: (c) => ({ amount: toMajorText(c.total_spent, c.currency) }) },
            { header: 'created_at', value: (c) => c.created_at },
          ],
          (limit, offset) => customers.pageCustomers(ctx, request.query.search, limit, offset),
        ),
        { snapshot: true },
      );
      return sendCsv(reply, 'customers', body);
    },
  );
  app.post(
    '/api/customers/',
    { config: { access: manageCustomers }, schema: { tags: ['customers'], summary: 'Add a customer (one per e-mail)', body: ZCustomerCreate, response: { 201: ZCustomer, ...errors } } },
    async (request, reply) => reply.status(201).send(await tenantScope(request, (ctx) => customers.createCustomer(ctx, request.body))),
  );
  app.get(
    '/api/customers/:id/',
    { config: { access: manageCustomers }, schema: { tags: ['customers'], summary: 'One customer with their orders count and total spent', params: ZIdParam, response: { 200: ZCustomer, ...errors } } },
    (request) => tenantScope(request, (ctx) => customers.getCustomer(ctx, request.params.id)),
  );
  app.put(
    '/api/customers/:id/',
    { config: { access: manageCustomers }, schema: { tags: ['customers'], summary: 'Replace a customer’s details', params: ZIdParam, body: ZCustomerCreate, response: { 200: ZCustomer, ...errors } } },
    (request) => tenantScope(request, (ctx) => customers.updateCustomer(ctx, request.params.id, request.body)),
  );
  app.patch(
    '/api/customers/:id/',
    { config: { access: manageCustomers }, schema: { tags: ['customers'], summary: 'Change some of a customer’s details', params: ZIdParam, body: ZCustomerPatch, response: { 200: ZCustomer, ...errors } } },
    (request) => tenantScope(request, (ctx) => customers.updateCustomer(ctx, request.params.id, request.body)),
  );
  app.delete(
    '/api/customers/:id/',
    { config: { access: manageCustomers }, schema: { tags: ['customers'], summary: 'Delete a customer who has no orders', params: ZIdParam, response: { 204: z.undefined(), ...errors } } },
    async (request, reply) => {
      await tenantScope(request, (ctx) => customers.deleteCustomer(ctx, request.params.id));
      return reply.status(204).send();
    },
  );
};
