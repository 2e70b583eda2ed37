import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import Fastify, { type FastifyInstance } from 'fastify';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUser } from '../../shared/auth/auth-slice';
import { makeStore } from '../../shared/store';
import StoreEditorPage from './StoreEditorPage';

/** The spec: a store that fails to load shows the error, and the page stays where it is. */
const MISSING = '00000000-0000-4000-8000-0000000000c9';
let server: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  server = Fastify();
  server.get('/api/stores/:id/', async (_req, reply) => reply.status(404).send({ type: 'client_error', errors: [{ code: 'not_found', detail: 'No store with this id.', attr: null }] }));
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());

function setup(path: string) {
  const store = makeStore({ apiBaseUrl: baseUrl });
  store.dispatch(setUser({ role: { permission_sets: [] }, base_account: { subdomain: 'demo', active_subscription_features: ['stores'] } }));
  const router = createMemoryRouter([{ path: '/sales/stores/editor/:storeId/:tab?', element: <StoreEditorPage /> }], { initialEntries: [path] });
  render(
    <Provider store={store}>
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>
    </Provider>,
  );
  return router;
}

describe('StoreEditorPage', () => {
  it('shows why a store could not be loaded and stays on its address', async () => {
    const router = setup(`/sales/stores/editor/${MISSING}/store-products`);
    expect(await screen.findByText('The store could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('No store with this id.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'All stores' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/sales/stores/editor/${MISSING}/store-products`);
  });

  it('opens the Analytics tab when the address names none or an unknown one', async () => {
    const router = setup(`/sales/stores/editor/${MISSING}/nonsense`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/sales/stores/editor/${MISSING}/overview`));
  });
});
