import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../shared/components/FullPageSpinner';
import { RouteGuard, type AccessRequirements } from '../shared/components/RouteGuard';
import { AppLayout } from './layout/AppLayout';

/**
 * Every page is a route declared as data: its path, what it needs (permission sets, plan
 * features) and a loader that imports its code on first visit (one chunk per page).
 */
export interface PageRoute extends AccessRequirements {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const PAGES: PageRoute[] = [
  { path: '/dashboard', load: () => import('../features/dashboard/DashboardPage') },
];

function toRouteObject({ path, permissions, features, load }: PageRoute): RouteObject {
  return {
    path,
    lazy: async () => {
      const { default: Page } = await load();
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

export const routeObjects: RouteObject[] = [
  {
    element: <AppLayout />,
    HydrateFallback: FullPageSpinner,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      ...PAGES.map(toRouteObject),
      { path: '*', lazy: async () => ({ Component: (await import('../features/errors/NotFoundPage')).default }) },
    ],
  },
];
