import type { TStoreVoucherOffer } from '@tourdesk/contracts';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Ctx, type StoreCtx } from '../context';
import { TCtx } from '../i18n';
import { testT } from '../lib/test-i18n';
import { VoucherPage } from './VoucherPage';

// React's act() warns unless the test environment says it uses it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const mounted: Root[] = [];

/** The voucher page of a store selling vouchers in `currency` from 1 to 100,000 of its major unit, any amount. */
async function mount(currency: string, minor: { min: number; max: number }) {
  const offer: TStoreVoucherOffer = { currency, amounts: [], ...minor, validity_months: 12, online: true };
  // Never answers: the test reads what the page asked for, and no payment page is opened.
  const buyVoucher = vi.fn((_input: { amount: number }) => new Promise<never>(() => undefined));
  const ctx = {
    slug: 'kayak',
    base: '/s/kayak/',
    origin: 'http://demo.localhost',
    search: new URLSearchParams(),
    setSearch: () => undefined,
    api: { voucherOffer: async () => offer, buyVoucher } as unknown as StoreCtx['api'],
    store: { name: 'Kayak', terms_url: null } as unknown as StoreCtx['store'],
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
  await act(async () =>
    react.render(
      <TCtx.Provider value={testT()}>
        <Ctx.Provider value={ctx}>
          <VoucherPage />
        </Ctx.Provider>
      </TCtx.Provider>,
    ),
  );
  return { root, buyVoucher };
}

/** Types `value` into an input the way a person does (React reads the native value setter's change). */
function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Fills the form with one's own amount `own` and submits it. */
async function buy(root: HTMLElement, own: string) {
  type(root.querySelector<HTMLInputElement>('#td-v-amount')!, own);
  type(root.querySelector<HTMLInputElement>('#td-v-buyer_name')!, 'Ann Buyer');
  type(root.querySelector<HTMLInputElement>('#td-v-buyer_email')!, 'ann@example.com');
  act(() => root.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click());
  await act(async () => root.querySelector<HTMLFormElement>('form')!.requestSubmit());
}

describe('the gift voucher page', () => {
  afterEach(() => {
    act(() => mounted.splice(0).forEach((r) => r.unmount()));
    document.body.innerHTML = '';
  });

  it('asks for one’s own amount in the currency’s minor units: two decimals for EUR', async () => {
    const { root, buyVoucher } = await mount('EUR', { min: 100, max: 10_000_000 });
    await buy(root, '49,90');
    expect(buyVoucher).toHaveBeenCalledWith(expect.objectContaining({ amount: 4990 }));
  });

  it('reads an amount in yen as whole yen', async () => {
    const { root, buyVoucher } = await mount('JPY', { min: 1, max: 100_000 });
    await buy(root, '5000');
    expect(buyVoucher).toHaveBeenCalledWith(expect.objectContaining({ amount: 5000 }));
  });

  it('reads an amount in dinars with three decimals', async () => {
    const { root, buyVoucher } = await mount('KWD', { min: 1000, max: 100_000_000 });
    await buy(root, '12.345');
    expect(buyVoucher).toHaveBeenCalledWith(expect.objectContaining({ amount: 12345 }));
  });

  it('refuses more decimals than the currency has, and asks for nothing', async () => {
    const { root, buyVoucher } = await mount('JPY', { min: 1, max: 100_000 });
    await buy(root, '50.5');
    expect(buyVoucher).not.toHaveBeenCalled();
    expect(root.querySelector('#td-v-amount-error')).not.toBeNull();
  });
});
