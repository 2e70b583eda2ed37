import { useEffect, useMemo, useState } from 'react';
import { Spinner, useLoad } from '../components/Async';
import { Countdown } from '../components/Countdown';
import { Heading } from '../components/Heading';
import { useStore } from '../context';
import { ApiError } from '../lib/api';
import { mergeLines, type Line, type Question } from '../lib/checkout';
import { msLeft } from '../lib/countdown';
import { formatDateTime } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { rememberOrder, secretOf } from '../lib/orders';
import { dropDraft, dropPayment, loadPayment, safeStorage, saveOrderSecret } from '../lib/storage';
import { errorText, useT } from '../i18n';
import { DetailsForm } from './checkout/DetailsForm';
import { PromoCodeBox } from './checkout/PromoCodeBox';
import { VoucherBox } from './checkout/VoucherBox';
import type { TPromoPreview, TVoucherPreview } from '@tourdesk/contracts';

/**
 * The cart and checkout: the held lines with their countdowns (lines run out stay, to be chosen
 * again), a payment left unfinished on Stripe's page, and the details form (checkout/DetailsForm).
 */
export function CheckoutPage() {
  const t = useT();
  const { api, slug, store, cart, refreshCart, setCart, navigate, link, toast, hour12 } = useStore();
  const [loaded, setLoaded] = useState(false);
  const [lines, setLines] = useState<Line[]>(() => mergeLines([], cart));
  const [conflicts, setConflicts] = useState<Record<string, string>>({});
  const [promo, setPromo] = useState<TPromoPreview | null>(null);
  const [voucher, setVoucher] = useState<TVoucherPreview | null>(null);
  const [, setExpiredTick] = useState(0);
  /** Back from Stripe's page without paying (its cancel link, or the browser's Back). */
  const [note, setNote] = useState<'unpaid' | 'expired' | null>(null);

  useEffect(() => {
    refreshCart()
      .catch(() => null)
      .finally(() => setLoaded(true));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // A pay-on-site order carries a solved proof-of-work: solved now, in the background, while the
  // customer fills in the form (lib/challenge.ts), so booking waits for nothing.
  useEffect(() => {
    if (store.payment_options.includes('pay_on_site')) api.prepareChallenge();
  }, [api, store.payment_options]);

  // A payment started in this session: still open (the seats are still held), paid meanwhile
  // (its page shows the confirmation), or run out (the seats were released).
  useEffect(() => {
    const session = safeStorage('sessionStorage');
    const check = () => {
      const pending = loadPayment(session, slug);
      if (!pending) return;
      api.payment(pending.checkout, { token: pending.token }).then(
        (p) => {
          if (p.status === 'open') setNote('unpaid');
          else if (p.status === 'paid' || p.status === 'refunded') navigate(`payment/${encodeURIComponent(pending.checkout)}`, { replace: true });
          else {
            dropPayment(session, slug);
            setNote(p.status === 'expired' ? 'expired' : null);
            refreshCart().catch(() => null);
          }
        },
        (e: unknown) => {
          if (e instanceof ApiError && e.status === 404) dropPayment(session, slug);
        },
      );
    };
    check();
    // Back from Stripe's page, the browser may show this page as it was left.
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      refreshCart().catch(() => null);
      check();
    };
    addEventListener('pageshow', onShow);
    return () => removeEventListener('pageshow', onShow);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  // A new cart (loaded, or changed by a removal) brings its lines in, keeping those seen run out.
  const [seenCart, setSeenCart] = useState(cart);
  if (cart !== seenCart) {
    setSeenCart(cart);
    setLines((prev) => mergeLines(prev, cart));
  }

  const offerIds = useMemo(() => [...new Set(lines.map((l) => l.offer))].sort(), [lines]);
  const offers = useLoad(() => Promise.all(offerIds.map((id) => api.offer(id).catch(() => null))), [offerIds.join(',')]);
  const questions = useMemo(() => {
    const seen = new Map<string, Question>();
    for (const o of offers.data ?? []) for (const q of o?.questions ?? []) if (!seen.has(q.id)) seen.set(q.id, q);
    return [...seen.values()];
  }, [offers.data]);

  async function remove(line: Line) {
    try {
      const next = await api.removeLine(line.id);
      setCart(next);
    } catch (e) {
      // A line whose hold ran out is gone already: drop it here too.
      if (!(e instanceof ApiError && e.status === 404)) {
        toast('error', errorText(t, e));
        return;
      }
    }
    setLines((all) => all.filter((l) => l.id !== line.id));
    setConflicts(({ [line.id]: _, ...rest }) => rest);
    toast('info', t('removed'));
  }

  if (!loaded && lines.length === 0) return <Spinner />;

  const total = lines.filter((l) => msLeft(l.expires_at) > 0).reduce((n, l) => n + l.total, 0);
  return (
    <div className="td-page td-checkout">
      <Heading>{t('checkoutTitle')}</Heading>
      {note && (
        <p className="td-warning" role="status" data-testid="payment-note">
          {note === 'unpaid' ? t('paymentNotCompleted') : t('paymentExpired')}
        </p>
      )}
      {lines.length === 0 ? (
        <div className="td-panel">
          <p>{t('cartEmpty')}</p>
          <a className="td-btn td-btn--primary" href={link('')}>
            {t('browseOffers')}
          </a>
        </div>
      ) : (
        <div className="td-checkout-grid">
          <section className="td-lines" aria-labelledby="td-cart-heading">
            <h2 id="td-cart-heading" className="td-sr-only">
              {t('cart', { n: lines.length })}
            </h2>
            <ul className="td-line-list">
              {lines.map((l) => {
                const expired = msLeft(l.expires_at) === 0;
                const conflict = conflicts[l.id];
                return (
                  <li key={l.id} className={`td-line${expired ? ' td-line--expired' : ''}${conflict ? ' td-line--conflict' : ''}`} data-testid="cart-line">
                    <div className="td-line-head">
                      <h3 className="td-h3">{l.offer_title}</h3>
                      <strong>{formatMoney(l.total, cart?.currency ?? store.currency, t.locale)}</strong>
                    </div>
                    <p className="td-muted">{formatDateTime(t, l.starts_at, l.time_zone, hour12)}</p>
                    <ul className="td-items">
                      {l.items.map((i) => (
                        <li key={i.label + i.kind}>
                          {t('quantityTimes', { n: i.quantity, label: i.label })} · {formatMoney(i.unit_price, cart?.currency ?? store.currency, t.locale)}
                        </li>
                      ))}
                    </ul>
                    <Countdown expiresAt={l.expires_at} onExpire={() => setExpiredTick((n) => n + 1)} />
                    {expired && (
                      <p className="td-warning">
                        {t('expired')} <a href={link(`offers/${l.offer}`)}>{t('chooseAgain')}</a>
                      </p>
                    )}
                    {conflict && (
                      <p className="td-error" role="alert">
                        {conflict} <a href={link(`offers/${l.offer}`)}>{t('chooseAgain')}</a>
                      </p>
                    )}
                    <button type="button" className="td-btn td-btn--secondary td-btn--small" onClick={() => remove(l)} aria-label={t('removeLine', { title: l.offer_title })}>
                      {t('remove')}
                    </button>
                  </li>
                );
              })}
            </ul>
            <PromoCodeBox
              lines={lines}
              applied={promo}
              onApplied={(p) => {
                setPromo(p);
                // What a voucher pays follows the total: it is tried again after the promo code changes.
                setVoucher(null);
              }}
            />
            <p className="td-total">
              <span>{t('total')}</span> <strong data-testid="cart-total">{formatMoney(promo ? total - promo.discount.amount : total, cart?.currency ?? store.currency, t.locale)}</strong>
            </p>
            <VoucherBox lines={lines} promoCode={promo?.discount.code ?? null} applied={voucher} onApplied={setVoucher} />
            {voucher && (
              <p className="td-total">
                <span>{t('voucherDue')}</span> <strong data-testid="cart-due">{formatMoney((promo ? total - promo.discount.amount : total) - voucher.covers, cart?.currency ?? store.currency, t.locale)}</strong>
              </p>
            )}
            <p>
              <a href={link('')}>+ {t('addAnother')}</a>
            </p>
          </section>
          <DetailsForm
            promoCode={promo?.discount.code ?? null}
            voucherCode={voucher?.code ?? null}
            voucherAmount={voucher?.covers ?? null}
            lines={lines}
            questions={questions}
            questionsLoading={offers.loading}
            onConflicts={setConflicts}
            onPlaced={async (order) => {
              const session = safeStorage('sessionStorage');
              rememberOrder(order);
              saveOrderSecret(session, slug, order.reference, secretOf(order.manage_url));
              dropPayment(session, slug);
              dropDraft(session, slug);
              setLines([]);
              await refreshCart().catch(() => null);
              navigate(`confirmation/${encodeURIComponent(order.reference)}`);
            }}
          />
        </div>
      )}
    </div>
  );
}

