import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { TSessionResult } from '@tourdesk/contracts';
import { checkSession } from '../../shared/auth/use-session-bootstrap';
import { useAppDispatch } from '../../shared/hooks/store';

/** `next` when it is a path on this host: not //other.host, nor /\other.host (browsers read \ as /). */
export function safeNextPath(next?: string | null): string | null {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.includes('\\') ? next : null;
}

/**
 * After the API accepted a sign-in: on the organisation's own host, load the session and go to
 * `next` (a path on this host) or the dashboard; elsewhere, follow the one-time hand-off link to
 * the organisation's host, which carries `next` along.
 */
export function useFinishSignIn() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(
    async (result: TSessionResult, next?: string | null) => {
      const safeNext = safeNextPath(next);
      if (/^https?:\/\//.test(result.redirect_url)) {
        // The hand-off to the organisation's host carries where the user was going (an invitation link).
        const url = new URL(result.redirect_url);
        if (safeNext) url.searchParams.set('next', safeNext);
        window.location.assign(url.toString());
        return;
      }
      await checkSession(dispatch);
      navigate(safeNext ?? result.redirect_url, { replace: true });
    },
    [dispatch, navigate],
  );
}
