import type { TWebOrder } from '@tourdesk/contracts';

/** The order just placed in this page, so its confirmation shows without asking again. */
const placed = new Map<string, TWebOrder>();
export const rememberOrder = (o: TWebOrder) => void placed.set(o.reference, o);
export const placedOrder = (reference: string) => placed.get(reference) ?? null;

/** The secret of an order's private link: https://host/s/{slug}/booking/{reference}#{secret}. */
export const secretOf = (manageUrl: string) => {
  const i = manageUrl.indexOf('#');
  return i >= 0 ? decodeURIComponent(manageUrl.slice(i + 1)) : '';
};

/** The private link's path and fragment, to follow it inside this page (same origin). */
export function localPath(url: string, origin: string) {
  try {
    const u = new URL(url, origin);
    return u.origin === origin ? u.pathname + u.search + u.hash : url;
  } catch {
    return url;
  }
}
