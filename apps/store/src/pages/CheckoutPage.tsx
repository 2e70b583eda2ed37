import type { TWebCart, TWebOffer } from '@tourdesk/contracts';
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Spinner, useLoad } from '../components/Async';
import { Countdown } from '../components/Countdown';
import { Heading } from '../components/Heading';
import { useStore } from '../context';
import { ApiError } from '../lib/api';
import { countries } from '../lib/countries';
import { msLeft } from '../lib/countdown';
import { formatDateTime } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { rememberOrder, secretOf } from '../lib/orders';
import { dropDraft, dropPayment, loadDraft, loadPayment, safeStorage, saveDraft, saveOrderSecret, savePayment } from '../lib/storage';
import { PAYMENT_LABEL, t } from '../texts';

type Line = TWebCart['lines'][number];
type Question = TWebOffer['questions'][number];

/**
 * Lines the customer has seen stay on screen after their hold runs out (the cart no longer lists
 * them): the page says so and offers to choose again. Booking names exactly the lines shown; the
 * server re-holds a run-out line when its seats are still free, else answers 409 for it.
 */
function mergeLines(previous: Line[], cart: TWebCart | null, now = Date.now()): Line[] {
  const current = cart?.lines ?? [];
  const ids = new Set(current.map((l) => l.id));
  const expired = previous.filter((l) => !ids.has(l.id) && msLeft(l.expires_at, now) === 0);
  return [...current, ...expired];
}

