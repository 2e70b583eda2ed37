import type { ReactNode } from 'react';
import { useAppSelector } from '../hooks/store';
import { hasFeatures, hasPermissions } from '../lib/permissions';
import { ErrorPanel } from './ErrorPanel';

export const NO_PERMISSION_MESSAGE = 'You have no permissions to access this page!';
export const NO_FEATURE_MESSAGE = 'Your current subscription plan does not grant access to this feature!';
export const SUPPLIER_PLANS_PATH = '/settings/subscription/supplier-plans';

export interface AccessRequirements {
  permissions?: readonly string[];
  features?: readonly string[];
  /** A guide's own page (issue 34): the menu shows it only to a member who guides (`SessionUser.guides`). */
  guide?: boolean;
}

/**
 * Renders a page only if the user meets what its route declares: first the permission sets,
 * then the plan features (asked only when the route names some, because the spec's feature
 * check yields "disabled" for an empty requirement).
 */
export function RouteGuard({ permissions = [], features = [], children }: AccessRequirements & { children: ReactNode }) {
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  if (!hasPermissions(user, appInfo, permissions)) {
    return <ErrorPanel logo message={NO_PERMISSION_MESSAGE} actionPath="/dashboard" actionLabel="Go to dashboard" />;
  }
  if (features.length > 0 && !hasFeatures(user, features)) {
    return <ErrorPanel logo message={NO_FEATURE_MESSAGE} actionPath={SUPPLIER_PLANS_PATH} actionLabel="Upgrade now" />;
  }
  return <>{children}</>;
}
