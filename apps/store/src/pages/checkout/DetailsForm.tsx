import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { httpUrl } from '@tourdesk/contracts/http-url';
import { Spinner } from '../../components/Async';
import { useStore } from '../../context';
import { ApiError, type Api } from '../../lib/api';
import { errorsOf, orderInput, paymentOptions, restoreDraft, validateCheckout, type Customer, type Draft, type Line, type Question } from '../../lib/checkout';
import { countries } from '../../lib/countries';
import { leaveForPayment } from '../../lib/pay-online';
import { loadDraft, safeStorage, saveDraft, savePayment } from '../../lib/storage';
import { errorText, useT } from '../../i18n';
import { paymentOptionText } from '../../lib/order-texts';
import { QuestionField } from './QuestionField';
import { OnlineAmount } from './OnlineAmount';

/**
 * The customer's details, the answers to the offers' questions, how to pay and the terms; then
 * the order (paid on site) or Stripe's page (paid online). The rules are lib/checkout.ts.
 */
export function DetailsForm({
  lines,
  questions,
  questionsLoading,
  onConflicts,
  onPlaced,
  promoCode,
  voucherCode,
  voucherAmount,
}: {
  /** The promo code applied in the cart (its discount is taken again by the order). */
  promoCode?: string | null;
  /** A gift voucher tried on the cart: it pays first, with a pay-on-site order or before the card (its deposit asked of what it leaves). */
  voucherCode?: string | null;
  /** What the customer spends of it (as much as the order takes unless they keep some). */
  voucherAmount?: number | null;
  lines: Line[];
  questions: Question[];
  questionsLoading: boolean;
  onConflicts: (c: Record<string, string>) => void;
  onPlaced: (order: Awaited<ReturnType<Api['order']>>) => Promise<void>;
}) {
  const t = useT();
  const { api, slug, store, cart, embed, toast } = useStore();
  // The sentence around the terms' link, in the language's word order.
  const terms = t('acceptTermsWith', { terms: '\u0000' }).split('\u0000');
  const options = paymentOptions(store, cart);
  const [draft] = useState(() => restoreDraft(loadDraft<Draft>(safeStorage('sessionStorage'), slug)));
  const [customer, setCustomer] = useState<Customer>(draft.customer);
  const [answers, setAnswers] = useState<Record<string, string>>(draft.answers);
  const [accept, setAccept] = useState(false);
  const [payment, setPayment] = useState(() => (draft.payment && options.includes(draft.payment as 'online') ? draft.payment : (options[0] ?? 'pay_on_site')));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** In a frame, Stripe's page opens in the whole window; this link if the browser refuses that. */
  const [payUrl, setPayUrl] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const online = payment === 'online';

  // Back from Stripe's page, the browser may show this page as it was left: busy.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => e.persisted && setBusy(false);
    addEventListener('pageshow', onShow);
    return () => removeEventListener('pageshow', onShow);
  }, []);

  /** A field the customer edits loses its error; the summary goes with the last one. */
  const clearError = (key: string) =>
    setErrors((all) => {
      if (!(key in all)) return all;
      const { [key]: _, ...rest } = all;
      if (Object.keys(rest).length === 0) setSummary(null);
      return rest;
    });
  const field = (name: keyof Customer) => ({
    id: `td-${name}`,
    name,
    value: customer[name],
    'aria-invalid': errors[`customer.${name}`] ? true : undefined,
    'aria-describedby': errors[`customer.${name}`] ? `td-${name}-error` : undefined,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const value = e.currentTarget.value;
      setCustomer((c) => ({ ...c, [name]: value }));
      clearError(`customer.${name}`);
    },
  });
  const fieldError = (key: string, id: string) =>
    errors[key] ? (
      <span className="td-field-error" id={id}>
        {errors[key]}
      </span>
    ) : null;

  function focusFirstError() {
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateCheckout(t, { customer, answers, questions, accept });
    setErrors(found);
    if (Object.keys(found).length) {
      setSummary(t('fixErrors'));
      focusFirstError();
      return;
    }
    setSummary(null);
    setBusy(true);
    setPayUrl(null);
    let leaving = false;
    const input = { ...orderInput(lines, customer, answers, questions), ...(promoCode ? { promo_code: promoCode } : {}), ...(voucherCode ? { voucher_code: voucherCode, ...(voucherAmount ? { voucher_amount: voucherAmount } : {}) } : {}) };
    try {
      if (online) {
        // Stripe's page takes the payment; the order is made once Stripe says it is paid.
        const started = await api.startPayment(input);
        const session = safeStorage('sessionStorage');
        savePayment(session, slug, started);
        saveDraft(session, slug, { customer, answers, payment } satisfies Draft);
        onConflicts({});
        if (embed) setPayUrl(started.payment_url);
        leaving = leaveForPayment(started.payment_url, embed);
        return;
      }
      const order = await api.order({ ...input, payment_option: 'pay_on_site' });
      onConflicts({});
      await onPlaced(order);
    } catch (err) {
      if (!(err instanceof ApiError)) {
        setSummary(t('genericError'));
        return;
      }
      const { byLine, byField } = errorsOf(t, err);
      onConflicts(byLine);
      setErrors(byField);
      setSummary(errorText(t, err));
      toast('error', errorText(t, err));
      if (Object.keys(byField).length) focusFirstError();
    } finally {
      if (!leaving) setBusy(false);
    }
  }

  const req = (
    <span className="td-req" aria-hidden="true">
      *
    </span>
  );
  return (
    <form ref={form} className="td-form" noValidate onSubmit={submit}>
      <fieldset className="td-fieldset">
        <legend className="td-h2">{t('yourDetails')}</legend>
        <div className="td-row">
          <div className="td-field">
            <label htmlFor="td-first_name">
              {t('firstName')} {req}
            </label>
            <input {...field('first_name')} autoComplete="given-name" required maxLength={100} />
            {fieldError('customer.first_name', 'td-first_name-error')}
          </div>
          <div className="td-field">
            <label htmlFor="td-last_name">
              {t('lastName')} {req}
            </label>
            <input {...field('last_name')} autoComplete="family-name" required maxLength={100} />
            {fieldError('customer.last_name', 'td-last_name-error')}
          </div>
        </div>
        <div className="td-field">
          <label htmlFor="td-email">
            {t('email')} {req}
          </label>
          <input {...field('email')} type="email" autoComplete="email" inputMode="email" required maxLength={254} />
          <span className="td-hint">{t('emailHint')}</span>
          {fieldError('customer.email', 'td-email-error')}
        </div>
        <div className="td-row">
          <div className="td-field">
            <label htmlFor="td-phone">
              {t('phone')} <span className="td-muted">{t('optional')}</span>
            </label>
            <input {...field('phone')} type="tel" autoComplete="tel" maxLength={40} />
            {fieldError('customer.phone', 'td-phone-error')}
          </div>
          <div className="td-field">
            <label htmlFor="td-country">
              {t('country')} <span className="td-muted">{t('optional')}</span>
            </label>
            <select {...field('country')} autoComplete="country">
              <option value="">{t('noCountry')}</option>
              {countries(t.locale).map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
            {fieldError('customer.country', 'td-country-error')}
          </div>
        </div>
      </fieldset>

      {questionsLoading && questions.length === 0 && lines.length > 0 ? (
        <Spinner />
      ) : (
        questions.length > 0 && (
          <fieldset className="td-fieldset">
            <legend className="td-h2">{t('questions')}</legend>
            {questions.map((q) => (
              <QuestionField
                key={q.id}
                q={q}
                value={answers[q.id] ?? ''}
                error={errors[`answers.${q.id}`] ?? errors[`answers`]}
                onChange={(v) => {
                  setAnswers((a) => ({ ...a, [q.id]: v }));
                  clearError(`answers.${q.id}`);
                }}
              />
            ))}
          </fieldset>
        )
      )}

      <fieldset className="td-fieldset">
        <legend className="td-h2">{t('payment')}</legend>
        {cart?.sold_by && <p className="td-hint">{(options.includes('online') ? t('bookedWithOnline', { operator: cart.sold_by }) : t('bookedWithOnSite', { operator: cart.sold_by }))}</p>}
        {options.map((option) => (
          <div key={option}>
            <label className="td-choice">
              <input
                type="radio"
                name="payment_option"
                value={option}
                checked={payment === option}
                aria-describedby={option === 'online' ? 'td-online-hint' : undefined}
                onChange={() => setPayment(option)}
              />
              <span>{paymentOptionText(t, option)}</span>
            </label>
            {option === 'online' && (
              <p className="td-hint td-choice-hint" id="td-online-hint">
                {t('payOnlineHint')}
              </p>
            )}
            {option === 'online' && online && <OnlineAmount lines={lines} promoCode={promoCode ?? null} voucherCode={voucherCode ?? null} voucherAmount={voucherAmount ?? null} />}
          </div>
        ))}
        {fieldError('payment_option', 'td-payment-error')}
      </fieldset>

      <div className="td-field">
        <label className="td-choice">
          <input
            type="checkbox"
            id="td-accept"
            checked={accept}
            required
            aria-invalid={errors['accept_terms'] ? true : undefined}
            aria-describedby={errors['accept_terms'] ? 'td-accept-error' : undefined}
            onChange={(e) => {
              setAccept(e.currentTarget.checked);
              clearError('accept_terms');
            }}
          />
          <span>
            {/* Linked only when http(s) (httpUrl): never a javascript: or data: address, even one stored before the API refused them. */}
            {httpUrl(store.terms_url) ? (
              <>
                {terms[0]}
                <a href={httpUrl(store.terms_url)!} target="_blank" rel="noopener noreferrer">
                  {t('termsLink')}
                </a>
                {terms[1]}
              </>
            ) : (
              t('acceptTerms')
            )}{' '}
            {req}
          </span>
        </label>
        {fieldError('accept_terms', 'td-accept-error')}
      </div>

      <div aria-live="assertive" className="td-summary-region">
        {summary && (
          <p className="td-error" role="alert">
            {summary}
          </p>
        )}
      </div>
      <button type="submit" className="td-btn td-btn--primary td-btn--block" disabled={busy || lines.length === 0}>
        {online ? (busy ? t('openingPayment') : t('continueToPayment')) : busy ? t('booking') : t('book')}
      </button>
      {payUrl && (
        <p>
          <a className="td-btn td-btn--secondary td-btn--block" href={payUrl} target="_top">
            {t('openPaymentPage')}
          </a>
        </p>
      )}
    </form>
  );
}

