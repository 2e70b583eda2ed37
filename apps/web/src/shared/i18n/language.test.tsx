import { render, screen, act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDatePattern, formatDisplayDate } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { useCommonT } from './common';
import { currentLanguage, setLanguage } from './language';
import { LanguageProvider } from './texts';

function Probe() {
  const t = useCommonT();
  return (
    <p>
      {t('list.resetFilters')} · {t('list.count', { count: 1 })} · {t('list.count', { count: 3 })}
    </p>
  );
}

afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe('the back office language', () => {
  it('shows English, then German once chosen (its catalog fetched first), with ICU plurals, and English again', async () => {
    await act(() => setLanguage('en'));
    render(
      <LanguageProvider>
        <Probe />
      </LanguageProvider>,
    );
    expect(screen.getByText('Reset filters · 1 item · 3 items')).toBeInTheDocument();

    await act(() => setLanguage('de'));
    expect(currentLanguage()).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(screen.getByText('Filter zurücksetzen · 1 Eintrag · 3 Einträge')).toBeInTheDocument();

    await act(() => setLanguage('en'));
    expect(document.documentElement.lang).toBe('en');
    expect(screen.getByText('Reset filters · 1 item · 3 items')).toBeInTheDocument();
  });

  it('writes dates and money in the language: English as before, German through Intl in de-DE', async () => {
    await setLanguage('en');
    expect(formatDisplayDate('2026-03-29T12:00:00Z', 'Europe/Zurich')).toBe('29. March 2026');
    expect(formatDatePattern('2026-03-29', 'dddd, DD. MMMM YYYY')).toBe('Sunday, 29. March 2026');
    expect(formatMoney(1250, 'CHF').replace(/\s/g, ' ')).toBe('CHF 12.50');

    await setLanguage('de');
    expect(formatDisplayDate('2026-03-29T12:00:00Z', 'Europe/Zurich')).toBe('29. März 2026');
    expect(formatDatePattern('2026-03-29', 'dddd, DD. MMMM YYYY')).toBe('Sonntag, 29. März 2026');
    expect(formatMoney(1250, 'CHF').replace(/\s/g, ' ')).toBe('12,50 CHF');
  });
});
