import { useEffect, useState } from 'react';
import { Heading } from '../components/Heading';
import { useStore } from '../context';
import { ApiError, type PaymentState } from '../lib/api';
import { rememberOrder, secretOf } from '../lib/orders';
import { dropDraft, dropPayment, loadPayment, safeStorage, saveOrderSecret } from '../lib/storage';
import { useT } from '../i18n';

/** How often, and how many times, the page asks before it says it is still waiting. */
export const POLL_MS = 1000;
export const POLL_TRIES = 20;

type View = 'checking' | 'waiting' | 'unknown' | 'paid' | 'expired' | 'failed' | 'refunded';

/**
 * Where Stripe's payment page brings the customer back: /s/{slug}/payment/{checkout}?session_id=….
 * The order is made when Stripe says the session is paid (its event, or the server asking Stripe
 * when this page asks first), never on this page's word: the page asks a few times, then shows
 * the confirmation (the same page as a pay-on-site booking), or what happened instead.
 */
export function PaymentPage({ checkout }: { checkout: string }) {
  const t = useT();
  const { api, slug, link, navigate, refreshCart } = useStore();
  // The secret this tab kept when it left for Stripe; a tab that lost it (a store in a frame
  // whose storage is cut off, a link opened elsewhere) proves itself with Stripe's session id.
  const [proof] = useState(() => {
    const p = loadPayment(safeStorage('sessionStorage'), slug);
    const session = new URLSearchParams(location.search).get('session_id');
    if (p?.checkout === checkout) return { token: p.token, session };
    return session ? { token: null, session } : null;
  });
  const [view, setView] = useState<View>(proof ? 'checking' : 'unknown');
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!proof) return undefined;
    const session = safeStorage('sessionStorage');
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;

    const finish = async (p: PaymentState) => {
      // Without the secret the order cannot be shown here: the e-mail has its link.
      const secret = p.order ? secretOf(p.order.manage_url) : '';
      if (p.status === 'paid' && p.order && secret) {
        rememberOrder(p.order);
        saveOrderSecret(session, slug, p.order.reference, secret);
      }
      dropPayment(session, slug);
      if (p.status === 'paid' || p.status === 'expired') dropDraft(session, slug);
      await refreshCart().catch(() => null);
      if (!live) return;
      if (p.status === 'paid' && p.order && secret) navigate(`confirmation/${encodeURIComponent(p.order.reference)}`, { replace: true });
      else setView(p.status as View);
    };
    const ask = async () => {
      tries += 1;
      let answer: PaymentState | null = null;
      try {
        answer = await api.payment(checkout, proof);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) {
          if (live) setView('unknown');
          return;
        }
        // A network hiccup: ask again.
      }
      if (!live) return;
      if (answer && answer.status !== 'open') return finish(answer);
      if (tries >= POLL_TRIES) setView('waiting');
      else timer = setTimeout(ask, POLL_MS);
    };
    void ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [checkout, round]); // eslint-disable-line react-hooks/exhaustive-deps

  const page = (title: string, text: string | null, action?: { href: string; label: string }) => (
    <div className="td-page">
      <Heading>{title}</Heading>
      {text && <p className="td-panel" data-testid="payment-outcome">{text}</p>}
      {action && (
        <p>
          <a className="td-btn td-btn--primary" href={action.href}>
            {action.label}
          </a>
        </p>
      )}
    </div>
  );
  const browse = { href: link(''), label: t('chooseAnotherTime') };

  switch (view) {
    case 'checking':
      return (
        <div className="td-page">
          <Heading>{t('paymentTitle')}</Heading>
          <p className="td-loading" role="status">
            <span className="td-spinner" aria-hidden="true" />
            {t('checkingPayment')}
          </p>
        </div>
      );
    case 'waiting':
      return (
        <div className="td-page">
          <Heading>{t('paymentTitle')}</Heading>
          <div className="td-panel" role="status">
            <p>{t('stillChecking')}</p>
            <button type="button" className="td-btn td-btn--secondary" onClick={() => (setView('checking'), setRound((n) => n + 1))}>
              {t('checkAgain')}
            </button>
          </div>
        </div>
      );
    case 'paid':
      // Paid, but the order could not be shown here: the e-mail has it.
      return page(t('thankYouPlain'), t('confirmationUnknown'), { href: link(''), label: t('backToStore') });
    case 'refunded':
      return page(t('paymentRefundedTitle'), t('paymentRefunded'), browse);
    case 'expired':
      return page(t('paymentExpiredTitle'), t('paymentExpired'), browse);
    case 'failed':
      return page(t('paymentFailedTitle'), t('paymentFailed'), { href: link('checkout'), label: t('backToCheckout') });
    default:
      return page(t('paymentTitle'), t('paymentUnknown'), { href: link(''), label: t('backToStore') });
  }
}
