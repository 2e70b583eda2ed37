import { PERMISSION_SETS, SUBSCRIPTION_FEATURES } from '@tourdesk/contracts';
import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../shared/lib/permissions';
import { PAGES } from '../pages';
import { accessOf, NAVIGATION, PLANS_PATH, visibleNavigation } from './navigation';

const appInfo = { permission_sets: PERMISSION_SETS.map((s) => ({ id: s.id, title: s.title, codenames: [...s.codenames] })) };
const userWith = (titles: string[], features: readonly string[]): SessionUser => ({
  role: { permission_sets: appInfo.permission_sets.filter((s) => titles.includes(s.title)) },
  base_account: { subdomain: 'x', active_subscription_features: [...features] },
});
const ALL_SETS = PERMISSION_SETS.map((s) => s.title);
const AFFILIATE = ['bookings', 'orders', 'customers', 'stores', 'team', 'resales', 'partners', 'qr_codes'];
/** Every entry as a path: sections by their children. */
const paths = (menu: ReturnType<typeof visibleNavigation>) => menu.flatMap((i) => (i.children ? i.children.map((c) => `${c.to}${c.locked ? ' (locked)' : ''}`) : [`${i.to}${i.locked ? ' (locked)' : ''}`]));

describe('the menu', () => {
  it('leads only to pages that exist', () => {
    const targets = NAVIGATION.flatMap((item) => [item.to, ...(item.children ?? []).map((c) => c.to)]);
    const missing = targets.filter((to) => !PAGES.some((page) => matchPath({ path: page.path, end: true }, to)));
    expect(missing).toEqual([]);
  });

  it('shows an Owner on every plan feature every entry', () => {
    // An Owner who guides (the menu's My departures shows only to members who guide).
    const menu = visibleNavigation({ ...userWith(ALL_SETS, SUBSCRIPTION_FEATURES), guides: true }, appInfo);
    expect(paths(menu)).toEqual(NAVIGATION.flatMap((i) => (i.children ? i.children.map((c) => c.to) : [i.to])));
    expect(paths(visibleNavigation(userWith(ALL_SETS, SUBSCRIPTION_FEATURES), appInfo))).not.toContain('/my-departures');
  });

  it('shows a guide (View experiences) only the pages its role opens, and no section without one', () => {
    const menu = visibleNavigation(userWith(['View experiences'], SUBSCRIPTION_FEATURES), appInfo);
    expect(paths(menu)).toEqual(['/dashboard', '/products/experiences/overview', '/bookings/manifests', '/check-in', '/capacity/overview']);
    // Every entry shown is one the route guard lets the guide open.
    for (const to of paths(menu)) expect(accessOf(to, userWith(['View experiences'], SUBSCRIPTION_FEATURES), appInfo)).toBe('open');
    expect(menu.find((i) => i.label === 'Bookings')?.to).toBe('/bookings/manifests');
    // A member who guides also has My departures (issue 34).
    const guiding = visibleNavigation({ ...userWith(['View experiences'], SUBSCRIPTION_FEATURES), guides: true }, appInfo);
    expect(paths(guiding)).toEqual(['/dashboard', '/products/experiences/overview', '/bookings/manifests', '/check-in', '/my-departures', '/capacity/overview']);
  });

  it('locks for an Owner what the plan lacks, leading to the plans; a member who may not buy plans does not see it', () => {
    const reseller = visibleNavigation(userWith(ALL_SETS, AFFILIATE), appInfo);
    expect(paths(reseller)).toContain('/products/experiences/overview (locked)');
    expect(paths(reseller)).toContain('/resales/overview');
    expect(paths(reseller)).toContain(PLANS_PATH);
    const offers = reseller.find((i) => i.label === 'Offers')!;
    expect(offers.locked).toBe(true);
    const clerk = visibleNavigation(userWith(['Manage orders', 'Manage cart', 'View experiences'], AFFILIATE), appInfo);
    expect(paths(clerk).some((p) => p.endsWith('(locked)'))).toBe(false);
    expect(paths(clerk)).not.toContain('/products/experiences/overview');
  });
});
