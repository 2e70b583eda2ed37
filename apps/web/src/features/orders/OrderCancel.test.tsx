import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TOrder, TRefundProposal } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import { renderWithApp } from '../../test/render';
import { Totals } from './OrderDetailsTab';
import OrderEditorPage from './OrderEditorPage';

/**
 * Cancelling an order in the back office against a real HTTP server: staff choose between
 * cancelling free of charge (the default, as before) and keeping the fee the cancellation policy
 * allows now (the server's figure); the totals of a cancelled order show the fee it keeps.
 */
const ORDER_ID = '00000000-0000-4000-8000-0000000000d2';
const PAID: TOrder = {
  id: ORDER_ID,
  reference: 'TD-2042',
  status: 'Confirmed',
  payment_status: 'Fully paid',
  total: 9800,
  sold_total: 9800,
  cancellation_fee: 0,
  discount: null,
  balance_due_on: null,
  tax_total: 734,
  paid: 9800,
  refunded: 0,
  balance: 0,
  currency: 'CHF',
  customer: { id: '00000000-0000-4000-8000-0000000000c2', email: 'nina@example.com', first_name: 'Nina', last_name: 'Graf' },
  seller: null,
  store: null,
  lines: 1,
  notes: '',
  language: 'en',
  invoice: null,
  invoices: [],
  bookings: [],
  created_at: '2026-05-02T08:00:00.000Z',
  updated_at: '2026-05-02T08:00:00.000Z',
};
const KEPT: TOrder = { ...PAID, status: 'Canceled', payment_status: 'Refund due', total: 4900, cancellation_fee: 4900, tax_total: 367, balance: -4900 };

let server: FastifyInstance;
let baseUrl: string;
const state = {
  proposal: { amount: 4900, reason: 'The cancellation policy: Cancel now and 50 % of what you paid is refunded.', cancellation_fee: 4900 } as TRefundProposal,
  cancels: [] as unknown[],
};

beforeAll(async () => {
  server = Fastify();
  server.get(`/api/orders/${ORDER_ID}/`, async () => (state.cancels.length ? KEPT : PAID));
  server.get(`/api/orders/${ORDER_ID}/refund-proposal/`, async () => state.proposal);
  server.post(`/api/orders/${ORDER_ID}/cancel/`, async (req) => {
    const body = req.body as { keep_cancellation_fee: boolean };
    state.cancels.push(body);
    return body.keep_cancellation_fee ? KEPT : { ...KEPT, total: 0, cancellation_fee: 0, tax_total: 0, balance: -9800 };
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { proposal: { amount: 4900, reason: 'The cancellation policy: Cancel now and 50 % of what you paid is refunded.', cancellation_fee: 4900 }, cancels: [] }));

function setup() {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(setUser({ role: { permission_sets: [] }, base_account: { subdomain: 'demo', active_subscription_features: ['bookings'], currency: 'CHF', time_zone: 'Europe/Zurich' } }));
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
async function openDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
  return within(await screen.findByRole('dialog', { name: 'Cancel order TD-2042?' }));
}

describe('the cancel dialog', () => {
  it('cancels free of charge unless the operator chooses to keep the fee', async () => {
    setup();
    const dialog = await openDialog();
    expect(dialog.getByRole('radio', { name: /Cancel free of charge/ })).toBeChecked();
    const keep = await dialog.findByRole('radio', { name: /Keep the cancellation fee under the policy \(CHF\s49\.00\)/ });
    expect(keep).not.toBeChecked();
    expect(keep).toBeEnabled();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(state.cancels).toEqual([{ keep_cancellation_fee: false }]));
    expect(await screen.findByText('Order TD-2042 canceled: its seats are free again.')).toBeInTheDocument();
  });

  it('keeps the fee under the policy when chosen, and says what is kept', async () => {
    setup();
    const dialog = await openDialog();
    await userEvent.click(await dialog.findByRole('radio', { name: /Keep the cancellation fee under the policy \(CHF\s49\.00\)/ }));
    expect(dialog.getByText('CHF 49.00 of what was paid is then to be refunded.')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(state.cancels).toEqual([{ keep_cancellation_fee: true }]));
    expect(await screen.findByText('Order TD-2042 canceled: its seats are free again. CHF 49.00 is kept as the cancellation fee.')).toBeInTheDocument();
  });

  it('offers no fee when the policy does not allow cancelling now', async () => {
    state.proposal = { amount: 0, reason: 'Nothing to refund under the cancellation policy now.', cancellation_fee: null };
    setup();
    const dialog = await openDialog();
    expect(await dialog.findByText('The cancellation policy does not allow cancelling now.')).toBeInTheDocument();
    expect(dialog.getByRole('radio', { name: /Keep the cancellation fee/ })).toBeDisabled();
    expect(dialog.getByRole('radio', { name: /Cancel free of charge/ })).toBeChecked();
  });
});

describe('the totals of a cancelled order', () => {
  it('show the fee it keeps beside what was cancelled', () => {
    renderWithApp(<Totals order={{ ...KEPT, paid: 4900, refunded: 4900, balance: 0, payment_status: 'Fully paid' }} />);
    expect(screen.getByTestId('order-sold-total')).toHaveTextContent('CHF 98.00');
    expect(screen.getByTestId('order-cancelled-total')).toHaveTextContent('-CHF 98.00');
    expect(screen.getByText('Cancellation fee')).toBeInTheDocument();
    expect(screen.getByTestId('order-cancellation-fee')).toHaveTextContent('CHF 49.00');
    expect(screen.getByTestId('order-total')).toHaveTextContent('CHF 49.00');
    expect(screen.getByTestId('order-tax')).toHaveTextContent('CHF 3.67');
    expect(screen.getByTestId('payment-status')).toHaveTextContent('Fully paid');
  });

  it('show no fee for an order cancelled free of charge', () => {
    renderWithApp(<Totals order={{ ...KEPT, total: 0, cancellation_fee: 0, tax_total: 0, balance: -9800 }} />);
    expect(screen.getByTestId('order-cancelled-total')).toHaveTextContent('-CHF 98.00');
    expect(screen.queryByTestId('order-cancellation-fee')).not.toBeInTheDocument();
  });
});
