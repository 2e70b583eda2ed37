import { describe, expect, it } from 'vitest';
import { missingAnswers } from './booking-answers';

describe('missingAnswers()', () => {
  const questions = [
    { id: 'a', required: true },
    { id: 'b', required: false },
    { id: 'c', required: true },
  ];
  it('lists the required questions without an answer, blank ones included', () => {
    expect(missingAnswers(questions, { a: '  ', b: '' }).map((q) => q.id)).toEqual(['a', 'c']);
  });
  it('lists nothing once every required question is answered', () => {
    expect(missingAnswers(questions, { a: 'yes', c: '3' })).toEqual([]);
  });
});
