import type { TAccountingPeriod, TAccountingSummary } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';
import { downloadFile, type DownloadArgs } from '../../shared/api/download';
import { silenceErrorToasts } from '../../shared/api/session-listener';

// Names are global to the one api: everything here is prefixed with "accounting".
export const accountingApi = api.injectEndpoints({
  endpoints: (build) => ({
    accountingSummary: build.query<TAccountingSummary, TAccountingPeriod>({ query: (params) => ({ url: 'accounting/summary/', params }) }),
    /** The journal (CSV) or the documents (ZIP), saved under the name the API gives. */
    accountingDownload: build.mutation<string, DownloadArgs>({ queryFn: downloadFile }),
  }),
});

export const { useAccountingSummaryQuery, useAccountingDownloadMutation } = accountingApi;

// The page shows a refused period beside its fields (or as an alert), not as a toast.
silenceErrorToasts('accountingSummary');
