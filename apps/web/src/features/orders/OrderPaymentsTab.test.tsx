import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TOrder, TPayment } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { ToastContainer } from 'react-toastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import { renderWithApp } from '../../test/render';
import { OrderPaymentsTab } from './OrderPaymentsTab';

/**
 * The order's payments tab against a real HTTP server: a refund of an online payment goes back to
 * the card through Stripe (its method fixed), its amount is the proposed refund (never more than
 * is left of the payment), and a refund Stripe has not finished is recorded as pending; a refund of
 * a counter payment and a new payment work as before, never with the online method.
 */
// jsdom has no scrollIntoView; Mantine's Select scrolls its selected option into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

const ORDER_ID = '00000000-0000-4000-8000-0000000000d1';
const CASH = '00000000-0000-4000-8000-0000000000e1';
const CARD = '00000000-0000-4000-8000-0000000000e2';

const ORDER: TOrder = {
  id: ORDER_ID,
  reference: 'TD-1042',
  status: 'Confirmed',
  payment_status: 'Fully paid',
  total: 14800,
  sold_total: 14800,
  cancellation_fee: 0,
  discount: null,
  balance_due_on: null,
  tax_total: 1109,
  paid: 14800,
  refunded: 0,
  balance: 0,
  currency: 'CHF',
  customer: { id: '00000000-0000-4000-8000-0000000000c1', email: 'fay@example.com', first_name: 'Fay', last_name: 'Meier' },
  seller: null,
  store: { id: '00000000-0000-4000-8000-0000000000b1', name: 'Lake shop' },
  lines: 1,
  notes: '',
  language: 'en',
  invoice: null,
  invoices: [],
  bookings: [],
  created_at: '2026-05-02T08:00:00.000Z',
  updated_at: '2026-05-02T08:00:00.000Z',
};
const payment = (id: string, method: TPayment['method'], amount: number, created_at: string): TPayment => ({
  id,
  order: ORDER_ID,
  amount,
  currency: 'CHF',
  method,
  reference: '',
  kind: 'payment',
  refund_of: null,
  reason: '',
  refunded: 0,
  status: 'succeeded',
  recorded_by: null,
  created_at,
});
const PAYMENTS = [payment(CASH, 'cash', 5000, '2026-05-02T08:00:00.000Z'), payment(CARD, 'online', 9800, '2026-05-02T09:00:00.000Z')];

let server: FastifyInstance;
let baseUrl: string;
const state = {
  payments: PAYMENTS,
  proposal: { amount: 4900, reason: 'The cancellation policy: Cancel now and 50 % of what you paid is refunded.' },
  answer: 'refunded' as 'refunded' | 'refund pending',
  posts: [] as Record<string, unknown>[],
  proposalReads: 0,
};

