import type { TWebOrder } from '@tourdesk/contracts';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Ctx, type StoreCtx } from '../context';
import { TCtx } from '../i18n';
import { testT } from '../lib/test-i18n';
import { BookingPage } from './BookingPage';

// React's act() warns unless the test environment says it uses it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
/** The roots a test drew, unmounted after it. */
const mounted: Root[] = [];

/**
 * The customer's booking page: before cancelling it says what the policy refunds and what it
 * keeps (the cancellation fee); after, what was kept, what was refunded and what is still to be
 * refunded — in the order's currency, with its own decimals.
 */
const OPEN: TWebOrder = {
  reference: 'TD-77',
  status: 'Confirmed',
  payment_status: 'Fully paid',
  currency: 'CHF',
  total: 9800,
  paid: 9800,
  refunded: 0,
  cancellation_fee: 0,
  discount: null,
  balance_due_on: null,
  customer: { first_name: 'Nina', last_name: 'Graf', email: 'nina@example.com' },
  bookings: [
    {
      id: '00000000-0000-4000-8000-0000000000b7',
      offer_title: 'Sunrise kayak',
      starts_at: '2026-06-01T05:00:00.000Z',
      time_zone: 'Europe/Zurich',
      status: 'Confirmed',
      ticket_code: 'ABCDEF123456',
      items: [{ kind: 'category', label: 'Adult', quantity: 2, unit_price: 4900, total: 9800 }],
      total: 9800,
      meeting_point: null,
    },
  ],
  manage_url: 'http://demo.localhost/s/kayak/booking/TD-77#secret',
  cancellation: { allowed: true, refund: 4900, fee: 4900, reason: 'Cancel now and 50 % of what you paid is refunded.' },
  partner_booking: false,
  questions_owed: [],
};
const CANCELLED: TWebOrder = {
  ...OPEN,
  status: 'Canceled',
  payment_status: 'Refund due',
  total: 4900,
  cancellation_fee: 4900,
  bookings: OPEN.bookings.map((b) => ({ ...b, status: 'Canceled' })),
  cancellation: { allowed: false, refund: 0, fee: 0, reason: 'This order is cancelled.' },
};

function mount(first: TWebOrder, afterCancel: TWebOrder, afterAnswers: TWebOrder = first) {
  history.replaceState(null, '', '/s/kayak/booking/TD-77#secret');
  const cancelOrder = vi.fn(async () => afterCancel);
  const answerQuestions = vi.fn(async () => afterAnswers);
  const ctx = {
    slug: 'kayak',
    base: '/s/kayak/',
    origin: 'http://demo.localhost',
    search: new URLSearchParams(),
    setSearch: () => undefined,
    api: { myOrder: async () => first, cancelOrder, answerQuestions } as unknown as StoreCtx['api'],
    store: { name: 'Kayak' } as StoreCtx['store'],
    embed: false,
    language: 'en',
    languages: ['en'],
    hour12: false,
    inLanguage: (_l: string, p: string) => `/s/kayak/${p}`,
    link: (p: string) => `/s/kayak/${p}`,
    navigate: () => undefined,
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
          <BookingPage reference="TD-77" />
        </Ctx.Provider>
      </TCtx.Provider>,
    ),
  );
  return { root, cancelOrder, answerQuestions };
}
const settle = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));
const click = (root: HTMLElement, text: string) =>
  act(() => [...root.querySelectorAll('button')].find((b) => b.textContent === text)!.click());
const byTestId = (root: HTMLElement, id: string) => root.querySelector(`[data-testid="${id}"]`)?.textContent?.replace(/\u00a0/g, ' ');

describe('the customer’s booking page', () => {
  afterEach(() => {
    act(() => mounted.splice(0).forEach((r) => r.unmount()));
    document.body.innerHTML = '';
    history.replaceState(null, '', '/');
  });

  it('says what cancelling refunds and keeps, then what was kept and what is still to be refunded', async () => {
    const { root, cancelOrder } = mount(OPEN, CANCELLED);
    await settle();
    click(root, 'Cancel booking');
    expect(root.querySelector('.td-confirm-title')!.textContent!.replace(/\u00a0/g, ' ')).toBe('Cancel booking TD-77? You will be refunded CHF 49.00. CHF 49.00 is kept as the cancellation fee.');
    click(root, 'Yes, cancel it');
    await settle();
    expect(cancelOrder).toHaveBeenCalledWith('TD-77', 'secret');
    expect(root.querySelector('#td-settlement-heading')?.textContent).toBe('What you paid');
    expect(byTestId(root, 'cancellation-fee')).toBe('CHF 49.00');
    expect(byTestId(root, 'to-be-refunded')).toBe('CHF 49.00');
    expect(byTestId(root, 'refunded')).toBeUndefined();
  });

  it('once the rest is refunded, shows it refunded and nothing more to come', async () => {
    const { root } = mount({ ...CANCELLED, payment_status: 'Fully paid', paid: 4900, refunded: 4900 }, CANCELLED);
    await settle();
    expect(byTestId(root, 'cancellation-fee')).toBe('CHF 49.00');
    expect(byTestId(root, 'refunded')).toBe('CHF 49.00');
    expect(byTestId(root, 'to-be-refunded')).toBeUndefined();
  });

  it('in yen, whole units', async () => {
    const { root } = mount({ ...CANCELLED, currency: 'JPY', total: 500, paid: 999, cancellation_fee: 500 }, CANCELLED);
    await settle();
    expect(byTestId(root, 'cancellation-fee')).toMatch(/^(JP)?¥500$/);
    expect(byTestId(root, 'to-be-refunded')).toMatch(/^(JP)?¥499$/);
  });

  it('shows nothing of the kind for an order cancelled with nothing paid, nor for an open one', async () => {
    const { root } = mount({ ...CANCELLED, total: 0, paid: 0, cancellation_fee: 0, payment_status: 'Not paid' }, CANCELLED);
    await settle();
    expect(root.querySelector('#td-settlement-heading')).toBeNull();
    document.body.innerHTML = '';
    const open = mount(OPEN, CANCELLED);
    await settle();
    expect(open.root.querySelector('#td-settlement-heading')).toBeNull();
  });

  it('asks the questions a partner’s booking still owes and sends the answers as stored; then the form is gone', async () => {
    const swim = '00000000-0000-4000-8000-00000000005a';
    const owing: TWebOrder = { ...OPEN, partner_booking: true, cancellation: { allowed: false, refund: 0, fee: 0, reason: 'Booked through a partner.' }, questions_owed: [{ id: swim, question: 'Can everyone swim?', answer_type: 'yes_no', choices: [], labels: [] }] };
    const { root, answerQuestions } = mount(owing, CANCELLED, { ...owing, questions_owed: [] });
    await settle();
    expect(byTestId(root, 'cancel-reason')).toBe('You booked this through a partner: ask them to change or cancel it.');
    expect([...root.querySelectorAll('button')].some((b) => b.textContent === 'Cancel booking')).toBe(false);
    const form = root.querySelector('[data-testid="owed-answers"]')!;
    expect(form.textContent).toContain('Can everyone swim?');
    act(() => (form.querySelector('input[value="yes"]') as HTMLInputElement).click());
    act(() => (form as HTMLFormElement).requestSubmit());
    await settle();
    expect(answerQuestions).toHaveBeenCalledWith('TD-77', 'secret', { [swim]: 'yes' });
    expect(root.querySelector('[data-testid="owed-answers"]')).toBeNull();
  });
});
