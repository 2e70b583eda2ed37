import type { DateFieldKey } from './en';

export const de = {
  placeholder: 'TT.MM.JJJJ',
} satisfies Record<DateFieldKey, string>;
