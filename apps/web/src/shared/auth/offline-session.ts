import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { TPublicConfig } from '@tourdesk/contracts';
import type { AppInfo } from '../lib/permissions';
import type { AuthState } from './auth-slice';

/**
 * What this browser remembers of the last session check on this host (localStorage is per host),
 * so that the back office opens without a network: a guide who reloads the check-in page at a
 * meeting point with no signal keeps working from the tickets kept on the phone. Only used when
 * the server cannot be reached at all (FETCH_ERROR); any answer from the server wins. Forgotten at
 * sign-out and when the session ends, with every other thing a device keeps of its user.
 */
export interface RememberedSession {
  config?: TPublicConfig;
  user?: NonNullable<AuthState['user']>;
  appInfo?: AppInfo;
}

const KEY = 'tourdesk.session.v1';

export const unreachable = (error: unknown) => (error as FetchBaseQueryError | undefined)?.status === 'FETCH_ERROR';

export function rememberedSession(): RememberedSession {
  try {
    return (JSON.parse(localStorage.getItem(KEY) ?? '{}') as RememberedSession) ?? {};
  } catch {
    return {};
  }
}

export function rememberSession(part: RememberedSession) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...rememberedSession(), ...part }));
  } catch {
    /* storage full or blocked: the app still works online */
  }
}

/** What else a device keeps of its user (the check-in page's tickets), registered by the app. */
const cleanups = new Set<() => void>();
export const onForgetDevice = (fn: () => void) => cleanups.add(fn);

/** Sign-out, or a session that ended: the signed-in user's data leaves this browser (the public config stays). */
export function forgetDevice() {
  try {
    const { config } = rememberedSession();
    if (config) localStorage.setItem(KEY, JSON.stringify({ config }));
    else localStorage.removeItem(KEY);
  } catch {
    /* nothing kept */
  }
  for (const fn of cleanups) fn();
}
