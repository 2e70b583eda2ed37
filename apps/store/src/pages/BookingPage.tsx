import type { TWebOrder } from '@tourdesk/contracts';
import { useEffect, useRef, useState } from 'react';
import { ErrorPanel, Spinner, useLoad } from '../components/Async';
import { Heading } from '../components/Heading';
import { OrderSummary } from '../components/OrderSummary';
import { useStore } from '../context';
import { formatMoney } from '../lib/money';
import { formatLongDate } from '../lib/dates';
import { errorText, useT } from '../i18n';
import { cancellationText, orderStatusText, paymentStatusText } from '../lib/order-texts';
import { ApiError } from '../lib/api';
import { errorsOf } from '../lib/checkout';
import { QuestionField } from './checkout/QuestionField';

/**
 * The customer's own booking page: /s/{slug}/booking/{reference}#{secret}. The secret stays in the
 * fragment (never sent to a server in a URL, nor in a Referer) and goes in X-Order-Token.
 */
export function BookingPage({ reference }: { reference: string }) {
  const t = useT();
  const { api } = useStore();
  const secret = decodeURIComponent(location.hash.replace(/^#/, ''));
  const loaded = useLoad(async () => (secret ? api.myOrder(reference, secret) : null), [reference, secret]);
  // The order as loaded, then as the customer's cancellation changed it.
  const [changed, setOrder] = useState<TWebOrder | null>(null);
  const order = changed ?? loaded.data;

  if (!secret) {
    return (
      <div className="td-page">
        <Heading>{t('bookingTitle', { reference })}</Heading>
        <p className="td-panel td-panel--error">{t('incompleteLink')}</p>
      </div>
    );
  }
  if (loaded.loading) return <Spinner />;
  if (loaded.error || !order) {
    return (
      <div className="td-page">
        <Heading>{t('bookingTitle', { reference })}</Heading>
        {loaded.error && <ErrorPanel error={loaded.error} retry={loaded.reload} />}
      </div>
    );
  }
  return <Booking order={order} secret={secret} onChange={setOrder} />;
}

function Booking({ order, secret, onChange }: { order: TWebOrder; secret: string; onChange: (o: TWebOrder) => void }) {
  const t = useT();
  const { api, toast, store } = useStore();
  const [downloading, setDownloading] = useState(false);
  const [paying, setPaying] = useState(false);
  // A deposit paid online (issue 32): what is left, due on site or by a date, and a link to pay it by card.
  const left = order.status !== 'Canceled' && !order.partner_booking && order.paid > 0 ? order.total - order.paid : 0;
  const canPayRest = left > 0 && store.payment_options.includes('online');

  async function payRest() {
    setPaying(true);
    try {
      const { url } = await api.payRest(order.reference, secret);
      location.assign(url);
    } catch (e) {
      toast('error', errorText(t, e));
      setPaying(false);
    }
  }
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const confirmRef = useRef<HTMLDivElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmRef.current?.querySelector<HTMLElement>('button')?.focus();
  }, [confirming]);

  async function download() {
    setDownloading(true);
    try {
      const blob = await api.tickets(order.reference, secret);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `tickets-${order.reference}.pdf`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
    } catch (e) {
      toast('error', errorText(t, e));
    } finally {
      setDownloading(false);
    }
  }

  async function cancel() {
    setCancelling(true);
    try {
      const next = await api.cancelOrder(order.reference, secret);
      onChange(next);
      setConfirming(false);
      toast('success', t('cancelled'));
    } catch (e) {
      toast('error', errorText(t, e));
    } finally {
      setCancelling(false);
    }
  }

  const c = order.cancellation;
  return (
    <div className="td-page td-manage">
      <Heading>
        {t('bookingHeading')} <span className="td-nowrap">{order.reference}</span>
      </Heading>
      <dl className="td-dl td-order-facts">
        <dt>{t('status')}</dt>
        <dd data-testid="order-status">{orderStatusText(t, order.status)}</dd>
        {/* A partner's booking is paid to the partner: what the organiser's books say of it is not the customer's to read. */}
        {!order.partner_booking && (
          <>
            <dt>{t('paymentStatus')}</dt>
            <dd>{paymentStatusText(t, order.payment_status)}</dd>
          </>
        )}
        {left > 0 && (
          <>
            <dt>{order.balance_due_on ? t('leftToPayBy', { date: formatLongDate(t, order.balance_due_on) }) : t('leftToPayOnSite')}</dt>
            <dd data-testid="balance-due">{formatMoney(left, order.currency, t.locale)}</dd>
          </>
        )}
        <dt>{t('bookedBy')}</dt>
        <dd>
          {order.customer.first_name} {order.customer.last_name} ({order.customer.email})
        </dd>
      </dl>
      {order.questions_owed.length > 0 && order.status !== 'Canceled' && <OwedAnswers order={order} secret={secret} onChange={onChange} />}
      <OrderSummary order={order} />
      <Settlement order={order} />
      {canPayRest && (
        <p>
          <button type="button" className="td-btn td-btn--primary" onClick={payRest} disabled={paying}>
            {paying ? t('payRestOpening') : t('payRest')}
          </button>
        </p>
      )}
      {order.status !== 'Canceled' && (
        <p>
          <button type="button" className="td-btn td-btn--primary" onClick={download} disabled={downloading}>
            {downloading ? t('downloading') : t('downloadTickets')}
          </button>
        </p>
      )}
      <section className="td-section" aria-labelledby="td-cancel-heading">
        <h2 id="td-cancel-heading" className="td-h2">
          {t('cancelHeading')}
        </h2>
        <p data-testid="cancel-reason">{cancellationText(t, order, (n) => formatMoney(n, order.currency, t.locale))}</p>
        {c.allowed && !confirming && (
          <button ref={cancelButton} type="button" className="td-btn td-btn--danger" onClick={() => setConfirming(true)}>
            {t('cancelBooking')}
          </button>
        )}
        {c.allowed && confirming && (
          <div ref={confirmRef} className="td-confirm" role="group" aria-labelledby="td-confirm-title">
            <p id="td-confirm-title" className="td-confirm-title">
              <strong>{t('cancelConfirm', { reference: order.reference })}</strong> {c.refund > 0 ? t('refundWillBe', { amount: formatMoney(c.refund, order.currency, t.locale) }) : order.paid > 0 ? t('noRefund') : t('nothingPaid')}
              {c.fee > 0 && ` ${t('feeWillBeKept', { amount: formatMoney(c.fee, order.currency, t.locale) })}`}
            </p>
            <div className="td-actions">
              <button type="button" className="td-btn td-btn--secondary" onClick={() => setConfirming(false)} disabled={cancelling}>
                {t('keepBooking')}
              </button>
              <button type="button" className="td-btn td-btn--danger" onClick={cancel} disabled={cancelling}>
                {cancelling ? t('cancelling') : t('confirmCancel')}
              </button>
            </div>
          </div>
        )}
      </section>
    </div>
  );
}

