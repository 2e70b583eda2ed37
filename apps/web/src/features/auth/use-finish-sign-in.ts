import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { TSessionResult } from '@tourdesk/contracts';
import { checkSession } from '../../shared/auth/use-session-bootstrap';
import { useAppDispatch } from '../../shared/hooks/store';

/**
 * After the API accepted a sign-in: on the organisation's own host, load the session and go to
 * the dashboard; elsewhere, follow the one-time hand-off link to the organisation's host.
 */
export function useFinishSignIn() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(
    async (result: TSessionResult, next?: string | null) => {
      if (/^https?:\/\//.test(result.redirect_url)) {
        window.location.assign(result.redirect_url);
        return;
      }
      await checkSession(dispatch);
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : result.redirect_url, { replace: true });
    },
    [dispatch, navigate],
  );
}
