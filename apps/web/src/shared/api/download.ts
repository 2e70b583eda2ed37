import type { FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';

type Answer = { data?: unknown; error?: FetchBaseQueryError; meta?: unknown };

export interface DownloadArgs {
  url: string;
  params?: Record<string, string | number>;
  fallbackName: string;
}

/**
 * A file download (CSV, PDF, PNG…) as an endpoint's queryFn: through the api's base query, so an
 * expired access token is refreshed first; the browser then saves the file under the name its
 * Content-Disposition gives (else `fallbackName`). Answers that name.
 */
export async function downloadFile(
  { url, params, fallbackName }: DownloadArgs,
  _api: unknown,
  _extra: unknown,
  baseQuery: (arg: FetchArgs) => Answer | PromiseLike<Answer>,
): Promise<{ data: string } | { error: FetchBaseQueryError }> {
  const res = await baseQuery({ url, params, responseHandler: (r) => (r.ok ? r.blob() : r.json()) });
  if (res.error) return { error: res.error };
  const disposition = (res.meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallbackName;
  const href = URL.createObjectURL(res.data as Blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return { data: name };
}

/**
 * A file to show in a new tab (a PDF to print): fetched like a download, its object URL answered.
 * The tab is opened by the click itself (`window.open` before the request, or popup blockers
 * refuse it) and pointed at the URL once the file is here; see `openInNewTab`.
 */
export async function fileUrl(
  { url, params }: DownloadArgs,
  _api: unknown,
  _extra: unknown,
  baseQuery: (arg: FetchArgs) => Answer | PromiseLike<Answer>,
): Promise<{ data: string } | { error: FetchBaseQueryError }> {
  const res = await baseQuery({ url, params, responseHandler: (r) => (r.ok ? r.blob() : r.json()) });
  if (res.error) return { error: res.error };
  const href = URL.createObjectURL(res.data as Blob);
  setTimeout(() => URL.revokeObjectURL(href), 600_000);
  return { data: href };
}

/** Opens a tab now (inside the click) and shows `load()`'s URL in it; closes it when there is none. */
export async function openInNewTab(load: () => Promise<string | null>) {
  const tab = window.open('', '_blank');
  const href = await load();
  if (!tab) {
    if (href) window.location.assign(href);
    return;
  }
  if (href) tab.location.href = href;
  else tab.close();
}
