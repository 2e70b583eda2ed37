import { describe, expect, it } from 'vitest';
import { matchRoute } from './router';

describe('the store’s routes', () => {
  const base = '/s/kayak/';
  it('matches every page', () => {
    expect(matchRoute('/s/kayak/', base)).toEqual({ page: 'store' });
    expect(matchRoute('/s/kayak', base)).toEqual({ page: 'store' });
    expect(matchRoute('/s/kayak/offers/0b6f6d2e-1111-4a4a-8888-123456789abc', base)).toEqual({ page: 'offer', id: '0b6f6d2e-1111-4a4a-8888-123456789abc' });
    expect(matchRoute('/s/kayak/checkout', base)).toEqual({ page: 'checkout' });
    expect(matchRoute('/s/kayak/checkout/', base)).toEqual({ page: 'checkout' });
    expect(matchRoute('/s/kayak/confirmation/TD-123', base)).toEqual({ page: 'confirmation', reference: 'TD-123' });
    expect(matchRoute('/s/kayak/booking/TD-123', base)).toEqual({ page: 'booking', reference: 'TD-123' });
    expect(matchRoute('/s/kayak/payment/0b6f6d2e-1111-4a4a-8888-123456789abc', base)).toEqual({ page: 'payment', checkout: '0b6f6d2e-1111-4a4a-8888-123456789abc' });
  });
  it('answers not found for anything else', () => {
    expect(matchRoute('/s/kayak/nowhere', base)).toEqual({ page: 'not_found' });
    expect(matchRoute('/s/kayak/offers', base)).toEqual({ page: 'not_found' });
    expect(matchRoute('/s/kayak/payment', base)).toEqual({ page: 'not_found' });
    expect(matchRoute('/s/kayak/offers/a/b', base)).toEqual({ page: 'not_found' });
    expect(matchRoute('/s/other/', base)).toEqual({ page: 'not_found' });
  });
});
