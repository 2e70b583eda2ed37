import { holdsFeatures, type SubscriptionFeature, type TDashboard, type TDashboardDeparture, type TOnboarding, type TOnboardingStep, type TSlot } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { addDays, todayIn } from '../../lib/local-time';
import { holdsPermissionSets } from '../auth/principal';
import * as q from './queries';

/**
 * The dashboard: the organisation's day at a glance, each part for a role that may see what it
 * counts (the same permission sets and plan features as the pages its figures link to).
 */
export interface Viewer {
  codenames: Set<string>;
  features: Set<string>;
}
const may = (v: Viewer, sets: string[], features: SubscriptionFeature[]) => holdsPermissionSets(v.codenames, sets) && holdsFeatures(v.features, features);

const departure = (s: TSlot & { experience_title: string }, arrived: number): TDashboardDeparture => ({
  slot: s.id,
  experience: s.experience,
  experience_title: s.experience_title,
  starts_at: s.starts_at,
  local_date: s.local_date,
  local_time: s.local_time,
  capacity: s.capacity,
  booked: s.booked,
  remaining: s.remaining,
  arrived,
  status: s.status,
});

/** The checklist's steps, each from what is set up and only where the plan lets the organisation do it. */
const STEPS: { key: TOnboardingStep['key']; title: string; description: string; path: string; feature?: SubscriptionFeature }[] = [
  { key: 'offer', title: 'Create your first offer', description: 'Its title, description, photos and meeting point.', path: '/products/experiences/overview', feature: 'experiences' },
  { key: 'schedule', title: 'Give it a schedule', description: 'Start times and capacity: when customers can book.', path: '/products/experiences/overview', feature: 'experiences' },
  { key: 'prices', title: 'Set its prices', description: 'A price per pricing category (Adult, Child, …).', path: '/products/experiences/pricing-catalogue', feature: 'experiences' },
  { key: 'payments', title: 'Connect payments', description: 'Your Stripe account, so customers can pay online.', path: '/settings/payment-providers' },
  { key: 'store', title: 'Open a web store', description: 'A page where customers book without an account.', path: '/sales/stores', feature: 'stores' },
  { key: 'team', title: 'Invite your team', description: 'Guides and office staff, each with a role.', path: '/settings/team/members', feature: 'team' },
];

export async function onboarding(ctx: TenantCtx, v: Viewer, dismissedAt?: Date | null): Promise<TOnboarding> {
  const state = await q.setUp(ctx);
  const dismissed = dismissedAt !== undefined ? dismissedAt : (await q.organisation(ctx)).dismissed;
  const steps = STEPS.filter((s) => !s.feature || v.features.has(s.feature)).map((s) => ({ key: s.key, title: s.title, description: s.description, path: s.path, done: Boolean(state[s.key]) }));
  return { id: 'getting-started', title: 'Getting started', dismissed: dismissed !== null, done: steps.filter((s) => s.done).length, steps };
}

export async function dashboard(ctx: TenantCtx, v: Viewer): Promise<TDashboard> {
  const org = await q.organisation(ctx);
  const today = todayIn(org.zone);
  const seesDepartures = may(v, ['View experiences'], ['bookings']);
  const seesMoney = may(v, ['Manage orders'], ['bookings']);
  let departures: TDashboardDeparture[] | null = null;
  let nearlyFull: TDashboardDeparture[] | null = null;
  if (seesDepartures) {
    const todays = await q.slotsOn(ctx, today, today);
    const arrived = await q.arrivedBySlot(ctx, todays.map((s) => s.id));
    departures = todays.map((s) => departure(s, arrived.get(s.id) ?? 0));
    nearlyFull = (await q.slotsOn(ctx, addDays(today, 1), addDays(today, 7), true)).slice(0, 12).map((s) => departure(s, 0));
  }
  let revenue: TDashboard['revenue'] = null;
  if (seesMoney) {
    const first = addDays(today, -29);
    const sales = await q.salesByDay(ctx, org.zone, first);
    const days = Array.from({ length: 30 }, (_, i) => addDays(first, i)).map((date) => ({ date, revenue: sales.get(date)?.revenue ?? 0, orders: sales.get(date)?.orders ?? 0 }));
    const since = (n: number) => days.slice(-n).reduce((sum, d) => sum + d.revenue, 0);
    revenue = { today: since(1), last_7_days: since(7), last_30_days: since(30), days };
  }
  return {
    date: today,
    time_zone: org.zone,
    currency: org.currency,
    departures,
    nearly_full: nearlyFull,
    revenue,
    money_due: seesMoney ? await q.moneyDue(ctx) : null,
    balances_due: seesMoney ? await q.balancesDue(ctx, 5) : null,
    onboarding: may(v, ['Manage account'], []) ? await onboarding(ctx, v, org.dismissed) : null,
  };
}

export async function setDismissed(ctx: TenantCtx, v: Viewer, dismissed: boolean) {
  await q.setDismissed(ctx, dismissed);
  return onboarding(ctx, v);
}
