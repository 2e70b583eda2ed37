import { describe, expect, it } from 'vitest';
import { hasFeatures, hasPermissions, type AppInfo, type SessionUser } from './permissions';

const appInfo: AppInfo = {
  permission_sets: [
    { title: 'View experiences', codenames: ['view_experience'] },
    { title: 'Manage experiences', codenames: ['view_experience', 'add_experience', 'change_experience'] },
    { title: 'Manage orders', codenames: ['view_order', 'change_order'] },
  ],
};

const userWith = (codenames: string[], features: string[] = []): SessionUser => ({
  role: { permission_sets: [{ title: 'custom', codenames }] },
  base_account: { subdomain: 'acme', active_subscription_features: features },
});

describe('hasPermissions', () => {
  it('passes an empty requirement, even without a user', () => {
    expect(hasPermissions(null, null, [])).toBe(true);
  });

  it('refuses without a role or without app info', () => {
    expect(hasPermissions({ role: null, base_account: null }, appInfo, ['View experiences'])).toBe(false);
    expect(hasPermissions(userWith(['view_experience']), null, ['View experiences'])).toBe(false);
  });

  it('grants when every codename of every required set is held', () => {
    const user = userWith(['view_experience', 'add_experience', 'change_experience', 'view_order', 'change_order']);
    expect(hasPermissions(user, appInfo, ['Manage experiences', 'Manage orders'])).toBe(true);
  });

  it('refuses when one codename of a required set is missing', () => {
    const user = userWith(['view_experience', 'add_experience']);
    expect(hasPermissions(user, appInfo, ['View experiences'])).toBe(true);
    expect(hasPermissions(user, appInfo, ['Manage experiences'])).toBe(false);
  });

  it('refuses a permission set that app info does not know', () => {
    expect(hasPermissions(userWith(['view_experience']), appInfo, ['Manage rockets'])).toBe(false);
  });

  it('collects codenames across all of the role’s permission sets', () => {
    const user: SessionUser = {
      role: {
        permission_sets: [
          { title: 'a', codenames: ['view_experience', 'add_experience'] },
          { title: 'b', codenames: ['change_experience'] },
        ],
      },
      base_account: null,
    };
    expect(hasPermissions(user, appInfo, ['Manage experiences'])).toBe(true);
  });
});

describe('hasFeatures', () => {
  it('yields disabled when nothing is required', () => {
    expect(hasFeatures(userWith([], ['resales']), [])).toBe(false);
  });

  it('is enabled only when every required feature is active', () => {
    const user = userWith([], ['resales', 'qr_codes']);
    expect(hasFeatures(user, ['resales'])).toBe(true);
    expect(hasFeatures(user, ['resales', 'qr_codes'])).toBe(true);
    expect(hasFeatures(user, ['resales', 'partners'])).toBe(false);
    expect(hasFeatures(null, ['resales'])).toBe(false);
  });
});
