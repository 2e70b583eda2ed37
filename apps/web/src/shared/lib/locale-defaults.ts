/**
 * What the browser suggests for a new organisation: its time zone, and the currency of the
 * country in its language setting (de-CH → CHF), with the lists to choose from.
 */

/** The currency of a country (ISO 3166 region → ISO 4217), for the countries operators sign up from most. */
const REGION_CURRENCY: Record<string, string> = {
  AE: 'AED', AR: 'ARS', AT: 'EUR', AU: 'AUD', BE: 'EUR', BG: 'BGN', BR: 'BRL', CA: 'CAD', CH: 'CHF', CL: 'CLP', CN: 'CNY', CO: 'COP',
  CR: 'CRC', CY: 'EUR', CZ: 'CZK', DE: 'EUR', DK: 'DKK', EE: 'EUR', EG: 'EGP', ES: 'EUR', FI: 'EUR', FR: 'EUR', GB: 'GBP', GR: 'EUR',
  HK: 'HKD', HR: 'EUR', HU: 'HUF', ID: 'IDR', IE: 'EUR', IL: 'ILS', IN: 'INR', IS: 'ISK', IT: 'EUR', JO: 'JOD', JP: 'JPY', KE: 'KES',
  KR: 'KRW', KW: 'KWD', LI: 'CHF', LT: 'EUR', LU: 'EUR', LV: 'EUR', MA: 'MAD', MT: 'EUR', MX: 'MXN', MY: 'MYR', NL: 'EUR', NO: 'NOK',
  NZ: 'NZD', PE: 'PEN', PH: 'PHP', PL: 'PLN', PT: 'EUR', QA: 'QAR', RO: 'RON', RS: 'RSD', SA: 'SAR', SE: 'SEK', SG: 'SGD', SI: 'EUR',
  SK: 'EUR', TH: 'THB', TR: 'TRY', TW: 'TWD', TZ: 'TZS', US: 'USD', UY: 'UYU', VN: 'VND', ZA: 'ZAR',
};

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function browserCurrency(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]): string {
  for (const tag of languages) {
    try {
      const region = new Intl.Locale(tag).maximize().region;
      if (region && REGION_CURRENCY[region]) return REGION_CURRENCY[region]!;
    } catch {
      // Not a valid language tag: try the next.
    }
  }
  return 'EUR';
}

/**
 * The IANA zones this browser knows, sorted, with `current` (and UTC) added when the browser's list
 * leaves them out (its list holds canonical names only, and a stored zone may be an alias).
 */
export function timeZones(current?: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = new Set(known);
  zones.add('UTC');
  if (current) zones.add(current);
  return [...zones].sort((a, b) => a.localeCompare(b));
}

/** The currencies to choose from, as "CHF — Swiss Franc", sorted by code, `current` included. */
export function currencies(current?: string): { value: string; label: string }[] {
  const codes = new Set(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : Object.values(REGION_CURRENCY));
  if (current) codes.add(current);
  const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'currency' }) : null;
  return [...codes].sort().map((code) => ({ value: code, label: `${code} — ${names?.of(code) ?? code}` }));
}
