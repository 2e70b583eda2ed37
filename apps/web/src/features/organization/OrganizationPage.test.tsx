import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TOrganization } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import { bpToPercent, percentToBp, timeZones } from './constants';
import OrganizationPage from './OrganizationPage';

/**
 * The organisation page against a real HTTP server: the URL picks the tab, a save sends only the
 * changed fields (the VAT rate in basis points), and the server's field errors land on their field.
 */
const ORG: TOrganization = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Alpine Trails & Tours',
  subdomain: 'demo',
  kind: 'supplier',
  currency: 'CHF',
  time_zone: 'Europe/Zurich',
  legal_name: 'Alpine Trails & Tours AG',
  vat_number: 'CHE-109.322.551 MWST',
  billing_address: 'Haldenstrasse 12\n6006 Luzern',
  billing_email: 'billing@demo.tourdesk.test',
  vat_rate_bp: 810,
  next_invoice_number: 'INV-2026-00007',
};

const PARTNERSHIP_IN_THE_WAY = 'The currency cannot change while 1 partnership sells in CHF: Lake Agency (Active, you supply its offers).';

let server: FastifyInstance;
let baseUrl: string;
const state = { organization: { ...ORG }, patches: [] as Record<string, unknown>[] };

beforeAll(async () => {
  server = Fastify();
  server.get('/api/account/', async () => state.organization);
  server.patch('/api/account/', async (req, reply) => {
    const body = req.body as Record<string, unknown>;
    state.patches.push(body);
    if (body.billing_email === 'nobody@nowhere.test') {
      return reply.status(400).send({ type: 'validation_error', errors: [{ code: 'invalid', detail: 'This address does not receive e-mail.', attr: 'billing_email' }] });
    }
    if (body.currency === 'JPY') {
      return reply.status(409).send({ type: 'client_error', errors: [{ code: 'conflict', detail: PARTNERSHIP_IN_THE_WAY, attr: 'currency' }] });
    }
    state.organization = { ...state.organization, ...body };
    return state.organization;
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { organization: { ...ORG }, patches: [] }));

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function setup(path: string) {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(
    setUser({
      role: { permission_sets: [] },
      base_account: { subdomain: 'demo', active_subscription_features: [], name: ORG.name, time_zone: ORG.time_zone, currency: 'CHF' },
    }),
  );
  const router = createMemoryRouter(
    [{ path: '/settings/organization/:tab?', element: <><OrganizationPage /><Where /></> }],
    { initialEntries: [path] },
  );
  render(
    <Provider store={store}>
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>
    </Provider>,
  );
  return { store, router };
}

describe('OrganizationPage', () => {
  it('lands on the contact info, and the URL decides the tab', async () => {
    setup('/settings/organization');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings/organization/contact'));
    expect(await screen.findByLabelText(/Organisation name/)).toHaveValue(ORG.name);
    expect(screen.getByRole('tab', { name: 'Contact info' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Subdomain')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.click(screen.getByRole('tab', { name: 'Billing info' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings/organization/billing'));
    expect(await screen.findByLabelText(/VAT rate/)).toHaveValue('8.1 %');
    expect(screen.getByLabelText('Next invoice number')).toHaveValue('INV-2026-00007');
  });

  it('sends only what changed, the VAT rate in basis points, and keeps the session’s organisation in step', async () => {
    const { store } = setup('/settings/organization/billing');
    const vat = await screen.findByLabelText(/VAT rate/);
    await userEvent.clear(vat);
    await userEvent.type(vat, '7.7');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(state.patches).toEqual([{ vat_rate_bp: 770 }]));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(vat).toHaveValue('7.7 %');

    await userEvent.click(screen.getByRole('tab', { name: 'Contact info' }));
    const name = await screen.findByLabelText(/Organisation name/);
    await userEvent.clear(name);
    await userEvent.type(name, '  Lakeside Tours ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(state.patches[1]).toEqual({ name: 'Lakeside Tours' }));
    await waitFor(() => expect(store.getState().auth.user?.base_account?.name).toBe('Lakeside Tours'));
  });

  it('shows the server’s field error on its field, and a bad address before anything is sent', async () => {
    setup('/settings/organization/billing');
    const email = await screen.findByLabelText('Billing e-mail');
    await userEvent.clear(email);
    await userEvent.type(email, 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(state.patches).toEqual([]);

    await userEvent.clear(email);
    await userEvent.type(email, 'nobody@nowhere.test');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This address does not receive e-mail.')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(state.patches).toEqual([{ billing_email: 'nobody@nowhere.test' }]);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows the server’s refusal of a currency change on the currency, and keeps the session’s currency', async () => {
    const { store } = setup('/settings/organization/contact');
    const currency = await screen.findByRole('combobox', { name: 'Currency' });
    // jsdom has no scrollIntoView, which the combobox calls on the option it highlights.
    Element.prototype.scrollIntoView ??= () => {};
    await userEvent.clear(currency);
    await userEvent.type(currency, 'Yen');
    await userEvent.click(await screen.findByRole('option', { name: /^JPY/, hidden: true }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(PARTNERSHIP_IN_THE_WAY)).toBeInTheDocument();
    expect(currency).toHaveAttribute('aria-invalid', 'true');
    expect(state.patches).toEqual([{ currency: 'JPY' }]);
    expect(store.getState().auth.user?.base_account?.currency).toBe('CHF');
  });

  it('asks for a VAT rate when the field is emptied', async () => {
    setup('/settings/organization/billing');
    const vat = await screen.findByLabelText(/VAT rate/);
    await userEvent.clear(vat);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter the VAT rate (0 when no VAT applies).')).toBeInTheDocument();
    expect(state.patches).toEqual([]);
  });
});

describe('VAT rate and time zones', () => {
  it('converts percentages with up to two decimals to basis points and back', () => {
    expect(percentToBp(7.7)).toBe(770);
    expect(percentToBp(8.1)).toBe(810);
    expect(percentToBp(19.99)).toBe(1999);
    expect(percentToBp(0)).toBe(0);
    expect(bpToPercent(810)).toBe(8.1);
  });

  it('lists the browser’s zones, sorted, with the current one and UTC', () => {
    const zones = timeZones('Asia/Calcutta');
    expect(zones).toContain('Europe/Zurich');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Asia/Calcutta');
    expect([...zones].sort((a, b) => a.localeCompare(b))).toEqual(zones);
  });
});
