import { describe, expect, it } from 'vitest';
import type { TCart, THeldLine } from '@tourdesk/contracts';
import { displayAnswer, estimateTotal, lineErrors, positiveCounts, questionLabel, seatColor, validateAnswer, weekOf, withHeldLine } from './booking-logic';

describe('withHeldLine', () => {
  const line = (id: string, total: number, expires_at: string) => ({
    id,
    slot: 's',
    experience: 'e',
    experience_title: 'Kayak',
    starts_at: '2026-12-01T09:00:00.000Z',
    quantities: { adult: 1 },
    extras: {},
    seats: 1,
    total,
    currency: 'EUR',
    expires_at,
    items: [{ kind: 'category' as const, id: 'adult', label: 'Adult', quantity: 1, unit_price: total }],
  });
  const cart: TCart = { id: 'c1', lines: [line('l1', 4900, '2026-11-21T10:20:00.000Z')], total: 4900, currency: 'EUR', expires_at: '2026-11-21T10:20:00.000Z' };
  it('adds the line last and counts the total and the first expiry again', () => {
    const held: THeldLine = { ...line('l2', 8900, '2026-11-21T10:35:00.000Z'), cart: 'c1' };
    const next = withHeldLine(cart, held, new Date('2026-11-21T10:05:00.000Z'))!;
    expect(next.lines.map((l) => l.id)).toEqual(['l1', 'l2']);
    expect(next.lines[1]).not.toHaveProperty('cart');
    expect(next).toMatchObject({ total: 4900 + 8900, expires_at: '2026-11-21T10:20:00.000Z' });
    expect(withHeldLine({ ...cart, lines: [], total: 0, expires_at: null }, held, new Date('2026-11-21T10:05:00.000Z'))).toMatchObject({ total: 8900, expires_at: '2026-11-21T10:35:00.000Z' });
  });
  it('leaves out the lines that have expired, as the server does', () => {
    const held: THeldLine = { ...line('l2', 8900, '2026-11-21T10:45:00.000Z'), cart: 'c1' };
    const next = withHeldLine(cart, held, new Date('2026-11-21T10:30:00.000Z'))!;
    expect(next.lines.map((l) => l.id)).toEqual(['l2']);
    expect(next).toMatchObject({ total: 8900, expires_at: '2026-11-21T10:45:00.000Z' });
  });
  it('knows nothing of another cart, or of no cart', () => {
    const now = new Date('2026-11-21T10:05:00.000Z');
    expect(withHeldLine(cart, { ...line('l2', 1, '2026-11-21T10:35:00.000Z'), cart: 'c2' }, now)).toBeNull();
    expect(withHeldLine(undefined, { ...line('l2', 1, '2026-11-21T10:35:00.000Z'), cart: 'c1' }, now)).toBeNull();
  });
});

describe('estimateTotal', () => {
  const prices: Record<string, number> = { adult: 8900, child: 4900 };
  const items: Record<string, number> = { lunch: 1800 };
  it('adds categories at their price and extras at the item price', () => {
    expect(estimateTotal({ adult: 2, child: 1 }, (c) => prices[c], { lunch: 3 }, (i) => items[i])).toBe(2 * 8900 + 4900 + 3 * 1800);
  });
  it('counts unknown prices as nothing', () => {
    expect(estimateTotal({ adult: 1, other: 4 }, (c) => prices[c], { gone: 2 }, (i) => items[i])).toBe(8900);
  });
});

describe('positiveCounts', () => {
  it('keeps only what was chosen', () => {
    expect(positiveCounts({ a: 0, b: 2, c: -1 })).toEqual({ b: 2 });
  });
});

describe('validateAnswer', () => {
  const q = (answer_type: 'text' | 'number' | 'yes_no' | 'choice', required = false, choices: string[] = []) => ({ question: 'Q?', answer_type, required, choices });
  it('asks for required answers, blank ones included', () => {
    expect(validateAnswer(q('text', true), '  ')).toBe('Please answer: Q?');
    expect(validateAnswer(q('yes_no', true), undefined)).toBe('Please answer: Q?');
    expect(validateAnswer(q('text'), '')).toBe(true);
  });
  it('checks the kind of answer', () => {
    expect(validateAnswer(q('number'), '12.5')).toBe(true);
    expect(validateAnswer(q('number'), 'twelve')).toBe('Answer with a number: Q?');
    expect(validateAnswer(q('yes_no'), 'no')).toBe(true);
    expect(validateAnswer(q('yes_no'), 'maybe')).toBe('Answer yes or no: Q?');
    expect(validateAnswer(q('choice', false, ['A', 'B']), 'B')).toBe(true);
    expect(validateAnswer(q('choice', false, ['A', 'B']), 'C')).toBe('Choose one of the options: Q?');
  });
});

describe('displayAnswer', () => {
  it('reads yes and no as words', () => {
    expect(displayAnswer({ answer_type: 'yes_no' }, 'yes')).toBe('Yes');
    expect(displayAnswer({ answer_type: 'yes_no' }, 'no')).toBe('No');
    expect(displayAnswer({ answer_type: 'text' }, 'yes')).toBe('yes');
    expect(displayAnswer(undefined, 'vegan')).toBe('vegan');
  });
});

describe('questionLabel', () => {
  it('adds a colon only where the question has no punctuation of its own', () => {
    expect(questionLabel('Can everyone swim?')).toBe('Can everyone swim?');
    expect(questionLabel('Shoe size')).toBe('Shoe size:');
    expect(questionLabel('Shoe size: ')).toBe('Shoe size:');
  });
});

describe('seatColor', () => {
  it('is gray when closed, red when full, orange when nearly full, else green', () => {
    expect(seatColor(5, 12, true)).toBe('gray');
    expect(seatColor(0, 12)).toBe('red');
    expect(seatColor(2, 12)).toBe('orange');
    expect(seatColor(10, 12)).toBe('green');
  });
});

describe('weekOf', () => {
  it('starts on Monday', () => {
    expect(weekOf('2026-03-04')).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08']);
  });
  it('puts a Sunday at the end of its week', () => {
    expect(weekOf('2026-03-08')[0]).toBe('2026-03-02');
  });
  it('crosses months and years', () => {
    expect(weekOf('2027-01-01')).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03']);
  });
});

describe('lineErrors', () => {
  it('names the cart lines a checkout refused, by id, and ignores other fields', () => {
    const error = {
      status: 409,
      data: {
        type: 'client_error',
        errors: [
          { code: 'hold_expired', detail: 'Gone.', attr: 'lines.8d6f1c2e-0000-4000-8000-000000000001' },
          { code: 'hold_expired', detail: 'Closed.', attr: 'lines.8d6f1c2e-0000-4000-8000-000000000002' },
          { code: 'required', detail: 'Enter the first name.', attr: 'customer.first_name' },
        ],
      },
    };
    expect(lineErrors(error)).toEqual({ '8d6f1c2e-0000-4000-8000-000000000001': 'Gone.', '8d6f1c2e-0000-4000-8000-000000000002': 'Closed.' });
    expect(lineErrors({ status: 'FETCH_ERROR', error: 'offline' })).toEqual({});
  });
});
