import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApi } from './api';
import { cartKey } from './storage';

/** A fetch that answers from a list of [status, body] and records what was asked. */
function fakeFetch(answers: [number, unknown][]) {
  const calls: { url: string; method: string; headers: Record<string, string>; body?: unknown; cache?: RequestCache }[] = [];
  const fn = vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body ? JSON.parse(String(init.body)) : undefined, cache: init.cache });
    const [status, body] = answers.shift() ?? [500, {}];
    return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}
const lost = [404, { type: 'client_error', errors: [{ code: 'not_found', detail: 'No such cart: it may have been emptied. Choose your times again.', attr: null }] }] as [number, unknown];
const cart = (id: string, language: 'en' | 'de' | 'fr' = 'en') => ({ id, currency: 'CHF', lines: [], total: 0, expires_at: null, sold_by: null, payable_online: false, language });
const line = { slot: 's1', quantities: { adult: 2 }, extras: {} };

describe('the guest cart through the API', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('makes the cart on the first hold, keeps it in localStorage and proves it with X-Cart-Token', async () => {
    const calls = fakeFetch([[201, { id: 'c1', token: 't1' }], [201, cart('c1')], [201, cart('c1')]]);
    const api = createApi('kayak');
    await api.hold(line);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/web-stores/kayak/carts/', 'POST /api/web-stores/kayak/carts/c1/lines/']);
    expect(calls[1]!.headers['x-cart-token']).toBe('t1');
    expect(calls[1]!.body).toEqual(line);
    expect(JSON.parse(localStorage.getItem(cartKey('kayak'))!)).toEqual({ id: 'c1', token: 't1' });
    // The next hold, even from a new page, uses the same cart.
    await createApi('kayak').hold(line);
    expect(calls[2]!.url).toBe('/api/web-stores/kayak/carts/c1/lines/');
  });

  it('speaks the page’s language: Accept-Language on every call, the new cart made in it, a cart in another taken along', async () => {
    const calls = fakeFetch([[200, { results: [] }], [201, { id: 'c1', token: 't1' }], [201, cart('c1', 'de')], [200, cart('c1', 'fr')]]);
    const api = createApi('kayak', 'de');
    await api.offers();
    await api.hold(line);
    expect(calls.map((c) => c.headers['accept-language'])).toEqual(['de', 'de', 'de']);
    expect(calls[1]!.body).toEqual({ language: 'de' });
    // The same cart read by the French page: its language follows (same id, same secret), once.
    const french = createApi('kayak', 'fr');
    expect(await french.keepLanguage(cart('c1', 'de'))).toEqual(cart('c1', 'fr'));
    expect(calls[3]).toMatchObject({ method: 'PATCH', url: '/api/web-stores/kayak/carts/c1/', body: { language: 'fr' } });
    expect(calls[3]!.headers['x-cart-token']).toBe('t1');
    expect(await french.keepLanguage(cart('c1', 'fr'))).toEqual(cart('c1', 'fr'));
    expect(calls).toHaveLength(4);
  });

  it('sends the QR code that brought the visitor with the new cart and each hold', async () => {
    sessionStorage.setItem('tourdesk.qr.kayak', 'abcd2345');
    const calls = fakeFetch([[201, { id: 'c1', token: 't1' }], [201, cart('c1')]]);
    await createApi('kayak').hold(line);
    expect(calls.map((c) => c.headers['x-qr-code'])).toEqual(['abcd2345', 'abcd2345']);
    sessionStorage.clear();
  });

  it('drops a cart the server no longer knows and holds in a new one', async () => {
    localStorage.setItem(cartKey('kayak'), JSON.stringify({ id: 'old', token: 'gone' }));
    const calls = fakeFetch([lost, [201, { id: 'c2', token: 't2' }], [201, cart('c2')]]);
    const held = await createApi('kayak').hold(line);
    expect(held.id).toBe('c2');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/web-stores/kayak/carts/old/lines/',
      'POST /api/web-stores/kayak/carts/',
      'POST /api/web-stores/kayak/carts/c2/lines/',
    ]);
    expect(JSON.parse(localStorage.getItem(cartKey('kayak'))!)).toEqual({ id: 'c2', token: 't2' });
  });

  it('takes the new id of a cart that moved to the offer’s seller, keeping its secret', async () => {
    localStorage.setItem(cartKey('kayak'), JSON.stringify({ id: 'mine', token: 't1' }));
    const calls = fakeFetch([[201, cart('theirs')], [201, cart('theirs')]]);
    const api = createApi('kayak');
    expect((await api.hold(line)).id).toBe('theirs');
    expect(JSON.parse(localStorage.getItem(cartKey('kayak'))!)).toEqual({ id: 'theirs', token: 't1' });
    await api.hold(line);
    expect(calls[1]!.url).toBe('/api/web-stores/kayak/carts/theirs/lines/');
    expect(calls[1]!.headers['x-cart-token']).toBe('t1');
  });

  it('forgets a lost cart when reading it', async () => {
    localStorage.setItem(cartKey('kayak'), JSON.stringify({ id: 'old', token: 'gone' }));
    fakeFetch([lost]);
    expect(await createApi('kayak').cart()).toBeNull();
    expect(localStorage.getItem(cartKey('kayak'))).toBeNull();
  });

  it('passes other refusals on with the server’s words and keeps the cart', async () => {
    localStorage.setItem(cartKey('kayak'), JSON.stringify({ id: 'c1', token: 't1' }));
    fakeFetch([[409, { type: 'client_error', errors: [{ code: 'sold_out', detail: 'Only 1 seat left.', attr: 'quantities' }] }]]);
    const error = await createApi('kayak').hold(line).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).message).toBe('Only 1 seat left.');
    expect((error as ApiError).about('quantities')?.code).toBe('sold_out');
    expect(localStorage.getItem(cartKey('kayak'))).not.toBeNull();
  });

  it('asks availability past the HTTP cache right after its own hold', async () => {
    const calls = fakeFetch([[200, { month: '2026-06', time_zone: 'Europe/Zurich', days: [] }], [201, { id: 'c1', token: 't1' }], [201, cart('c1')], [200, { month: '2026-06', time_zone: 'Europe/Zurich', days: [] }]]);
    // Long after the holds of the tests before.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    const api = createApi('kayak');
    await api.month('o1', '2026-06');
    expect(calls[0]!.cache).toBe('default');
    await api.hold(line);
    await api.month('o1', '2026-06');
    expect(calls[3]!.cache).toBe('no-cache');
    vi.useRealTimers();
  });

  it('sends the order’s secret as X-Order-Token', async () => {
    const calls = fakeFetch([[200, { reference: 'TD-1' }]]);
    await createApi('kayak').myOrder('TD-1', 's3cret');
    expect(calls[0]).toMatchObject({ url: '/api/web-stores/kayak/orders/TD-1/', headers: { 'x-order-token': 's3cret' } });
  });

  it('starts paying online with the cart’s token, and asks about the payment with its secret', async () => {
    localStorage.setItem(cartKey('kayak'), JSON.stringify({ id: 'c1', token: 't1' }));
    const started = { checkout: 'k1', payment_url: 'https://pay.example/cs_1', token: 'sec' };
    const calls = fakeFetch([[201, started], [200, { status: 'open', order: null }], [200, { status: 'open', order: null }]]);
    const api = createApi('kayak');
    const customer = { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' };
    expect(await api.startPayment({ lines: ['l1'], customer, accept_terms: true })).toEqual(started);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/web-stores/kayak/payments/', headers: { 'x-cart-token': 't1' } });
    expect(calls[0]!.body).toEqual({ lines: ['l1'], customer, accept_terms: true, payment_option: 'online', cart: 'c1' });
    expect(await api.payment('k1', { token: 'sec', session: 'cs_1' })).toEqual({ status: 'open', order: null });
    expect(calls[1]).toMatchObject({ method: 'GET', url: '/api/web-stores/kayak/payments/k1/', headers: { 'x-order-token': 'sec' }, cache: 'no-store' });
    // A tab that lost the secret proves itself with Stripe's session id.
    await api.payment('k1', { session: 'cs_1' });
    expect(calls[2]).toMatchObject({ method: 'GET', url: '/api/web-stores/kayak/payments/k1/?session_id=cs_1' });
    expect(calls[2]!.headers).not.toHaveProperty('x-order-token');
  });
});
