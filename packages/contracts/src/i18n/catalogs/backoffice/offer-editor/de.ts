import type { OfferEditorKey } from './en';

export const de = {
} satisfies Record<OfferEditorKey, string>;