/**
 * The booking questions the order still owes (a partner's booking confirmed without them): the
 * customer answers them here, from the link of the e-mail that asked. The server checks them by the
 * checkout's rule; a refusal names the question.
 */
function OwedAnswers({ order, secret, onChange }: { order: TWebOrder; secret: string; onChange: (o: TWebOrder) => void }) {
  const t = useT();
  const { api, toast } = useStore();
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  async function save(e: React.FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      const next = await api.answerQuestions(order.reference, secret, answers);
      setErrors({});
      onChange(next);
      toast('success', t(next.questions_owed.length ? 'answersSavedMore' : 'answersSaved'));
    } catch (err) {
      const byField = err instanceof ApiError ? errorsOf(t, err).byField : {};
      setErrors(byField);
      toast('error', errorText(t, err));
    } finally {
      setSaving(false);
    }
  }
  return (
    <form className="td-section td-panel" aria-labelledby="td-owed-heading" onSubmit={save} data-testid="owed-answers">
      <h2 id="td-owed-heading" className="td-h2">
        {t('owedAnswersHeading')}
      </h2>
      <p>{t('owedAnswersIntro')}</p>
      {order.questions_owed.map((q) => (
        <QuestionField
          key={q.id}
          q={{ id: q.id, question: q.question, answer_type: q.answer_type, required: true, options: q.choices, option_labels: q.labels }}
          value={answers[q.id] ?? ''}
          error={errors[`answers.${q.id}`]}
          onChange={(v) => setAnswers((a) => ({ ...a, [q.id]: v }))}
        />
      ))}
      <button type="submit" className="td-btn td-btn--primary" disabled={saving}>
        {saving ? t('saving') : t('saveAnswers')}
      </button>
    </form>
  );
}

/**
 * A cancelled order's money, in the order's currency: what the organisation keeps as the
 * cancellation fee under its policy, what was refunded and what is still to be refunded (what was
 * paid beyond the fee). Nothing for an open order, nor for a cancelled one where nothing was paid.
 */
export function Settlement({ order }: { order: TWebOrder }) {
  const t = useT();
  if (order.status !== 'Canceled') return null;
  const kept = order.cancellation_fee;
  const due = Math.max(0, order.paid - order.total);
  if (kept <= 0 && order.refunded <= 0 && due <= 0) return null;
  const money = (n: number) => formatMoney(n, order.currency, t.locale);
  return (
    <section className="td-section" aria-labelledby="td-settlement-heading">
      <h2 id="td-settlement-heading" className="td-h2">
        {t('settlementHeading')}
      </h2>
      <dl className="td-dl td-order-facts">
        {kept > 0 && (
          <>
            <dt>{t('keptAsFee')}</dt>
            <dd data-testid="cancellation-fee">{money(kept)}</dd>
          </>
        )}
        {order.refunded > 0 && (
          <>
            <dt>{t('refundedAmount')}</dt>
            <dd data-testid="refunded">{money(order.refunded)}</dd>
          </>
        )}
        {due > 0 && (
          <>
            <dt>{t('toBeRefunded')}</dt>
            <dd data-testid="to-be-refunded">{money(due)}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
