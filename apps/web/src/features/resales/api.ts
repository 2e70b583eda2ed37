import type { TPaginated, TResaleDetail, TResaleFilterOptions, TResaleList, TSettlement, TSettlementCreate, TSettlementDetail } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';
import { downloadFile, type DownloadArgs } from '../../shared/api/download';

// Names are global to the one api: everything here is prefixed with "resale" or "settlement".
const tagged = api.enhanceEndpoints({ addTagTypes: ['Resale', 'Settlement'] });

export const resalesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    resales: build.query<TResaleList, Record<string, string | number>>({
      query: (params) => ({ url: 'resales/', params }),
      providesTags: [{ type: 'Resale', id: 'LIST' }],
    }),
    resaleFilterOptions: build.query<TResaleFilterOptions, void>({ query: () => 'resales/filter-options/', providesTags: [{ type: 'Resale', id: 'OPTIONS' }] }),
    resale: build.query<TResaleDetail, string>({ query: (id) => `resales/${id}/`, providesTags: (_r, _e, id) => [{ type: 'Resale', id }] }),
    settlements: build.query<TPaginated<TSettlement>, Record<string, string | number>>({
      query: (params) => ({ url: 'settlements/', params }),
      providesTags: [{ type: 'Settlement', id: 'LIST' }],
    }),
    settlement: build.query<TSettlementDetail, string>({ query: (id) => `settlements/${id}/`, providesTags: (_r, _e, id) => [{ type: 'Settlement', id }] }),
    createSettlement: build.mutation<TSettlementDetail, TSettlementCreate>({
      query: (body) => ({ url: 'settlements/', method: 'POST', body }),
      // Its lines are now settled: the resales list shows it.
      invalidatesTags: [{ type: 'Settlement', id: 'LIST' }, { type: 'Resale', id: 'LIST' }],
    }),
    settleSettlement: build.mutation<TSettlementDetail, string>({
      query: (id) => ({ url: `settlements/${id}/settle/`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Settlement', id }, { type: 'Settlement', id: 'LIST' }, { type: 'Resale', id: 'LIST' }],
    }),
    /** A file of the API (CSV, PDF) saved under the name its Content-Disposition gives. */
    settlementDownload: build.mutation<string, DownloadArgs>({
      queryFn: downloadFile,
    }),
  }),
});

export const {
  useResalesQuery,
  useResaleFilterOptionsQuery,
  useResaleQuery,
  useSettlementsQuery,
  useSettlementQuery,
  useCreateSettlementMutation,
  useSettleSettlementMutation,
  useSettlementDownloadMutation,
} = resalesApi;
