import { describe, expect, it } from 'vitest';
import { bpToPercent, formatBp, formatFraction, percentToBp } from './percent';

describe('basis points and percentages', () => {
  it('convert both ways without float noise', () => {
    expect(percentToBp(7.7)).toBe(770);
    expect(percentToBp(8.1)).toBe(810);
    expect(bpToPercent(810)).toBe(8.1);
    for (let bp = 0; bp <= 10_000; bp += 7) expect(percentToBp(bpToPercent(bp))).toBe(bp);
  });
  it('read as people write them', () => {
    expect(formatBp(810)).toBe('8.1 %');
    expect(formatBp(1000)).toBe('10 %');
    expect(formatBp(1234)).toBe('12.34 %');
    expect(formatFraction(0.125)).toBe('12.5 %');
    expect(formatFraction(1)).toBe('100 %');
  });
});
