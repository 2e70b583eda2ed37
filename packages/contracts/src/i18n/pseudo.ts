import { isLiteralElement, isPluralElement, isSelectElement, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import type { Catalog } from './messages';

/**
 * A pseudo-locale of a catalog: every letter of its text accented and each message bracketed,
 * arguments and ICU syntax kept. Text drawn from it is recognisably translated; text that is not
 * is hard-coded somewhere (the store's browser tests look for it).
 */
export function pseudoCatalog<K extends string>(catalog: Catalog<K>): Catalog<K> {
  const out = {} as Catalog<K>;
  for (const key of Object.keys(catalog) as K[]) out[key] = `⟦${printAST(accent(parse(catalog[key], { ignoreTag: true })))}⟧`;
  return out;
}

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = [...'àƀçđéƒĝĥíĵķĺɱñöþʠŕšţúṽŵẋýžÀƁÇĐÉƑĜĤÍĴĶĹṀÑÖÞǪŔŠŢÚṼŴẊÝŽ'];
const accentText = (text: string) => [...text].map((c) => ACCENTED[PLAIN.indexOf(c)] ?? c).join('');

function accent(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (isLiteralElement(element)) return { ...element, value: accentText(element.value) };
    if (isPluralElement(element) || isSelectElement(element)) {
      const options = Object.fromEntries(Object.entries(element.options).map(([k, o]) => [k, { ...o, value: accent(o.value) }]));
      return { ...element, options } as MessageFormatElement;
    }
    return element;
  });
}
