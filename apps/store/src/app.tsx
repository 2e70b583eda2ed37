import type { TWebCart, TWebStore } from '@tourdesk/contracts';
import { LANGUAGE_NAMES, type Language } from '@tourdesk/contracts/i18n';
import { Component, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { ErrorPanel, Spinner, useLoad } from './components/Async';
import { Heading } from './components/Heading';
import { CartIcon } from './components/Icons';
import { PageHead } from './components/PageHead';
import { Toasts, type Toast } from './components/Toasts';
import { Ctx, PreloadCtx, useStore, type StoreCtx, type ToastKind } from './context';
import type { Api } from './lib/api';
import { accentPalette } from './lib/color';
import { isEmbedded, reportHeight } from './lib/frame';
import type { Preload } from './lib/preload';
import { matchRoute, shouldIntercept, type Route } from './lib/router';
import { markVisitSent, safeStorage, visitOf } from './lib/storage';
import { BookingPage, CheckoutPage, ConfirmationPage, PaymentPage, VoucherPage } from './pages/lazy';
import { OfferPage } from './pages/OfferPage';
import { StorePage } from './pages/StorePage';
import { basePath, TCtx, useT, type PageLanguage, type T } from './i18n';

export interface AppProps {
  slug: string;
  /** The store's path in this page's language: "/s/{slug}/", or "/s/{slug}/{lang}/" for any but the organisation's first. */
  base: string;
  /** The page's language (the address's), and the languages the organisation sells in (its first the default, unprefixed). */
  language: PageLanguage;
  languages: Language[];
  /** The organisation's 12-hour clock (else 24-hour). */
  hour12: boolean;
  /** The page's translate function (its catalog, as the server embedded it). */
  t: T;
  /** The page's path and query ("/s/kayak/offers/…?date=…"), as the server drew it. */
  url: string;
  /** Where the store lives ("https://demo.example.com"). */
  origin: string;
  api: Api;
  /** What the server read for this page (null: a page the server did not draw, as in `vite` dev). */
  preload: Preload | null;
}

/** "/s/kayak/offers/1?date=…" → its path and query. */
const split = (url: string) => {
  const i = url.indexOf('?');
  return { pathname: i < 0 ? url : url.slice(0, i), search: new URLSearchParams(i < 0 ? '' : url.slice(i + 1)) };
};

/**
 * The web store: one component tree that the server draws to HTML (server.tsx) and the browser
 * hydrates (main.tsx). Everything the first drawing shows comes from the props and the preloaded
 * data, never from the browser (storage, the address's fragment), so both draw the same.
 */
export function App(props: AppProps) {
  const [preload] = useState(() => {
    const map = new Map<string, unknown>(Object.entries(props.preload?.data ?? {}));
    if (props.preload) map.set('store', props.preload.store ?? { $error: { status: 404, errors: [{ code: 'not_found', detail: 'This store does not exist or is closed.', attr: null }] } });
    return map;
  });
  return (
    <TCtx.Provider value={props.t}>
      <PreloadCtx.Provider value={preload}>
        <Store {...props} />
      </PreloadCtx.Provider>
    </TCtx.Provider>
  );
}

function Store(props: AppProps) {
  const t = useT();
  const store = useLoad(() => props.api.store(), [], 'store');
  if (store.error || !store.data) {
    return (
      <div className="td-store">
        <main className="td-main">
          {store.error ? (
            <div className="td-page">
              <title>{store.error.status === 404 ? t('storeClosed') : t('genericError')}</title>
              <meta name="robots" content="noindex" />
              <h1 className="td-h1">{store.error.status === 404 ? t('storeClosed') : t('genericError')}</h1>
              {store.error.status !== 404 && <ErrorPanel error={store.error} retry={store.reload} />}
            </div>
          ) : (
            <Spinner />
          )}
        </main>
      </div>
    );
  }
  return <Shop {...props} store={store.data} />;
}

function Shop({ slug, base, url, origin, api, store, language, languages, hour12, t }: AppProps & { store: TWebStore }) {
  const [place, setPlace] = useState(() => split(url));
  const route = useMemo(() => matchRoute(place.pathname, base), [place.pathname, base]);
  // In a frame from the first address on, whatever later links say (a link in an offer's text may lack ?embed=1).
  const [embed] = useState(() => isEmbedded(split(url).search.toString()));
  const [cart, setCart] = useState<TWebCart | null>(null);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const focusNextRef = useRef(false);
  const rootRef = useRef<HTMLDivElement>(null);

  const link = useCallback(
    (path: string) => `${base}${path}${embed ? (path.includes('?') ? '&' : '?') + 'embed=1' : ''}`,
    [base, embed],
  );
  const here = () => setPlace({ pathname: location.pathname, search: new URLSearchParams(location.search) });
  const go = useCallback((to: string, replace = false) => {
    history[replace ? 'replaceState' : 'pushState'](null, '', to);
    focusNextRef.current = true;
    here();
    window.scrollTo(0, 0);
  }, []);
  /** Changes the page's query in place (the offer's chosen day): no new history entry, no scroll. */
  const setSearch = useCallback(
    (params: URLSearchParams) => {
      if (embed) params.set('embed', '1');
      const q = params.toString();
      history.replaceState(null, '', `${location.pathname}${q ? `?${q}` : ''}`);
      here();
    },
    [embed],
  );

  const toast = useCallback((kind: ToastKind, text: string) => {
    const id = Date.now() + Math.random();
    setToasts((all) => [...all.filter((x) => x.text !== text), { id, kind, text }]);
    setTimeout(() => setToasts((all) => all.filter((x) => x.id !== id)), kind === 'error' ? 10_000 : 5_000);
  }, []);

  const refreshCart = useCallback(async () => {
    const c = await api.cart();
    setCart(c);
    return c;
  }, [api]);
  /** The same page in another language (the switch, hreflang): a new document, drawn in that language. */
  const defaultLanguage = languages[0] ?? 'en';
  const inLanguage = useCallback(
    (l: PageLanguage, path: string) => `${basePath(slug, l, defaultLanguage)}${path}`,
    [slug, defaultLanguage],
  );

  // Back and forward; clicks on the store's own links stay in the page.
  useEffect(() => {
    const onPop = () => {
      focusNextRef.current = true;
      here();
    };
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.('a');
      if (!a || !rootRef.current?.contains(a) || !shouldIntercept(e, a, base, location.origin)) return;
      e.preventDefault();
      const next = new URL(a.href);
      if (embed) next.searchParams.set('embed', '1');
      go(next.pathname + next.search + next.hash);
    };
    window.addEventListener('popstate', onPop);
    document.addEventListener('click', onClick);
    return () => {
      window.removeEventListener('popstate', onPop);
      document.removeEventListener('click', onClick);
    };
  }, [base, go, embed]);

  // The cart (for the header's count), and one visit per browser session.
  useEffect(() => {
    // The cart is the same in every language; it takes the one the customer reads now (its order is in it).
    api.cart().then(
      (c) => {
        setCart(c);
        if (c) api.keepLanguage(c).then(setCart, () => null);
      },
      () => null,
    );
    const session = safeStorage('sessionStorage');
    const visit = visitOf(session, slug);
    if (!visit.sent) api.visit(visit.id).then(() => markVisitSent(session, slug, visit.id), () => undefined);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => (embed && rootRef.current ? reportHeight(rootRef.current) : undefined), [embed]);

  const palette = useMemo(() => accentPalette(store.primary_color), [store.primary_color]);
  const ctx: StoreCtx = {
    slug,
    base,
    origin,
    api,
    store,
    embed,
    language,
    languages,
    inLanguage,
    hour12,
    search: place.search,
    setSearch,
    link,
    navigate: (path, options) => go(link(path), options?.replace),
    cart,
    setCart,
    refreshCart,
    toast,
    takeFocus: () => {
      const v = focusNextRef.current;
      focusNextRef.current = false;
      return v;
    },
  };
  const count = cart?.lines.length ?? 0;
  const style = {
    '--td-accent': palette.accent,
    '--td-on-accent': palette.onAccent,
    '--td-link-light': palette.linkLight,
    '--td-link-dark': palette.linkDark,
  } as Record<string, string>;

  return (
    <Ctx.Provider value={ctx}>
      <meta name="theme-color" content={store.primary_color} />
      <div ref={rootRef} className={`td-store${embed ? ' td-embed' : ''}`} style={style}>
        {!embed && (
          <a className="td-skip" href="#td-main">
            {t('skipToContent')}
          </a>
        )}
        {!embed && (
          <header className="td-header">
            <div className="td-header-inner">
              <a className="td-brand" href={link('')}>
                {store.logo_url && <img className="td-logo" src={store.logo_url} alt="" height={40} />}
                <span className="td-brand-name">{store.name}</span>
              </a>
              {store.sells_vouchers && (
                <a className="td-voucher-link" href={link('gift-voucher')}>
                  {t('giftVoucherLink')}
                </a>
              )}
              <LanguageSwitch path={place.pathname.startsWith(base) ? place.pathname.slice(base.length) : ''} search={place.search} />
              <a className="td-cart-link" href={link('checkout')} aria-label={t('cartLabel', { n: count })}>
                <CartIcon />
                <span aria-hidden="true">{t('cart', { n: count })}</span>
              </a>
            </div>
          </header>
        )}
        {embed && count > 0 && route.page !== 'checkout' && (
          <p className="td-embed-cart">
            <a href={link('checkout')}>{t('cartLabel', { n: count })} →</a>
          </p>
        )}
        <main id="td-main" className="td-main" tabIndex={-1}>
          <Page route={route} />
        </main>
        {!embed && (
          <footer className="td-footer">
            <div className="td-footer-inner">
              <p>{t('poweredBy', { org: store.organisation })}</p>
              {(store.contact_email || store.contact_phone) && (
                <p>
                  {t('contact')}: {store.contact_email && <a href={`mailto:${store.contact_email}`}>{store.contact_email}</a>}
                  {store.contact_email && store.contact_phone && ' · '}
                  {store.contact_phone && <a href={`tel:${store.contact_phone.replace(/\s+/g, '')}`}>{store.contact_phone}</a>}
                </p>
              )}
            </div>
          </footer>
        )}
        <Toasts toasts={toasts} dismiss={(id) => setToasts((all) => all.filter((x) => x.id !== id))} />
      </div>
    </Ctx.Provider>
  );
}

/**
 * One link per language the organisation sells in, to this page in it (a new document: the other
 * language's catalog comes with it). The organisation's first language lives at the unprefixed
 * address; its link says ?lang= so that the server remembers the choice (a cookie) rather than
 * sending the customer back to their browser's language.
 */
function LanguageSwitch({ path, search }: { path: string; search: URLSearchParams }) {
  const t = useT();
  const { languages, language, inLanguage } = useStore();
  if (languages.length < 2) return null;
  const href = (l: Language) => {
    const q = new URLSearchParams(search);
    q.delete('lang');
    if (l === languages[0]) q.set('lang', l);
    const query = q.toString();
    return `${inLanguage(l, path)}${query ? `?${query}` : ''}`;
  };
  return (
    <nav className="td-languages" aria-label={t('languageSwitch')}>
      <ul>
        {languages.map((l) => (
          <li key={l}>
            <a
              href={href(l)}
              hrefLang={l}
              lang={l}
              aria-current={l === language ? 'true' : undefined}
              // The booking page's secret is in the fragment, which only the browser knows: it goes along.
              onClick={(e) => {
                if (location.hash) e.currentTarget.href = `${href(l)}${location.hash}`;
              }}
            >
              {LANGUAGE_NAMES[l]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const subscribeToNothing = () => () => undefined;
/**
 * False on the server and while the browser hydrates its drawing, true from then on: what only the
 * browser knows (storage, the address's fragment) waits for it, so both first drawings agree.
 */
const useMounted = () =>
  useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );

/**
 * The customer's own pages (cart, confirmation, booking, payment) are drawn from what only the
 * browser holds (the cart's secret, the booking's in the fragment): the server draws their head
 * and a spinner, the browser the rest (their code loads then: pages/lazy.ts). They are never indexed.
 */
function Private({ title, path, children }: { title: string; path: string; children: ReactNode }) {
  const t = useT();
  const mounted = useMounted();
  const { link } = useStore();
  return (
    <>
      <PageHead title={title} description="" path={path} noindex />
      {mounted ? (
        <LoadFailed>
          <Suspense fallback={<Spinner />}>{children}</Suspense>
        </LoadFailed>
      ) : (
        <>
          <Spinner />
          <noscript>
            <p className="td-panel">
              {t('needsJavaScript')} <a href={link('')}>{t('seeOffers')}</a>
            </p>
          </noscript>
        </>
      )}
    </>
  );
}

/** A page whose code could not be fetched (the network, or a new version deployed meanwhile) says so, instead of an empty store. */
class LoadFailed extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return <LoadFailedPanel />;
  }
}

function LoadFailedPanel() {
  const t = useT();
  return (
    <div className="td-page">
      <div className="td-panel td-panel--error" role="alert">
        <p>{t('pageNotLoaded')}</p>
        <button type="button" className="td-btn td-btn--secondary" onClick={() => location.reload()}>
          {t('reload')}
        </button>
      </div>
    </div>
  );
}

function Page({ route }: { route: Route }) {
  const t = useT();
  switch (route.page) {
    case 'store':
      return <StorePage />;
    case 'offer':
      return <OfferPage key={route.id} id={route.id} />;
    case 'checkout':
      return (
        <Private title={t('checkoutTitle')} path="checkout">
          <CheckoutPage />
        </Private>
      );
    case 'confirmation':
      return (
        <Private key={route.reference} title={t('thankYouPlain')} path={`confirmation/${route.reference}`}>
          <ConfirmationPage reference={route.reference} />
        </Private>
      );
    case 'booking':
      return (
        <Private key={route.reference} title={t('bookingTitle', { reference: route.reference })} path={`booking/${route.reference}`}>
          <BookingPage reference={route.reference} />
        </Private>
      );
    case 'voucher':
      return (
        <Private title={t('voucherTitle')} path="gift-voucher">
          <VoucherPage />
        </Private>
      );
    case 'payment':
      return (
        <Private key={route.checkout} title={t('paymentTitle')} path={`payment/${route.checkout}`}>
          <PaymentPage checkout={route.checkout} />
        </Private>
      );
    default:
      return <NotFound />;
  }
}

function NotFound() {
  const t = useT();
  const { link } = useStore();
  return (
    <div className="td-page">
      <PageHead title={t('notFoundTitle')} description="" path="" noindex alternates={false} />
      <Heading>{t('notFoundTitle')}</Heading>
      <p>{t('notFoundText')}</p>
      <p>
        <a className="td-btn td-btn--primary" href={link('')}>
          {t('browseOffers')}
        </a>
      </p>
    </div>
  );
}
