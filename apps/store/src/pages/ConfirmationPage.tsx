import { useMemo } from 'react';
import { ErrorPanel, Spinner, useLoad } from '../components/Async';
import { Heading } from '../components/Heading';
import { OrderSummary } from '../components/OrderSummary';
import { useStore } from '../context';
import { formatMoney } from '../lib/money';
import { formatLongDate } from '../lib/dates';
import { placedOrder, secretOf } from '../lib/orders';
import { loadOrderSecret, safeStorage } from '../lib/storage';
import { useT } from '../i18n';

/** Thank you: the order just placed, its tickets' codes, and the link to the customer's booking page. */
export function ConfirmationPage({ reference }: { reference: string }) {
  const t = useT();
  const { api, slug, link, embed } = useStore();
  const secret = useMemo(() => loadOrderSecret(safeStorage('sessionStorage'), slug, reference), [slug, reference]);
  const order = useLoad(async () => placedOrder(reference) ?? (secret ? api.myOrder(reference, secret) : null), [reference]);

  if (order.loading) return <Spinner />;
  if (order.error && order.error.status !== 404) return <ErrorPanel error={order.error} retry={order.reload} />;
  const o = order.data;
  if (!o) {
    return (
      <div className="td-page">
        <Heading>{t('thankYouPlain')}</Heading>
        <p className="td-panel">{t('confirmationUnknown')}</p>
        <p>
          <a href={link('')}>← {t('backToStore')}</a>
        </p>
      </div>
    );
  }
  return (
    <div className="td-page td-confirmation">
      <div className="td-success-mark" aria-hidden="true">
        ✓
      </div>
      <Heading>{t('thankYou', { name: o.customer.first_name })}</Heading>
      <p className="td-lead" data-testid="confirmation-text">
        {t('confirmed', { reference: o.reference, email: o.customer.email })}
      </p>
      <OrderSummary order={o} />
      {o.payment_status === 'Not paid' ? <p className="td-muted">{t('payOnSite')}</p> : o.paid > 0 && <p className="td-muted">{t('paidAmount', { amount: formatMoney(o.paid, o.currency, t.locale) })}</p>}
      {/* Paid by a deposit (issue 32): what is left, and by when. */}
      {o.paid > 0 && o.total > o.paid && o.status !== 'Canceled' && (
        <p className="td-muted" data-testid="balance-due">
          {o.balance_due_on
            ? t('restByAmount', { date: formatLongDate(t, o.balance_due_on), amount: formatMoney(o.total - o.paid, o.currency, t.locale) })
            : t('restOnSiteAmount', { amount: formatMoney(o.total - o.paid, o.currency, t.locale) })}
        </p>
      )}
      <p className="td-actions">
        <a className="td-btn td-btn--primary" href={embed ? o.manage_url : `${link(`booking/${encodeURIComponent(o.reference)}`)}#${encodeURIComponent(secretOf(o.manage_url))}`} target={embed ? '_blank' : undefined} rel={embed ? 'noopener' : undefined}>
          {t('manageBooking')}
        </a>
        <a className="td-btn td-btn--secondary" href={link('')}>
          {t('backToStore')}
        </a>
      </p>
    </div>
  );
}
