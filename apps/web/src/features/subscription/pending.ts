import type { Interval } from './words';

/**
 * The plan chosen before the browser went to Stripe Checkout, kept in this tab's sessionStorage:
 * Stripe sends the browser back to the plans page with ?subscribed=1 when it was paid for, and to
 * the bare page when it was left (the server's cancel_url), where this tells "nothing was changed"
 * from an ordinary visit, and which plan to wait for Stripe's event to confirm.
 */
export interface PendingCheckout {
  tier: string;
  name: string;
  interval: Interval;
}

const KEY = 'tourdesk.subscription.checkout';

export function rememberCheckout(pending: PendingCheckout) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(pending));
  } catch {
    // Storage refused (private mode, full): the return is then told from the address alone.
  }
}

export function peekCheckout(): PendingCheckout | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<PendingCheckout> | null;
    if (value && typeof value.tier === 'string' && typeof value.name === 'string' && (value.interval === 'month' || value.interval === 'year')) return value as PendingCheckout;
  } catch {
    // Not ours, or unreadable.
  }
  return null;
}

export function forgetCheckout() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}
