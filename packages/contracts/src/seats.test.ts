import { describe, expect, it } from 'vitest';
import { seatsForSale } from './seats';

describe('seats for sale', () => {
  it('are the remaining seats of an open departure, none of a closed one, never fewer than none', () => {
    expect(seatsForSale({ bookable: true, remaining: 7 })).toBe(7);
    expect(seatsForSale({ bookable: false, remaining: 7 })).toBe(0);
    expect(seatsForSale({ bookable: true, remaining: -2 })).toBe(0);
  });
});
