import type {
  TAuditEvent,
  TBookingOptions,
  TFilterOptions,
  TInvoice,
  TOrder,
  TOrderSummary,
  TOrganization,
  TPaginated,
  TPayment,
  TPaymentLinkSent,
  TPaymentInput,
  TPricingCategory,
  TRefundProposal,
} from '@tourdesk/contracts';
import type { Language } from '@tourdesk/contracts/i18n';
import { api } from '../../shared/api/api';
import { downloadFile, type DownloadArgs } from '../../shared/api/download';
import { silenceErrorToasts } from '../../shared/api/session-listener';

/**
 * The refund to propose for an order: what was paid beyond what is owed, or what its cancellation
 * policy gives back now; of a cancelled order, what was paid less its cancellation fee. With what
 * cancelling now would keep under the policy (`cancellation_fee`, null when it does not allow it).
 */
export type RefundProposal = TRefundProposal;

export interface PaymentSubmission extends TPaymentInput {
  order: string;
  /** One per form submission; the same one when that submission is retried. */
  idempotencyKey: string;
}

// Names are global to the one api: everything here is prefixed with "order".
// Names of the extras and questions a line shows are a nicety: a plan without inventory must not toast.
silenceErrorToasts('orderInventoryItems', 'orderBookingQuestions');

const tagged = api.enhanceEndpoints({ addTagTypes: ['Order', 'OrderPayment', 'Invoice', 'Customer', 'Organization'] });

const orderTags = (id: string) => [
  { type: 'Order' as const, id },
  { type: 'Order' as const, id: 'LIST' },
  { type: 'Invoice' as const, id },
];

