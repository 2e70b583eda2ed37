import type { TWebDay, TWebMonth, TWebOffer } from '@tourdesk/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ErrorPanel, Spinner, useLoad } from '../components/Async';
import { Calendar } from '../components/Calendar';
import { Gallery } from '../components/Gallery';
import { Heading } from '../components/Heading';
import { ClockIcon } from '../components/Icons';
import { Stepper } from '../components/Stepper';
import { useStore } from '../context';
import { ApiError } from '../lib/api';
import { addMonths } from '../lib/calendar';
import { formatDuration, formatLongDate, todayIn } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { policyLines } from '../lib/policy';
import { t } from '../texts';

/** One offer: what it is, then a calendar, the day's times, quantities and extras, and "Hold seats". */
export function OfferPage({ id }: { id: string }) {
  const { api, link } = useStore();
  const offer = useLoad(() => api.offer(id), [id]);
  if (offer.error) {
    return (
      <div class="td-page">
        <p>
          <a href={link('')}>← {t.backToStore}</a>
        </p>
        <ErrorPanel error={offer.error} retry={offer.reload} />
      </div>
    );
  }
  if (!offer.data) return <Spinner />;
  return <Offer offer={offer.data} />;
}

function List({ title, items, kind }: { title: string; items: string[]; kind: 'check' | 'cross' | 'dot' }) {
  if (!items.length) return null;
  return (
    <section class="td-section">
      <h2 class="td-h2">{title}</h2>
      <ul class={`td-list td-list--${kind}`}>
        {items.map((x) => (
          <li key={x}>{x}</li>
        ))}
      </ul>
    </section>
  );
}

