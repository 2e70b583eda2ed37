import type { TWebOffer } from '@tourdesk/contracts';
import { useContext, useEffect, useState, type FormEvent } from 'react';
import { ErrorPanel, Spinner, useLoad } from '../components/Async';
import { Calendar } from '../components/Calendar';
import { Gallery } from '../components/Gallery';
import { Heading } from '../components/Heading';
import { ClockIcon } from '../components/Icons';
import { Stepper } from '../components/Stepper';
import { PreloadCtx, useStore } from '../context';
import { formatDuration, formatLongDate, formatTime, todayIn } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { offerJsonLd, plainText } from '../lib/seo';
import { dateParam, firstMonth, monthParam, preloadKey, type FirstMonth } from '../lib/preload';
import { PageHead } from '../components/PageHead';
import { loadCheckout } from './lazy';
import { policyLines } from '../lib/policy';
import { errorText, useT } from '../i18n';

/** One offer: what it is, then a calendar, the day's times, quantities and extras, and "Hold seats". */
export function OfferPage({ id }: { id: string }) {
  const t = useT();
  const { api, link } = useStore();
  const offer = useLoad(() => api.offer(id), [id], preloadKey.offer(id));
  if (offer.error) {
    return (
      <div className="td-page">
        <PageHead title={t('notFoundTitle')} description="" path={`offers/${id}`} noindex alternates={false} />
        <p>
          <a href={link('')}>← {t('backToStore')}</a>
        </p>
        <ErrorPanel error={offer.error} retry={offer.reload} text={offer.error.status === 404 ? t('offerNotSold') : undefined} />
      </div>
    );
  }
  if (!offer.data) return <Spinner />;
  return <Offer offer={offer.data} />;
}

function List({ title, items, kind }: { title: string; items: string[]; kind: 'check' | 'cross' | 'dot' }) {
  if (!items.length) return null;
  return (
    <section className="td-section">
      <h2 className="td-h2">{title}</h2>
      <ul className={`td-list td-list--${kind}`}>
        {items.map((x) => (
          <li key={x}>{x}</li>
        ))}
      </ul>
    </section>
  );
}

