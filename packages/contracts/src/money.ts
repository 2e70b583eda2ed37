import { z } from 'zod';

/** Currencies and time zones as the contracts check them; the minor-unit conversions are in money-format.ts. */
export * from './money-format';

/** Currencies Intl knows (ISO 4217, current ones). */
const KNOWN = new Set(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : []);
export const isCurrency = (code: string) => /^[A-Z]{3}$/.test(code) && (KNOWN.size === 0 || KNOWN.has(code));
export const ZCurrency = z.string().refine(isCurrency, { error: 'Use a three-letter ISO currency code such as EUR.' });

export const isTimeZone = (zone: string) => {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
export const ZTimeZone = z.string().refine(isTimeZone, { error: 'Choose a time zone from the list (e.g. Europe/Zurich).' });

