import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TUser } from '@tourdesk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { Provider } from 'react-redux';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeStore } from '../../shared/store';
import ProfilePage from './ProfilePage';

/**
 * The profile's e-mail change against a real HTTP server: a new address is only asked for (the
 * server keeps it pending until the link sent to it is followed), so the page says a link was sent
 * and shows the pending address beside the one still in use.
 */
const ME: TUser = {
  id: '00000000-0000-4000-8000-0000000000b1',
  email: 'olga@demo.test',
  pending_email: null,
  first_name: 'Olga',
  last_name: 'Owner',
  language: null,
  is_active: true,
  guides: false,
  role: { id: '00000000-0000-4000-8000-0000000000b2', name: 'Owner', is_owner: true, permission_sets: [] },
  base_account: {
    id: '00000000-0000-4000-8000-0000000000b3',
    name: 'Alpine Trails & Tours',
    subdomain: 'demo',
    kind: 'supplier',
    time_zone: 'Europe/Zurich',
    currency: 'CHF',
    languages: ['en'],
    locale: 'en',
    time_format: '24h',
    subscription_tier: null,
    active_subscription_features: [],
  },
  cart: null,
};

let server: FastifyInstance;
let baseUrl: string;
const state = { me: { ...ME }, asked: [] as Record<string, unknown>[] };

beforeAll(async () => {
  server = Fastify();
  server.get('/api/users/me/', async () => state.me);
  server.post('/api/users/set_email/', async (req, reply) => {
    const body = req.body as { new_email: string; current_password: string };
    state.asked.push(body);
    if (body.current_password !== 'right') {
      return reply.status(400).send({ type: 'validation_error', errors: [{ code: 'invalid', detail: 'The current password is not correct.', attr: 'current_password' }] });
    }
    state.me = { ...state.me, pending_email: body.new_email };
    return reply.status(204).send();
  });
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { me: { ...ME }, asked: [] }));

function setup() {
  const store = makeStore({ apiBaseUrl: baseUrl });
  render(
    <Provider store={store}>
      <MantineProvider>
        <ProfilePage />
      </MantineProvider>
    </Provider>,
  );
}

describe('the profile’s sign-in e-mail', () => {
  it('asks for a new address, says a link was sent to it, and shows it pending beside the address still in use', async () => {
    setup();
    const card = await screen.findByRole('form', { name: 'Sign-in e-mail' });
    expect(within(card).getByText('Now: olga@demo.test')).toBeTruthy();
    expect(within(card).queryByText(/Waiting for confirmation/)).toBeNull();

    await userEvent.type(within(card).getByLabelText('New e-mail'), 'olga@new.test');
    await userEvent.type(within(card).getByLabelText('Current password'), 'right');
    await userEvent.click(within(card).getByRole('button', { name: 'Change e-mail' }));

    expect(await within(card).findByText('Waiting for confirmation: olga@new.test')).toBeTruthy();
    expect(within(card).getByText(/We sent a link to olga@new\.test to confirm it\./)).toBeTruthy();
    // Still the address in use until the link is followed.
    expect(within(card).getByText('Now: olga@demo.test')).toBeTruthy();
    expect(state.asked).toEqual([{ new_email: 'olga@new.test', current_password: 'right' }]);
  });

  it('shows an address already waiting for confirmation when the page opens', async () => {
    state.me = { ...ME, pending_email: 'later@new.test' };
    setup();
    const card = await screen.findByRole('form', { name: 'Sign-in e-mail' });
    expect(await within(card).findByText('Waiting for confirmation: later@new.test')).toBeTruthy();
    expect(within(card).getByText(/We sent a link to later@new\.test to confirm it\. Until it is followed, you sign in with olga@demo\.test\./)).toBeTruthy();
  });

  it('puts a wrong current password on its field and asks for nothing', async () => {
    setup();
    const card = await screen.findByRole('form', { name: 'Sign-in e-mail' });
    await userEvent.type(within(card).getByLabelText('New e-mail'), 'olga@new.test');
    await userEvent.type(within(card).getByLabelText('Current password'), 'wrong');
    await userEvent.click(within(card).getByRole('button', { name: 'Change e-mail' }));
    expect(await within(card).findByText('The current password is not correct.')).toBeTruthy();
    expect(within(card).queryByText(/Waiting for confirmation/)).toBeNull();
  });
});
