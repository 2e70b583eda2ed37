import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TPaymentProvider } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { ToastContainer } from 'react-toastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import { renderWithApp } from '../../test/render';
import { leaveFor } from './leave';
import PaymentProvidersPage, { OWNERS_ONLY_MESSAGE } from './PaymentProvidersPage';
import { describeRequirements } from './requirements';
import { createTranslate } from '@tourdesk/contracts/i18n';
import { de } from '@tourdesk/contracts/i18n/catalogs/backoffice/payment-providers/de';
import { en, type PaymentProvidersKey } from '@tourdesk/contracts/i18n/catalogs/backoffice/payment-providers/en';

vi.mock('./leave', () => ({ leaveFor: vi.fn() }));

/**
 * The payment providers page against a real HTTP server standing in for the API: each state of the
 * organisation's Stripe account, Stripe's onboarding (the browser sent to the link the server makes),
 * the return from it, disconnecting, and a non-Owner's 403.
 */
const READY: TPaymentProvider = {
  provider: 'stripe',
  missing_settings: [],
  connected: false,
  account: null,
  details_submitted: false,
  charges_enabled: false,
  payouts_enabled: false,
  requirements: [],
  application_fee_bp: 150,
};
const ONBOARDING: TPaymentProvider = {
  ...READY,
  connected: true,
  account: 'acct_1Lake0000Trails',
  details_submitted: true,
  charges_enabled: true,
  payouts_enabled: false,
  requirements: ['external_account', 'individual.dob.day', 'individual.dob.month', 'individual.dob.year', 'individual.verification.document', 'future.unknown_thing'],
};
const LINK = 'https://connect.stripe.test/setup/s/abc123';

let server: FastifyInstance;
let baseUrl: string;
const state = { provider: READY, forbidden: false, reads: 0, connects: 0, disconnects: 0 };

