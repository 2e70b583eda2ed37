import type { BaseQueryApi, BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { TOKEN_REFRESH_RETRIES } from '@tourdesk/contracts';
import { sessionEnded } from '../auth/auth-slice';

/** What the store hands every request: where the API lives (tests point it at a test server). */
export interface ApiExtra {
  apiBaseUrl: string;
  requestTimeoutMs?: number;
  /** Pause between refresh attempts that failed for a transient reason. */
  refreshBackoffMs?: number;
}

const REFRESH_URL = 'jwt/refresh/';
/** Sign-in calls: their 401 means "not signed in that way", never "refresh and retry". */
const NO_REFRESH = [REFRESH_URL, 'jwt/create/', 'jwt/handoff/', 'logout/', 'o/oidc/'];

const urlOf = (args: string | FetchArgs) => (typeof args === 'string' ? args : args.url).replace(/^\//, '');

const rawQueries = new Map<string, ReturnType<typeof fetchBaseQuery>>();
function rawQuery(extra: ApiExtra) {
  const key = `${extra.apiBaseUrl}|${extra.requestTimeoutMs ?? 30_000}`;
  let query = rawQueries.get(key);
  if (!query) {
    query = fetchBaseQuery({
      baseUrl: extra.apiBaseUrl,
      credentials: 'include',
      timeout: extra.requestTimeoutMs ?? 30_000,
    });
    rawQueries.set(key, query);
  }
  return query;
}

/** Definitive answers from the refresh endpoint: the refresh token is not valid any more. */
const isDefinitive = (error: FetchBaseQueryError) =>
  typeof error.status === 'number' && error.status >= 400 && error.status < 500;

/**
 * One refresh shared by every request that got a 401 meanwhile. A transient failure
 * (network, timeout, 5xx) is retried up to TOKEN_REFRESH_RETRIES times; a 4xx answer ends at once.
 */
let refreshInFlight: Promise<boolean> | null = null;

async function refreshSession(api: BaseQueryApi, extra: ApiExtra): Promise<boolean> {
  const query = rawQuery(extra);
  for (let attempt = 0; attempt <= TOKEN_REFRESH_RETRIES; attempt++) {
    const result = await query({ url: REFRESH_URL, method: 'POST' }, api, {});
    if (!result.error) return true;
    if (isDefinitive(result.error)) return false;
    if (attempt < TOKEN_REFRESH_RETRIES) {
      await new Promise((resolve) => setTimeout(resolve, (extra.refreshBackoffMs ?? 300) * (attempt + 1)));
    }
  }
  return false;
}

function sharedRefresh(api: BaseQueryApi, extra: ApiExtra): Promise<boolean> {
  refreshInFlight ??= refreshSession(api, extra).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/**
 * The spec's session behaviour: cookie credentials on every call; on a 401, one refresh
 * (shared by concurrent 401s) and the original request repeated once; when the refresh
 * fails for good, the session ends (the listener in `session-listener.ts` logs out and says so).
 */
export const baseQueryWithReauth: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const extra = api.extra as ApiExtra;
  const query = rawQuery(extra);
  let result = await query(args, api, extraOptions ?? {});
  if (result.error?.status === 401 && !NO_REFRESH.includes(urlOf(args))) {
    if (await sharedRefresh(api, extra)) {
      result = await query(args, api, extraOptions ?? {});
    } else {
      api.dispatch(sessionEnded());
    }
  }
  return result;
};
