import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { loadCatalogs } from '../shared/i18n/language';
import { FullPageSpinner } from '../shared/components/FullPageSpinner';
import { RouteGuard } from '../shared/components/RouteGuard';
import { AuthLayout } from './layout/AuthLayout';
import { PAGES, type PageRoute } from './pages';
import { AuthPages, HostGate, RequireSession } from './session-gates';

function toRouteObject({ path, permissions, features, load }: PageRoute): RouteObject {
  return {
    path,
    lazy: async () => {
      const { default: Page } = await load();
      // The page's texts in the user's language (its module registered its catalogs as it loaded).
      await loadCatalogs();
      return {
        Component: () => (
          <RouteGuard permissions={permissions} features={features}>
            <Page />
          </RouteGuard>
        ),
      };
    },
  };
}

/** Sign-in pages, on the bare host and on every organisation's host. */
const authPage = (path: string, load: () => Promise<ComponentType>): RouteObject => ({
  path,
  lazy: async () => {
    const Component = await load();
    await loadCatalogs();
    return { Component };
  },
});
const auth = () => import('../features/auth/pages');

export const routeObjects: RouteObject[] = [
  {
    element: <HostGate />,
    HydrateFallback: FullPageSpinner,
    children: [
      {
        path: '/auth',
        element: <AuthLayout />,
        children: [
          {
            element: <AuthPages />,
            children: [
              { index: true, element: <Navigate to="/auth/login" replace /> },
              authPage('login', async () => (await auth()).LoginPage),
              authPage('register', async () => (await auth()).RegisterPage),
              authPage('activate/:uid/:token', async () => (await auth()).ActivatePage),
              authPage('resend-activation', async () => (await auth()).ResendActivationPage),
              authPage('forgot-password', async () => (await auth()).ForgotPasswordPage),
              authPage('reset-password/:uid/:token', async () => (await auth()).ResetPasswordPage),
              authPage('invite/:uid/:token', async () => (await auth()).AcceptInvitationPage),
              authPage('reset-email/:uid/:token', async () => (await auth()).ResetEmailPage),
              authPage('confirm-email/:uid/:token', async () => (await auth()).ConfirmEmailPage),
              authPage('handoff', async () => (await auth()).HandoffPage),
              authPage('oidc/callback', async () => (await auth()).OidcCallbackPage),
            ],
          },
        ],
      },
      {
        element: <RequireSession />,
        children: [
          {
            // The shell (header, side navigation) is a chunk of its own: the router fetches it beside
            // the page's chunk, and the sign-in pages never load it.
            lazy: async () => {
              const { AppLayout } = await import('./layout/AppLayout');
              await loadCatalogs();
              return { Component: AppLayout };
            },
            children: [
              { index: true, element: <Navigate to="/dashboard" replace /> },
              ...PAGES.map(toRouteObject),
              { path: '*', lazy: async () => ({ Component: (await import('../features/errors/NotFoundPage')).default }) },
            ],
          },
        ],
      },
    ],
  },
];
