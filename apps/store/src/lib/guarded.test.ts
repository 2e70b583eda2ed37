import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApi } from './api';

/**
 * The store's writes that the server may ask to carry a solved challenge (api.ts#guarded), against
 * a real HTTP server that signs real ALTCHA challenges and checks the solutions with altcha-lib, as
 * the API does (apps/api/src/lib/challenge.ts): the page solves in the background and sends the
 * call again once, with the solution in X-Altcha.
 */
const SECRET = 'a test secret';
const challengeRequired = { type: 'client_error', errors: [{ code: 'challenge_required', detail: 'Please try again.', attr: 'x-altcha' }] };

interface Seen {
  method: string;
  url: string;
  altcha: string | undefined;
  /** Whether X-Altcha carried a solution of a challenge this server signed. */
  verified: boolean;
}

let server: Server;
let origin = '';
let seen: Seen[] = [];
/** How the server answers a write: the handler decides from what it saw (null: 201 with `made`). */
let refuse: (s: Seen) => boolean = () => false;

async function verified(header: string | undefined) {
  if (!header) return false;
  try {
    const { challenge, solution } = JSON.parse(atob(header));
    return (await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: SECRET })).verified;
  } catch {
    return false;
  }
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  for await (const _ of req) void _;
  const altcha = req.headers['x-altcha'] as string | undefined;
  const s: Seen = { method: req.method ?? 'GET', url: req.url ?? '', altcha, verified: await verified(altcha) };
  seen.push(s);
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (s.url.endsWith('/challenge/')) {
    const made = await createChallenge({ algorithm: 'PBKDF2/SHA-256', cost: 50, keyPrefix: '0', deriveKey, hmacSignatureSecret: SECRET, expiresAt: new Date(Date.now() + 60_000) });
    return send(200, { parameters: made.parameters, signature: made.signature });
  }
  if (refuse(s)) return send(403, challengeRequired);
  if (s.url.endsWith('/carts/')) return send(201, { id: 'c1', token: 't1' });
  if (s.url.endsWith('/orders/')) return send(201, { reference: 'R-1' });
  return send(201, { id: 'c1', currency: 'CHF', lines: [], total: 0, expires_at: null, sold_by: null, payable_online: false, language: 'en' });
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a write the server asks to carry a solved challenge', () => {
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    localStorage.clear();
    seen = [];
    refuse = () => false;
    // The page's calls are same-origin paths: sent to the test server.
    vi.stubGlobal('fetch', (path: string, init?: RequestInit) => realFetch(origin + path, init));
  });
  afterEach(() => vi.unstubAllGlobals());

  const writes = () => seen.filter((s) => !s.url.endsWith('/challenge/'));
  const line = { slot: 's1', quantities: { adult: 2 }, extras: {} };

  it('is sent again once, with a challenge solved in the background, when the server answers challenge_required', async () => {
    refuse = (s) => s.url.endsWith('/lines/') && !s.verified;
    await createApi('kayak').hold(line);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /api/web-stores/kayak/carts/',
      'POST /api/web-stores/kayak/carts/c1/lines/',
      'GET /api/web-stores/kayak/challenge/',
      'POST /api/web-stores/kayak/carts/c1/lines/',
    ]);
    // The first hold carried nothing; the one sent again a solution the server accepts.
    expect(writes().map((s) => [s.altcha !== undefined, s.verified])).toEqual([
      [false, false],
      [false, false],
      [true, true],
    ]);
  });

  it('asks nothing of a customer the server does not ask: no challenge fetched, no header sent', async () => {
    await createApi('kayak').hold(line);
    expect(seen.map((s) => s.url)).toEqual(['/api/web-stores/kayak/carts/', '/api/web-stores/kayak/carts/c1/lines/']);
    expect(seen.every((s) => s.altcha === undefined)).toBe(true);
  });

  it('sends it again only once: a second refusal is the customer’s error, not a loop', async () => {
    refuse = (s) => s.url.endsWith('/carts/');
    const error = await createApi('kayak')
      .hold(line)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errors[0]!.code).toBe('challenge_required');
    expect(writes().map((s) => [s.url, s.verified])).toEqual([
      ['/api/web-stores/kayak/carts/', false],
      ['/api/web-stores/kayak/carts/', true],
    ]);
  });

  it('carries a solved challenge on the first try of a pay-on-site order (prepared when the checkout opened)', async () => {
    refuse = (s) => s.url.endsWith('/orders/') && !s.verified;
    const api = createApi('kayak');
    await api.hold(line);
    api.prepareChallenge();
    await api.order({ payment_option: 'pay_on_site', customer: { first_name: 'Mia', last_name: 'Paddler', email: 'mia@example.com' }, lines: [], answers: {}, accept_terms: true } as never);
    const orders = writes().filter((s) => s.url.endsWith('/orders/'));
    expect(orders).toHaveLength(1);
    expect(orders[0]!.verified).toBe(true);
  });
});
