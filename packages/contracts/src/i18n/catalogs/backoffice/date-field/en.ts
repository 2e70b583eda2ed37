/** The date field's own words (apps/web/src/shared/components/DateField.tsx): the hint of what to type (English, the contract). */
export const en = {
  placeholder: 'DD. Month YYYY',
} as const satisfies Record<string, string>;

export type DateFieldKey = keyof typeof en;
