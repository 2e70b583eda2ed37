import { describe, expect, it } from 'vitest';
import { policyLines } from './policy';

describe('a cancellation policy in words', () => {
  it('says each refund and when it stops', () => {
    expect(policyLines([{ hours_before: 0, refund_percent: 0 }, { hours_before: 24, refund_percent: 100 }])).toEqual([
      'Full refund if you cancel at least 24 hours before the start.',
      'No refund if you cancel less than 24 hours before the start.',
    ]);
    expect(policyLines([{ hours_before: 72, refund_percent: 100 }, { hours_before: 24, refund_percent: 50 }])).toEqual([
      'Full refund if you cancel at least 3 days before the start.',
      '50 % refund if you cancel at least 24 hours before the start.',
      'No refund if you cancel less than 24 hours before the start.',
    ]);
    expect(policyLines([{ hours_before: 0, refund_percent: 100 }])).toEqual(['Full refund if you cancel before the start.']);
    expect(policyLines([{ hours_before: 1, refund_percent: 100 }])).toEqual([
      'Full refund if you cancel at least 1 hour before the start.',
      'No refund if you cancel less than 1 hour before the start.',
    ]);
  });
});
