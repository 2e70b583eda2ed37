import { describe, expect, it } from 'vitest';
import { commissionOf, contractRefusal, netRatesOf } from './contract';

const adult = { kind: 'category' as const, id: 'adult', quantity: 2, unit_price: 6000 };
const child = { kind: 'category' as const, id: 'child', quantity: 1, unit_price: 3300 };
const lunch = { kind: 'extra' as const, id: 'lunch', quantity: 1, unit_price: 1500 };

describe('commissionOf', () => {
  it('takes the commission of the gross, rounded down', () => {
    expect(commissionOf({ pricing: 'commission', commission_bp: 1250 }, [adult, child, lunch], {})).toBe(2100); // 12,000 + 3,300 + 1,500 = 16,800 × 12.5 %
  });
  it('by net rates: gross less each category at its net rate; extras and categories without a rate earn nothing', () => {
    expect(commissionOf({ pricing: 'net', commission_bp: 0 }, [adult, child, lunch], { adult: 5000 })).toBe(2000);
  });
  it('never below 0, a net rate above retail counting as retail', () => {
    expect(commissionOf({ pricing: 'net', commission_bp: 0 }, [adult], { adult: 9000 })).toBe(0);
  });
});

describe('netRatesOf', () => {
  it('fills a category the contract leaves blank with its rate’s net price; the contract’s own rate wins; no net price, no rate', () => {
    expect(netRatesOf({ child: 2000 }, { adult: 4000, child: 2200, senior: null, youth: undefined })).toEqual({ adult: 4000, child: 2000 });
    expect(netRatesOf(undefined, {})).toEqual({});
  });
});

describe('contractRefusal', () => {
  it('sells only while active and within its dates', () => {
    const c = { status: 'Active', valid_from: '2026-01-01', valid_to: '2026-12-31' };
    expect(contractRefusal(c, '2026-06-01')).toBeNull();
    expect(contractRefusal(c, '2025-12-31')).toMatch(/valid from 2026-01-01/);
    expect(contractRefusal(c, '2027-01-01')).toMatch(/ended on 2026-12-31/);
    expect(contractRefusal({ ...c, status: 'Suspended' }, '2026-06-01')).toMatch(/suspended/);
  });
});
