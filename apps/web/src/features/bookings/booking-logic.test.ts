import { describe, expect, it } from 'vitest';
import { displayAnswer, estimateTotal, positiveCounts, questionLabel, seatColor, validateAnswer, weekOf } from './booking-logic';

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
