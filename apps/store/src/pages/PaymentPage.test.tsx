import type { TWebOrder } from '@tourdesk/contracts';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Ctx, type StoreCtx } from '../context';
import { TCtx } from '../i18n';
import { testT } from '../lib/test-i18n';
import { ApiError, type PaymentState } from '../lib/api';
import { placedOrder } from '../lib/orders';
import { loadOrderSecret, loadPayment, safeStorage, savePayment } from '../lib/storage';
import { PaymentPage, POLL_MS, POLL_TRIES } from './PaymentPage';

// React's act() warns unless the test environment says it uses it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
/** The roots a test drew, unmounted after it. */
const mounted: Root[] = [];

const order = { reference: 'TD-9', manage_url: 'http://demo.localhost/s/kayak/booking/TD-9#sec%2Fret' } as TWebOrder;

/** The page in a store whose API answers `answers` in turn (the last one again when they run out). */
function mount(answers: (PaymentState | ApiError)[]) {
  const asked: string[] = [];
  const navigate = vi.fn();
  const payment = vi.fn(async (checkout: string, proof: { token?: string | null; session?: string | null }) => {
    asked.push(`${checkout} ${proof.token ?? `session ${proof.session}`}`);
    const next = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (next instanceof ApiError) throw next;
    return next;
  });
  const ctx = {
    slug: 'kayak',
    base: '/s/kayak/',
    origin: 'http://demo.localhost',
    search: new URLSearchParams(),
    setSearch: () => undefined,
    api: { payment } as unknown as StoreCtx['api'],
    store: { name: 'Kayak' } as StoreCtx['store'],
    embed: false,
    language: 'en',
    languages: ['en'],
    hour12: false,
    inLanguage: (_l: string, p: string) => `/s/kayak/${p}`,
    link: (p: string) => `/s/kayak/${p}`,
    navigate,
    cart: null,
    setCart: () => undefined,
    refreshCart: async () => null,
    toast: () => undefined,
    takeFocus: () => false,
  } satisfies StoreCtx;
  const root = document.createElement('div');
  document.body.appendChild(root);
  const react = createRoot(root);
  mounted.push(react);
  act(() =>
    react.render(
      <TCtx.Provider value={testT()}>
        <Ctx.Provider value={ctx}>
          <PaymentPage checkout="k1" />
        </Ctx.Provider>
      </TCtx.Provider>,
    ),
  );
  return { root, asked, navigate };
}
/** Lets the page's timers and answers run for `ms`. */
const pass = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

describe('the page Stripe brings the customer back to', () => {
  beforeEach(() => {
    sessionStorage.clear();
    vi.useFakeTimers();
  });
  afterEach(() => {
    act(() => mounted.splice(0).forEach((r) => r.unmount()));
    vi.useRealTimers();
    document.body.innerHTML = '';
    history.replaceState(null, '', '/');
  });

  it('asks until the payment is paid, then shows the confirmation of its order', async () => {
    savePayment(safeStorage('sessionStorage'), 'kayak', { checkout: 'k1', token: 'tok' });
    const { asked, navigate, root } = mount([{ status: 'open', order: null }, { status: 'open', order: null }, { status: 'paid', order }]);
    expect(root.textContent).toContain('Checking your payment');
    await pass(POLL_MS * 3);
    expect(asked).toEqual(['k1 tok', 'k1 tok', 'k1 tok']);
    expect(navigate).toHaveBeenCalledWith('confirmation/TD-9', { replace: true });
    expect(placedOrder('TD-9')).toBe(order);
    expect(loadOrderSecret(safeStorage('sessionStorage'), 'kayak', 'TD-9')).toBe('sec/ret');
    expect(loadPayment(safeStorage('sessionStorage'), 'kayak')).toBeNull();
  });

  it('says it is still checking after a while, and asks again on request', async () => {
    savePayment(safeStorage('sessionStorage'), 'kayak', { checkout: 'k1', token: 'tok' });
    const { asked, root } = mount([{ status: 'open', order: null }]);
    await pass(POLL_MS * (POLL_TRIES + 5));
    expect(asked).toHaveLength(POLL_TRIES);
    expect(root.textContent).toContain('still waiting for word of your payment');
    const retry = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Check again')!;
    await act(() => retry.click());
    await pass(POLL_MS);
    expect(asked.length).toBeGreaterThan(POLL_TRIES);
  });

  it('explains a refund, and a payment page that ran out', async () => {
    savePayment(safeStorage('sessionStorage'), 'kayak', { checkout: 'k1', token: 'tok' });
    const refunded = mount([{ status: 'refunded', order: null }]);
    await pass(10);
    expect(refunded.root.querySelector('h1')!.textContent).toBe('Your payment was refunded');
    expect(refunded.root.textContent).toContain('refunded the full amount');

    savePayment(safeStorage('sessionStorage'), 'kayak', { checkout: 'k1', token: 'tok' });
    const expired = mount([{ status: 'expired', order: null }]);
    await pass(10);
    expect(expired.root.querySelector('h1')!.textContent).toBe('The payment page has expired');
    expect(expired.root.textContent).toContain('your seats were released');
  });

  it('without the secret but with Stripe’s session id, says a paid order is booked and its link is in the e-mail', async () => {
    history.replaceState(null, '', '/s/kayak/payment/k1?session_id=cs_9');
    const { asked, navigate, root } = mount([{ status: 'open', order: null }, { status: 'paid', order: { ...order, manage_url: 'http://demo.localhost/s/kayak/' } }]);
    await pass(POLL_MS * 2);
    expect(asked[0]).toBe('k1 session cs_9');
    expect(navigate).not.toHaveBeenCalled();
    expect(root.querySelector('h1')!.textContent).toBe('Thank you!');
    expect(root.textContent).toContain('The confirmation e-mail has your tickets');
  });

  it('without the payment’s secret or Stripe’s session id in this browser, points to the e-mail', async () => {
    const { asked, root } = mount([{ status: 'paid', order }]);
    await pass(POLL_MS * 2);
    expect(asked).toEqual([]);
    expect(root.textContent).toContain('We cannot find this payment in this browser');
  });
});
