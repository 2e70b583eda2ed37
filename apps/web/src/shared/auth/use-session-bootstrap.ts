import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../hooks/store';
import { sessionApi } from '../api/session-api';
import { clearUser, setAppInfo, setUser } from './auth-slice';
import { setTimeFormat } from '../lib/time-format';
import { setLanguage } from '../i18n/language';
import { rememberedSession, rememberSession, unreachable } from './offline-session';

/**
 * The spec's session check on an organisation's host: verify the session (the API layer
 * refreshes it once on a 401), then load the user and the app info. Any failure marks the user
 * not authenticated, except a server that cannot be reached at all when this host remembers a
 * session (offline-session.ts). Runs once, and again whenever `recheck` is called (after a sign-in).
 */
export function useSessionBootstrap(enabled: boolean) {
  const dispatch = useAppDispatch();
  const status = useAppSelector((s) => s.auth.status);
  const started = useRef(false);

  useEffect(() => {
    if (!enabled || started.current) return;
    started.current = true;
    void checkSession(dispatch);
  }, [enabled, dispatch]);

  return status;
}

export async function checkSession(dispatch: ReturnType<typeof useAppDispatch>) {
  const verified = await dispatch(sessionApi.endpoints.verifySession.initiate());
  if ('error' in verified) {
    // No network at all: the last session seen on this host, until the server answers again.
    const kept = unreachable(verified.error) ? rememberedSession() : {};
    if (kept.user && kept.appInfo) {
      setTimeFormat(kept.user.base_account?.time_format ?? '24h');
      await setLanguage(kept.user.language);
      dispatch(setAppInfo(kept.appInfo));
      dispatch(setUser(kept.user));
      return true;
    }
    dispatch(clearUser());
    return false;
  }
  const [me, info] = await Promise.all([
    dispatch(sessionApi.endpoints.me.initiate(undefined, { forceRefetch: true })),
    dispatch(sessionApi.endpoints.appInfo.initiate()),
  ]);
  if (!me.data || !info.data) {
    dispatch(clearUser());
    return false;
  }
  setTimeFormat(me.data.base_account.time_format);
  // The user's language, its catalogs loaded before the pages show.
  await setLanguage(me.data.language);
  dispatch(setAppInfo(info.data));
  dispatch(setUser(me.data));
  rememberSession({ user: me.data, appInfo: info.data });
  return true;
}
