import type { TManifest, TManifestDay } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';
import { downloadFile, type DownloadArgs } from '../../shared/api/download';

export const manifestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    manifest: build.query<TManifest, string>({ query: (slot) => `manifests/${slot}/`, providesTags: ['Booking'] }),
    manifestDay: build.query<TManifestDay, string>({ query: (date) => ({ url: 'manifests/', params: { date } }), providesTags: ['Booking'] }),
    /** The manifest's CSV or PDF, saved under the name the server gives. */
    manifestDownload: build.mutation<string, DownloadArgs>({ queryFn: downloadFile }),
  }),
});

export const { useManifestQuery, useManifestDayQuery, useManifestDownloadMutation } = manifestsApi;