export function CheckoutPage() {
  const { api, slug, store, cart, refreshCart, setCart, navigate, link, toast } = useStore();
  const [loaded, setLoaded] = useState(false);
  const [lines, setLines] = useState<Line[]>(() => mergeLines([], cart));
  const [conflicts, setConflicts] = useState<Record<string, string>>({});
  const [, setExpiredTick] = useState(0);
  /** Back from Stripe's page without paying (its cancel link, or the browser's Back). */
  const [note, setNote] = useState<'unpaid' | 'expired' | null>(null);

  useEffect(() => {
    refreshCart()
      .catch(() => null)
      .finally(() => setLoaded(true));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

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
        toast('error', e instanceof ApiError ? e.message : t.genericError);
        return;
      }
    }
    setLines((all) => all.filter((l) => l.id !== line.id));
    setConflicts(({ [line.id]: _, ...rest }) => rest);
    toast('info', t.removed);
  }

  if (!loaded && lines.length === 0) return <Spinner />;

  const total = lines.filter((l) => msLeft(l.expires_at) > 0).reduce((n, l) => n + l.total, 0);
  return (
    <div className="td-page td-checkout">
      <Heading>{t.checkoutTitle}</Heading>
      {note && (
        <p className="td-warning" role="status" data-testid="payment-note">
          {note === 'unpaid' ? t.paymentNotCompleted : t.paymentExpired}
        </p>
      )}
      {lines.length === 0 ? (
        <div className="td-panel">
          <p>{t.cartEmpty}</p>
          <a className="td-btn td-btn--primary" href={link('')}>
            {t.browseOffers}
          </a>
        </div>
      ) : (
        <div className="td-checkout-grid">
          <section className="td-lines" aria-labelledby="td-cart-heading">
            <h2 id="td-cart-heading" className="td-sr-only">
              {t.cart(lines.length)}
            </h2>
            <ul className="td-line-list">
              {lines.map((l) => {
                const expired = msLeft(l.expires_at) === 0;
                const conflict = conflicts[l.id];
                return (
                  <li key={l.id} className={`td-line${expired ? ' td-line--expired' : ''}${conflict ? ' td-line--conflict' : ''}`} data-testid="cart-line">
                    <div className="td-line-head">
                      <h3 className="td-h3">{l.offer_title}</h3>
                      <strong>{formatMoney(l.total, cart?.currency ?? store.currency)}</strong>
                    </div>
                    <p className="td-muted">{formatDateTime(l.starts_at, l.time_zone)}</p>
                    <ul className="td-items">
                      {l.items.map((i) => (
                        <li key={i.label + i.kind}>
                          {t.quantityTimes(i.quantity, i.label)} · {formatMoney(i.unit_price, cart?.currency ?? store.currency)}
                        </li>
                      ))}
                    </ul>
                    <Countdown expiresAt={l.expires_at} onExpire={() => setExpiredTick((n) => n + 1)} />
                    {expired && (
                      <p className="td-warning">
                        {t.expired} <a href={link(`offers/${l.offer}`)}>{t.chooseAgain}</a>
                      </p>
                    )}
                    {conflict && (
                      <p className="td-error" role="alert">
                        {conflict} <a href={link(`offers/${l.offer}`)}>{t.chooseAgain}</a>
                      </p>
                    )}
                    <button type="button" className="td-btn td-btn--secondary td-btn--small" onClick={() => remove(l)} aria-label={t.removeLine(l.offer_title)}>
                      {t.remove}
                    </button>
                  </li>
                );
              })}
            </ul>
            <p className="td-total">
              <span>{t.total}</span> <strong data-testid="cart-total">{formatMoney(total, cart?.currency ?? store.currency)}</strong>
            </p>
            <p>
              <a href={link('')}>+ {t.addAnother}</a>
            </p>
          </section>
          <DetailsForm
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

interface Customer {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  country: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NO_ONE: Customer = { first_name: '', last_name: '', email: '', phone: '', country: '' };

/** The form as it was left for Stripe's page (only its strings: it comes from storage). */
interface Draft {
  customer: Customer;
  answers: Record<string, string>;
  payment: string;
}
const strings = (o: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(o && typeof o === 'object' ? o : {}).filter((e): e is [string, string] => typeof e[1] === 'string'));

function DetailsForm({
  lines,
  questions,
  questionsLoading,
  onConflicts,
  onPlaced,
}: {
  lines: Line[];
  questions: Question[];
  questionsLoading: boolean;
  onConflicts: (c: Record<string, string>) => void;
  onPlaced: (order: Awaited<ReturnType<ReturnType<typeof useStore>['api']['order']>>) => Promise<void>;
}) {
  const { api, slug, store, cart, embed, toast } = useStore();
  // Online only where the cart's seller takes it here (a partner's offers: when the supplier collects).
  const options = !cart ? store.payment_options : cart.payable_online ? [...new Set([...store.payment_options, 'online' as const])] : store.payment_options.filter((o) => o !== 'online');
  const [draft] = useState(() => loadDraft<Draft>(safeStorage('sessionStorage'), slug));
  const [customer, setCustomer] = useState<Customer>(() => {
    const kept = strings(draft?.customer);
    return Object.fromEntries(Object.entries(NO_ONE).map(([k, v]) => [k, kept[k] ?? v])) as unknown as Customer;
  });
  const [answers, setAnswers] = useState<Record<string, string>>(() => strings(draft?.answers));
  const [accept, setAccept] = useState(false);
  const [payment, setPayment] = useState(() => (draft?.payment && options.includes(draft.payment as 'online') ? draft.payment : (options[0] ?? 'pay_on_site')));
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

  function validate() {
    const found: Record<string, string> = {};
    if (!customer.first_name.trim()) found['customer.first_name'] = t.fieldRequired;
    if (!customer.last_name.trim()) found['customer.last_name'] = t.fieldRequired;
    if (!EMAIL.test(customer.email.trim())) found['customer.email'] = t.invalidEmail;
    for (const q of questions) if (q.required && !(answers[q.id] ?? '').trim()) found[`answers.${q.id}`] = t.fieldRequired;
    if (!accept) found['accept_terms'] = t.termsRequired;
    return found;
  }

  function focusFirstError() {
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) {
      setSummary(t.fixErrors);
      focusFirstError();
      return;
    }
    setSummary(null);
    setBusy(true);
    setPayUrl(null);
    let leaving = false;
    const input = {
      lines: lines.map((l) => l.id),
      customer: {
        first_name: customer.first_name.trim(),
        last_name: customer.last_name.trim(),
        email: customer.email.trim(),
        phone: customer.phone.trim(),
        country: customer.country || null,
      },
      answers: Object.fromEntries(Object.entries(answers).filter(([id, v]) => v.trim() !== '' && questions.some((q) => q.id === id))),
      accept_terms: true as const,
    };
    try {
      if (online) {
        // Stripe's page takes the payment; the order is made once Stripe says it is paid.
        const started = await api.startPayment(input);
        const session = safeStorage('sessionStorage');
        savePayment(session, slug, started);
        saveDraft(session, slug, { customer, answers, payment } satisfies Draft);
        onConflicts({});
        leaving = true;
        if (!embed) {
          location.assign(started.payment_url);
          return;
        }
        // Stripe's page cannot be framed: it takes the whole window (allowed after the click).
        setPayUrl(started.payment_url);
        try {
          window.top!.location.href = started.payment_url;
        } catch {
          leaving = false;
        }
        return;
      }
      const order = await api.order({ ...input, payment_option: 'pay_on_site' });
      onConflicts({});
      await onPlaced(order);
    } catch (err) {
      if (!(err instanceof ApiError)) {
        setSummary(t.genericError);
        return;
      }
      const byLine: Record<string, string> = {};
      const byField: Record<string, string> = {};
      for (const item of err.errors) {
        if (item.attr?.startsWith('lines.')) byLine[item.attr.slice(6)] = item.detail;
        else if (item.attr) byField[item.attr] = item.detail;
      }
      onConflicts(byLine);
      setErrors(byField);
      setSummary(err.message);
      toast('error', err.message);
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
        <legend className="td-h2">{t.yourDetails}</legend>
        <div className="td-row">
          <div className="td-field">
            <label htmlFor="td-first_name">
              {t.firstName} {req}
            </label>
            <input {...field('first_name')} autoComplete="given-name" required maxLength={100} />
            {fieldError('customer.first_name', 'td-first_name-error')}
          </div>
          <div className="td-field">
            <label htmlFor="td-last_name">
              {t.lastName} {req}
            </label>
            <input {...field('last_name')} autoComplete="family-name" required maxLength={100} />
            {fieldError('customer.last_name', 'td-last_name-error')}
          </div>
        </div>
        <div className="td-field">
          <label htmlFor="td-email">
            {t.email} {req}
          </label>
          <input {...field('email')} type="email" autoComplete="email" inputMode="email" required maxLength={254} />
          <span className="td-hint">{t.emailHint}</span>
          {fieldError('customer.email', 'td-email-error')}
        </div>
        <div className="td-row">
          <div className="td-field">
            <label htmlFor="td-phone">
              {t.phone} <span className="td-muted">{t.optional}</span>
            </label>
            <input {...field('phone')} type="tel" autoComplete="tel" maxLength={40} />
            {fieldError('customer.phone', 'td-phone-error')}
          </div>
          <div className="td-field">
            <label htmlFor="td-country">
              {t.country} <span className="td-muted">{t.optional}</span>
            </label>
            <select {...field('country')} autoComplete="country">
              <option value="">{t.noCountry}</option>
              {countries().map((c) => (
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
            <legend className="td-h2">{t.questions}</legend>
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
        <legend className="td-h2">{t.payment}</legend>
        {cart?.sold_by && <p className="td-hint">{t.bookedWith(cart.sold_by, options.includes('online'))}</p>}
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
              <span>{PAYMENT_LABEL[option] ?? option}</span>
            </label>
            {option === 'online' && (
              <p className="td-hint td-choice-hint" id="td-online-hint">
                {t.payOnlineHint}
              </p>
            )}
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
            {store.terms_url ? (
              <>
                {t.acceptTermsBefore}
                <a href={store.terms_url} target="_blank" rel="noopener noreferrer">
                  {t.termsLink}
                </a>
              </>
            ) : (
              t.acceptTerms
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
        {online ? (busy ? t.openingPayment : t.continueToPayment) : busy ? t.booking : t.book}
      </button>
      {payUrl && (
        <p>
          <a className="td-btn td-btn--secondary td-btn--block" href={payUrl} target="_top">
            {t.openPaymentPage}
          </a>
        </p>
      )}
    </form>
  );
}

function QuestionField({ q, value, error, onChange }: { q: Question; value: string; error?: string; onChange: (v: string) => void }) {
  const id = `td-q-${q.id}`;
  const errorId = `${id}-error`;
  const invalid = error ? true : undefined;
  const described = error ? errorId : undefined;
  const label = (
    <>
      {q.question}{' '}
      {q.required ? (
        <span className="td-req" aria-hidden="true">
          *
        </span>
      ) : (
        <span className="td-muted">{t.optional}</span>
      )}
    </>
  );
  const err = error ? (
    <span className="td-field-error" id={errorId}>
      {error}
    </span>
  ) : null;

  if (q.answer_type === 'yes_no' || (q.answer_type === 'choice' && q.options.length > 0 && q.options.length <= 4)) {
    const options = q.answer_type === 'yes_no' ? [{ value: 'yes', label: t.yes }, { value: 'no', label: t.no }] : q.options.map((o) => ({ value: o, label: o }));
    return (
      <fieldset className="td-field td-subfieldset" aria-describedby={described}>
        <legend>{label}</legend>
        <div className="td-inline-choices">
          {options.map((o, i) => (
            <label key={o.value} className="td-choice">
              <input
                type="radio"
                name={id}
                value={o.value}
                checked={value === o.value}
                required={q.required}
                aria-invalid={i === 0 ? invalid : undefined}
                onChange={() => onChange(o.value)}
              />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
        {err}
      </fieldset>
    );
  }
  return (
    <div className="td-field">
      <label htmlFor={id}>{label}</label>
      {q.answer_type === 'choice' ? (
        <select id={id} value={value} required={q.required} aria-invalid={invalid} aria-describedby={described} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">{t.chooseOption}</option>
          {q.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={q.answer_type === 'number' ? 'number' : 'text'}
          inputMode={q.answer_type === 'number' ? 'decimal' : undefined}
          value={value}
          required={q.required}
          maxLength={1000}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      )}
      {err}
    </div>
  );
}
