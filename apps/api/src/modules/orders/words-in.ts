import { localize, type Language, type Translations } from '@tourdesk/contracts/i18n';
import type { TenantCtx } from '../../lib/crud';
import { soldLabelTranslations } from './queries/tickets';

/**
 * THE rule for an order's words in its customer's language, wherever they are written: the sale
 * (`saleWords()` in records.ts: what its invoices will say) and the tickets, order confirmation and
 * e-mails (`ticketSource()` in tickets.ts). An offer's title and a pricing category's or extra's
 * label, field by field in `language`, else in the organisation's main language `main`, else the
 * text given (localize(), the rule the store and OCTO follow): a label without a translation keeps
 * the label given, the one it was held or sold under. One query (the labels' translations).
 */
export async function wordsIn(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, language: Language, main: Language, items: readonly { kind: string; id: string }[]) {
  const ids = (kind: string) => [...new Set(items.filter((i) => i.kind === kind).map((i) => i.id))];
  const { categories, extras } = await soldLabelTranslations(ctx, ids('category'), ids('extra'));
  // An extra's label is its name: its translations' `name` is the label's.
  const labels = new Map<string, Translations<{ label: string }>>([
    ...categories.map((c) => [c.id, c.translations as Translations<{ label: string }>] as const),
    ...extras.map((e) => [e.id, Object.fromEntries(Object.entries((e.translations ?? {}) as Translations<{ name: string }>).map(([l, t]) => [l, { label: t?.name }])) as Translations<{ label: string }>] as const),
  ]);
  return {
    /** An offer's title in the language (its row's `title` and `translations`). */
    title: (offer: { title: string; translations: unknown }) => localize({ title: offer.title, translations: offer.translations as Translations<{ title: string }> }, language, main).title,
    /** A sold or held item's label in the language. */
    label: (item: { id: string; label: string }) => localize({ label: item.label, translations: labels.get(item.id) ?? null }, language, main).label,
  };
}
