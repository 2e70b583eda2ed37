import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cancellationTerms, splitFee } from './cancellation';

/** The one cancellation rule and the fee's split, as pure functions: exact in minor units. */
const NOW = new Date('2026-06-01T08:00:00Z');
const inHours = (h: number) => new Date(NOW.getTime() + h * 3_600_000);
const HALF = [
  { hours_before: 72, refund_percent: 100 },
  { hours_before: 24, refund_percent: 50 },
];

describe('cancellationTerms', () => {
  it('keeps what was paid less the policy’s refund, the refund rounded down to the minor unit', () => {
    expect(cancellationTerms(HALF, inHours(48), 9800, NOW)).toMatchObject({ allowed: true, refund: 4900, fee: 4900 });
    // ¥999 at 50 %: ¥499 back, ¥500 kept.
    expect(cancellationTerms(HALF, inHours(48), 999, NOW)).toMatchObject({ refund: 499, fee: 500 });
    expect(cancellationTerms(HALF, inHours(100), 9800, NOW)).toMatchObject({ refund: 9800, fee: 0 });
    expect(cancellationTerms(HALF, inHours(10), 9800, NOW)).toMatchObject({ allowed: true, refund: 0, fee: 9800 });
  });

  it('gives back whole what was paid beyond what the open bookings cost', () => {
    expect(cancellationTerms(HALF, inHours(48), 8233, NOW, 4900)).toMatchObject({ refund: 3333 + 2450, fee: 2450 });
  });

  it('keeps nothing when it does not allow cancelling, or nothing was paid', () => {
    expect(cancellationTerms(null, inHours(48), 9800, NOW)).toMatchObject({ allowed: false, fee: 0 });
    expect(cancellationTerms(HALF, inHours(-1), 9800, NOW)).toMatchObject({ allowed: false, fee: 0 });
    expect(cancellationTerms(HALF, inHours(48), 0, NOW)).toMatchObject({ allowed: true, refund: 0, fee: 0 });
  });

  it('always: refund + fee = paid, 0 ≤ fee ≤ what the open bookings cost', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), fc.integer({ min: 0, max: 2_147_483_647 }), fc.integer({ min: 0, max: 100 }), (paid, owed, percent) => {
        const t = cancellationTerms([{ hours_before: 1, refund_percent: percent }], inHours(2), paid, NOW, owed);
        expect(t.refund + t.fee).toBe(paid);
        expect(t.fee).toBeGreaterThanOrEqual(0);
        expect(t.fee).toBeLessThanOrEqual(Math.min(paid, owed));
      }),
    );
  });
});

describe('splitFee', () => {
  it('splits pro rata by gross, the units rounding left over to the largest remainders', () => {
    const shares = splitFee(4117, [
      { id: 'a', total: 4900 },
      { id: 'b', total: 3333 },
    ]);
    expect(Object.fromEntries(shares)).toEqual({ a: 2450, b: 1667 });
  });

  it('always adds up to the fee, each share within its line', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2_147_483_647 }), { minLength: 1, maxLength: 8 }), fc.double({ min: 0, max: 1, noNaN: true }), (totals, part) => {
        const gross = totals.reduce((s, n) => s + n, 0);
        const fee = Math.floor(gross * part);
        const lines = totals.map((total, i) => ({ id: String(i), total }));
        const shares = splitFee(fee, lines);
        expect([...shares.values()].reduce((s, n) => s + n, 0)).toBe(gross > 0 ? fee : 0);
        for (const l of lines) expect(shares.get(l.id)!).toBeLessThanOrEqual(l.total);
      }),
    );
  });
});