beforeAll(async () => {
  server = Fastify();
  server.get(`/api/orders/${ORDER_ID}/payments/`, async () => state.payments);
  server.get(`/api/orders/${ORDER_ID}/refund-proposal/`, async () => {
    state.proposalReads += 1;
    return state.proposal;
  });
  server.post(`/api/orders/${ORDER_ID}/payments/`, async (req, reply) => {
    const body = req.body as Record<string, unknown>;
    state.posts.push(body);
    const refund: TPayment = {
      ...payment('00000000-0000-4000-8000-0000000000e3', 'online', body.amount as number, '2026-05-03T10:00:00.000Z'),
      kind: 'refund',
      refund_of: CARD,
      reason: String(body.reason),
      status: state.answer === 'refund pending' ? 'pending' : 'succeeded',
    };
    state.payments = [...state.payments.map((p) => (p.id === CARD ? { ...p, refunded: -refund.amount } : p)), refund];
    return reply.status(201).send(refund);
  });
  server.get(`/api/orders/${ORDER_ID}/`, async () => ORDER);
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() =>
  Object.assign(state, {
    payments: PAYMENTS,
    proposal: { amount: 4900, reason: 'The cancellation policy: Cancel now and 50 % of what you paid is refunded.' },
    answer: 'refunded',
    posts: [],
    proposalReads: 0,
  }),
);

function setup(order: TOrder = ORDER) {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(setUser({ role: { permission_sets: [] }, base_account: { subdomain: 'demo', active_subscription_features: ['bookings'], currency: 'CHF', time_zone: 'Europe/Zurich' } }));
  render(<ToastContainer />);
  return renderWithApp(<OrderPaymentsTab order={order} />, { store, path: `/orders/editor/${ORDER_ID}/payments` });
}
const form = () => within(screen.getByLabelText('Record a payment'));
const toRefund = async () => {
  await screen.findAllByTestId('payment-row');
  await userEvent.click(form().getByText('Refund'));
};
const optionsOf = async (label: string) => {
  await userEvent.click(form().getByLabelText(label));
  const list = await screen.findByRole('listbox', { name: label, hidden: true });
  const options = within(list).getAllByRole('option', { hidden: true }).map((o) => o.textContent);
  await userEvent.keyboard('{Escape}');
  return options;
};

describe('a refund of an online payment', () => {
  it('goes back to the card: the method is fixed and the proposed amount filled in, with its reason', async () => {
    setup();
    await toRefund();
    const method = form().getByRole('textbox', { name: 'Method' });
    expect(method).toHaveValue('Online (card)');
    expect(method).toHaveAttribute('readonly');
    expect(form().getByText('The refund goes back to the customer’s card through Stripe.')).toBeInTheDocument();
    await waitFor(() => expect(form().getByRole('textbox', { name: 'Amount' })).toHaveValue('49.00'));
    expect(form().getByText('Proposed: CHF 49.00 — the cancellation policy: Cancel now and 50 % of what you paid is refunded.')).toBeInTheDocument();
  });

  it('is never proposed above what is left of the payment', async () => {
    state.proposal = { amount: 14800, reason: 'Paid beyond what the order owes now.' };
    state.payments = [PAYMENTS[0]!, { ...PAYMENTS[1]!, refunded: 2000 }];
    setup();
    await toRefund();
    await waitFor(() => expect(form().getByRole('textbox', { name: 'Amount' })).toHaveValue('78.00'));
    expect(form().getByText(/Proposed: CHF 78.00 — paid beyond what the order owes now\./)).toBeInTheDocument();
    await userEvent.clear(form().getByRole('textbox', { name: 'Amount' }));
    await userEvent.type(form().getByRole('textbox', { name: 'Amount' }), '80');
    await userEvent.type(form().getByRole('textbox', { name: /Reason/ }), 'Goodwill');
    await userEvent.click(form().getByRole('button', { name: 'Record refund' }));
    expect(await form().findByText('A refund cannot be larger than what is left of this payment (CHF 78.00).')).toBeInTheDocument();
    expect(state.posts).toEqual([]);
  });

  it('sends the online method, with the refund_of payment and the reason', async () => {
    setup();
    await toRefund();
    await waitFor(() => expect(form().getByRole('textbox', { name: 'Amount' })).toHaveValue('49.00'));
    await userEvent.type(form().getByRole('textbox', { name: /Reason/ }), 'Cancelled by the customer');
    await userEvent.click(form().getByRole('button', { name: 'Record refund' }));
    expect(await screen.findByText('Refund of CHF 49.00 made: it goes back to the card through Stripe.')).toBeInTheDocument();
    expect(state.posts).toEqual([{ amount: -4900, currency: 'CHF', method: 'online', reference: '', refund_of: CARD, reason: 'Cancelled by the customer' }]);
  });

  it('appears among the payments when Stripe confirms it at once', async () => {
    setup();
    await toRefund();
    await waitFor(() => expect(form().getByRole('textbox', { name: 'Amount' })).toHaveValue('49.00'));
    await userEvent.type(form().getByRole('textbox', { name: /Reason/ }), 'One paddler less');
    await userEvent.click(form().getByRole('button', { name: 'Record refund' }));
    expect(await screen.findByText('Refund of CHF 49.00 made: it goes back to the card through Stripe.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('payment-row')).toHaveLength(3));
    const refund = screen.getAllByTestId('payment-row')[2]!;
    expect(refund).toHaveAttribute('data-refund-of', CARD);
    expect(within(refund).getByText('Online (card)')).toBeInTheDocument();
  });
});

describe('a refund Stripe has not finished', () => {
  it('is recorded and shown as pending, counted in what is left of the payment', async () => {
    state.answer = 'refund pending';
    setup();
    await toRefund();
    await waitFor(() => expect(form().getByRole('textbox', { name: 'Amount' })).toHaveValue('49.00'));
    await userEvent.type(form().getByRole('textbox', { name: /Reason/ }), 'One paddler less');
    await userEvent.click(form().getByRole('button', { name: 'Record refund' }));
    expect(await screen.findByText('Refund of CHF 49.00 asked of Stripe: pending until Stripe confirms it.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('payment-row')).toHaveLength(3));
    const refund = screen.getAllByTestId('payment-row')[2]!;
    expect(within(refund).getByText('Pending')).toBeInTheDocument();
    expect(within(screen.getAllByTestId('payment-row')[1]!).getByText(/CHF\s49\.00 refunded/)).toBeInTheDocument();
  });

  it('shows a failed refund as failed, its money back in the payment', async () => {
    const failed: TPayment = { ...payment('00000000-0000-4000-8000-0000000000e4', 'online', -3000, '2026-05-03T10:00:00.000Z'), kind: 'refund', refund_of: CARD, reason: 'Goodwill', status: 'failed' };
    state.payments = [...PAYMENTS, failed];
    setup();
    const rows = await screen.findAllByTestId('payment-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[2]!).getByText('Failed')).toBeInTheDocument();
    expect(within(rows[2]!).getByText(/Stripe could not make it/)).toBeInTheDocument();
    expect(within(rows[1]!).queryByText(/refunded/)).not.toBeInTheDocument();
  });
});

describe('other payments and refunds', () => {
  it('a refund of a cash payment chooses its method among the counter ones, without a proposal', async () => {
    setup();
    await toRefund();
    await userEvent.click(form().getByLabelText('Refund of'));
    await userEvent.click(await screen.findByRole('option', { name: /Cash · CHF\s50\.00/, hidden: true }));
    expect(form().getByLabelText('Method')).toHaveValue('Cash');
    expect(form().getByRole('textbox', { name: 'Amount' })).toHaveValue('');
    expect(await optionsOf('Method')).toEqual(['Cash', 'Card terminal', 'Bank transfer', 'Other']);
    expect(state.proposalReads).toBe(1); // read for the online payment shown first, not for this one
    await userEvent.type(form().getByRole('textbox', { name: 'Amount' }), '20');
    await userEvent.type(form().getByRole('textbox', { name: /Reason/ }), 'Rain');
    await userEvent.click(form().getByRole('button', { name: 'Record refund' }));
    await waitFor(() => expect(state.posts).toEqual([{ amount: -2000, currency: 'CHF', method: 'cash', reference: '', refund_of: CASH, reason: 'Rain' }]));
  });

  it('a payment is never recorded with the online method', async () => {
    setup({ ...ORDER, paid: 5000, balance: 9800, payment_status: 'Partially paid' });
    await screen.findAllByTestId('payment-row');
    expect(await optionsOf('Method')).not.toContain('Online (card)');
    // After looking at a refund of the online payment, a payment is back to a counter method.
    await userEvent.click(form().getByText('Refund'));
    await userEvent.click(form().getByText('Payment'));
    expect(form().getByLabelText('Method')).toHaveValue('Cash');
    expect(state.proposalReads).toBe(1);
  });
});
