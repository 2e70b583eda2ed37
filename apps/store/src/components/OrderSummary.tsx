import type { TWebOrder } from '@tourdesk/contracts';
import { formatBp } from '@tourdesk/contracts/percent';
import { formatDateTime } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { useStore } from '../context';
import { useT } from '../i18n';
import { orderStatusText } from '../lib/order-texts';

/** An order's bookings: what, when, where, the items, and each ticket's code. */
export function OrderSummary({ order }: { order: TWebOrder }) {
  const t = useT();
  const { hour12 } = useStore();
  return (
    <div className="td-order">
      <ul className="td-bookings">
        {order.bookings.map((b) => (
          <li key={b.id} className={`td-booking${b.status === 'Canceled' ? ' td-booking--cancelled' : ''}`} data-testid="booking">
            <h3 className="td-h3">{b.offer_title}</h3>
            <dl className="td-dl">
              <dt>{t('when')}</dt>
              <dd>{formatDateTime(t, b.starts_at, b.time_zone, hour12)}</dd>
              {b.meeting_point && (
                <>
                  <dt>{t('meeting')}</dt>
                  <dd>{b.meeting_point}</dd>
                </>
              )}
              <dt>{t('items')}</dt>
              <dd>
                <ul className="td-items">
                  {b.items.map((i) => (
                    <li key={i.label + i.kind}>
                      <span>{t('quantityTimes', { n: i.quantity, label: i.label })}</span> <span>{formatMoney(i.total, order.currency, t.locale)}</span>
                    </li>
                  ))}
                </ul>
              </dd>
              {b.status === 'Canceled' && (
                <>
                  <dt>{t('status')}</dt>
                  <dd>{orderStatusText(t, b.status)}</dd>
                </>
              )}
            </dl>
            <p className="td-ticket">
              <span className="td-ticket-label">{t('ticketCode')}</span>
              <code className="td-ticket-code" data-testid="ticket-code">
                {b.ticket_code}
              </code>
            </p>
          </li>
        ))}
      </ul>
      {order.discount && order.discount.amount > 0 && (
        <div className="td-promo" data-testid="order-discount">
          <p className="td-total">
            <span>{t('discountRow', { code: order.discount.code })}</span> <strong>−{formatMoney(order.discount.amount, order.currency, t.locale)}</strong>
          </p>
          {order.discount.taxes.map((x) => (
            <p key={x.vat_rate_bp} className="td-muted">
              {t('discountVat', { rate: formatBp(x.vat_rate_bp, t.locale, 'locale'), tax: formatMoney(x.tax, order.currency, t.locale) })}
            </p>
          ))}
        </div>
      )}
      <p className="td-total">
        <span>{t('total')}</span> <strong data-testid="order-total">{formatMoney(order.total, order.currency, t.locale)}</strong>
      </p>
    </div>
  );
}
