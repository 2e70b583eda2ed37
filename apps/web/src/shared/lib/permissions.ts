/**
 * The access checks of the spec's section 6, to the letter. The server enforces the same
 * rules; these only decide what the UI shows.
 */

export interface PermissionSet {
  id?: string;
  title: string;
  codenames: string[];
}

export interface AppInfo {
  permission_sets: PermissionSet[];
}

export interface SessionUser {
  role: { name?: string; is_owner?: boolean; permission_sets: PermissionSet[] } | null;
  base_account: { subdomain: string; active_subscription_features: string[]; name?: string; currency?: string; time_zone?: string; time_format?: '24h' | '12h' } | null;
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
  const granted = new Set(user.role.permission_sets.flatMap((set) => set.codenames));
  return required.every((title) => {
    const set = appInfo.permission_sets.find((s) => s.title === title);
    return set !== undefined && set.codenames.every((codename) => granted.has(codename));
  });
}

/**
 * A feature check is enabled only if the account's active features include all required ones;
 * when none are required the check yields disabled (so a route that needs no feature must not
 * ask: see `RouteGuard`).
 */
export function hasFeatures(user: SessionUser | null | undefined, required: readonly string[]): boolean {
  if (required.length === 0) return false;
  const active = new Set(user?.base_account?.active_subscription_features ?? []);
  return required.every((feature) => active.has(feature));
}