function Offer({ offer }: { offer: TWebOffer }) {
  const { link } = useStore();
  const policy = offer.cancellation_policy;
  return (
    <div class="td-page td-offer">
      <p class="td-back">
        <a href={link('')}>← {t.backToStore}</a>
      </p>
      <div class="td-offer-head">
        <Heading title={offer.title}>{offer.title}</Heading>
        {offer.short_description && <p class="td-lead">{offer.short_description}</p>}
        {offer.operated_by && <p class="td-hint">{t.operatedBy(offer.operated_by)}</p>}
        <p class="td-facts">
          {offer.duration_minutes ? (
            <span>
              <span class="td-sr-only">{t.duration}: </span>
              <ClockIcon /> 
              {formatDuration(offer.duration_minutes)}
            </span>
          ) : null}
          {offer.from_price !== null && <span class="td-price">{t.from(formatMoney(offer.from_price, offer.currency))}</span>}
        </p>
      </div>
      <div class="td-offer-media">
        <Gallery images={offer.images.length ? offer.images : offer.image_url ? [{ url: offer.image_url, thumbnail_url: null, width: null, height: null }] : []} title={offer.title} />
      </div>
      <aside class="td-offer-book" aria-labelledby="td-book-heading">
        <BookingPanel offer={offer} />
      </aside>
      <div class="td-offer-details">
        {offer.long_description && (
          <section class="td-section">
            <h2 class="td-h2">{t.about}</h2>
            {/* Sanitised HTML from the server. */}
            <div class="td-rich" dangerouslySetInnerHTML={{ __html: offer.long_description }} />
          </section>
        )}
        <List title={t.highlights} items={offer.highlights} kind="dot" />
        <List title={t.inclusions} items={offer.inclusions} kind="check" />
        <List title={t.exclusions} items={offer.exclusions} kind="cross" />
        <List title={t.whatToBring} items={offer.what_to_bring} kind="dot" />
        {offer.important_information && (
          <section class="td-section">
            <h2 class="td-h2">{t.importantInformation}</h2>
            <p class="td-pre">{offer.important_information}</p>
          </section>
        )}
        {(offer.meeting_points.length > 0 || offer.meeting_instructions) && (
          <section class="td-section">
            <h2 class="td-h2">{offer.meeting_points.length > 1 ? t.meetingPoints : t.meetingPoint}</h2>
            {offer.meeting_points.map((m) => (
              <address key={m.name} class="td-address">
                <strong>{m.name}</strong>
                {m.address && <span class="td-pre">{m.address}</span>}
                {m.latitude !== null && m.longitude !== null && (
                  <a href={`https://www.openstreetmap.org/?mlat=${m.latitude}&mlon=${m.longitude}#map=16/${m.latitude}/${m.longitude}`} target="_blank" rel="noopener noreferrer">
                    {t.openMap}
                  </a>
                )}
              </address>
            ))}
            {offer.meeting_instructions && <p class="td-pre">{offer.meeting_instructions}</p>}
          </section>
        )}
        <section class="td-section">
          <h2 class="td-h2">{t.cancellationPolicy}</h2>
          {policy && policy.rules.length ? (
            <>
              {policy.description && <p class="td-pre">{policy.description}</p>}
              <ul class="td-list td-list--dot">
                {policyLines(policy.rules).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>{t.noCancellationPolicy}</p>
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
  const { api, setCart, navigate, toast } = useStore();
  const zone = offer.time_zone;
  const today = useMemo(() => todayIn(zone), [zone]);
  const thisMonth = today.slice(0, 7);
  const [month, setMonth] = useState(thisMonth);
  const [monthData, setMonthData] = useState<TWebMonth | null>(null);
  const [monthLoading, setMonthLoading] = useState(true);
  const [date, setDate] = useState<string | null>(null);
  const [day, setDay] = useState<TWebDay | null>(null);
  const [slotId, setSlotId] = useState<string | null>(null);
  const [quantities, setQuantities] = useState<Quantities>({});
  const [extras, setExtras] = useState<Quantities>({});
  const [holding, setHolding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState(0);
  const touchedRef = useRef(false);

  // The month's days; the first time, a month without free days moves on to the next (twice at most).
  useEffect(() => {
    let live = true;
    setMonthLoading(true);
    api.month(offer.id, month, fresh > 0).then(
      (m) => {
        if (!live) return;
        setMonthData(m);
        setMonthLoading(false);
        if (!touchedRef.current && !m.days.some((d) => d.seats_left > 0 && d.date >= today) && month < addMonths(thisMonth, 2)) setMonth(addMonths(month, 1));
      },
      (e: unknown) => {
        if (!live) return;
        setMonthLoading(false);
        setError(e instanceof ApiError ? e.message : t.genericError);
      },
    );
    return () => {
      live = false;
    };
  }, [offer.id, month, fresh]); // eslint-disable-line react-hooks/exhaustive-deps

  // The chosen day's times.
  useEffect(() => {
    if (!date) return;
    let live = true;
    api.day(offer.id, date, fresh > 0).then(
      (d) => {
        if (!live) return;
        setDay(d);
        const open = d.slots.filter((s) => s.seats_left > 0);
        setSlotId((current) => (current && open.some((s) => s.id === current) ? current : open.length === 1 ? open[0]!.id : null));
      },
      (e: unknown) => live && setError(e instanceof ApiError ? e.message : t.genericError),
    );
    return () => {
      live = false;
    };
  }, [offer.id, date, fresh]); // eslint-disable-line react-hooks/exhaustive-deps

  const slot = day?.slots.find((s) => s.id === slotId) ?? null;
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

  const changeMonth = (delta: number) => {
    touchedRef.current = true;
    setMonth((m) => addMonths(m, delta));
  };
  const chooseDate = (d: string) => {
    touchedRef.current = true;
    setError(null);
    setDate(d);
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
      const message = e instanceof ApiError ? e.message : t.genericError;
      setError(message);
      toast('error', message);
      setFresh((n) => n + 1);
    } finally {
      setHolding(false);
    }
  }

  return (
    <div class="td-book">
      <h2 id="td-book-heading" class="td-h2">
        {t.chooseDate}
      </h2>
      <Calendar month={month} data={monthData} today={today} selected={date} canGoBack={month > thisMonth} loading={monthLoading} onMonth={changeMonth} onSelect={chooseDate} />

      {date && (
        <fieldset class="td-fieldset">
          <legend class="td-h3">{t.chooseTime(formatLongDate(date))}</legend>
          {!day || day.date !== date ? (
            <Spinner />
          ) : day.slots.length === 0 ? (
            <p class="td-muted">{t.noTimes}</p>
          ) : (
            <div class="td-times">
              {day.slots.map((s) => (
                <label key={s.id} class={`td-time${s.seats_left === 0 ? ' td-time--sold-out' : ''}${s.id === slotId ? ' td-time--selected' : ''}`}>
                  <input type="radio" name="td-slot" value={s.id} checked={s.id === slotId} disabled={s.seats_left === 0} onChange={() => setSlotId(s.id)} />
                  <span class="td-time-at">{s.local_time}</span>
                  <span class="td-time-seats">{t.seatsLeft(s.seats_left)}</span>
                </label>
              ))}
            </div>
          )}
        </fieldset>
      )}

      {slot && (
        <fieldset class="td-fieldset">
          <legend class="td-h3">{t.participants}</legend>
          {categories.map((c) => {
            const q = quantities[c.id] ?? 0;
            const room = Math.min(maxParticipants - participants, c.occupies_seat ? seatsLeft - seats : Infinity);
            const ages = t.ages(c.min_age, c.max_age);
            return (
              <div class="td-qty" key={c.id}>
                <div class="td-qty-label">
                  <label for={`td-cat-${c.id}`}>{c.label}</label>
                  <span class="td-qty-note">
                    {prices.get(c.id) ? formatMoney(prices.get(c.id), offer.currency) : t.free}
                    {ages && ` · ${ages}`}
                    {!c.occupies_seat && ` · ${t.noSeat}`}
                  </span>
                </div>
                <Stepper id={`td-cat-${c.id}`} label={c.label} value={q} max={Math.max(q, Math.min(100, q + room))} onChange={(n) => setQuantities((all) => ({ ...all, [c.id]: n }))} />
              </div>
            );
          })}
          <p class="td-hint">
            {offer.min_participants > 1 && t.minParticipants(offer.min_participants) + ' '}
            {offer.max_participants !== null && t.maxParticipants(offer.max_participants) + ' '}
            {seats > 0 && seats >= seatsLeft && t.notEnoughSeats(seatsLeft)}
          </p>
        </fieldset>
      )}

      {slot && offer.extras.length > 0 && (
        <fieldset class="td-fieldset">
          <legend class="td-h3">{t.extras}</legend>
          {offer.extras.map((x) => (
            <div class="td-qty" key={x.id}>
              <div class="td-qty-label">
                <label for={`td-extra-${x.id}`}>{x.name}</label>
                <span class="td-qty-note">
                  {formatMoney(x.price, offer.currency)}
                  {x.description && ` · ${x.description}`}
                </span>
              </div>
              <Stepper id={`td-extra-${x.id}`} label={x.name} value={extras[x.id] ?? 0} max={100} onChange={(n) => setExtras((all) => ({ ...all, [x.id]: n }))} />
            </div>
          ))}
        </fieldset>
      )}

      {slot && (
        <div class="td-hold">
          <p class="td-total" aria-live="polite">
            <span>{t.total}</span> <strong data-testid="offer-total">{formatMoney(total, offer.currency)}</strong>
          </p>
          {error && (
            <p class="td-error" role="alert">
              {error}
            </p>
          )}
          {!ready && participants < minParticipants && <p class="td-hint">{t.chooseParticipants}</p>}
          <button type="button" class="td-btn td-btn--primary td-btn--block" disabled={!ready || holding} onClick={hold}>
            {holding ? t.holding : t.hold}
          </button>
          <p class="td-hint">{t.holdHint}</p>
        </div>
      )}
      {!slot && error && (
        <p class="td-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
