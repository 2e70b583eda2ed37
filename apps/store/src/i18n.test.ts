import { parseCatalog, pseudoCatalog } from '@tourdesk/contracts/i18n';
import { STORE_CATALOGS } from '@tourdesk/contracts/i18n/catalogs';
import { describe, expect, it } from 'vitest';
import { basePath, errorItemText, errorText, PSEUDO_LOCALE, translator } from './i18n';
import { ApiError } from './lib/api';
import { testT } from './lib/test-i18n';

describe('the store’s words', () => {
  it('formats a catalog parsed on the server as the browser does (no parser), with each language’s plurals', () => {
    const de = translator('de', JSON.parse(JSON.stringify(parseCatalog(STORE_CATALOGS.de))));
    expect(de('cartLabel', { n: 0 })).toBe('Warenkorb, leer');
    expect(de('cartLabel', { n: 1 })).toBe('Warenkorb, 1 Buchung reserviert');
    expect(de('cartLabel', { n: 3 })).toBe('Warenkorb, 3 Buchungen reserviert');
    expect(de.locale).toBe('de-DE');
    const fr = translator('fr', parseCatalog(STORE_CATALOGS.fr));
    // French counts 0 and 1 as one; the message says "Complet" for none.
    expect(fr('seatsLeft', { n: 1 })).toBe('1 place restante');
    expect(fr('seatsLeft', { n: 0 })).toBe('Complet');
    expect(translator('es', parseCatalog(STORE_CATALOGS.es))('seatsLeft', { n: 2 })).toBe('Quedan 2 plazas');
  });

  it('draws the pseudo-locale accented, its arguments as given, its locale English', () => {
    const pseudo = translator(PSEUDO_LOCALE, parseCatalog(pseudoCatalog(STORE_CATALOGS.en)));
    expect(pseudo('poweredBy', { org: 'Alpine Trails' })).toBe('⟦Šöĺđ ƀý Alpine Trails⟧');
    expect(pseudo.locale).toBe('en-GB');
  });

  it('puts every language but the organisation’s first under its own path', () => {
    expect(basePath('kayak', 'en', 'en')).toBe('/s/kayak/');
    expect(basePath('kayak', 'de', 'en')).toBe('/s/kayak/de/');
    expect(basePath('kayak', 'en', 'de')).toBe('/s/kayak/en/');
    expect(basePath('kayak', PSEUDO_LOCALE, 'en')).toBe('/s/kayak/en-XA/');
  });

  it('tells the API’s errors in the customer’s language by their code, never the envelope’s English', () => {
    const de = testT('de');
    expect(errorItemText(de, { code: 'sold_out', detail: 'Only 2 seats left.', attr: 'quantities' })).toBe(de('errorSoldOut'));
    expect(errorItemText(de, { code: 'conflict', detail: 'A cart holds at most 30 seats at once…', attr: 'quantities' })).toBe(de('errorSeatCap'));
    expect(errorItemText(de, { code: 'invalid', detail: 'Enter a valid e-mail address.', attr: 'customer.email' })).toBe('Geben Sie eine gültige E-Mail-Adresse ein.');
    expect(errorItemText(de, { code: 'throttled', detail: 'Too many requests.', attr: null })).toBe(de('errorThrottled'));
    expect(errorText(de, new ApiError(0, [{ code: 'network', detail: 'The server could not be reached.', attr: null }]))).toBe(de('networkError'));
    expect(errorText(de, new ApiError(500, [{ code: 'something_new', detail: 'Internal.', attr: null }]))).toBe(de('genericError'));
    expect(errorText(de, new Error('not ours'))).toBe(de('genericError'));
  });
});
