import { describe, expect, it } from 'vitest';
import { createTranslate, negotiateLanguage, parseCatalog, pseudoCatalog } from '.';

describe('negotiateLanguage', () => {
  it('takes the heaviest acceptable language the organisation sells in, a region as its language', () => {
    expect(negotiateLanguage('de-CH,de;q=0.9,en;q=0.8', ['en', 'de'])).toBe('de');
    expect(negotiateLanguage('fr;q=0.5, it;q=0.9', ['en', 'fr', 'it'])).toBe('it');
    expect(negotiateLanguage('ja, es;q=0.2', ['en', 'es'])).toBe('es');
  });
  it('falls back to the first language for nothing acceptable, a wildcard, a zero weight or no header', () => {
    expect(negotiateLanguage('ja,zh;q=0.9', ['de', 'en'])).toBe('de');
    expect(negotiateLanguage('*', ['fr', 'en'])).toBe('fr');
    expect(negotiateLanguage('en;q=0', ['de', 'en'])).toBe('de');
    expect(negotiateLanguage(undefined, ['it'])).toBe('it');
    expect(negotiateLanguage(';;,,q=', ['es'])).toBe('es');
  });
});

describe('createTranslate', () => {
  const en = { seats: '{n, plural, one {# seat} other {# seats}} left', hello: 'Hello {name}' };
  it('formats plurals by the language’s rules', () => {
    const fr = createTranslate('fr', { seats: '{n, plural, one {# place restante} other {# places restantes}}' }, en);
    // French counts 0 and 1 as "one"; English only 1.
    expect(fr('seats', { n: 0 })).toBe('0 place restante');
    expect(createTranslate('en', en, en)('seats', { n: 0 })).toBe('0 seats left');
    expect(fr('seats', { n: 1200 })).toBe('1\u202f200 places restantes');
  });
  it('falls back message by message to English, and works from a parsed catalog (the browser’s)', () => {
    const de = createTranslate('de', parseCatalog({ seats: 'noch {n, plural, one {# Platz} other {# Plätze}}' }), parseCatalog(en));
    expect(de('seats', { n: 2 })).toBe('noch 2 Plätze');
    expect(de('hello', { name: 'Ada' })).toBe('Hello Ada');
    expect(de.locale).toBe('de-DE');
  });
});

describe('pseudoCatalog', () => {
  it('accents text and keeps arguments and plural keywords working', () => {
    const pseudo = pseudoCatalog({ seats: '{n, plural, one {# seat} other {# seats}} left for {name}' });
    const t = createTranslate('en', pseudo, pseudo);
    expect(t('seats', { n: 2, name: 'Ada' })).toBe('⟦2 šéàţš ĺéƒţ ƒöŕ Ada⟧');
  });
});
