import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HostProvider } from '../../shared/auth/host-context';
import { makeStore } from '../../shared/store';
import { renderWithApp } from '../../test/render';
import LoginPage from './LoginPage';

/**
 * Issue 29: past its longest wait, sign-in answers 429 `challenge_required`; the page then fetches a
 * proof-of-work challenge, solves it in the browser (altcha-lib, loaded only then) and sends the
 * sign-in again once with X-Altcha, showing only "Checking your browser…" meanwhile. Against a real
 * HTTP server that makes and checks real challenges.
 */
const SECRET = 'test secret';
let server: FastifyInstance;
let baseUrl: string;
const state = { attempts: [] as { altcha?: string; verified?: boolean }[], challenges: 0, challengeFails: false };
const slowed = (reply: FastifyReply) =>
  reply
    .status(429)
    .header('retry-after', '60')
    .send({ type: 'client_error', errors: [{ code: 'challenge_required', detail: 'Too many attempts. Try again in 1 minute(s). Please try again: your browser is asked to prove it is not a script.', attr: 'x-altcha' }] });

beforeAll(async () => {
  server = Fastify();
  server.get('/api/jwt/challenge/', async (_req, reply) => {
    state.challenges++;
    if (state.challengeFails) return reply.status(429).send({ type: 'client_error', errors: [{ code: 'throttled', detail: 'Too many attempts.', attr: null }] });
    const made = await createChallenge({ algorithm: 'PBKDF2/SHA-256', cost: 10, keyPrefix: '0', deriveKey, hmacSignatureSecret: SECRET });
    return { parameters: made.parameters, signature: made.signature };
  });
  server.post('/api/jwt/create/', async (req, reply) => {
    const header = req.headers['x-altcha'] as string | undefined;
    if (!header) {
      state.attempts.push({});
      return slowed(reply);
    }
    const { challenge, solution } = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { challenge: Challenge; solution: Solution };
    const { verified } = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: SECRET });
    state.attempts.push({ altcha: header, verified });
    if (!verified) return slowed(reply);
    return { redirect_url: '/dashboard', subdomain: 'demo' };
  });
  server.post('/api/jwt/verify/', async (_req, reply) => reply.status(401).send({ type: 'client_error', errors: [{ code: 'not_authenticated', detail: 'No session.', attr: null }] }));
  baseUrl = `${await server.listen({ port: 0, host: '127.0.0.1' })}/api`;
});
afterAll(() => server.close());
beforeEach(() => Object.assign(state, { attempts: [], challenges: 0, challengeFails: false }));

function setup() {
  const config = { base_domain: 'localhost', public_url: 'http://localhost', recaptcha_site_key: null, oidc: { enabled: false, name: '' }, map_tile_url: null };
  return renderWithApp(
    <HostProvider value={{ subdomain: 'demo', config }}>
      <LoginPage />
    </HostProvider>,
    { path: '/auth/login', store: makeStore({ apiBaseUrl: baseUrl }) },
  );
}

async function signIn() {
  await userEvent.type(screen.getByLabelText('E-mail'), 'olga@demo.test');
  await userEvent.type(screen.getByLabelText('Password'), 'right');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the sign-in page past the longest wait', () => {
  it('solves the challenge it is asked for without a word to the user, sends the sign-in again once, and signs in', async () => {
    setup();
    await signIn();
    expect(await screen.findByText('Checking your browser…')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'), { timeout: 10_000 });
    expect(state.challenges).toBe(1);
    expect(state.attempts).toHaveLength(2);
    expect(state.attempts[0]!.altcha).toBeUndefined();
    expect(state.attempts[1]!.verified).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tries once only: when no challenge can be had, it says why and waits for the user', async () => {
    state.challengeFails = true;
    setup();
    await signIn();
    expect((await screen.findByRole('alert')).textContent).toMatch(/Too many attempts/);
    expect(state.challenges).toBe(1);
    expect(state.attempts).toHaveLength(1);
    expect(screen.queryByText('Checking your browser…')).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/auth/login');
  });
});
