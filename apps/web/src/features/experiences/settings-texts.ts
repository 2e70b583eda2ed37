import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/offer-settings/en';
import { LANGUAGE_LOCALES } from '@tourdesk/contracts/i18n';
import { useMemo } from 'react';
import { texts, useLanguage } from '../../shared/i18n/texts';

/** The offer editor's Pricing, Schedule and Settings steps and the dialogs that create what they choose from. */
export const useOfferSettingsT = texts('offer-settings', en);

/** Monday to Sunday, short ("Mon", "Mo"), as Intl writes them in the language shown; index 0 is ISO weekday 1. */
export function useWeekdays() {
  const locale = LANGUAGE_LOCALES[useLanguage()];
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
    // 1 January 2024 was a Monday.
    return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
  }, [locale]);
}
