/** The spec's routes: the list, and the editor's tabs in the order of its tab group. */
export const STORES_LIST = '/sales/stores';

export const STORE_TABS = [
  { tab: 'overview', label: 'Analytics' },
  { tab: 'store-products', label: 'Products' },
  { tab: 'settings', label: 'Settings' },
  { tab: 'add-products', label: 'Global catalog' },
] as const;
export type StoreTab = (typeof STORE_TABS)[number]['tab'];
export const isStoreTab = (tab: string | undefined): tab is StoreTab => STORE_TABS.some((t) => t.tab === tab);

export const storeEditorPath = (id: string, tab: StoreTab = 'overview') => `/sales/stores/editor/${id}/${tab}`;

/** The spec's success messages: store created / updated. */
export const STORE_CREATED = 'Store created';
export const STORE_UPDATED = 'Store updated';

/** An offer's activation status (Draft, Active, Inactive). */
export const OFFER_STATUS_COLOR: Record<string, string> = { Draft: 'gray', Active: 'green', Inactive: 'orange' };

/**
 * A store address suggested from its name: lower-case ASCII letters, digits and single hyphens,
 * at most 60 characters, no hyphen at either end ("Café Zürich – Tours" → "cafe-zurich-tours").
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/** Where a store with this address is found, on the organisation's host of `url` (a store's url). */
export function storeUrlWith(url: string, slug: string): string {
  try {
    return `${new URL(url).origin}/s/${slug}/`;
  } catch {
    return `/s/${slug}/`;
  }
}

/** 0.0412 → "4.1 %". */
export { formatFraction as percent } from '@tourdesk/contracts';
