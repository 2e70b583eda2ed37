/** The back office's texts for the offer editor's Pricing, Schedule and Settings steps and the dialogs that create a category, meeting point, policy or question from them (English, the contract). */
export const en = {
} as const satisfies Record<string, string>;

export type OfferSettingsKey = keyof typeof en;
