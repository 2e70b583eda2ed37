import type { TGiftVoucher, TGiftVoucherDetail, TGiftVoucherIssue, TPaginated } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['GiftVoucher'] });

// Endpoint names are global to the one api: everything here names the gift voucher.
export const giftVouchersApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    giftVouchers: build.query<TPaginated<TGiftVoucher>, Record<string, string | number>>({
      query: (params) => ({ url: 'gift-vouchers/', params }),
      providesTags: [{ type: 'GiftVoucher', id: 'LIST' }],
    }),
    giftVoucher: build.query<TGiftVoucherDetail, string>({
      query: (id) => ({ url: `gift-vouchers/${id}/` }),
      providesTags: (_r, _e, id) => [{ type: 'GiftVoucher', id }],
    }),
    issueGiftVoucher: build.mutation<TGiftVoucherDetail, TGiftVoucherIssue>({
      query: (body) => ({ url: 'gift-vouchers/', method: 'POST', body }),
      invalidatesTags: [{ type: 'GiftVoucher', id: 'LIST' }],
    }),
    cancelGiftVoucher: build.mutation<TGiftVoucherDetail, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `gift-vouchers/${id}/cancel/`, method: 'POST', body: { reason } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'GiftVoucher', id: 'LIST' }, { type: 'GiftVoucher', id }],
    }),
    extendGiftVoucher: build.mutation<TGiftVoucherDetail, { id: string; expires_on: string; reason: string }>({
      query: ({ id, ...body }) => ({ url: `gift-vouchers/${id}/extend/`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'GiftVoucher', id: 'LIST' }, { type: 'GiftVoucher', id }],
    }),
  }),
});

export const { useGiftVouchersQuery, useGiftVoucherQuery, useIssueGiftVoucherMutation, useCancelGiftVoucherMutation, useExtendGiftVoucherMutation } = giftVouchersApi;
