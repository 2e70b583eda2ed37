import { createListenerMiddleware, isRejectedWithValue } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { sessionEnded, type AuthState } from '../auth/auth-slice';
import { forgetDevice } from '../auth/offline-session';
import { markSsoChecked } from '../auth/sso';
import { notifyError, notifyErrors } from '../lib/toast';
import { api } from './api';
import { errorMessages } from './errors';

export const SESSION_EXPIRED_MESSAGE = 'Refresh token expired. Log in again!';

/** Endpoints whose failures are part of normal flow (the session check) or shown by their caller. */
const silentEndpoints = new Set<string>();
export const silenceErrorToasts = (...endpointNames: string[]) =>
  endpointNames.forEach((name) => silentEndpoints.add(name));

export const sessionListener = createListenerMiddleware();

// The session check answers 401 in the normal course of things; a failed user load logs out.
silenceErrorToasts('verifySession', 'me', 'appInfo');

// The session ended after a failed refresh. A user who was signed in is told, and every cached
// response of theirs is forgotten; someone who never was signed in has nothing to forget (and
// resetting then would remount the page that asked, which would ask again).
sessionListener.startListening({
  actionCreator: sessionEnded,
  effect: (_action, listenerApi) => {
    const before = listenerApi.getOriginalState() as { auth: AuthState };
    if (before.auth.status !== 'authenticated') return;
    forgetDevice();
    markSsoChecked(); // this host's own session ended: show its sign-in page, no detour
    listenerApi.dispatch(api.util.resetApiState());
    notifyError(SESSION_EXPIRED_MESSAGE, { toastId: 'session-expired' });
  },
});

// Every other failed call: one toast per item of the errors list.
sessionListener.startListening({
  matcher: isRejectedWithValue,
  effect: (action) => {
    const meta = action.meta as { arg?: { endpointName?: string } };
    if (meta.arg?.endpointName && silentEndpoints.has(meta.arg.endpointName)) return;
    const error = action.payload as FetchBaseQueryError;
    if (error?.status === 401) return; // handled by the refresh flow
    notifyErrors(errorMessages(error));
  },
});
