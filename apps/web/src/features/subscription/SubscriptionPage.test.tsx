import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TSubscription, TSubscriptionTier } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { ToastContainer } from 'react-toastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import { renderWithApp } from '../../test/render';
import { leaveFor } from './leave';
import { peekCheckout, rememberCheckout } from './pending';
import SubscriptionPage, { NOTHING_CHANGED, OWNERS_ONLY_TITLE } from './SubscriptionPage';

vi.mock('./leave', () => ({ leaveFor: vi.fn() }));

/**
 * The subscription page against a real HTTP server standing in for the API (as the other pages'
 * tests do): the current plan in each status, the plans of both kinds by the month and the year,
 * choosing through Stripe Checkout and coming back (paid, or left), a change at once after asking,
 * Stripe's customer portal, the platform without billing, and a non-Owner.
 */
const ALL = ['experiences', 'bookings', 'orders', 'customers', 'stores', 'web_store', 'inventory', 'team', 'resales', 'partners', 'qr_codes', 'analytics'];
const tier = (t: Partial<TSubscriptionTier> & Pick<TSubscriptionTier, 'id' | 'name'>): TSubscriptionTier => ({
  kind: 'supplier',
  features: ALL,
  monthly_price: 0,
  yearly_price: 0,
  currency: 'EUR',
  trial_days: 0,
  limits: {},
  application_fee_bp: 0,
  ...t,
});
const STARTER = tier({ id: 'supplier-starter', name: 'Starter', features: ALL.filter((f) => !['resales', 'partners', 'analytics'].includes(f)), limits: { offers: 3, stores: 1, team_members: 2, bookings_per_month: 200 }, application_fee_bp: 300 });
const STANDARD = tier({ id: 'supplier-standard', name: 'Standard', monthly_price: 4900, yearly_price: 49000, trial_days: 14, limits: { offers: 50, stores: 5, team_members: 25 }, application_fee_bp: 150 });
const PRO = tier({ id: 'supplier-pro', name: 'Pro', monthly_price: 14900, yearly_price: 149000, trial_days: 14, application_fee_bp: 50 });
const AFFILIATE = tier({ id: 'affiliate-standard', name: 'Affiliate', kind: 'affiliate', features: ['bookings', 'orders', 'customers', 'stores', 'team', 'resales', 'partners', 'qr_codes'], limits: { stores: 1, team_members: 3 } });
const AFFILIATE_PLUS = tier({ id: 'affiliate-plus', name: 'Affiliate Plus', kind: 'affiliate', features: [...AFFILIATE.features, 'analytics'], monthly_price: 2900, yearly_price: 29000, trial_days: 14, limits: { stores: 10, team_members: 15 } });
const TIERS = [STARTER, STANDARD, PRO, AFFILIATE, AFFILIATE_PLUS];

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY - 3_600_000).toISOString();
/** A new supplier: the platform's own trial of Standard, no Stripe subscription. */
const OWN_TRIAL: TSubscription = {
  tier: STANDARD,
  status: 'trialing',
  interval: null,
  trial_ends_at: inDays(5),
  current_period_end: null,
  billing_available: true,
  can_manage: false,
  usage: { offers: 2, stores: 5, team_members: 3, bookings_per_month: 41 },
};
const PRO_YEARLY: TSubscription = {
  ...OWN_TRIAL,
  tier: PRO,
  status: 'active',
  interval: 'year',
  trial_ends_at: null,
  current_period_end: '2027-03-01T10:00:00.000Z',
  can_manage: true,
  usage: { offers: 5, stores: 2, team_members: 3, bookings_per_month: 320 },
};
const CHECKOUT = 'https://checkout.stripe.test/pay/cs_test_123';
const PORTAL = 'https://billing.stripe.test/p/session_456';

let server: FastifyInstance;
let baseUrl: string;
const state = {
  subscription: OWN_TRIAL,
  /** What GET /api/subscription/ answers after n more reads (Stripe's event arriving later). */
  later: null as null | { after: number; subscription: TSubscription },
  choose: null as null | { status: number; body: unknown },
  chosen: [] as unknown[],
  reads: 0,
  failReads: 0,
  meReads: 0,
  manages: 0,
};

