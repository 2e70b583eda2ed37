import type { TStoreVoucherOffer } from '@tourdesk/contracts';
import { httpUrl } from '@tourdesk/contracts/http-url';
import { useEffect, useState } from 'react';
import { ErrorPanel, Spinner, useLoad } from '../components/Async';
import { Heading } from '../components/Heading';
import { useStore } from '../context';
import { ApiError } from '../lib/api';
import { formatMoney, toMinorUnits } from '../lib/money';
import { leaveForPayment } from '../lib/pay-online';
import { errorText, useT } from '../i18n';

const POLL_MS = 1000;
const POLL_TRIES = 20;

/**
 * The store's gift voucher page (/s/{slug}/gift-voucher): a fixed amount or one's own, who buys it,
 * whom it is for, a message and the day it is e-mailed; paid on Stripe's page. Back from Stripe
 * (?purchase=…&session_id=…) it asks the server until the voucher is issued (never on this page's word).
 */
export function VoucherPage() {
  const t = useT();
  const { api } = useStore();
  const back = typeof location === 'undefined' ? null : new URLSearchParams(location.search);
  const purchase = back?.get('purchase');
  const session = back?.get('session_id');
  const offer = useLoad(() => api.voucherOffer(), []);
  return (
    <div className="td-page td-voucher-page">
      <Heading>{t('voucherTitle')}</Heading>
      {purchase && session ? (
        <PurchaseState checkout={purchase} session={session} />
      ) : offer.error ? (
        <ErrorPanel error={offer.error} retry={offer.reload} />
      ) : !offer.data ? (
        <Spinner />
      ) : !offer.data.online ? (
        <p className="td-panel">{t('voucherUnavailable')}</p>
      ) : (
        <VoucherForm offer={offer.data} />
      )}
    </div>
  );
}

function PurchaseState({ checkout, session }: { checkout: string; session: string }) {
  const t = useT();
  const { api, link } = useStore();
  const [state, setState] = useState<{ status: string; code_sent_to: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      tries += 1;
      const answer = await api.voucherPurchase(checkout, session).catch(() => null);
      if (!live) return;
      if (answer && answer.status !== 'open') return setState(answer);
      if (tries >= POLL_TRIES) return setState({ status: 'waiting', code_sent_to: null });
      timer = setTimeout(() => void ask(), POLL_MS);
    };
    void ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, checkout, session]);
  if (!state) return <Spinner />;
  return (
    <div className="td-panel" role="status" data-testid="voucher-state">
      <p>
        {state.status === 'paid'
          ? t('voucherPaid', { email: state.code_sent_to ?? '' })
          : state.status === 'refunded'
            ? t('voucherRefunded')
            : state.status === 'waiting'
              ? t('voucherWaiting')
              : t('voucherNotPaid')}
      </p>
      <p>
        <a href={link('')}>{t('seeOffers')}</a>
      </p>
    </div>
  );
}

