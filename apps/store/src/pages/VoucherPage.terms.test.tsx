import type { TStoreVoucherOffer } from '@tourdesk/contracts';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Ctx, type StoreCtx } from '../context';
import { TCtx } from '../i18n';
import { testT } from '../lib/test-i18n';
import { VoucherPage } from './VoucherPage';

// React's act() warns unless the test environment says it uses it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const mounted: Root[] = [];

const offer: TStoreVoucherOffer = { currency: 'CHF', amounts: [5000], min: 0, max: 0, validity_months: 24, online: true };

/** The voucher page of a store whose terms address is `terms_url` (as the API gives it, stored long ago perhaps). */
async function mount(terms_url: string) {
  const ctx = {
    slug: 'kayak',
    base: '/s/kayak/',
    origin: 'http://demo.localhost',
    search: new URLSearchParams(),
    setSearch: () => undefined,
    api: { voucherOffer: async () => offer } as unknown as StoreCtx['api'],
    store: { name: 'Kayak', terms_url } as StoreCtx['store'],
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
  return root;
}

describe('the gift voucher page’s terms link', () => {
  afterEach(() => {
    act(() => mounted.splice(0).forEach((r) => r.unmount()));
    document.body.innerHTML = '';
  });

  it('links the store’s terms when they are an http(s) address, in a new tab', async () => {
    const root = await mount('https://kayak.example/terms');
    const link = root.querySelector('.td-choice a');
    expect(link?.getAttribute('href')).toBe('https://kayak.example/terms');
    expect(link?.getAttribute('rel')).toContain('noopener');
  });

  it.each(['javascript:alert(document.domain)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)'])('never links %s: the words stay, without a link', async (address) => {
    const root = await mount(address);
    const choice = root.querySelector('.td-choice');
    expect(choice).not.toBeNull();
    expect(choice!.querySelector('a')).toBeNull();
    expect(root.innerHTML).not.toContain(address.slice(0, 8));
  });
});
