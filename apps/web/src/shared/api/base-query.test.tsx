import { render, screen } from '@testing-library/react';
import Fastify, { type FastifyInstance } from 'fastify';
import { ToastContainer } from 'react-toastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUser } from '../auth/auth-slice';
import { makeStore } from '../store';
import { api } from './api';
import { SESSION_EXPIRED_MESSAGE } from './session-listener';

/**
 * The session layer against a real HTTP server (Fastify on a random port), not a mock of fetch.
 * The server keeps its own notion of "the access token is valid", switched by the refresh route.
 */
interface ServerState {
  accessValid: boolean;
  refreshCalls: number;
  protectedCalls: number;
  /** Status codes the refresh route answers with, in order; then 200. */
  refreshPlan: number[];
  /** Whether a successful refresh really makes the access token valid. */
  refreshRevives: boolean;
}

let server: FastifyInstance;
let baseUrl: string;
const state: ServerState = { accessValid: true, refreshCalls: 0, protectedCalls: 0, refreshPlan: [], refreshRevives: true };

beforeAll(async () => {
  server = Fastify();
  server.get('/api/protected/', async (_req, reply) => {
    state.protectedCalls++;
    if (!state.accessValid) {
      return reply.status(401).send({ type: 'client_error', errors: [{ code: 'not_authenticated', detail: 'Authentication credentials were not provided.', attr: null }] });
    }
    return { ok: true };
  });
  server.post('/api/jwt/refresh/', async (_req, reply) => {
    state.refreshCalls++;
    await new Promise((r) => setTimeout(r, 30));
    const planned = state.refreshPlan.shift();
    if (planned && planned !== 200) {
      return reply.status(planned).send({ type: 'client_error', errors: [{ code: 'x', detail: 'refresh failed', attr: null }] });
    }
    if (state.refreshRevives) state.accessValid = true;
    return {};
  });
  server.get('/api/slow/', async () => {
    await new Promise((r) => setTimeout(r, 500));
    return { ok: true };
  });
  server.get('/api/not-json/', async (_req, reply) => reply.type('application/json').send('<html>oops</html>'));
  server.get('/api/invalid/', async (_req, reply) =>
    reply.status(400).send({
      type: 'validation_error',
      errors: [
        { code: 'invalid', detail: 'Price must be a whole number.', attr: 'price' },
        { code: 'required', detail: 'This field is required.', attr: 'title' },
      ],
    }),
  );
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { accessValid: true, refreshCalls: 0, protectedCalls: 0, refreshPlan: [], refreshRevives: true }));

const testApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, { path: string; n?: number }>({ query: ({ path }) => path }),
  }),
  overrideExisting: true,
});

function setup(extra: { requestTimeoutMs?: number } = {}) {
  const store = makeStore({ apiBaseUrl: baseUrl, refreshBackoffMs: 5, ...extra });
  store.dispatch(setUser({ role: null, base_account: null }));
  render(<ToastContainer />);
  const call = (path: string, n = 0) => store.dispatch(testApi.endpoints.probe.initiate({ path, n }));
  return { store, call };
}

describe('session refresh', () => {
  it('refreshes once on a 401 and repeats the original request once', async () => {
    const { call } = setup();
    state.accessValid = false;
    const result = await call('protected/');
    expect(result.data).toEqual({ ok: true });
    expect(state.refreshCalls).toBe(1);
    expect(state.protectedCalls).toBe(2);
  });

  it('shares one refresh between concurrent 401s', async () => {
    const { call } = setup();
    state.accessValid = false;
    const results = await Promise.all([1, 2, 3, 4].map((n) => call('protected/', n)));
    expect(results.every((r) => (r.data as { ok: boolean })?.ok)).toBe(true);
    expect(state.refreshCalls).toBe(1);
  });

  it('retries a refresh that fails for a transient reason', async () => {
    const { call, store } = setup();
    state.accessValid = false;
    state.refreshPlan = [503, 502];
    const result = await call('protected/');
    expect(result.data).toEqual({ ok: true });
    expect(state.refreshCalls).toBe(3);
    expect(store.getState().auth.status).toBe('authenticated');
  });

  it('gives up after 5 retries, logs out and says so', async () => {
    const { call, store } = setup();
    state.accessValid = false;
    state.refreshPlan = [503, 503, 503, 503, 503, 503, 503];
    const result = await call('protected/');
    expect(result.data).toBeUndefined();
    expect(state.refreshCalls).toBe(6); // the first attempt and 5 retries
    expect(store.getState().auth.status).toBe('unauthenticated');
    expect(await screen.findByText(SESSION_EXPIRED_MESSAGE)).toBeInTheDocument();
    // Cached responses of the ended session are gone.
    expect(store.getState().api.queries).toEqual({});
  });

  it('logs out at once when the refresh token is refused', async () => {
    const { call, store } = setup();
    state.accessValid = false;
    state.refreshPlan = [401];
    await call('protected/');
    expect(state.refreshCalls).toBe(1);
    expect(store.getState().auth.status).toBe('unauthenticated');
    expect(await screen.findByText(SESSION_EXPIRED_MESSAGE)).toBeInTheDocument();
  });

  it('says nothing to someone who was never signed in, and keeps the cache', async () => {
    const store = makeStore({ apiBaseUrl: baseUrl, refreshBackoffMs: 5 });
    render(<ToastContainer />);
    state.accessValid = false;
    state.refreshPlan = [401];
    await store.dispatch(testApi.endpoints.probe.initiate({ path: 'protected/' }));
    expect(store.getState().auth.status).toBe('unauthenticated');
    expect(Object.keys(store.getState().api.queries)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(SESSION_EXPIRED_MESSAGE)).toBeNull();
  });

  it('repeats the original request only once', async () => {
    const { call } = setup();
    state.accessValid = false;
    state.refreshRevives = false; // refresh says yes, but the access token stays invalid
    const result = await call('protected/');
    expect(result.error).toMatchObject({ status: 401 });
    expect(state.protectedCalls).toBe(2);
    expect(state.refreshCalls).toBe(1);
  });
});

describe('error kinds', () => {
  it('reports a timeout as TIMEOUT_ERROR', async () => {
    const { call } = setup({ requestTimeoutMs: 100 });
    const result = await call('slow/');
    expect(result.error).toMatchObject({ status: 'TIMEOUT_ERROR' });
  });

  it('reports an unreachable server as FETCH_ERROR', async () => {
    const store = makeStore({ apiBaseUrl: 'http://127.0.0.1:9/api' });
    const result = await store.dispatch(testApi.endpoints.probe.initiate({ path: 'protected/' }));
    expect(result.error).toMatchObject({ status: 'FETCH_ERROR' });
  });

  it('reports an unreadable body as PARSING_ERROR with the status and raw text', async () => {
    const { call } = setup();
    const result = await call('not-json/');
    expect(result.error).toMatchObject({ status: 'PARSING_ERROR', originalStatus: 200, data: '<html>oops</html>' });
  });

  it('keeps an HTTP error’s status and parsed body, and toasts one message per item', async () => {
    const { call } = setup();
    const result = await call('invalid/');
    expect(result.error).toMatchObject({ status: 400, data: { type: 'validation_error' } });
    expect(await screen.findByText('Price must be a whole number.')).toBeInTheDocument();
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
  });
});