beforeAll(async () => {
  server = Fastify();
  server.get('/api/payment-providers/oauth/', async (_req, reply) => {
    state.reads += 1;
    if (state.forbidden) return reply.status(403).send({ type: 'client_error', errors: [{ code: 'permission_denied', detail: 'Only an Owner connects the organisation’s payment account.', attr: null }] });
    return state.provider;
  });
  server.post('/api/payment-providers/connect/', async () => {
    state.connects += 1;
    return { url: LINK };
  });
  server.delete('/api/payment-providers/connect/', async (_req, reply) => {
    state.disconnects += 1;
    state.provider = { ...READY };
    return reply.status(204).send();
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => {
  Object.assign(state, { provider: READY, forbidden: false, reads: 0, connects: 0, disconnects: 0 });
  vi.mocked(leaveFor).mockClear();
});

function setup(path = '/settings/payment-providers') {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(setUser({ role: { permission_sets: [] }, base_account: { subdomain: 'demo', active_subscription_features: [], currency: 'CHF' } }));
  render(<ToastContainer />);
  return renderWithApp(<PaymentProvidersPage />, { store, path });
}
const card = () => within(screen.getByRole('region', { name: 'Stripe' }));

describe('PaymentProvidersPage', () => {
  it('lists the platform’s missing settings, with nothing to connect', async () => {
    state.provider = { ...READY, missing_settings: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] };
    setup();
    expect(await screen.findByText('Online payments are not set up on this platform')).toBeInTheDocument();
    const missing = screen.getByRole('list', { name: 'Missing settings' });
    expect(within(missing).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    expect(screen.queryByRole('button', { name: /Connect Stripe/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('explains connecting with the platform’s fee, and sends the browser to Stripe’s onboarding', async () => {
    setup();
    const connect = await screen.findByRole('button', { name: /Connect Stripe/ });
    expect(screen.getByText(/The money goes to your own Stripe account/)).toBeInTheDocument();
    expect(screen.getByText(/The platform’s fee is 1.5 % of each online payment/)).toBeInTheDocument();
    await userEvent.click(connect);
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(LINK));
    expect(state.connects).toBe(1);
  });

  it('shows a connected account’s state and what Stripe still requires, in words where it can', async () => {
    state.provider = ONBOARDING;
    setup();
    expect(await screen.findByTestId('stripe-account')).toHaveTextContent('acct_1Lake0000Trails');
    const status = screen.getByRole('group', { name: 'Account status' });
    expect(within(status).getByText('Details submitted')).toBeInTheDocument();
    expect(within(status).getByText('Charges enabled')).toBeInTheDocument();
    expect(within(status).getByText('Payouts not enabled')).toBeInTheDocument();
    const needs = screen.getByRole('list', { name: 'Stripe still needs' });
    expect(within(needs).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'A bank account for payouts',
      'Your date of birth',
      'Your identity document',
      'future.unknown_thing',
    ]);
    expect(card().getByText('Onboarding not finished')).toBeInTheDocument();

    // Refresh asks the server (and so Stripe) again.
    const reads = state.reads;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(state.reads).toBe(reads + 1));

    await userEvent.click(screen.getByRole('button', { name: /Continue onboarding/ }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(LINK));
  });

  it('offers no onboarding once the account is complete, and disconnects after asking', async () => {
    state.provider = { ...ONBOARDING, payouts_enabled: true, requirements: [] };
    setup();
    expect(await screen.findByText('Payouts enabled')).toBeInTheDocument();
    expect(card().getByText('Connected')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue onboarding/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Stripe still needs' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect Stripe?' });
    expect(within(dialog).getByText(/stop offering online payment/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByRole('button', { name: /Connect Stripe/ })).toBeInTheDocument();
    expect(state.disconnects).toBe(1);
    expect(await screen.findByText(/Stripe disconnected/)).toBeInTheDocument();
  });

  it('tells a non-Owner who connects payment accounts, in a panel and not a toast', async () => {
    state.forbidden = true;
    setup();
    expect(await screen.findByRole('heading', { name: OWNERS_ONLY_MESSAGE })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Connect Stripe/ })).not.toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Only an Owner connects the organisation’s payment account.')).not.toBeInTheDocument();
  });

  it('on the way back from Stripe says so once, reads the state afresh and tidies the address', async () => {
    state.provider = { ...ONBOARDING, payouts_enabled: true, requirements: [] };
    const { router } = setup('/settings/payment-providers?stripe=return');
    expect(await screen.findByText(/Back from Stripe/)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('Payouts enabled')).toBeInTheDocument();
    expect(screen.getAllByText(/Back from Stripe/)).toHaveLength(1);
  });

  it('makes a new onboarding link when Stripe’s expired', async () => {
    state.provider = ONBOARDING;
    const { router } = setup('/settings/payment-providers?stripe=refresh');
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(LINK));
    expect(state.connects).toBe(1);
    expect(router.state.location.search).toBe('');
    expect(screen.getByText(/taking you back to Stripe/)).toBeInTheDocument();
  });
});

describe('describeRequirements', () => {
  it('reads the common keys as words, one item per thing asked for, and keeps unknown keys', () => {
    expect(
      describeRequirements(['tos_acceptance.date', 'tos_acceptance.ip', 'company.tax_id', 'representative.address.city', 'representative.address.line1', 'person_1AbC.first_name', 'business_profile.url', 'company.weird'], createTranslate<PaymentProvidersKey>('en', {}, en)),
    ).toEqual([
      { text: 'Acceptance of Stripe’s terms of service', known: true, keys: ['tos_acceptance.date', 'tos_acceptance.ip'] },
      { text: 'The company’s tax ID', known: true, keys: ['company.tax_id'] },
      { text: 'The representative’s address', known: true, keys: ['representative.address.city', 'representative.address.line1'] },
      { text: 'A listed person’s name', known: true, keys: ['person_1AbC.first_name'] },
      { text: 'The business’s website', known: true, keys: ['business_profile.url'] },
      { text: 'company.weird', known: false, keys: ['company.weird'] },
    ]);
    // In German, with the same grouping.
    expect(describeRequirements(['representative.address.city', 'representative.address.line1', 'individual.dob.day'], createTranslate<PaymentProvidersKey>('de', de, en)).map((r) => r.text)).toEqual([
      'Vertreter: Adresse',
      'Ihre Angaben: Geburtsdatum',
    ]);
  });
});
