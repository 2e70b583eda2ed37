import { hasFeatures, hasPermissions } from '../lib/permissions';
import { useAppSelector } from './store';

/**
 * Whether the signed-in user holds these permission sets (and, when given, these plan features):
 * what a page shows of itself, such as a link to a page the user could not open.
 */
export function useCan(permissions: readonly string[], features: readonly string[] = []) {
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  return hasPermissions(user, appInfo, permissions) && (features.length === 0 || hasFeatures(user, features));
}
