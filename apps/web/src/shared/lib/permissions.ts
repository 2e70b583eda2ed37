/**
 * The access checks of the spec's section 6: the contracts' rule (holdsPermissionSets,
 * holdsFeatures), which the server enforces; here they only decide what the UI shows. The shapes
 * are the contracts' types, as much of them as the checks read.
 */
import { holdsFeatures, holdsPermissionSets, type TPermissionSet, type TUser } from '@tourdesk/contracts';

export type PermissionSet = Pick<TPermissionSet, 'title' | 'codenames'> & Partial<Pick<TPermissionSet, 'id'>>;

export interface AppInfo {
  permission_sets: PermissionSet[];
}
type Account = TUser['base_account'];
export interface SessionUser {
  /** Whether the member guides departures (issue 34). */
  guides?: boolean;
  role: ({ permission_sets: PermissionSet[] } & Partial<Pick<NonNullable<TUser['role']>, 'name' | 'is_owner'>>) | null;
  base_account: (Pick<Account, 'subdomain' | 'active_subscription_features'> & Partial<Pick<Account, 'name' | 'currency' | 'time_zone' | 'time_format' | 'languages'>>) | null;
}

/**
 * Authorised if every required permission set (by title, resolved through app info) is
 * contained in the codenames of the user's role. An empty requirement always passes.
 * Without a role or app info the user is not authorised.
 */
export function hasPermissions(
  user: SessionUser | null | undefined,
  appInfo: AppInfo | null | undefined,
  required: readonly string[],
): boolean {
  if (required.length === 0) return true;
  if (!user?.role || !appInfo) return false;
  return holdsPermissionSets(new Set(user.role.permission_sets.flatMap((set) => set.codenames)), required, appInfo.permission_sets);
}

/**
 * A feature check is enabled only if the account's active features include all required ones;
 * when none are required the check yields disabled (the spec's UI rule: a route that needs no
 * feature must not ask, see `RouteGuard`).
 */
export function hasFeatures(user: SessionUser | null | undefined, required: readonly string[]): boolean {
  if (required.length === 0) return false;
  return holdsFeatures(new Set(user?.base_account?.active_subscription_features ?? []), required);
}