export const ordersApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    orders: build.query<TPaginated<TOrderSummary>, Record<string, string | number>>({
      query: (params) => ({ url: 'orders/', params }),
      providesTags: [{ type: 'Order', id: 'LIST' }],
    }),
    orderFilterOptions: build.query<TFilterOptions, void>({ query: () => 'orders/filter-options/' }),
    /** Who changed what in the order, oldest first (its lines, payments and invoices too). */
    orderAudit: build.query<TAuditEvent[], string>({ query: (id) => `orders/${id}/audit/`, providesTags: (_r, _e, id) => [{ type: 'Order', id }] }),
    order: build.query<TOrder, string>({
      query: (id) => `orders/${id}/`,
      providesTags: (_r, _e, id) => [{ type: 'Order', id }],
    }),
    updateOrderNotes: build.mutation<TOrder, { id: string; notes: string }>({
      query: ({ id, notes }) => ({ url: `orders/${id}/`, method: 'PATCH', body: { notes } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Order', id }, { type: 'Order', id: 'LIST' }],
    }),
    /** The customer's language for what is sent from now on (audited; issued invoices keep their own). */
    updateOrderLanguage: build.mutation<TOrder, { id: string; language: Language }>({
      query: ({ id, language }) => ({ url: `orders/${id}/`, method: 'PATCH', body: { language } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Order', id }, { type: 'Order', id: 'LIST' }],
    }),
    /** Free of charge unless `keep_cancellation_fee`: then the fee the cancellation policy allows now is kept. */
    cancelOrder: build.mutation<TOrder, { id: string; keep_cancellation_fee: boolean }>({
      query: ({ id, keep_cancellation_fee }) => ({ url: `orders/${id}/cancel/`, method: 'POST', body: { keep_cancellation_fee } }),
      invalidatesTags: (_r, _e, { id }) => [...orderTags(id), { type: 'OrderPayment', id }, 'Booking', 'Slot', 'Customer'],
    }),
    confirmOrder: build.mutation<TOrder, string>({
      query: (id) => ({ url: `orders/${id}/confirm/`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, id) => [...orderTags(id), 'Booking'],
    }),
    deleteOrder: build.mutation<void, string>({
      query: (id) => ({ url: `orders/${id}/`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Order', id: 'LIST' }, 'Booking', 'Slot', 'Customer'],
    }),
    updateOrderLine: build.mutation<TOrder, { order: string; line: string; quantities: Record<string, number> }>({
      query: ({ order, line, quantities }) => ({ url: `orders/${order}/lines/${line}/`, method: 'PATCH', body: { quantities } }),
      invalidatesTags: (_r, _e, { order }) => [...orderTags(order), 'Booking', 'Slot', 'Customer'],
    }),
    cancelOrderLine: build.mutation<TOrder, { order: string; line: string }>({
      query: ({ order, line }) => ({ url: `orders/${order}/lines/${line}/cancel/`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, { order }) => [...orderTags(order), 'Booking', 'Slot', 'Customer'],
    }),
    orderPayments: build.query<TPayment[], string>({
      query: (id) => `orders/${id}/payments/`,
      providesTags: (_r, _e, id) => [{ type: 'OrderPayment', id }],
    }),
    /** A recorded payment or refund (201), or a refund of an online payment the provider has not confirmed yet (202). */
    recordPayment: build.mutation<TPayment, PaymentSubmission>({
      query: ({ order, idempotencyKey, ...body }) => ({
        url: `orders/${order}/payments/`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // Paid, balance and payment status come only from the server: read the order again.
      invalidatesTags: (_r, _e, { order }) => [...orderTags(order), { type: 'OrderPayment', id: order }, 'Customer'],
    }),
    /** E-mails the customer a link to pay the balance by card (the audit trail records it). */
    sendPaymentLink: build.mutation<TPaymentLinkSent, string>({
      query: (id) => ({ url: `orders/${id}/payment-link/`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Order', id }],
    }),
    /** Read again after each payment or refund: what is left to propose changes with them. */
    orderRefundProposal: build.query<RefundProposal, string>({
      query: (id) => `orders/${id}/refund-proposal/`,
      providesTags: (_r, _e, id) => [{ type: 'OrderPayment', id }],
    }),
    /** One invoice or credit note of an order, as issued (never changes, so cached by its id). */
    orderDocument: build.query<TInvoice, { order: string; id: string }>({
      query: ({ order, id }) => `orders/${order}/invoices/${id}/`,
      providesTags: (_r, _e, { id }) => [{ type: 'Invoice', id }],
    }),
    issueInvoice: build.mutation<TInvoice, string>({
      query: (id) => ({ url: `orders/${id}/invoice/`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Order', id }],
    }),
    /** The seller's details an invoice needs (for those who may manage the organisation). */
    invoiceSeller: build.query<TOrganization, void>({ query: () => 'account/', providesTags: ['Organization'] }),
    updateInvoiceSeller: build.mutation<TOrganization, Partial<Pick<TOrganization, 'billing_address' | 'vat_number' | 'vat_rate_bp' | 'legal_name'>>>({
      query: (body) => ({ url: 'account/', method: 'PATCH', body }),
      invalidatesTags: ['Organization'],
    }),
    orderPricingCategories: build.query<TPaginated<TPricingCategory>, void>({
      query: () => ({ url: 'pricing-categories/', params: { page_size: 50 } }),
      providesTags: ['PricingCategory'],
    }),
    /** Names of the extras offered with the offers and of the booking questions (readable by anyone who sells). */
    orderBookingOptions: build.query<TBookingOptions, void>({ query: () => 'bookings/options/', providesTags: ['Inventory', 'Experience'] }),
    /**
     * A file download (CSV export, invoice PDF) through the api's base query, so an expired
     * access token is refreshed first; the browser then saves the file. Answers its name.
     */
    orderDownload: build.mutation<string, DownloadArgs>({
      queryFn: downloadFile,
    }),
  }),
});

export const {
  useOrderAuditQuery,
  useSendPaymentLinkMutation,
  useOrdersQuery,
  useOrderFilterOptionsQuery,
  useOrderQuery,
  useUpdateOrderNotesMutation,
  useUpdateOrderLanguageMutation,
  useCancelOrderMutation,
  useConfirmOrderMutation,
  useDeleteOrderMutation,
  useUpdateOrderLineMutation,
  useCancelOrderLineMutation,
  useOrderPaymentsQuery,
  useRecordPaymentMutation,
  useOrderRefundProposalQuery,
  useOrderDocumentQuery,
  useIssueInvoiceMutation,
  useInvoiceSellerQuery,
  useUpdateInvoiceSellerMutation,
  useOrderPricingCategoriesQuery,
  useOrderBookingOptionsQuery,
  useOrderDownloadMutation,
} = ordersApi;