function Offer({ offer }: { offer: TWebOffer }) {
  const t = useT();
  const { link, origin, base, store } = useStore();
  const policy = offer.cancellation_policy;
  const cover = offer.images[0]?.url ?? offer.image_url;
  return (
    <div className="td-page td-offer">
      <PageHead
        title={offer.title}
        description={offer.short_description || plainText(offer.long_description)}
        path={`offers/${offer.id}`}
        image={cover}
        jsonLd={offerJsonLd(offer, `${origin}${base}`, origin, store.organisation)}
      />
      <p className="td-back">
        <a href={link('')}>← {t('backToStore')}</a>
      </p>
      <div className="td-offer-head">
        <Heading>{offer.title}</Heading>
        {offer.short_description && <p className="td-lead">{offer.short_description}</p>}
        {offer.operated_by && <p className="td-hint">{t('operatedBy', { operator: offer.operated_by })}</p>}
        <p className="td-facts">
          {offer.duration_minutes ? (
            <span>
              <span className="td-sr-only">{t('duration')}: </span>
              <ClockIcon /> 
              {formatDuration(t, offer.duration_minutes)}
            </span>
          ) : null}
          {offer.from_price !== null && <span className="td-price">{t('from', { price: formatMoney(offer.from_price, offer.currency, t.locale) })}</span>}
        </p>
      </div>
      <div className="td-offer-media">
        <Gallery images={offer.images.length ? offer.images : offer.image_url ? [{ url: offer.image_url, thumbnail_url: null, width: null, height: null }] : []} title={offer.title} />
      </div>
      <aside className="td-offer-book" aria-labelledby="td-book-heading">
        <BookingPanel offer={offer} />
      </aside>
      <div className="td-offer-details">
        {offer.long_description && (
          <section className="td-section">
            <h2 className="td-h2">{t('about')}</h2>
            {/* Sanitised HTML from the server. */}
            <div className="td-rich" dangerouslySetInnerHTML={{ __html: offer.long_description }} />
          </section>
        )}
        <List title={t('highlights')} items={offer.highlights} kind="dot" />
        <List title={t('inclusions')} items={offer.inclusions} kind="check" />
        <List title={t('exclusions')} items={offer.exclusions} kind="cross" />
        <List title={t('whatToBring')} items={offer.what_to_bring} kind="dot" />
        {offer.important_information && (
          <section className="td-section">
            <h2 className="td-h2">{t('importantInformation')}</h2>
            <p className="td-pre">{offer.important_information}</p>
          </section>
        )}
        {(offer.meeting_points.length > 0 || offer.meeting_instructions) && (
          <section className="td-section">
            <h2 className="td-h2">{offer.meeting_points.length > 1 ? t('meetingPoints') : t('meetingPoint')}</h2>
            {offer.meeting_points.map((m) => (
              <address key={m.name} className="td-address">
                <strong>{m.name}</strong>
                {m.address && <span className="td-pre">{m.address}</span>}
                {m.latitude !== null && m.longitude !== null && (
                  <a href={`https://www.openstreetmap.org/?mlat=${m.latitude}&mlon=${m.longitude}#map=16/${m.latitude}/${m.longitude}`} target="_blank" rel="noopener noreferrer">
                    {t('openMap')}
                  </a>
                )}
              </address>
            ))}
            {offer.meeting_instructions && <p className="td-pre">{offer.meeting_instructions}</p>}
          </section>
        )}
        <section className="td-section">
          <h2 className="td-h2">{t('cancellationPolicy')}</h2>
          {policy && policy.rules.length ? (
            <>
              {policy.description && <p className="td-pre">{policy.description}</p>}
              <ul className="td-list td-list--dot">
                {policyLines(t, policy.rules).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>{t('noCancellationPolicy')}</p>
          )}
        </section>
      </div>
    </div>
  );
}

type Quantities = Record<string, number>;
const sum = (q: Quantities) => Object.values(q).reduce((a, b) => a + b, 0);
const positive = (q: Quantities) => Object.fromEntries(Object.entries(q).filter(([, n]) => n > 0));

function BookingPanel({ offer }: { offer: TWebOffer }) {
  const t = useT();
  const { api, setCart, navigate, toast, search, setSearch, link, hour12 } = useStore();
  const preload = useContext(PreloadCtx);
  const zone = offer.time_zone;
  // The day the server drew the first month on (its today in the offer's zone), else the browser's.
  const [today] = useState(() => (preload.get(preloadKey.month(offer.id)) as FirstMonth | undefined)?.today ?? todayIn(zone));
  const thisMonth = today.slice(0, 7);
  // The chosen day and month live in the address (?date=, ?month=): a link to a day opens on it.
  const date = dateParam(search.get('date'), today);
  const asked = monthParam(search.get('month'), today) ?? date?.slice(0, 7) ?? null;
  const [slotId, setSlotId] = useState<string | null>(null);
  const [quantities, setQuantities] = useState<Quantities>({});
  const [extras, setExtras] = useState<Quantities>({});
  const [holding, setHolding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState(0);

  // The month's days: the one asked for, else this month or, without seats, one of the next two
  // (the server's first drawing is taken as it drew it).
  const first = useLoad<FirstMonth>(
    async () => ({ today, month: await firstMonth(today, asked, (m) => api.month(offer.id, m, fresh > 0)) }),
    [offer.id, asked, fresh],
    preloadKey.month(offer.id),
  );
  const monthData = first.data?.month ?? null;
  const month = asked ?? monthData?.month ?? thisMonth;

  // The chosen day's times; one time open alone is chosen for the customer.
  const dayKey = date ? preloadKey.day(offer.id, date) : undefined;
  const day = useLoad(async () => (date ? api.day(offer.id, date, fresh > 0) : null), [offer.id, date, fresh], dayKey);
  // The chosen day's times only: while another day loads, the previous day's are not offered.
  const dayData = day.data && day.data.date === date ? day.data : null;
  const openSlots = (dayData?.slots ?? []).filter((s) => s.seats_left > 0);
  const chosen = slotId && openSlots.some((s) => s.id === slotId) ? slotId : openSlots.length === 1 ? openSlots[0]!.id : null;

  const slot = dayData?.slots.find((s) => s.id === chosen) ?? null;
  const shownError = error ?? (first.error ? errorText(t, first.error) : null) ?? (day.error ? errorText(t, day.error) : null) ?? null;
  useEffect(() => {
    if (slot) loadCheckout().catch(() => undefined);
  }, [slot]);
  const prices = new Map((slot?.prices ?? []).map((p) => [p.category, p.price]));
  const categories = slot ? offer.categories.filter((c) => prices.has(c.id)) : [];
  const participants = sum(quantities);
  const seats = categories.filter((c) => c.occupies_seat).reduce((n, c) => n + (quantities[c.id] ?? 0), 0);
  const maxParticipants = offer.max_participants ?? 100;
  const minParticipants = Math.max(1, offer.min_participants);
  const seatsLeft = slot?.seats_left ?? 0;
  const total =
    categories.reduce((n, c) => n + (quantities[c.id] ?? 0) * (prices.get(c.id) ?? 0), 0) + offer.extras.reduce((n, x) => n + (extras[x.id] ?? 0) * x.price, 0);
  const ready = slot !== null && participants >= minParticipants && participants <= maxParticipants && seats <= seatsLeft;

  const offerPath = (params: { month?: string; date?: string }) => {
    const q = new URLSearchParams(params).toString();
    return `offers/${offer.id}${q ? `?${q}` : ''}`;
  };
  const changeMonth = (m: string) => setSearch(new URLSearchParams(date ? { month: m, date } : { month: m }));
  const chooseDate = (d: string) => {
    setError(null);
    setSearch(new URLSearchParams({ date: d }));
  };

  async function hold() {
    if (!slot || !ready) return;
    setHolding(true);
    setError(null);
    try {
      const cart = await api.hold({ slot: slot.id, quantities: positive(Object.fromEntries(categories.map((c) => [c.id, quantities[c.id] ?? 0]))), extras: positive(extras) });
      setCart(cart);
      setFresh((n) => n + 1);
      navigate('checkout');
    } catch (e) {
      const message = errorText(t, e);
      setError(message);
      toast('error', message);
      setFresh((n) => n + 1);
    } finally {
      setHolding(false);
    }
  }

  return (
    <div className="td-book">
      <h2 id="td-book-heading" className="td-h2">
        {t('chooseDate')}
      </h2>
      <Calendar
        month={month}
        data={monthData}
        today={today}
        selected={date}
        canGoBack={month > thisMonth}
        loading={first.loading}
        href={(params) => link(offerPath(params))}
        onMonth={changeMonth}
        onSelect={chooseDate}
      />

      {date && (
        <fieldset className="td-fieldset">
          <legend className="td-h3">{t('chooseTime', { date: formatLongDate(t, date) })}</legend>
          {!day.data || day.data.date !== date ? (
            day.error ? null : <Spinner />
          ) : day.data.slots.length === 0 ? (
            <p className="td-muted">{t('noTimes')}</p>
          ) : (
            <div className="td-times">
              {day.data.slots.map((s) => (
                <label key={s.id} className={`td-time${s.seats_left === 0 ? ' td-time--sold-out' : ''}${s.id === chosen ? ' td-time--selected' : ''}`}>
                  <input type="radio" name="td-slot" value={s.id} checked={s.id === chosen} disabled={s.seats_left === 0} onChange={() => setSlotId(s.id)} />
                  <span className="td-time-at">{hour12 ? formatTime(t, s.starts_at, zone, true) : s.local_time}</span>
                  <span className="td-time-seats">{t('seatsLeft', { n: s.seats_left })}</span>
                </label>
              ))}
            </div>
          )}
        </fieldset>
      )}

      {slot && (
        <fieldset className="td-fieldset">
          <legend className="td-h3">{t('participants')}</legend>
          {categories.map((c) => {
            const q = quantities[c.id] ?? 0;
            const room = Math.min(maxParticipants - participants, c.occupies_seat ? seatsLeft - seats : Infinity);
            const ages = c.min_age !== null && c.max_age !== null ? t('ageRange', { min: c.min_age, max: c.max_age }) : c.min_age !== null ? t('ageFrom', { min: c.min_age }) : c.max_age !== null ? t('ageTo', { max: c.max_age }) : '';
            return (
              <div className="td-qty" key={c.id}>
                <div className="td-qty-label">
                  <label htmlFor={`td-cat-${c.id}`}>{c.label}</label>
                  <span className="td-qty-note">
                    {prices.get(c.id) ? formatMoney(prices.get(c.id), offer.currency, t.locale) : t('free')}
                    {ages && ` · ${ages}`}
                    {!c.occupies_seat && ` · ${t('noSeat')}`}
                  </span>
                </div>
                <Stepper id={`td-cat-${c.id}`} label={c.label} value={q} max={Math.max(q, Math.min(100, q + room))} onChange={(n) => setQuantities((all) => ({ ...all, [c.id]: n }))} />
              </div>
            );
          })}
          <p className="td-hint">
            {offer.min_participants > 1 && t('minParticipants', { n: offer.min_participants }) + ' '}
            {offer.max_participants !== null && t('maxParticipants', { n: offer.max_participants }) + ' '}
            {seats > 0 && seats >= seatsLeft && t('notEnoughSeats', { n: seatsLeft })}
          </p>
        </fieldset>
      )}

      {slot && offer.extras.length > 0 && (
        <fieldset className="td-fieldset">
          <legend className="td-h3">{t('extras')}</legend>
          {offer.extras.map((x) => (
            <div className="td-qty" key={x.id}>
              <div className="td-qty-label">
                <label htmlFor={`td-extra-${x.id}`}>{x.name}</label>
                <span className="td-qty-note">
                  {formatMoney(x.price, offer.currency, t.locale)}
                  {x.description && ` · ${x.description}`}
                </span>
              </div>
              <Stepper id={`td-extra-${x.id}`} label={x.name} value={extras[x.id] ?? 0} max={100} onChange={(n) => setExtras((all) => ({ ...all, [x.id]: n }))} />
            </div>
          ))}
        </fieldset>
      )}

      {slot && (
        <div className="td-hold">
          <p className="td-total" aria-live="polite">
            <span>{t('total')}</span> <strong data-testid="offer-total">{formatMoney(total, offer.currency, t.locale)}</strong>
          </p>
          {shownError && (
            <p className="td-error" role="alert">
              {shownError}
            </p>
          )}
          {!ready && participants < minParticipants && <p className="td-hint">{t('chooseParticipants')}</p>}
          <button type="button" className="td-btn td-btn--primary td-btn--block" disabled={!ready || holding} onClick={hold}>
            {holding ? t('holding') : t('hold')}
          </button>
          <p className="td-hint">{t('holdHint')}</p>
        </div>
      )}
      {!slot && dayData && dayData.slots.some((s) => s.seats_left === 0) && (
        <WaitlistForm key={dayData.date} slots={dayData.slots.filter((s) => s.seats_left === 0)} categories={offer.categories} currency={offer.currency} zone={zone} maxSeats={Math.min(30, maxParticipants)} />
      )}
      {!slot && shownError && (
        <p className="td-error" role="alert">
          {shownError}
        </p>
      )}
    </div>
  );
}

type DaySlot = { id: string; starts_at: string; local_time: string; prices: { category: string; price: number }[] };
type Category = { id: string; label: string; occupies_seat: boolean };

/**
 * A sold-out day's times: join a time's waiting list (e-mail, name, and who by pricing category —
 * or seats when the time sells one category —; the page's language goes with it), so the seats
 * offered are priced for them. The server always asks a solved challenge of it, as of a pay-on-site order.
 */
function WaitlistForm({ slots, categories: all, currency, zone, maxSeats }: { slots: DaySlot[]; categories: Category[]; currency: string; zone: string; maxSeats: number }) {
  const t = useT();
  const { api, hour12, toast } = useStore();
  const [slotId, setSlotId] = useState(slots[0]!.id);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [single, setSingle] = useState(1);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const chosen = slots.find((s) => s.id === slotId) ?? slots[0]!;
  const prices = new Map(chosen.prices.map((p) => [p.category, p.price]));
  const categories = all.filter((c) => prices.has(c.id));
  const byCategory = categories.length > 1;
  const seats = byCategory ? categories.reduce((n, c) => n + (c.occupies_seat ? (quantities[c.id] ?? 0) : 0), 0) : single;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState<number | null>(null);
  const timeOf = (s: DaySlot) => (hour12 ? formatTime(t, s.starts_at, zone, true) : s.local_time);

  async function join(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const asked = byCategory ? Object.fromEntries(categories.map((c) => [c.id, quantities[c.id] ?? 0]).filter(([, n]) => (n as number) > 0)) : undefined;
      const made = await api.joinWaitlist({ slot: slotId, email: email.trim(), name: name.trim(), seats, ...(asked ? { quantities: asked } : {}) });
      setJoined(made.position);
    } catch (err) {
      const message = errorText(t, err);
      setError(message);
      toast('error', message);
    } finally {
      setBusy(false);
    }
  }

  if (joined !== null) {
    return (
      <p className="td-panel td-waitlist-joined" role="status" data-testid="waitlist-joined">
        {t('waitlistJoined', { n: joined })}
      </p>
    );
  }
  return (
    <form className="td-fieldset td-waitlist" onSubmit={join} data-testid="waitlist-form">
      <h3 className="td-h3">{t('waitlistTitle')}</h3>
      <p className="td-hint">{t('waitlistIntro')}</p>
      {slots.length > 1 && (
        <div className="td-field">
          <label htmlFor="td-waitlist-slot">{t('waitlistTime')}</label>
          <select id="td-waitlist-slot" value={slotId} onChange={(e) => setSlotId(e.target.value)}>
            {slots.map((s) => (
              <option key={s.id} value={s.id}>
                {timeOf(s)}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="td-field">
        <label htmlFor="td-waitlist-name">{t('waitlistName')}</label>
        <input id="td-waitlist-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" required maxLength={120} />
      </div>
      <div className="td-field">
        <label htmlFor="td-waitlist-email">{t('email')}</label>
        <input id="td-waitlist-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" inputMode="email" required maxLength={254} />
      </div>
      {byCategory ? (
        <fieldset className="td-fieldset">
          <legend className="td-h3">{t('participants')}</legend>
          {categories.map((c) => {
            const q = quantities[c.id] ?? 0;
            return (
              <div className="td-qty" key={c.id}>
                <div className="td-qty-label">
                  <label htmlFor={`td-waitlist-cat-${c.id}`}>{c.label}</label>
                  <span className="td-qty-note">
                    {prices.get(c.id) ? formatMoney(prices.get(c.id), currency, t.locale) : t('free')}
                    {!c.occupies_seat && ` · ${t('noSeat')}`}
                  </span>
                </div>
                <Stepper id={`td-waitlist-cat-${c.id}`} label={c.label} value={q} max={c.occupies_seat ? q + Math.max(0, maxSeats - seats) : 30} onChange={(n) => setQuantities((now) => ({ ...now, [c.id]: n }))} />
              </div>
            );
          })}
        </fieldset>
      ) : (
        <div className="td-qty">
          <div className="td-qty-label">
            <label htmlFor="td-waitlist-seats">{t('waitlistSeats')}</label>
          </div>
          <Stepper id="td-waitlist-seats" label={t('waitlistSeats')} value={single} min={1} max={maxSeats} onChange={setSingle} />
        </div>
      )}
      {error && (
        <p className="td-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="td-btn td-btn--block" disabled={busy || seats < 1}>
        {busy ? t('waitlistJoining') : t('waitlistJoin')}
      </button>
    </form>
  );
}
