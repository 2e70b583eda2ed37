/**
 * The guest cart ({id, token}) lives in localStorage under a key per store, never in a cookie: it
 * survives in a frame on another site whose browser blocks third-party cookies. The visit id lives
 * in sessionStorage (one per browser session). Where storage is refused (some private modes, some
 * frames), a memory store keeps them for the page's life.
 */
export interface CartRef {
  id: string;
  token: string;
}

type KV = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function memory(): KV {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

/** localStorage or sessionStorage if the browser lets the page use it, else memory. */
export function safeStorage(kind: 'localStorage' | 'sessionStorage'): KV {
  try {
    const s = globalThis[kind];
    const probe = '__tourdesk_probe__';
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return memory();
  }
}

export const cartKey = (slug: string) => `tourdesk.cart.${slug}`;

export function loadCart(storage: KV, slug: string): CartRef | null {
  try {
    const raw = storage.getItem(cartKey(slug));
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<CartRef>;
    return typeof v.id === 'string' && typeof v.token === 'string' && v.id && v.token ? { id: v.id, token: v.token } : null;
  } catch {
    return null;
  }
}

export function saveCart(storage: KV, slug: string, cart: CartRef) {
  try {
    storage.setItem(cartKey(slug), JSON.stringify({ id: cart.id, token: cart.token }));
  } catch {
    // Full or refused: the cart lives as long as the page.
  }
}

export function dropCart(storage: KV, slug: string) {
  try {
    storage.removeItem(cartKey(slug));
  } catch {
    // nothing to drop
  }
}

/** A random id of 22 URL-safe characters. */
export function randomId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * This session's visit id, and whether it still has to be counted: the first call in a session
 * makes the id; `markVisitSent` records it was counted.
 */
export function visitOf(storage: KV, slug: string): { id: string; sent: boolean } {
  const key = `tourdesk.visit.${slug}`;
  try {
    const raw = storage.getItem(key);
    if (raw) {
      const v = JSON.parse(raw) as { id?: string; sent?: boolean };
      if (typeof v.id === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(v.id)) return { id: v.id, sent: Boolean(v.sent) };
    }
  } catch {
    // a bad value: make a new one
  }
  const fresh = { id: randomId(), sent: false };
  try {
    storage.setItem(key, JSON.stringify(fresh));
  } catch {
    // memory only
  }
  return fresh;
}

export function markVisitSent(storage: KV, slug: string, id: string) {
  try {
    storage.setItem(`tourdesk.visit.${slug}`, JSON.stringify({ id, sent: true }));
  } catch {
    // memory only
  }
}

/** The secret of an order just placed, kept for this session so the confirmation page can read it. */
export function saveOrderSecret(storage: KV, slug: string, reference: string, secret: string) {
  try {
    storage.setItem(`tourdesk.order.${slug}.${reference}`, secret);
  } catch {
    // the confirmation page then points to the e-mail
  }
}
export function loadOrderSecret(storage: KV, slug: string, reference: string) {
  try {
    return storage.getItem(`tourdesk.order.${slug}.${reference}`);
  } catch {
    return null;
  }
}

/**
 * A payment started on Stripe's page ({checkout, token}), kept for this session per store: the
 * page Stripe brings the customer back to asks with it whether it went through (the token is the
 * secret of the booking page to come, sent as X-Order-Token), and the checkout finds it when the
 * customer comes back without paying.
 */
export interface PendingPayment {
  checkout: string;
  token: string;
}
const paymentKey = (slug: string) => `tourdesk.payment.${slug}`;

export function savePayment(storage: KV, slug: string, payment: PendingPayment) {
  try {
    storage.setItem(paymentKey(slug), JSON.stringify({ checkout: payment.checkout, token: payment.token }));
  } catch {
    // refused: the return page then points to the e-mail
  }
}
export function loadPayment(storage: KV, slug: string): PendingPayment | null {
  try {
    const v = JSON.parse(storage.getItem(paymentKey(slug)) ?? 'null') as Partial<PendingPayment> | null;
    return v && typeof v.checkout === 'string' && typeof v.token === 'string' && v.checkout && v.token ? { checkout: v.checkout, token: v.token } : null;
  } catch {
    return null;
  }
}
export function dropPayment(storage: KV, slug: string) {
  try {
    storage.removeItem(paymentKey(slug));
  } catch {
    // nothing to drop
  }
}

/**
 * What the customer typed in the checkout, kept for this session while they are on the payment
 * page: coming back without paying, they find the form as they left it (except the terms).
 */
const draftKey = (slug: string) => `tourdesk.details.${slug}`;
export function saveDraft(storage: KV, slug: string, draft: object) {
  try {
    storage.setItem(draftKey(slug), JSON.stringify(draft));
  } catch {
    // the form starts empty again
  }
}
export function loadDraft<T extends object>(storage: KV, slug: string): Partial<T> | null {
  try {
    const v = JSON.parse(storage.getItem(draftKey(slug)) ?? 'null') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Partial<T>) : null;
  } catch {
    return null;
  }
}
export function dropDraft(storage: KV, slug: string) {
  try {
    storage.removeItem(draftKey(slug));
  } catch {
    // nothing to drop
  }
}

/**
 * The QR code of the scan that brought this visitor: `?qr=` in the address (the scan at /q/{code}
 * adds it), kept in sessionStorage per store so it survives the pages until the booking; a
 * later scan replaces it.
 */
export function keepQr(storage: KV, slug: string, search: string): string | null {
  const key = `tourdesk.qr.${slug}`;
  const given = new URLSearchParams(search).get('qr')?.toLowerCase() ?? '';
  try {
    if (/^[a-z2-7]{8}$/.test(given)) {
      storage.setItem(key, given);
      return given;
    }
    const kept = storage.getItem(key);
    return kept && /^[a-z2-7]{8}$/.test(kept) ? kept : null;
  } catch {
    return /^[a-z2-7]{8}$/.test(given) ? given : null;
  }
}
