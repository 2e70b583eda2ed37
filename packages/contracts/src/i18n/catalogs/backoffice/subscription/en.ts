/** The back office's texts for the subscription pages: plans, the current plan, billing (English, the contract). */
export const en = {
} as const satisfies Record<string, string>;

export type SubscriptionKey = keyof typeof en;
