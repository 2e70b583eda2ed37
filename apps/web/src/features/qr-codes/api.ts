import type { TPaginated, TPartnerStore, TQrCode, TQrCodeInput, TStore, TStoreExperience } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';
import { downloadFile, type DownloadArgs } from '../../shared/api/download';

const tagged = api.enhanceEndpoints({ addTagTypes: ['QrCode'] });

// Endpoint names are global to the one api: everything here names the QR code.
export const qrCodesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    qrCodes: build.query<TPaginated<TQrCode>, Record<string, string | number>>({
      query: (params) => ({ url: 'qr-codes/', params }),
      providesTags: [{ type: 'QrCode', id: 'LIST' }],
    }),
    createQrCode: build.mutation<TQrCode, TQrCodeInput>({
      query: (body) => ({ url: 'qr-codes/', method: 'POST', body }),
      invalidatesTags: [{ type: 'QrCode', id: 'LIST' }],
    }),
    updateQrCode: build.mutation<TQrCode, TQrCodeInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `qr-codes/${id}/`, method: 'PUT', body }),
      invalidatesTags: (r) => (r ? [{ type: 'QrCode', id: 'LIST' }, { type: 'QrCode', id: r.id }] : []),
    }),
    deleteQrCode: build.mutation<void, string>({
      query: (id) => ({ url: `qr-codes/${id}/`, method: 'DELETE' }),
      invalidatesTags: (_r, e) => (e ? [] : [{ type: 'QrCode', id: 'LIST' }]),
    }),
    /** The code's SVG as a data: address for the preview (read through the session, as every call). */
    qrCodePreview: build.query<string, string>({
      query: (id) => ({ url: `qr-codes/${id}/qr.svg`, responseHandler: 'text' }),
      transformResponse: (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`,
      providesTags: (_r, _e, id) => [{ type: 'QrCode', id }],
    }),
    /** A file of the code (PNG, SVG, flyer PDF), saved under the server's file name. */
    qrCodeDownload: build.mutation<string, DownloadArgs>({
      queryFn: downloadFile,
    }),
    /** The stores a code may lead to (the first 50, by the list's order). */
    qrTargetStores: build.query<TStore[], void>({
      query: () => ({ url: 'stores/', params: { page_size: 50 } }),
      transformResponse: (page: TPaginated<TStore>) => page.results,
    }),
    /** Partners' stores that sell this organisation's offers (a code may lead there). */
    qrPartnerStores: build.query<TPartnerStore[], void>({ query: () => 'qr-codes/partner-stores/' }),
    /** The offers a store sells (the first 50, in its order). */
    qrTargetOffers: build.query<TStoreExperience[], string>({
      query: (store) => ({ url: `stores/${store}/experiences/`, params: { page_size: 50 } }),
      transformResponse: (page: TPaginated<TStoreExperience>) => page.results,
    }),
  }),
});

export const {
  useQrCodesQuery,
  useCreateQrCodeMutation,
  useUpdateQrCodeMutation,
  useDeleteQrCodeMutation,
  useQrCodePreviewQuery,
  useQrCodeDownloadMutation,
  useQrTargetStoresQuery,
  useQrTargetOffersQuery,
  useQrPartnerStoresQuery,
} = qrCodesApi;
