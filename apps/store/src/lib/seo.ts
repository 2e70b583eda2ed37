import type { TWebOffer, TWebOfferSummary } from '@tourdesk/contracts';
import { toMajorText } from './money';

/**
 * What search engines and link previews read of the store's pages: plain text of an offer's
 * description and the schema.org JSON-LD of the store (an ItemList of its offers) and of an offer
 * (a Product with its "from" price). Drawn by the pages themselves (components/PageHead.tsx), on
 * the server and in the browser alike.
 */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** The text of sanitised HTML, on one line. */
export const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, e: string) => ENTITIES[e]!)
    .replace(/\s+/g, ' ')
    .trim();

/** An amount in minor units as the decimal schema.org expects ("89.00"): the contracts' toMajorText(). */
const decimal = toMajorText;

/** The store page: its offers in order. `storeUrl` is the store's absolute address ending in /. */
export function storeJsonLd(name: string, storeUrl: string, offers: TWebOfferSummary[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name,
    itemListElement: offers.map((o, i) => ({ '@type': 'ListItem', position: i + 1, url: `${storeUrl}offers/${o.id}`, name: o.title })),
  };
}

/** An offer: a Product with its from price, sold by the organisation that runs the store. */
export function offerJsonLd(o: TWebOffer, storeUrl: string, origin: string, organisation: string) {
  const url = `${storeUrl}offers/${o.id}`;
  const absolute = (src: string) => (/^https?:/.test(src) ? src : `${origin}${src}`);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: o.title,
    description: (o.short_description || plainText(o.long_description)).slice(0, 500),
    image: o.images.map((i) => absolute(i.url)),
    url,
    brand: { '@type': 'Organization', name: o.operated_by ?? organisation },
    ...(o.from_price !== null
      ? { offers: { '@type': 'AggregateOffer', priceCurrency: o.currency, lowPrice: decimal(o.from_price, o.currency), availability: 'https://schema.org/InStock', url } }
      : {}),
  };
}
