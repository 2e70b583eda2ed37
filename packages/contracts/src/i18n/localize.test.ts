import { describe, expect, it } from 'vitest';
import { localize, missingTranslations } from './localize';

const offer = {
  title: 'Lake tour',
  short_description: 'Paddle.',
  highlights: ['Sunset'],
  voucher_text: '',
  translations: { de: { title: 'Seerundfahrt', highlights: [] as string[] }, fr: { title: 'Tour du lac', short_description: 'Pagayer.' } },
};

describe('localize', () => {
  it('serves a field in the language asked for, else the fallback language’s, else the row’s own, and drops the translations', () => {
    expect(localize(offer, 'de', 'en')).toEqual({ title: 'Seerundfahrt', short_description: 'Paddle.', highlights: ['Sunset'], voucher_text: '' });
    // The organisation's main language has texts of its own: they come before the row's columns.
    expect(localize(offer, 'it', 'fr')).toEqual({ title: 'Tour du lac', short_description: 'Pagayer.', highlights: ['Sunset'], voucher_text: '' });
    expect(localize(offer, 'en', 'en')).toEqual({ title: 'Lake tour', short_description: 'Paddle.', highlights: ['Sunset'], voucher_text: '' });
  });

  it('never adds a field the row does not have, and takes blank texts as missing', () => {
    const row = { label: 'Adult', translations: { de: { label: '  ', extra: 'x' } as Record<string, string> } };
    expect(localize(row, 'de', 'en')).toEqual({ label: 'Adult' });
  });

  it('names the fields a language misses among those the row has a text for', () => {
    expect(missingTranslations(offer, offer.translations, 'de', ['title', 'short_description', 'highlights', 'voucher_text'])).toEqual(['short_description', 'highlights']);
    expect(missingTranslations(offer, offer.translations, 'es', ['title', 'voucher_text'])).toEqual(['title']);
  });
});
