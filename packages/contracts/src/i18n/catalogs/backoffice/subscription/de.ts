import type { SubscriptionKey } from './en';

export const de = {
} satisfies Record<SubscriptionKey, string>;