beforeAll(async () => {
  server = Fastify();
  server.get('/api/subscription-tiers/', async () => TIERS);
  server.get('/api/subscription/', async (_req, reply) => {
    state.reads += 1;
    if (state.failReads > 0) {
      state.failReads -= 1;
      return reply.status(503).send({ type: 'server_error', errors: [{ code: 'unavailable', detail: 'The database is resting.', attr: null }] });
    }
    if (state.later && --state.later.after <= 0) {
      state.subscription = state.later.subscription;
      state.later = null;
    }
    return state.subscription;
  });
  server.post('/api/subscription/', async (req, reply) => {
    state.chosen.push(req.body);
    if (state.choose) return reply.status(state.choose.status).send(state.choose.body);
    return { url: CHECKOUT, subscription: state.subscription };
  });
  server.post('/api/subscription/manage/', async (_req, reply) => {
    state.manages += 1;
    if (state.choose?.status === 403) return reply.status(403).send(state.choose.body);
    return { url: PORTAL };
  });
  server.get('/api/users/me/', async () => {
    state.meReads += 1;
    return { role: { is_owner: true, permission_sets: [] }, base_account: { subdomain: 'demo', active_subscription_features: state.subscription.tier.features } };
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => {
  Object.assign(state, { subscription: OWN_TRIAL, later: null, choose: null, chosen: [], reads: 0, failReads: 0, meReads: 0, manages: 0 });
  vi.mocked(leaveFor).mockClear();
  sessionStorage.clear();
});

function setup(path = '/settings/subscription/supplier-plans', { owner = true, locale = 'en' } = {}) {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(
    setUser({
      role: { is_owner: owner, permission_sets: [] },
      base_account: { subdomain: 'demo', active_subscription_features: ALL, currency: 'CHF', time_zone: 'Europe/Zurich', locale } as never,
    }),
  );
  render(<ToastContainer />);
  return renderWithApp(<SubscriptionPage />, { store, path });
}
const current = () => within(screen.getByRole('region', { name: 'Current plan' }));
/** The page has its data: the current plan is shown. */
const loaded = () => screen.findByRole('region', { name: 'Current plan' }, { timeout: 3000 });
const card = (name: string) => within(screen.getByRole('region', { name }));
const forbidden = { type: 'client_error', errors: [{ code: 'permission_denied', detail: 'Only an Owner chooses the organisation’s plan.', attr: null }] };

describe('SubscriptionPage', () => {
  it('shows the current plan with its trial, its usage, and each plan with its price, limits, fee and features in words', async () => {
    setup();
    await loaded();
    expect(await current().findByTestId('current-plan-name')).toHaveTextContent('Standard');
    expect(current().getByTestId('current-plan-status')).toHaveTextContent('Trial');
    expect(current().getByText(/^Free trial: 5 days left, until \d+ \w+ \d{4}\.$/)).toBeInTheDocument();
    expect(current().getByText('Subscribe before it ends to keep Standard; otherwise your organisation moves to Starter (free).')).toBeInTheDocument();
    expect(current().getByTestId('usage-offers')).toHaveTextContent('2 of 50 offers');
    expect(current().getByTestId('usage-stores')).toHaveTextContent('5 of 5 stores');
    expect(current().getByTestId('usage-stores')).toHaveTextContent('Limit reached');
    expect(current().getByTestId('usage-bookings_per_month')).toHaveTextContent('41 bookings this month');
    expect(current().getByTestId('usage-bookings_per_month')).toHaveTextContent('No limit on your plan');
    expect(current().getByText(/You cannot add more stores on Standard/)).toBeInTheDocument();
    expect(current().queryByRole('button', { name: /Manage billing/ })).not.toBeInTheDocument();

    expect(card('Starter').getByTestId('plan-price')).toHaveTextContent('Free');
    expect(card('Standard').getByTestId('plan-price')).toHaveTextContent('€49.00a month');
    expect(card('Pro').getByTestId('plan-price')).toHaveTextContent('€149.00a month');
    expect(card('Standard').getByText('First subscription: 14 days free')).toBeInTheDocument();
    const limits = (name: string) => within(screen.getByRole('list', { name: `${name}: limits and fees` })).getAllByRole('listitem').map((li) => li.textContent);
    expect(limits('Starter')).toEqual(['Up to 3 offers', 'Up to 1 store', 'Up to 2 team members', 'Up to 200 bookings a month', '3 % fee on online payments']);
    expect(limits('Pro')).toEqual(['Unlimited offers', 'Unlimited stores', 'Unlimited team members', 'Unlimited bookings', '0.5 % fee on online payments']);
    expect(limits('Standard')).toContain('1.5 % fee on online payments');
    const features = within(screen.getByRole('list', { name: 'Starter: features' })).getAllByRole('listitem');
    expect(features[0]).toHaveTextContent('Offers: your tours and activities');
    expect(features.filter((li) => li.hasAttribute('data-missing')).map((li) => li.textContent)).toEqual([
      'Not included: Resales of partners’ offers',
      'Not included: Partner network',
      'Not included: Sales analytics',
    ]);
    expect(screen.queryByText('web_store')).not.toBeInTheDocument();

    // The current plan, tried but not paid for, can be subscribed to; the others are up or down.
    expect(card('Standard').getByText('Current plan')).toBeInTheDocument();
    expect(card('Standard').getByRole('button', { name: 'Subscribe to Standard' })).toBeEnabled();
    expect(card('Pro').getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
    expect(card('Starter').getByRole('button', { name: 'Downgrade to Starter' })).toBeEnabled();
  });

  it('shows yearly prices and their saving, and sends the Owner to Stripe Checkout for the plan by the year', async () => {
    setup();
    await loaded();
    await userEvent.click(await screen.findByText('Yearly · save 17 %'));
    expect(card('Pro').getByTestId('plan-price')).toHaveTextContent('€1,490.00a year');
    expect(card('Pro').getByText('€124.17 a month, billed yearly')).toBeInTheDocument();
    expect(card('Pro').getByText('Save €298.00 (17 %) against monthly')).toBeInTheDocument();
    expect(card('Starter').getByTestId('plan-price')).toHaveTextContent('Free');

    await userEvent.click(card('Pro').getByRole('button', { name: 'Upgrade to Pro' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(CHECKOUT));
    expect(state.chosen).toEqual([{ tier: 'supplier-pro', interval: 'year' }]);
    expect(peekCheckout()).toEqual({ tier: 'supplier-pro', name: 'Pro', interval: 'year' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument(); // Stripe's page is where it is confirmed
  });

  it('back from Stripe paid: waits for Stripe’s event, says the new plan once, reads the user again and tidies the address', async () => {
    rememberCheckout({ tier: 'supplier-pro', name: 'Pro', interval: 'year' });
    const trialEnd = '2026-12-24T09:00:00.000Z';
    state.later = { after: 2, subscription: { ...PRO_YEARLY, status: 'trialing', trial_ends_at: trialEnd, current_period_end: trialEnd } };
    const { router } = setup('/settings/subscription/supplier-plans?subscribed=1');
    await loaded();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('Waiting for Stripe to confirm Pro…')).toBeInTheDocument();
    expect(await screen.findByText('Your plan is now Pro, free until 24 December 2026.', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(current().getByTestId('current-plan-name')).toHaveTextContent('Pro');
    expect(current().getByText('Billed yearly')).toBeInTheDocument();
    expect(current().getByText('Then €1,490.00 a year, charged to your card.')).toBeInTheDocument();
    await waitFor(() => expect(state.meReads).toBe(1));
    await waitFor(() => expect(screen.queryByText(/Waiting for Stripe/)).not.toBeInTheDocument());
    const reads = state.reads;
    await new Promise((r) => setTimeout(r, 1300));
    expect(state.reads).toBe(reads); // no more polling
    expect(screen.getAllByText(/Your plan is now/)).toHaveLength(1);
    expect(peekCheckout()).toBeNull();
  });

  it('back from Stripe without paying: says nothing was changed, once', async () => {
    rememberCheckout({ tier: 'supplier-pro', name: 'Pro', interval: 'month' });
    setup();
    await loaded();
    expect(await screen.findByText(NOTHING_CHANGED)).toBeInTheDocument();
    expect(await current().findByTestId('current-plan-name')).toHaveTextContent('Standard');
    expect(screen.getAllByText(NOTHING_CHANGED)).toHaveLength(1);
    expect(peekCheckout()).toBeNull();
  });

  it('a running yearly subscription: renews on a date in the user’s language (not the organisation’s locale), the current plan disabled, Manage billing opens Stripe’s portal', async () => {
    state.subscription = PRO_YEARLY;
    setup('/settings/subscription/supplier-plans', { locale: 'de-CH' });
    await loaded();
    expect(await current().findByText('Renews on 1 March 2027.')).toBeInTheDocument();
    expect(current().getByTestId('current-plan-status')).toHaveTextContent('Active');
    expect(current().getByText('€1,490.00 a year.')).toBeInTheDocument(); // money in the user's language too
    // By the year (its interval) the plan is current; by the month switching is a change.
    expect(screen.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    expect(card('Pro').getByRole('button', { name: 'Current plan' })).toBeDisabled();
    expect(card('Standard').getByRole('button', { name: 'Downgrade to Standard' })).toBeEnabled();
    await userEvent.click(screen.getByText('Monthly'));
    expect(card('Pro').getByRole('button', { name: 'Switch to monthly billing' })).toBeEnabled();

    await userEvent.click(current().getByRole('button', { name: /Manage billing/ }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(PORTAL));
  });

  it('asks before a downgrade that takes effect at once, with what is lost, and says the new plan', async () => {
    state.subscription = PRO_YEARLY;
    state.choose = { status: 200, body: { url: null, subscription: { ...PRO_YEARLY, tier: STARTER, status: 'none', interval: null, current_period_end: null } } };
    setup();
    await loaded();
    await userEvent.click(await card('Starter').findByRole('button', { name: 'Downgrade to Starter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to Starter?' });
    expect(within(dialog).getByText(/Your Pro subscription is cancelled at Stripe today/)).toBeInTheDocument();
    expect(within(within(dialog).getByRole('list', { name: 'Features you lose' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Resales of partners’ offers',
      'Partner network',
      'Sales analytics',
    ]);
    expect(within(dialog).getByText('You have 5 offers; Starter allows up to 3 offers.')).toBeInTheDocument();
    expect(within(dialog).getByText('You have 2 stores; Starter allows up to 1 store.')).toBeInTheDocument();
    expect(within(dialog).getByText('You have 320 bookings this month; Starter allows up to 200 bookings a month.')).toBeInTheDocument();
    expect(state.chosen).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Move to Starter' }));
    expect(await screen.findByText('Your plan is now Starter.')).toBeInTheDocument();
    expect(state.chosen).toEqual([{ tier: 'supplier-starter', interval: 'month' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(current().getByTestId('current-plan-name')).toHaveTextContent('Starter');
    expect(current().getByTestId('usage-offers')).toHaveTextContent('5 of 3 offers');
    expect(current().getByTestId('usage-offers')).toHaveTextContent('Over the limit');
    expect(current().getByText(/nothing is deleted/)).toBeInTheDocument();
    await waitFor(() => expect(state.meReads).toBe(1));
  });

  it('switches a running trial to monthly billing after asking, and waits for Stripe’s event to confirm it', async () => {
    const trial = { ...PRO_YEARLY, status: 'trialing' as const, trial_ends_at: '2026-12-24T09:00:00.000Z', current_period_end: '2026-12-24T09:00:00.000Z' };
    state.subscription = trial;
    // Stripe answers at once; its event makes the change current a moment later.
    state.choose = { status: 200, body: { url: null, subscription: trial } };
    setup();
    await loaded();
    await userEvent.click(screen.getByText('Monthly'));
    await userEvent.click(card('Pro').getByRole('button', { name: 'Switch to monthly billing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch to monthly billing?' });
    expect(dialog).toHaveTextContent('Your subscription changes now to Pro at €149.00 a month. Your free trial goes on until 24 December 2026; the new price is charged when it ends.');
    state.later = { after: 2, subscription: { ...trial, interval: 'month' } };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Switch to monthly billing' }));
    expect(await screen.findByText('Waiting for Stripe to confirm Pro…')).toBeInTheDocument();
    expect(await screen.findByText('Your plan is now Pro, free until 24 December 2026.', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(state.chosen).toEqual([{ tier: 'supplier-pro', interval: 'month' }]);
    expect(current().getByText('Billed monthly')).toBeInTheDocument();
    expect(card('Pro').getByRole('button', { name: 'Current plan' })).toBeDisabled();
  });

  it('back from Stripe with the browser’s Back button (the page as it was left): nothing busy, nothing changed', async () => {
    setup();
    await loaded();
    await userEvent.click(card('Pro').getByRole('button', { name: 'Upgrade to Pro' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(CHECKOUT));
    expect(card('Pro').getByRole('button', { name: 'Upgrade to Pro' })).toBeDisabled(); // busy until the browser has left
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(await screen.findByText(NOTHING_CHANGED)).toBeInTheDocument();
    await waitFor(() => expect(card('Pro').getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled());
    expect(peekCheckout()).toBeNull();
  });

  it('toasts the server’s reason when a choice is refused', async () => {
    state.choose = { status: 400, body: { type: 'client_error', errors: [{ code: 'invalid', detail: 'This plan is not sold by the year.', attr: 'interval' }] } };
    setup();
    await loaded();
    await userEvent.click(await card('Pro').findByRole('button', { name: 'Upgrade to Pro' }));
    expect(await screen.findByText('This plan is not sold by the year.')).toBeInTheDocument();
    expect(leaveFor).not.toHaveBeenCalled();
    expect(card('Pro').getByRole('button', { name: 'Upgrade to Pro' })).toBeEnabled();
  });

  it('warns of a failed payment', async () => {
    state.subscription = { ...PRO_YEARLY, status: 'past_due' };
    setup();
    await loaded();
    expect(await current().findByText('Payment overdue')).toBeInTheDocument();
    expect(current().getByRole('alert')).toHaveTextContent(/Your last payment failed.*Update your card in Manage billing/);
  });

  it('without the platform’s billing: says paid plans can’t be bought here, and offers only the free one', async () => {
    state.subscription = { ...OWN_TRIAL, billing_available: false };
    setup();
    await loaded();
    expect(await screen.findByTestId('billing-unavailable')).toHaveTextContent('Paid plans can’t be bought here');
    expect(card('Pro').getByRole('button', { name: 'Upgrade to Pro' })).toBeDisabled();
    expect(card('Standard').getByRole('button', { name: 'Subscribe to Standard' })).toBeDisabled();
    expect(card('Starter').getByRole('button', { name: 'Downgrade to Starter' })).toBeEnabled();
  });

  it('shows a non-Owner the plans without buttons, and says who changes them', async () => {
    setup('/settings/subscription/supplier-plans', { owner: false });
    await loaded();
    expect(await screen.findByTestId('owners-only')).toHaveTextContent(OWNERS_ONLY_TITLE);
    expect(await current().findByTestId('current-plan-name')).toHaveTextContent('Standard');
    expect(screen.queryByRole('button', { name: /Upgrade|Downgrade|Subscribe|Manage billing/ })).not.toBeInTheDocument();
  });

  it('a 403 on choosing is one notice on the page, not a toast', async () => {
    state.choose = { status: 403, body: forbidden };
    setup();
    await loaded();
    await userEvent.click(await card('Pro').findByRole('button', { name: 'Upgrade to Pro' }));
    expect(await screen.findByTestId('owners-only')).toHaveTextContent('Only an Owner chooses the organisation’s plan.');
    expect(screen.getAllByText(/Only an Owner chooses the organisation’s plan/)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Upgrade|Downgrade|Subscribe/ })).not.toBeInTheDocument();
  });

  it('the other kind’s plans are shown for reference, read only, with where to choose', async () => {
    const { router } = setup('/settings/subscription/affiliate-plans');
    await loaded();
    expect(await screen.findByRole('tab', { name: 'Affiliate plans', selected: true })).toBeInTheDocument();
    expect(screen.getByTestId('other-kind')).toHaveTextContent('Your organisation is a supplier');
    expect(card('Affiliate Plus').getByTestId('plan-price')).toHaveTextContent('€29.00a month');
    // An affiliate plan has no offers: no limit of offers is listed.
    expect(within(screen.getByRole('list', { name: 'Affiliate: limits and fees' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Up to 1 store',
      'Up to 3 team members',
      'Unlimited bookings',
      'No fee on online payments',
    ]);
    expect(screen.queryByRole('button', { name: /Choose|Upgrade|Downgrade|Subscribe/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Supplier plans' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/subscription/supplier-plans'));
    expect(await card('Pro').findByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument();
  });

  it('says why the plans could not be loaded, and tries again', async () => {
    state.failReads = 1;
    setup();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The plans could not be loaded');
    expect(alert).toHaveTextContent('The database is resting.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await loaded();
    expect(current().getByTestId('current-plan-name')).toHaveTextContent('Standard');
  });
});
