import type {
  TErrorItem,
  TOnlineAmount,
  TWebPayRest,
  TPaginated,
  TPromoPreview,
  TWebCart,
  TWebDay,
  TWebMonth,
  TWebOffer,
  TWebOfferSummary,
  TWebOrder,
  TWebOrderInput,
  TWebPayment,
  TWebPaymentStarted,
  TWebStore,
  TWebChallenge,
  TWaitlistJoined,
  TStoreVoucherOffer,
  TVoucherPreview,
  TVoucherPurchase,
} from '@tourdesk/contracts';
import { dropCart, keepQr, loadCart, safeStorage, saveCart, type CartRef } from './storage';

/**
 * The public web store's API on the page's own origin (/api/web-stores/{slug}/…). Only types come
 * from the contracts package: its schemas (zod) stay out of this bundle.
 */
export type ApiErrorItem = TErrorItem;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiErrorItem[],
  ) {
    super(errors[0]?.detail ?? 'The request failed.');
  }
  /** The error about `attr` (e.g. "customer.email"), if any. */
  about(attr: string) {
    return this.errors.find((e) => e.attr === attr);
  }
}

/** A payment started online: Stripe's page to send the browser to, and what to ask about it later. */
export type PaymentStarted = TWebPaymentStarted;
export type PaymentStatus = TWebPayment['status'];
export type PaymentState = TWebPayment;

export type Page<T> = TPaginated<T>;

interface Options {
  method?: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  body?: unknown;
  headers?: Record<string, string>;
  cache?: RequestCache;
}

async function requestIn(path: string, { method = 'GET', body, headers = {}, cache }: Options = {}, language = 'en'): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      cache,
      // Same origin, and nothing of the store is carried by a cookie.
      credentials: 'omit',
      headers: { accept: 'application/json', 'accept-language': language, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, [{ code: 'network', detail: 'The server could not be reached.', attr: null }]);
  }
  if (!res.ok) {
    let errors: ApiErrorItem[] = [{ code: 'error', detail: 'The request failed.', attr: null }];
    try {
      const envelope = (await res.json()) as { errors?: ApiErrorItem[] };
      if (Array.isArray(envelope.errors) && envelope.errors.length) errors = envelope.errors;
    } catch {
      // not the envelope: keep the generic text
    }
    throw new ApiError(res.status, errors);
  }
  return res;
}

async function jsonIn<T>(path: string, options?: Options, language?: string): Promise<T> {
  const res = await requestIn(path, options, language);
  return (res.status === 204 ? null : await res.json()) as T;
}

/** After the page's own hold or order, availability is asked past the HTTP cache (it keeps answers 2 s). */
let lastWrite = 0;
export const markWrite = () => void (lastWrite = Date.now());
const availabilityCache = (): RequestCache => (Date.now() - lastWrite < 10_000 ? 'no-cache' : 'default');

/**
 * A waiting list's e-mail links to `…/checkout#waitlist=<cart>.<secret>`: the cart holding the seats
 * offered becomes this browser's cart, and the secret leaves the address at once.
 */
function offeredCart(local: ReturnType<typeof safeStorage>, slug: string): CartRef | null {
  if (typeof location === 'undefined') return null;
  const m = /^#waitlist=([0-9a-f-]{36})\.([A-Za-z0-9_-]{10,200})$/.exec(location.hash);
  if (!m) return null;
  const offered = { id: m[1]!, token: m[2]! };
  saveCart(local, slug, offered);
  history.replaceState(history.state, '', location.pathname + location.search);
  return offered;
}

/**
 * The store's calls, each with Accept-Language: the page's language (the catalogue answers its
 * offers' texts in it; a new cart keeps it, and so does the order it becomes).
 */
