import type { OfferSettingsKey } from './en';

export const de = {
} satisfies Record<OfferSettingsKey, string>;
