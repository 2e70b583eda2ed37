import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { TUser } from '@tourdesk/contracts';
import type { AppInfo, SessionUser } from '../lib/permissions';

/**
 * The session as the client knows it. It starts in `initial` (spinner) and becomes
 * `authenticated` or `unauthenticated` once the session check has answered.
 */
export type AuthStatus = 'initial' | 'authenticated' | 'unauthenticated';

export interface AuthState {
  status: AuthStatus;
  /** The `me` payload (tests may set just what the guards read). */
  user: (SessionUser & Partial<Omit<TUser, 'role' | 'base_account'>>) | null;
  appInfo: AppInfo | null;
}

const initialState: AuthState = { status: 'initial', user: null, appInfo: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    setUser(state, action: PayloadAction<AuthState['user']>) {
      state.user = action.payload;
      state.status = action.payload ? 'authenticated' : 'unauthenticated';
    },
    clearUser(state) {
      state.user = null;
      state.status = 'unauthenticated';
    },
    setAppInfo(state, action: PayloadAction<AppInfo | null>) {
      state.appInfo = action.payload;
    },
    /** The refresh token is gone: the session ended without the user asking. */
    sessionEnded(state) {
      state.user = null;
      state.status = 'unauthenticated';
    },
  },
});

export const { setUser, clearUser, setAppInfo, sessionEnded } = authSlice.actions;
