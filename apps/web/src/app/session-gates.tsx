import { useEffect } from 'react';
import { useCommonT } from '../shared/i18n/common';
import { Navigate, Outlet, useLocation } from 'react-router';
import { usePublicConfigQuery } from '../shared/api/session-api';
import { subdomainOf } from '../shared/auth/host';
import { HostProvider, useHost } from '../shared/auth/host-context';
import { rememberedSession, rememberSession, unreachable } from '../shared/auth/offline-session';
import { markSsoChecked, ssoChecked } from '../shared/auth/sso';
import { useSessionBootstrap } from '../shared/auth/use-session-bootstrap';
import { ErrorPanel } from '../shared/components/ErrorPanel';
import { FullPageSpinner } from '../shared/components/FullPageSpinner';

/**
 * Learns the base domain from the server, then tells every page which host it runs on. Without a
 * network it uses the configuration this host last read (offline-session.ts).
 */
export function HostGate() {
  const { data: fresh, isError, error, refetch } = usePublicConfigQuery();
  useEffect(() => {
    if (fresh) rememberSession({ config: fresh });
  }, [fresh]);
  const data = fresh ?? (unreachable(error) ? rememberedSession().config : undefined);
  if (isError && !data) {
    return <ErrorPanel logo formalMessage="The server cannot be reached." actionLabel="Try again" actionPath={window.location.pathname} key={String(refetch)} />;
  }
  if (!data) return <FullPageSpinner />;
  return (
    <HostProvider value={{ config: data, subdomain: subdomainOf(window.location.hostname, data.base_domain) }}>
      <Outlet />
    </HostProvider>
  );
}

/**
 * The back office needs a session on the organisation's own host. The bare host never runs the
 * session check: it shows sign-in. On a subdomain, a visitor without a session is sent once to
 * the bare host, which knows whether this browser belongs to another organisation (and sends
 * it there); otherwise, and from then on, to /auth/login.
 */
export function RequireSession() {
  const t = useCommonT();
  const { subdomain, config } = useHost();
  const location = useLocation();
  const status = useSessionBootstrap(subdomain !== null);
  const mustCheckSso = subdomain !== null && status === 'unauthenticated' && !ssoChecked();

  useEffect(() => {
    if (!mustCheckSso) return;
    markSsoChecked();
    window.location.assign(`${config.public_url}/api/sso/resume/?next=${encodeURIComponent(window.location.href)}`);
  }, [mustCheckSso, config.public_url]);

  if (subdomain === null) return <Navigate to="/auth/login" replace />;
  if (status === 'initial' || mustCheckSso) return <FullPageSpinner label={t('checkingSession')} />;
  if (status === 'unauthenticated') {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === '/' || next === '/dashboard' ? '/auth/login' : `/auth/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <Outlet />;
}

/** Sign-in pages: a signed-in user who opens the sign-in page on their own host goes to the dashboard. */
export function AuthPages() {
  const { subdomain } = useHost();
  const location = useLocation();
  const status = useSessionBootstrap(subdomain !== null && location.pathname === '/auth/login');
  if (status === 'authenticated' && location.pathname === '/auth/login') return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