function VoucherForm({ offer }: { offer: TStoreVoucherOffer }) {
  const t = useT();
  const { api, store, embed, toast } = useStore();
  const own = offer.max > 0;
  const [choice, setChoice] = useState<string>(offer.amounts[0] ? String(offer.amounts[0]) : 'own');
  const [ownAmount, setOwnAmount] = useState('');
  const [v, setV] = useState({ buyer_name: '', buyer_email: '', recipient_name: '', recipient_email: '', message: '', deliver_on: '' });
  const [terms, setTerms] = useState(false);
  const termsUrl = httpUrl(store.terms_url);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [payUrl, setPayUrl] = useState<string | null>(null);
  const money = (n: number) => formatMoney(n, offer.currency, t.locale);
  const set = (k: keyof typeof v) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    // Read now: the event's target is gone by the time the state updater runs.
    const value = e.currentTarget.value;
    setV((old) => ({ ...old, [k]: value }));
  };
  const field = (name: string, label: string, input: React.ReactNode, required = false) => (
    <div className="td-field">
      <label htmlFor={`td-v-${name}`}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {input}
      {errors[name] && (
        <p id={`td-v-${name}-error`} className="td-error">
          {errors[name]}
        </p>
      )}
    </div>
  );
  const aria = (name: string) => ({ id: `td-v-${name}`, 'aria-invalid': errors[name] ? true : undefined, 'aria-describedby': errors[name] ? `td-v-${name}-error` : undefined });
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // One's own amount in the currency's decimals (none for JPY, three for KWD): the contracts' parse.
    const amount = choice === 'own' ? (toMinorUnits(ownAmount, offer.currency) ?? Number.NaN) : Number(choice);
    const local: Record<string, string> = {};
    if (!Number.isFinite(amount) || amount <= 0) local.amount = t('voucherAmountMissing');
    if (!v.buyer_name.trim()) local.buyer_name = t('fieldRequired');
    if (!v.buyer_email.trim()) local.buyer_email = t('fieldRequired');
    if (!terms) local.accept_terms = t('termsRequired');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const started = await api.buyVoucher({ amount, ...v, deliver_on: v.deliver_on || undefined, accept_terms: true });
      if (embed) setPayUrl(started.payment_url);
      leaveForPayment(started.payment_url, embed);
    } catch (err) {
      if (!(err instanceof ApiError)) return toast('error', t('genericError'));
      setErrors(Object.fromEntries(err.errors.filter((x) => x.attr).map((x) => [x.attr!, errorText(t, new ApiError(err.status, [x]))])));
      toast('error', errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="td-form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('voucherTitle')}>
      <p>{t('voucherIntro', { months: offer.validity_months, store: store.name })}</p>
      <fieldset className="td-fieldset">
        <legend className="td-h2">{t('voucherAmount')}</legend>
        {offer.amounts.map((a) => (
          <label key={a} className="td-choice">
            <input type="radio" name="amount" value={String(a)} checked={choice === String(a)} onChange={() => setChoice(String(a))} />
            <span>{money(a)}</span>
          </label>
        ))}
        {own && (
          <label className="td-choice">
            <input type="radio" name="amount" value="own" checked={choice === 'own'} onChange={() => setChoice('own')} />
            <span>{t('voucherOwnAmount', { min: money(offer.min), max: money(offer.max) })}</span>
          </label>
        )}
        {own && choice === 'own' && field('amount', t('voucherOwnAmountLabel', { currency: offer.currency }), <input {...aria('amount')} inputMode="decimal" value={ownAmount} onChange={(e) => setOwnAmount(e.currentTarget.value)} />)}
        {choice !== 'own' && errors.amount && <p className="td-error">{errors.amount}</p>}
      </fieldset>
      <fieldset className="td-fieldset">
        <legend className="td-h2">{t('voucherBuyer')}</legend>
        {field('buyer_name', t('voucherName'), <input {...aria('buyer_name')} autoComplete="name" value={v.buyer_name} onChange={set('buyer_name')} />, true)}
        {field('buyer_email', t('email'), <input {...aria('buyer_email')} type="email" autoComplete="email" value={v.buyer_email} onChange={set('buyer_email')} />, true)}
      </fieldset>
      <fieldset className="td-fieldset">
        <legend className="td-h2">{t('voucherRecipient')}</legend>
        <p className="td-hint">{t('voucherRecipientHint')}</p>
        {field('recipient_name', t('voucherName'), <input {...aria('recipient_name')} value={v.recipient_name} onChange={set('recipient_name')} />)}
        {field('recipient_email', t('email'), <input {...aria('recipient_email')} type="email" value={v.recipient_email} onChange={set('recipient_email')} />)}
        {field('message', t('voucherMessage'), <textarea {...aria('message')} rows={3} maxLength={1000} value={v.message} onChange={set('message')} />)}
        {field('deliver_on', t('voucherDeliverOn'), <input {...aria('deliver_on')} type="date" value={v.deliver_on} onChange={set('deliver_on')} />)}
      </fieldset>
      <div className="td-field">
        <label className="td-choice">
          <input type="checkbox" checked={terms} onChange={(e) => setTerms(e.currentTarget.checked)} aria-invalid={errors.accept_terms ? true : undefined} />
          {/* Linked only when http(s) (httpUrl): never a javascript: or data: address, even one stored before the API refused them. */}
          <span>{termsUrl ? <a href={termsUrl} target="_blank" rel="noopener noreferrer">{t('voucherTerms')}</a> : t('voucherTerms')}</span>
        </label>
        {errors.accept_terms && <p className="td-error">{errors.accept_terms}</p>}
      </div>
      <button type="submit" className="td-btn td-btn--primary td-btn--block" disabled={busy}>
        {t('voucherPay')}
      </button>
      {payUrl && (
        <p>
          <a href={payUrl} target="_top">
            {t('voucherPay')}
          </a>
        </p>
      )}
    </form>
  );
}
