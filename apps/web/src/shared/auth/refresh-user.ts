import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { sessionApi } from '../api/session-api';
import { setUser } from './auth-slice';

/**
 * Reads the signed-in user again (GET /api/users/me/) into the session, which the menu and the
 * page guards read: after something that changes what the user may see (a plan bought, the user
 * marked as a guide), without waiting for a reload.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any store's dispatch: the component's and a mutation's.
export async function refreshUser(dispatch: ThunkDispatch<any, any, UnknownAction>) {
  const me = dispatch(sessionApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
  const res = await me;
  me.unsubscribe();
  if (res.data) dispatch(setUser(res.data));
}
