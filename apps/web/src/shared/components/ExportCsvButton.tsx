import { Button } from '@mantine/core';
import { useCommonT } from '../i18n/common';
import { IconDownload } from '@tabler/icons-react';
import { api } from '../api/api';
import { downloadFile, type DownloadArgs } from '../api/download';

const exportApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A list's CSV (`{list}export.csv`), saved under the server's file name. */
    listCsvDownload: build.mutation<string, DownloadArgs>({ queryFn: downloadFile }),
  }),
});

/**
 * "Export CSV" for a list: the list's own filters (not its page), the server's CSV of them. The
 * page size and number are left out: the file holds every matching row.
 */
export function ExportCsvButton({ url, params, fallbackName }: { url: string; params: Record<string, string | number>; fallbackName: string }) {
  const t = useCommonT();
  const [download, state] = exportApi.useListCsvDownloadMutation();
  const filters = Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'page' && k !== 'page_size'));
  return (
    <Button variant="default" leftSection={<IconDownload size={16} />} loading={state.isLoading} onClick={() => void download({ url, params: filters, fallbackName })}>
      {t('list.exportCsv')}
    </Button>
  );
}
