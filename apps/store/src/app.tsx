import type { TWebCart } from '@tourdesk/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ErrorPanel, Spinner, useLoad } from './components/Async';
import { Heading } from './components/Heading';
import { CartIcon } from './components/Icons';
import { Toasts, type Toast } from './components/Toasts';
import { Ctx, useStore, type StoreCtx, type ToastKind } from './context';
import type { Api } from './lib/api';
import { accentPalette } from './lib/color';
import { reportHeight } from './lib/frame';
import { matchRoute, shouldIntercept, type Route } from './lib/router';
import { markVisitSent, safeStorage, visitOf } from './lib/storage';
import { BookingPage } from './pages/BookingPage';
import { CheckoutPage } from './pages/CheckoutPage';
import { ConfirmationPage } from './pages/ConfirmationPage';
import { OfferPage } from './pages/OfferPage';
import { PaymentPage } from './pages/PaymentPage';
import { StorePage } from './pages/StorePage';
import { t } from './texts';

export interface AppProps {
  slug: string;
  base: string;
  api: Api;
  embed: boolean;
}

export function App(props: AppProps) {
  const store = useLoad(() => props.api.store(), []);
  if (store.error) {
    return (
      <div class="td-store">
        <main class="td-main">
          <div class="td-page">
            <h1 class="td-h1">{store.error.status === 404 ? t.storeClosed : t.genericError}</h1>
            {store.error.status !== 404 && <ErrorPanel error={store.error} retry={store.reload} />}
          </div>
        </main>
      </div>
    );
  }
  if (!store.data) {
    return (
      <div class="td-store">
        <main class="td-main">
          <Spinner />
        </main>
      </div>
    );
  }
  return <Shop {...props} store={store.data} />;
}

function Shop({ slug, base, api, embed, store }: AppProps & { store: StoreCtx['store'] }) {
  const [route, setRoute] = useState<Route>(() => matchRoute(location.pathname, base));
  const [cart, setCart] = useState<TWebCart | null>(null);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const focusNextRef = useRef(false);
  const rootRef = useRef<HTMLDivElement>(null);

  const link = useCallback((path: string) => `${base}${path}${embed ? (path.includes('?') ? '&' : '?') + 'embed=1' : ''}`, [base, embed]);
  const go = useCallback((url: string, replace = false) => {
    history[replace ? 'replaceState' : 'pushState'](null, '', url);
    focusNextRef.current = true;
    setRoute(matchRoute(location.pathname, base));
    window.scrollTo(0, 0);
  }, [base]);

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

  // Back and forward; clicks on the store's own links stay in the page.
  useEffect(() => {
    const onPop = () => {
      focusNextRef.current = true;
      setRoute(matchRoute(location.pathname, base));
    };
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.('a');
      if (!a || !rootRef.current?.contains(a) || !shouldIntercept(e, a, base, location.origin)) return;
      e.preventDefault();
      const url = new URL(a.href);
      go(url.pathname + url.search + url.hash);
    };
    window.addEventListener('popstate', onPop);
    document.addEventListener('click', onClick);
    return () => {
      window.removeEventListener('popstate', onPop);
      document.removeEventListener('click', onClick);
    };
  }, [base, go]);

  // The cart (for the header's count), and one visit per browser session.
  useEffect(() => {
    refreshCart().catch(() => null);
    const session = safeStorage('sessionStorage');
    const visit = visitOf(session, slug);
    if (!visit.sent) api.visit(visit.id).then(() => markVisitSent(session, slug, visit.id), () => undefined);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => (embed && rootRef.current ? reportHeight(rootRef.current) : undefined), [embed]);

  const palette = useMemo(() => accentPalette(store.primary_color), [store.primary_color]);
  const ctx: StoreCtx = {
    slug,
    base,
    api,
    store,
    embed,
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
      <div ref={rootRef} class={`td-store${embed ? ' td-embed' : ''}`} style={style}>
        {!embed && (
          <a class="td-skip" href="#td-main">
            {t.skipToContent}
          </a>
        )}
        {!embed && (
          <header class="td-header">
            <div class="td-header-inner">
              <a class="td-brand" href={link('')}>
                {store.logo_url && <img class="td-logo" src={store.logo_url} alt="" height={40} />}
                <span class="td-brand-name">{store.name}</span>
              </a>
              <a class="td-cart-link" href={link('checkout')} aria-label={t.cartLabel(count)}>
                <CartIcon />
                <span aria-hidden="true">{t.cart(count)}</span>
              </a>
            </div>
          </header>
        )}
        {embed && count > 0 && route.page !== 'checkout' && (
          <p class="td-embed-cart">
            <a href={link('checkout')}>{t.cartLabel(count)} →</a>
          </p>
        )}
        <main id="td-main" class="td-main" tabIndex={-1}>
          <Page route={route} />
        </main>
        {!embed && (
          <footer class="td-footer">
            <div class="td-footer-inner">
              <p>{t.poweredBy(store.organisation)}</p>
              {(store.contact_email || store.contact_phone) && (
                <p>
                  {t.contact}: {store.contact_email && <a href={`mailto:${store.contact_email}`}>{store.contact_email}</a>}
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

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'store':
      return <StorePage />;
    case 'offer':
      return <OfferPage key={route.id} id={route.id} />;
    case 'checkout':
      return <CheckoutPage />;
    case 'confirmation':
      return <ConfirmationPage key={route.reference} reference={route.reference} />;
    case 'booking':
      return <BookingPage key={route.reference} reference={route.reference} />;
    case 'payment':
      return <PaymentPage key={route.checkout} checkout={route.checkout} />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  const { link } = useStore();
  return (
    <div class="td-page">
      <Heading title={t.notFoundTitle}>{t.notFoundTitle}</Heading>
      <p>{t.notFoundText}</p>
      <p>
        <a class="td-btn td-btn--primary" href={link('')}>
          {t.browseOffers}
        </a>
      </p>
    </div>
  );
}
