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
