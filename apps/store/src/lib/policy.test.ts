import { describe, expect, it } from 'vitest';
import { testT } from './test-i18n';

const t = testT();
import { policyLines } from './policy';

describe('a cancellation policy in words', () => {
  it('says each refund and when it stops', () => {
    expect(policyLines(t, [{ hours_before: 0, refund_percent: 0 }, { hours_before: 24, refund_percent: 100 }])).toEqual([
      'Full refund if you cancel at least 24 hours before the start.',
      'No refund if you cancel less than 24 hours before the start.',
    ]);
    expect(policyLines(t, [{ hours_before: 72, refund_percent: 100 }, { hours_before: 24, refund_percent: 50 }])).toEqual([
      'Full refund if you cancel at least 3 days before the start.',
      '50 % refund if you cancel at least 24 hours before the start.',
      'No refund if you cancel less than 24 hours before the start.',
    ]);
    expect(policyLines(t, [{ hours_before: 0, refund_percent: 100 }])).toEqual(['Full refund if you cancel before the start.']);
    expect(policyLines(t, [{ hours_before: 1, refund_percent: 100 }])).toEqual([
      'Full refund if you cancel at least 1 hour before the start.',
      'No refund if you cancel less than 1 hour before the start.',
    ]);
  });
  it('says it in the customer’s language, with its plurals', () => {
    expect(policyLines(testT('de'), [{ hours_before: 24, refund_percent: 50 }])).toEqual(['50 % Rückerstattung bei Stornierung mindestens 24 Stunden vor Beginn.', 'Keine Rückerstattung bei Stornierung weniger als 24 Stunden vor Beginn.']);
    expect(policyLines(testT('fr'), [{ hours_before: 1, refund_percent: 100 }])[0]).toBe('Remboursement intégral en cas d’annulation au moins 1 heure avant le début.');
    expect(policyLines(testT('it'), [{ hours_before: 72, refund_percent: 100 }])[0]).toBe('Rimborso completo se annulli almeno 3 giorni prima dell’inizio.');
  });
});
