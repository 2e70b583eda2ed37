import { describe, expect, it } from 'vitest';
import { bpToPercent, bpToPercentText, formatBp, formatFraction, percentToBp } from './percent';

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
  it('read in a locale, with its decimal mark, or its own percent sign', () => {
    expect(formatBp(810, 'de-DE')).toBe('8,1 %');
    expect(formatBp(123456, 'de-DE')).toBe('1234,56 %');
    expect(formatBp(1250, 'en', 'locale')).toBe('12.5%');
    expect(formatBp(1250, 'de-DE', 'locale')).toMatch(/^12,5\s%$/);
  });
  it('write as plain numbers for CSV', () => {
    expect(bpToPercentText(810)).toBe('8.1');
    expect(bpToPercentText(1900)).toBe('19');
    expect(bpToPercentText(5)).toBe('0.05');
    expect(bpToPercentText(810, 2)).toBe('8.10');
    expect(bpToPercentText(1900, 2)).toBe('19.00');
    expect(bpToPercentText(-250)).toBe('-2.5');
  });
});
