/**
 * The store's pages, under its base path (/s/{slug}/): real links everywhere (they work without
 * JavaScript and with a middle click); with JavaScript a plain click on a link within the store
 * changes the page through the history API.
 */
export type Route =
  | { page: 'store' }
  | { page: 'offer'; id: string }
  | { page: 'checkout' }
  | { page: 'confirmation'; reference: string }
  | { page: 'booking'; reference: string }
  /** Where Stripe's payment page brings the customer back (/payment/{checkout}?session_id=…). */
  | { page: 'payment'; checkout: string }
  /** The gift voucher page (?purchase={checkout}&session_id=… when Stripe brings the buyer back). */
  | { page: 'voucher' }
  | { page: 'not_found' };

/** The route of `pathname` below `base` ("/s/kayak/"). */
export function matchRoute(pathname: string, base: string): Route {
  if (!pathname.startsWith(base) && pathname + '/' !== base) return { page: 'not_found' };
  const rest = pathname.slice(base.length).replace(/\/+$/, '');
  const parts = rest ? rest.split('/').map((p) => decodeURIComponent(p)) : [];
  if (parts.length === 0) return { page: 'store' };
  const [head, id, ...more] = parts;
  if (more.length) return { page: 'not_found' };
  // An id as the database writes it (lower case): one address, one preloaded entry per offer.
  if (head === 'offers' && id) return { page: 'offer', id: /^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : id };
  if (head === 'checkout' && !id) return { page: 'checkout' };
  if (head === 'confirmation' && id) return { page: 'confirmation', reference: id };
  if (head === 'booking' && id) return { page: 'booking', reference: id };
  if (head === 'payment' && id) return { page: 'payment', checkout: id };
  if (head === 'gift-voucher' && !id) return { page: 'voucher' };
  return { page: 'not_found' };
}

/** Whether a click on this link should stay in the page (a plain left click on a link of the store). */
export function shouldIntercept(event: MouseEvent, anchor: HTMLAnchorElement, base: string, origin: string) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return false;
  // A link to the page in another language loads that language's document (and its catalog).
  if (anchor.hasAttribute('hreflang')) return false;
  let url: URL;
  try {
    url = new URL(anchor.href, origin);
  } catch {
    return false;
  }
  return url.origin === origin && url.pathname.startsWith(base);
}
