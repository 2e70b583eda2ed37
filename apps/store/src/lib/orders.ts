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
