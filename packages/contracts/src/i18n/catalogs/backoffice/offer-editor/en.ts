/** The back office's texts for the offer editor: its frame, its steps Basic info, Description, Booking info, Media and Preview, and the rich-text input (English, the contract). */
export const en = {
} as const satisfies Record<string, string>;

export type OfferEditorKey = keyof typeof en;
