import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TOrder } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setAppInfo, setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import OrderEditorPage from './OrderEditorPage';

/**
 * The customer's language on an order's page against a real HTTP server: shown by its name, changed
 * (by those who may manage orders) among the organisation's languages plus the order's own, saved
 * through PATCH with a toast; the server's refusal is shown and the page keeps the order's language.
 */
// jsdom has no scrollIntoView; Mantine's Select scrolls its selected option into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

const ORDER_ID = '00000000-0000-4000-8000-0000000000e1';
const ORDER: TOrder = {
  id: ORDER_ID,
  reference: 'TD-3001',
  status: 'Confirmed',
  payment_status: 'Not paid',
  total: 9800,
  sold_total: 9800,
  cancellation_fee: 0,
  discount: null,
  balance_due_on: null,
  tax_total: 734,
  paid: 0,
  refunded: 0,
  balance: 9800,
  currency: 'CHF',
  customer: { id: '00000000-0000-4000-8000-0000000000e2', email: 'lea@example.com', first_name: 'Lea', last_name: 'Roth' },
  seller: null,
  store: null,
  lines: 0,
  notes: '',
  language: 'it',
  invoice: null,
  invoices: [],
  bookings: [],
  created_at: '2026-05-02T08:00:00.000Z',
  updated_at: '2026-05-02T08:00:00.000Z',
};

let server: FastifyInstance;
let baseUrl: string;
const state = { language: 'it', patches: [] as unknown[], refuse: false };

beforeAll(async () => {
  server = Fastify();
  server.get(`/api/orders/${ORDER_ID}/`, async () => ({ ...ORDER, language: state.language }));
  server.patch(`/api/orders/${ORDER_ID}/`, async (req, reply) => {
    state.patches.push(req.body);
    if (state.refuse) return reply.status(400).send({ type: 'validation_error', errors: [{ code: 'invalid', detail: 'Choose one of: en, de, fr, it, es.', attr: 'language' }] });
    state.language = (req.body as { language: string }).language;
    return { ...ORDER, language: state.language };
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { language: 'it', patches: [], refuse: false }));

const MANAGE_ORDERS = { title: 'Manage orders', codenames: ['change_order'] };

function setup({ canEdit = true } = {}) {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(setAppInfo({ permission_sets: [MANAGE_ORDERS] }));
  store.dispatch(
    setUser({
      role: { permission_sets: canEdit ? [MANAGE_ORDERS] : [] },
      base_account: { subdomain: 'demo', active_subscription_features: ['bookings'], currency: 'CHF', time_zone: 'Europe/Zurich', languages: ['de', 'en', 'fr'] },
    }),
  );
  const router = createMemoryRouter([{ path: '/orders/editor/:orderID/:tab', element: <OrderEditorPage /> }], { initialEntries: [`/orders/editor/${ORDER_ID}/details`] });
  render(
    <Provider store={store}>
      <MantineProvider>
        <ToastContainer />
        <RouterProvider router={router} />
      </MantineProvider>
    </Provider>,
  );
}

describe('the customer’s language of an order', () => {
  it('is shown by name and changed among the organisation’s languages plus the order’s own', async () => {
    setup();
    const select = await screen.findByLabelText('Language', { selector: 'input' });
    expect(select).toHaveValue('Italiano');
    await userEvent.click(select);
    const names = (await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent);
    expect(names).toEqual(['Deutsch', 'English', 'Français', 'Italiano']);
    await userEvent.click(screen.getByRole('option', { name: 'Français', hidden: true }));
    await waitFor(() => expect(state.patches).toEqual([{ language: 'fr' }]));
    expect(await screen.findByText('The customer’s language is now Français.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Language', { selector: 'input' })).toHaveValue('Français'));
    // Italian is no longer the order's, nor the organisation's: it is not offered any more.
    await userEvent.click(screen.getByLabelText('Language', { selector: 'input' }));
    expect((await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent)).toEqual(['Deutsch', 'English', 'Français']);
  });

  it('shows the server’s refusal and keeps the order’s language', async () => {
    state.refuse = true;
    setup();
    const select = await screen.findByLabelText('Language', { selector: 'input' });
    await userEvent.click(select);
    await userEvent.click(await screen.findByRole('option', { name: 'Deutsch', hidden: true }));
    expect(await screen.findByText(/Choose one of: en, de, fr, it, es\./)).toBeInTheDocument();
    expect(state.patches).toEqual([{ language: 'de' }]);
    await waitFor(() => expect(screen.getByLabelText('Language', { selector: 'input' })).toHaveValue('Italiano'));
  });

  it('is shown, not offered for change, to those who may not manage orders', async () => {
    setup({ canEdit: false });
    expect(await screen.findByText('Language: Italiano')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Language' })).toBeNull();
  });
});
