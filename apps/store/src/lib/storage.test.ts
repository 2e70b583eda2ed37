import { beforeEach, describe, expect, it } from 'vitest';
import { cartKey, dropCart, dropDraft, dropPayment, keepQr, loadCart, loadDraft, loadOrderSecret, loadPayment, markVisitSent, randomId, safeStorage, saveCart, saveDraft, saveOrderSecret, savePayment, visitOf } from './storage';

describe('the guest cart in localStorage, per store', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  it('keeps {id, token} under a key per store', () => {
    const s = safeStorage('localStorage');
    expect(loadCart(s, 'kayak')).toBeNull();
    saveCart(s, 'kayak', { id: 'c1', token: 'secret' });
    expect(localStorage.getItem(cartKey('kayak'))).toBe('{"id":"c1","token":"secret"}');
    expect(loadCart(s, 'kayak')).toEqual({ id: 'c1', token: 'secret' });
    expect(loadCart(s, 'hiking')).toBeNull();
    dropCart(s, 'kayak');
    expect(loadCart(s, 'kayak')).toBeNull();
  });
  it('ignores what is not a cart', () => {
    const s = safeStorage('localStorage');
    localStorage.setItem(cartKey('kayak'), 'not json');
    expect(loadCart(s, 'kayak')).toBeNull();
    localStorage.setItem(cartKey('kayak'), '{"id":"c1"}');
    expect(loadCart(s, 'kayak')).toBeNull();
  });
  it('never uses a cookie', () => {
    saveCart(safeStorage('localStorage'), 'kayak', { id: 'c1', token: 'secret' });
    expect(document.cookie).toBe('');
  });
  it('falls back to memory where storage is refused', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage')!;
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    try {
      const s = safeStorage('localStorage');
      saveCart(s, 'kayak', { id: 'c2', token: 't' });
      expect(loadCart(s, 'kayak')).toEqual({ id: 'c2', token: 't' });
    } finally {
      Object.defineProperty(globalThis, 'localStorage', original);
    }
  });
  it('makes one visit id per session and remembers it was counted', () => {
    const s = safeStorage('sessionStorage');
    const first = visitOf(s, 'kayak');
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.sent).toBe(false);
    expect(visitOf(s, 'kayak')).toEqual(first);
    markVisitSent(s, 'kayak', first.id);
    expect(visitOf(s, 'kayak')).toEqual({ id: first.id, sent: true });
    expect(visitOf(s, 'hiking').id).not.toBe(first.id);
  });
  it('keeps an order’s secret for the session', () => {
    const s = safeStorage('sessionStorage');
    saveOrderSecret(s, 'kayak', 'TD-1', 'abc');
    expect(loadOrderSecret(s, 'kayak', 'TD-1')).toBe('abc');
    expect(loadOrderSecret(s, 'kayak', 'TD-2')).toBeNull();
  });
  it('keeps a payment started on Stripe’s page for the session, per store', () => {
    const s = safeStorage('sessionStorage');
    expect(loadPayment(s, 'kayak')).toBeNull();
    savePayment(s, 'kayak', { checkout: 'k1', token: 'tok' });
    expect(sessionStorage.getItem('tourdesk.payment.kayak')).toBe('{"checkout":"k1","token":"tok"}');
    expect(loadPayment(s, 'kayak')).toEqual({ checkout: 'k1', token: 'tok' });
    expect(loadPayment(s, 'hiking')).toBeNull();
    expect(localStorage.getItem('tourdesk.payment.kayak')).toBeNull();
    sessionStorage.setItem('tourdesk.payment.hiking', '{"checkout":"k2"}');
    expect(loadPayment(s, 'hiking')).toBeNull();
    dropPayment(s, 'kayak');
    expect(loadPayment(s, 'kayak')).toBeNull();
  });
  it('keeps the checkout form while the customer pays, and drops it', () => {
    const s = safeStorage('sessionStorage');
    saveDraft(s, 'kayak', { customer: { first_name: 'Ada' }, payment: 'online' });
    expect(loadDraft(s, 'kayak')).toEqual({ customer: { first_name: 'Ada' }, payment: 'online' });
    sessionStorage.setItem('tourdesk.details.hiking', '[1]');
    expect(loadDraft(s, 'hiking')).toBeNull();
    dropDraft(s, 'kayak');
    expect(loadDraft(s, 'kayak')).toBeNull();
  });
  it('makes random ids', () => {
    expect(randomId()).not.toBe(randomId());
  });
});

describe('the QR code that brought the visitor', () => {
  beforeEach(() => sessionStorage.clear());
  it('is taken from ?qr= and kept for the session, per store; a later scan replaces it', () => {
    const s = safeStorage('sessionStorage');
    expect(keepQr(s, 'kayak', '')).toBeNull();
    expect(keepQr(s, 'kayak', '?qr=ABCDEFGH')).toBe('abcdefgh');
    expect(keepQr(s, 'kayak', '?embed=1')).toBe('abcdefgh');
    expect(keepQr(s, 'hiking', '')).toBeNull();
    expect(keepQr(s, 'kayak', '?qr=not-a-code')).toBe('abcdefgh');
    expect(keepQr(s, 'kayak', '?qr=zzzz2222')).toBe('zzzz2222');
  });
});
