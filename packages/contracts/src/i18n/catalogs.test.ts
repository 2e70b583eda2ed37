import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { CATALOGS } from './catalogs';

/** The names of the arguments a message takes, with their kind (plural, select, number, date…). */
function argumentsOf(elements: MessageFormatElement[], into = new Map<string, TYPE>()) {
  for (const e of elements) {
    if ('value' in e && typeof e.value === 'string' && e.type !== TYPE.literal) into.set(e.value, e.type === TYPE.argument ? into.get(e.value) ?? e.type : e.type);
    if (e.type === TYPE.plural || e.type === TYPE.select) for (const option of Object.values(e.options)) argumentsOf(option.value, into);
    if (e.type === TYPE.tag) argumentsOf(e.children, into);
  }
  return into;
}

const pluralsOf = (elements: MessageFormatElement[]): string[][] =>
  elements.flatMap((e) => (e.type === TYPE.plural ? [Object.keys(e.options), ...Object.values(e.options).flatMap((o) => pluralsOf(o.value))] : e.type === TYPE.select ? Object.values(e.options).flatMap((o) => pluralsOf(o.value)) : []));

it('has catalogs to check', () => expect(Object.keys(CATALOGS).length).toBeGreaterThan(0));

describe.each(Object.entries(CATALOGS))('the %s catalogs', (_domain, byLanguage) => {
  const english = byLanguage.en;
  it.each(Object.entries(byLanguage))('%s has every message English has, no other, each with its arguments', (_language, catalog) => {
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort());
    for (const [key, message] of Object.entries(catalog)) {
      let ast: MessageFormatElement[];
      try {
        ast = parse(message, { ignoreTag: true });
      } catch (err) {
        throw new Error(`${key}: ${(err as Error).message} in ${JSON.stringify(message)}`);
      }
      const theirs = [...argumentsOf(ast).keys()].sort();
      const ours = [...argumentsOf(parse(english[key]!, { ignoreTag: true })).keys()].sort();
      expect(theirs, `${key}: ${message}`).toEqual(ours);
      for (const options of pluralsOf(ast)) expect(options, `${key}: a plural without "other"`).toContain('other');
      expect(message.trim(), key).not.toBe('');
    }
  });
});
