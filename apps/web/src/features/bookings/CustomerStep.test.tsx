import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TCart } from '@tourdesk/contracts';
import type { Language } from '@tourdesk/contracts/i18n';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { setAppInfo, setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import { CustomerStep } from './CustomerStep';
import { useBookingCatalog } from './use-booking-catalog';

/**
 * The checkout's customer step against a real HTTP server: the offer's questions are read from
 * the booking options (once), required answers are checked before anything is sent,
 * what is sent is trimmed, and the server's `answers.<id>` errors land on their field.
 */
const EXP = '00000000-0000-4000-8000-00000000000e';
const SWIM = '00000000-0000-4000-8000-000000000001';
const DIET = '00000000-0000-4000-8000-000000000002';
const AGE = '00000000-0000-4000-8000-000000000003';
const OTHER = '00000000-0000-4000-8000-000000000004';

const question = (id: string, text: string, answer_type: string, required = false) => ({ id, question: text, answer_type, choices: [], required, per_participant: false });
/** 52 questions; the offer asks three of them. */
const QUESTIONS = [
  ...Array.from({ length: 48 }, (_, i) => question(`00000000-0000-4000-8000-1000000000${String(i).padStart(2, '0')}`, `Filler ${i}`, 'text')),
  question(OTHER, 'Not asked here', 'text', true),
  question(DIET, 'Any dietary requirements?', 'text'),
  question(SWIM, 'Can everyone swim?', 'yes_no', true),
  question(AGE, 'Youngest age', 'number'),
];

const cart: TCart = {
  id: '00000000-0000-4000-8000-0000000000ca',
  currency: 'CHF',
  total: 19600,
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  lines: [
    {
      id: '00000000-0000-4000-8000-0000000000c1',
      slot: '00000000-0000-4000-8000-0000000000c2',
      experience: EXP,
      experience_title: 'Kayak',
      starts_at: new Date().toISOString(),
      quantities: {},
      items: [],
      extras: {},
      seats: 2,
      total: 19600,
      currency: 'CHF',
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    },
  ],
};

let server: FastifyInstance;
let baseUrl: string;
const state = { checkouts: [] as unknown[], keys: [] as string[], optionReads: 0 };

beforeAll(async () => {
  server = Fastify();
  server.get(`/api/experiences/${EXP}/`, async () => ({ id: EXP, title: 'Kayak', extras: [], booking_questions: [DIET, SWIM, AGE] }));
  server.get('/api/bookings/options/', async () => {
    state.optionReads += 1;
    return { extras: [], questions: QUESTIONS };
  });
  server.post('/api/cart/checkout/', async (req, reply) => {
    state.checkouts.push(req.body);
    state.keys.push(String(req.headers['idempotency-key']));
    return reply.status(400).send({ type: 'validation_error', errors: [{ code: 'invalid', detail: 'Answer with a number: Youngest age', attr: `answers.${AGE}` }] });
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { checkouts: [], keys: [], optionReads: 0 }));

function Step() {
  const catalog = useBookingCatalog();
  return <CustomerStep onLineErrors={() => undefined} cart={cart} catalog={catalog} />;
}

function setup(languages?: Language[]) {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(setAppInfo({ permission_sets: [{ title: 'View experiences', codenames: ['view_experience'] }] }));
  // No "Manage inventory": the item list is not asked for (the server would refuse it).
  store.dispatch(setUser({ role: { permission_sets: [{ title: 'Front desk', codenames: ['view_experience'] }] }, base_account: { subdomain: 'demo', active_subscription_features: ['experiences', 'bookings', 'inventory'], languages } }));
  return renderWithApp(<Step />, { store, path: '/bookings/checkout-editor' });
}

// jsdom has no scrollIntoView; Mantine's Select scrolls its selected option into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

async function fillAndCheckOut() {
  await screen.findByRole('radiogroup', { name: 'Can everyone swim?' });
  await userEvent.type(screen.getByLabelText(/Customer e-mail/), 'ann@example.com');
  await userEvent.type(screen.getByLabelText(/First name/), 'Ann');
  await userEvent.click(screen.getByRole('radio', { name: 'Yes' }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Check out' })).toBeEnabled());
  await userEvent.click(screen.getByRole('button', { name: 'Check out' }));
  await waitFor(() => expect(state.checkouts).toHaveLength(1));
  return state.checkouts[0] as { language?: string };
}

describe('the customer’s language', () => {
  it('is offered among the organisation’s languages, its main one first chosen, and sent with the checkout', async () => {
    setup(['de', 'en', 'fr']);
    const select = await screen.findByLabelText('Customer’s language', { selector: 'input' });
    expect(select).toHaveValue('Deutsch');
    await userEvent.click(select);
    expect((await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent)).toEqual(['Deutsch', 'English', 'Français']);
    await userEvent.click(screen.getByRole('option', { name: 'Français', hidden: true }));
    expect(select).toHaveValue('Français');
    expect((await fillAndCheckOut()).language).toBe('fr');
  });

  it('is not asked when the organisation sells in one language only: that one is sent', async () => {
    setup(['it']);
    expect((await fillAndCheckOut()).language).toBe('it');
    expect(screen.queryByLabelText('Customer’s language')).toBeNull();
  });
});

describe('CustomerStep', () => {
  it('asks the offer’s questions, read once from the booking options, required ones first checked here', async () => {
    setup();
    expect(await screen.findByRole('radiogroup', { name: 'Can everyone swim?' })).toBeInTheDocument();
    expect(screen.getByLabelText('Any dietary requirements?')).toBeInTheDocument();
    expect(screen.getByLabelText('Youngest age')).toBeInTheDocument();
    expect(screen.queryByText('Not asked here')).toBeNull();
    expect(state.optionReads).toBe(1);

    await userEvent.type(screen.getByLabelText(/Customer e-mail/), 'ann@example.com');
    await userEvent.type(screen.getByLabelText(/First name/), 'Ann');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Check out' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Check out' }));
    expect(await screen.findByText('Please answer: Can everyone swim?')).toBeInTheDocument();
    expect(state.checkouts).toEqual([]);
  });

  it('sends trimmed answers without the blank ones, and shows the server’s answer error on its field', async () => {
    setup();
    await screen.findByRole('radiogroup', { name: 'Can everyone swim?' });
    await userEvent.type(screen.getByLabelText(/Customer e-mail/), 'ann@example.com');
    await userEvent.type(screen.getByLabelText(/First name/), 'Ann');
    await userEvent.click(screen.getByRole('radio', { name: 'No' }));
    await userEvent.type(screen.getByLabelText('Any dietary requirements?'), '  vegan  ');
    await userEvent.type(screen.getByLabelText('Youngest age'), '7');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Check out' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Check out' }));
    await waitFor(() => expect(state.checkouts).toHaveLength(1));
    expect(state.checkouts[0]).toEqual({
      customer: { email: 'ann@example.com', first_name: 'Ann', last_name: '', phone: '' },
      answers: { [SWIM]: 'no', [DIET]: 'vegan', [AGE]: '7' },
      lines: cart.lines.map((l) => l.id),
      send_confirmation: true,
    });
    expect(state.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    const age = screen.getByLabelText('Youngest age');
    expect(await screen.findByText('Answer with a number: Youngest age')).toBeInTheDocument();
    await waitFor(() => expect(age).toHaveAttribute('aria-invalid', 'true'));
  });

  it('sends the confirmation unless staff untick "E-mail the confirmation"', async () => {
    setup();
    await screen.findByRole('radiogroup', { name: 'Can everyone swim?' });
    await userEvent.type(screen.getByLabelText(/Customer e-mail/), 'bea@example.com');
    await userEvent.type(screen.getByLabelText(/First name/), 'Bea');
    await userEvent.click(screen.getByRole('radio', { name: 'Yes' }));
    const send = screen.getByRole('checkbox', { name: 'E-mail the confirmation and tickets to the customer' });
    expect(send).toBeChecked();
    await userEvent.click(send);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Check out' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Check out' }));
    await waitFor(() => expect(state.checkouts.length).toBeGreaterThan(0));
    expect(state.checkouts.at(-1)).toMatchObject({ customer: { email: 'bea@example.com' }, send_confirmation: false });
  });
});
