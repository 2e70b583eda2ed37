import { describe, expect, it } from 'vitest';
import { itemForm } from './item-form';

const item = (price: string) => ({ type: 'Extras', name: 'Lunch', description: '', category: null, tags: [], price, stock: null, translations: {} });

describe('an item’s price as typed', () => {
  it('takes the currency’s decimals: two for EUR, none for JPY, three for KWD', () => {
    expect(itemForm('EUR').safeParse(item('12,50')).success).toBe(true);
    expect(itemForm('JPY').safeParse(item('1250')).success).toBe(true);
    expect(itemForm('KWD').safeParse(item('1.250')).success).toBe(true);
  });
  it('refuses more decimals than the currency has, with an example in its decimals', () => {
    expect(itemForm('EUR').safeParse(item('12.505')).success).toBe(false);
    const yen = itemForm('JPY').safeParse(item('12.50'));
    expect(yen.success).toBe(false);
    expect(yen.error?.issues[0]?.message).toBe('Enter an amount such as 1250.');
    expect(itemForm('EUR').safeParse(item('twelve')).success).toBe(false);
  });
});
