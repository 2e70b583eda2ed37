import { useStore } from '../context';
import { PSEUDO_LOCALE, useT } from '../i18n';

/** JSON inside a <script> element: nothing in it can close the element or start a comment. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/**
 * A page's head: its title, description, canonical address, link previews (Open Graph) and
 * schema.org JSON-LD. React puts the title, meta and link elements in the document's head, on the
 * server's first drawing and on every page change in the browser alike; the JSON-LD stays where
 * it is drawn (search engines read it anywhere in the document).
 */
export function PageHead({
  title,
  description,
  path,
  image,
  noindex = false,
  alternates = true,
  jsonLd,
}: {
  title: string;
  description: string;
  /** The page's path below the store's base ("offers/…"); '' is the store page. */
  path: string;
  /** An absolute or site-relative image for link previews. */
  image?: string | null;
  noindex?: boolean;
  /** The page in the store's other languages (hreflang): every page but one that does not exist. */
  alternates?: boolean;
  jsonLd?: unknown;
}) {
  const t = useT();
  const { store, origin, base, languages, language, inLanguage } = useStore();
  // The pseudo-locale is a translators' check, never a page for search engines.
  const hidden = noindex || language === PSEUDO_LOCALE;
  const url = `${origin}${base}${path}`;
  const text = description.slice(0, 300);
  const picture = image ? (/^https?:/.test(image) ? image : `${origin}${image}`) : null;
  const full = title === store.name ? title : `${title} | ${store.name}`;
  return (
    <>
      <title>{full}</title>
      {text && <meta name="description" content={text} />}
      <link rel="canonical" href={url} />
      {/* The page in each language the store sells in (the customer's own pages too, noindex as they are); x-default is the organisation's first (unprefixed, where a first visit is sent on by its browser's language). */}
      {alternates &&
        language !== PSEUDO_LOCALE &&
        languages.length > 1 &&
        [...languages.map((l) => ({ key: l, href: `${origin}${inLanguage(l, path)}` })), { key: 'x-default', href: `${origin}${inLanguage(languages[0]!, path)}` }].map((alt) => (
          <link key={alt.key} rel="alternate" hrefLang={alt.key} href={alt.href} />
        ))}
      {hidden && <meta name="robots" content="noindex" />}
      <meta property="og:type" content="website" />
      <meta property="og:locale" content={t.locale.replace('-', '_')} />
      <meta property="og:site_name" content={store.name} />
      <meta property="og:title" content={full} />
      {text && <meta property="og:description" content={text} />}
      <meta property="og:url" content={url} />
      {picture && <meta property="og:image" content={picture} />}
      <meta name="twitter:card" content={picture ? 'summary_large_image' : 'summary'} />
      {jsonLd !== undefined && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(jsonLd) }} />}
    </>
  );
}