export function createApi(slug: string, language: string = 'en') {
  const base = `/api/web-stores/${encodeURIComponent(slug)}`;
  const json = <T>(path: string, options?: Options) => jsonIn<T>(path, options, language);
  const request = (path: string, options?: Options) => requestIn(path, options, language);
  const local = safeStorage('localStorage');
  let cartRef: CartRef | null = offeredCart(local, slug) ?? loadCart(local, slug);
  // The QR code whose scan brought this visitor (?qr= from /q/{code}), kept for the session and
  // sent with the cart and each hold, so the order records it.
  const qr = keepQr(safeStorage('sessionStorage'), slug, typeof location === 'undefined' ? '' : location.search);
  const qrHeaders: Record<string, string> = qr ? { 'x-qr-code': qr } : {};
  const cartHeaders = (c: CartRef) => ({ 'x-cart-token': c.token });
  const isLostCart = (e: unknown) => e instanceof ApiError && e.status === 404 && !e.errors.some((x) => x.attr);

  // A solved challenge ready for the next call that needs one (the checkout page starts one when it
  // opens, so a pay-on-site order waits for nothing); each is good once.
  let ready: Promise<string> | null = null;
  const solved = () => json<TWebChallenge>(`${base}/challenge/`, { cache: 'no-store' }).then(async (c) => (await import('./challenge')).solveChallenge(c));
  function takeSolved() {
    const taken = ready ?? solved();
    ready = null;
    return taken;
  }
  const challengeAsked = (e: unknown) => e instanceof ApiError && e.status === 403 && e.errors.some((x) => x.code === 'challenge_required');
  /** A write the server may ask to carry a solved challenge (past an address's threshold): sent again with one. */
  async function guarded<T>(path: string, options: Options & { challenge?: boolean }): Promise<T> {
    const headers = options.challenge ? { ...options.headers, 'x-altcha': await takeSolved().catch(() => solved()) } : options.headers;
    try {
      return await json<T>(path, { ...options, headers });
    } catch (e) {
      if (!challengeAsked(e)) throw e;
      return json<T>(path, { ...options, headers: { ...options.headers, 'x-altcha': await solved() } });
    }
  }

  async function newCart() {
    const made = await guarded<CartRef>(`${base}/carts/`, { method: 'POST', body: { language }, headers: qrHeaders });
    cartRef = { id: made.id, token: made.token };
    saveCart(local, slug, cartRef);
    return cartRef;
  }
  function forgetCart() {
    cartRef = null;
    dropCart(local, slug);
  }

  return {
    /** Solves a challenge in the background for the order to come (the checkout page, when it opens). */
    prepareChallenge() {
      if (ready) return;
      ready = solved();
      // A failure now is tried again when the order is sent.
      ready.catch(() => void (ready = null));
    },
    store: () => json<TWebStore>(`${base}/`),
    offers: (page = 1) => json<Page<TWebOfferSummary>>(`${base}/experiences/?page=${page}&page_size=50`),
    offer: (id: string) => json<TWebOffer>(`${base}/experiences/${id}/`),
    month: (id: string, month: string, fresh = false) =>
      json<TWebMonth>(`${base}/experiences/${id}/month/?month=${month}`, { cache: fresh ? 'no-cache' : availabilityCache() }),
    day: (id: string, date: string, fresh = false) => json<TWebDay>(`${base}/experiences/${id}/day/?date=${date}`, { cache: fresh ? 'no-cache' : availabilityCache() }),
    visit: (visit: string) => json<null>(`${base}/visits/`, { method: 'POST', body: { visit } }),

    /** The guest cart, or null when there is none (a cart the server no longer knows is forgotten). */
    async cart(): Promise<TWebCart | null> {
      if (!cartRef) return null;
      try {
        return await json<TWebCart>(`${base}/carts/${cartRef.id}/`, { headers: cartHeaders(cartRef), cache: 'no-store' });
      } catch (e) {
        if (isLostCart(e)) {
          forgetCart();
          return null;
        }
        throw e;
      }
    },
    /** The cart's language becomes the page's (the customer switched languages): same cart, same lines; its order is in it. */
    async keepLanguage(cart: TWebCart): Promise<TWebCart> {
      if (!cartRef || cart.language === language || cart.id !== cartRef.id) return cart;
      return json<TWebCart>(`${base}/carts/${cartRef.id}/`, { method: 'PATCH', body: { language }, headers: cartHeaders(cartRef) });
    },
    /** Holds seats: the cart is made on the first hold, and made again if the server lost it. */
    async hold(line: { slot: string; quantities: Record<string, number>; extras: Record<string, number> }): Promise<TWebCart> {
      const attempt = async (c: CartRef) => {
        const held = await guarded<TWebCart>(`${base}/carts/${c.id}/lines/`, { method: 'POST', body: line, headers: { ...cartHeaders(c), ...qrHeaders } });
        // An empty cart moves to the organisation that sells the offer (a partner's, in a reseller's
        // store): the answer carries its new id, the secret stays the same.
        if (held.id !== c.id) {
          cartRef = { id: held.id, token: c.token };
          saveCart(local, slug, cartRef);
        }
        return held;
      };
      const first = cartRef ?? (await newCart());
      try {
        return await attempt(first);
      } catch (e) {
        if (!isLostCart(e)) throw e;
        forgetCart();
        return attempt(await newCart());
      } finally {
        markWrite();
      }
    },
    /** Joins a sold-out time's waiting list (always with a solved challenge, like a pay-on-site order). */
    joinWaitlist: (input: { slot: string; email: string; name: string; seats: number; quantities?: Record<string, number> }) =>
      guarded<TWaitlistJoined>(`${base}/waitlist/`, { method: 'POST', body: { ...input, language }, challenge: true }),
    async removeLine(line: string): Promise<TWebCart | null> {
      if (!cartRef) return null;
      try {
        return await json<TWebCart>(`${base}/carts/${cartRef.id}/lines/${line}/`, { method: 'DELETE', headers: cartHeaders(cartRef) });
      } finally {
        markWrite();
      }
    },
    /** What a promo code would take off the cart's lines (or the server's refusal, promo_* on `promo_code`). */
    async tryPromo(code: string, lines: string[], email?: string): Promise<TPromoPreview> {
      if (!cartRef) throw new ApiError(404, [{ code: 'not_found', detail: 'The cart is empty.', attr: null }]);
      return guarded<TPromoPreview>(`${base}/carts/${cartRef.id}/promo-code/`, { method: 'POST', body: { code, lines, ...(email ? { email } : {}) }, headers: cartHeaders(cartRef) });
    },
    /** What paying online charges now (the total less a promo code, or the deposit) and the rest, due on site or by a date. */
    async onlineAmount(lines: string[], promoCode?: string | null, voucherCode?: string | null, voucherAmount?: number | null): Promise<TOnlineAmount> {
      if (!cartRef) throw new ApiError(404, [{ code: 'not_found', detail: 'The cart is empty.', attr: null }]);
      return guarded<TOnlineAmount>(`${base}/carts/${cartRef.id}/online-amount/`, { method: 'POST', body: { lines, ...(promoCode ? { promo_code: promoCode } : {}), ...(voucherCode ? { voucher_code: voucherCode, ...(voucherAmount ? { voucher_amount: voucherAmount } : {}) } : {}) }, headers: cartHeaders(cartRef) });
    },
    /** A gift voucher's balance and what it would pay of the cart (or the server's refusal, voucher_* on `voucher_code`). */
    async tryVoucher(code: string, lines: string[], promoCode?: string | null): Promise<TVoucherPreview> {
      if (!cartRef) throw new ApiError(404, [{ code: 'not_found', detail: 'The cart is empty.', attr: null }]);
      return guarded<TVoucherPreview>(`${base}/carts/${cartRef.id}/voucher/`, { method: 'POST', body: { code, lines, ...(promoCode ? { promo_code: promoCode } : {}) }, headers: cartHeaders(cartRef) });
    },
    /** What the store's gift vouchers cost. */
    voucherOffer: () => json<TStoreVoucherOffer>(`${base}/vouchers/`),
    /** Buys a gift voucher: answers Stripe's payment page. */
    buyVoucher: (input: TVoucherPurchase) => guarded<{ checkout: string; payment_url: string }>(`${base}/vouchers/`, { method: 'POST', body: input }),
    /** Where a voucher purchase stands, proven by Stripe's session id in the return address. */
    voucherPurchase: (checkout: string, session: string) =>
      json<{ status: 'open' | 'paid' | 'expired' | 'failed' | 'refunded'; code_sent_to: string | null }>(`${base}/vouchers/${encodeURIComponent(checkout)}/?session_id=${encodeURIComponent(session)}`, { cache: 'no-store' }),
    async order(input: Omit<TWebOrderInput, 'cart'>): Promise<TWebOrder> {
      if (!cartRef) throw new ApiError(404, [{ code: 'not_found', detail: 'The cart is empty.', attr: null }]);
      try {
        // A pay-on-site order always carries a solved challenge.
        return await guarded<TWebOrder>(`${base}/orders/`, { method: 'POST', body: { ...input, cart: cartRef.id }, headers: cartHeaders(cartRef), challenge: input.payment_option === 'pay_on_site' });
      } finally {
        markWrite();
      }
    },
    /**
     * Pays the lines online: answers Stripe's payment page. Asked again for the same cart and
     * lines, the server answers the same payment (a double click is harmless).
     */
    async startPayment(input: Omit<TWebOrderInput, 'cart' | 'payment_option'>): Promise<PaymentStarted> {
      if (!cartRef) throw new ApiError(404, [{ code: 'not_found', detail: 'The cart is empty.', attr: null }]);
      try {
        return await guarded<PaymentStarted>(`${base}/payments/`, { method: 'POST', body: { ...input, payment_option: 'online', cart: cartRef.id }, headers: cartHeaders(cartRef) });
      } finally {
        markWrite();
      }
    },
    /**
     * Where a payment stands (the server asks Stripe when its event has not come yet), proven by
     * the secret this tab kept, or else by the session id in Stripe's return address.
     */
    payment: (checkout: string, proof: { token?: string | null; session?: string | null }) =>
      json<PaymentState>(`${base}/payments/${encodeURIComponent(checkout)}/${proof.token || !proof.session ? '' : `?session_id=${encodeURIComponent(proof.session)}`}`, {
        headers: proof.token ? { 'x-order-token': proof.token } : {},
        cache: 'no-store',
      }),
    myOrder: (reference: string, secret: string) =>
      json<TWebOrder>(`${base}/orders/${encodeURIComponent(reference)}/`, { headers: { 'x-order-token': secret }, cache: 'no-store' }),
    /** "Pay the rest": a new payment link for what is left of the order (its page goes on to Stripe). */
    payRest: (reference: string, secret: string) => guarded<TWebPayRest>(`${base}/orders/${encodeURIComponent(reference)}/payment-link/`, { method: 'POST', headers: { 'x-order-token': secret } }),
    cancelOrder: async (reference: string, secret: string) => {
      try {
        return await json<TWebOrder>(`${base}/orders/${encodeURIComponent(reference)}/cancel/`, { method: 'POST', headers: { 'x-order-token': secret } });
      } finally {
        markWrite();
      }
    },
    answerQuestions: async (reference: string, secret: string, answers: Record<string, string>) => {
      try {
        return await json<TWebOrder>(`${base}/orders/${encodeURIComponent(reference)}/answers/`, { method: 'POST', headers: { 'x-order-token': secret }, body: { answers } });
      } finally {
        markWrite();
      }
    },
    tickets: async (reference: string, secret: string) =>
      (await request(`${base}/orders/${encodeURIComponent(reference)}/tickets.pdf`, { headers: { 'x-order-token': secret, accept: 'application/pdf' }, cache: 'no-store' })).blob(),
  };
}

export type Api = ReturnType<typeof createApi>;
