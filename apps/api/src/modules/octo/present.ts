import type { Availability, AvailabilityCalendar, Booking, Contact, Option, Pricing, PricingUnit, Product, Supplier, Unit, UnitItem } from '@octocloud/types';
import { AvailabilityStatus, AvailabilityType, BookingStatus, ContactField, DeliveryFormat, DeliveryMethod, DurationUnit, FeatureType, LocationType, MediaRel, MediaType, RedemptionMethod, Refund, UnitType } from '@octocloud/types';
import type { Feature, ProductContent } from '@octocloud/types';
import { fractionDigits, seatsForSale } from '@tourdesk/contracts';
import { localToUtc } from '../../lib/local-time';
import type { Rate, SlotTextRow } from '../availability/slots';
import type { Partner, SharedProduct } from './auth';
import { type BookingView, DEFAULT_OPTION, netOf, netOfView, type ProductView, type SlotView, unitTypeOf } from './service';

/**
 * The OCTO shapes (octo.travel core and octo/pricing), typed with @octocloud/types: what the
 * service answers, as OCTO's resellers read it. Prices are the currency's minor units.
 */

const UNIT_TYPE: Record<ReturnType<typeof unitTypeOf>, UnitType> = {
  ADULT: UnitType.ADULT,
  YOUTH: UnitType.YOUTH,
  CHILD: UnitType.CHILD,
  INFANT: UnitType.INFANT,
  SENIOR: UnitType.SENIOR,
  OTHER: UnitType.OTHER,
};
const REQUIRED_CONTACT = [ContactField.FIRST_NAME, ContactField.LAST_NAME, ContactField.EMAIL_ADDRESS];

/**
 * An instant as OCTO writes it: UTC to the second, `2026-05-01T08:00:00Z` (OCTO's schemas and its
 * validator refuse fractional seconds). Every utc… field of an OCTO answer goes through here.
 */
export function octoUtc(instant: Date | string | number): string {
  return new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
/** When a departure stops selling: its start less the product's booking cut-off, as OCTO writes it (one rule for every answer). */
export const cutoffAtOf = (startsAt: Date | string, cutoffMinutes: number) => octoUtc(new Date(startsAt).getTime() - cutoffMinutes * 60_000);
/** A ticket or voucher as OCTO wants it on every booking: its QR code once there is one to show. */
const ticketOf = (code: string | null) => ({
  redemptionMethod: RedemptionMethod.DIGITAL,
  utcRedeemedAt: null,
  deliveryOptions: code ? [{ deliveryFormat: DeliveryFormat.QRCODE, deliveryValue: code }] : [],
});

const formats = new Map<string, Intl.DateTimeFormat>();
/** A local wall time with the zone's offset at that instant: 2026-05-01T10:00:00+02:00 (one formatter per zone, made once). */
export function localIso(instant: Date | string, timeZone: string) {
  const d = new Date(instant);
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const x of format.formatToParts(d)) parts[x.type] = x.value;
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  return `${local}${offsetText(Date.parse(`${local}Z`) - Math.floor(d.getTime() / 1000) * 1000)}`;
}

function offsetText(ms: number) {
  const offset = Math.round(ms / 60_000);
  const abs = Math.abs(offset);
  return `${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A slot's start as local time with its offset, from the slot's own local date and time (no time-zone lookup). */
function localStart(s: Pick<SlotView, 'local_date' | 'local_time' | 'starts_at'>) {
  const local = `${s.local_date}T${s.local_time.length === 5 ? `${s.local_time}:00` : s.local_time.slice(0, 8)}`;
  return `${local}${offsetText(Date.parse(`${local}Z`) - Date.parse(s.starts_at))}`;
}

/**
 * A departure's times as OCTO gives them. START_TIME: its start and end. OPENING_HOURS (the
 * offer's one slot a day, from opening to closing): the whole local day (allDay) with the opening
 * hours in `openingHours`.
 */
function timesOf(s: { local_date: string; local_time: string; starts_at: string; ends_at: string }, zone: string, openingHours: boolean) {
  if (!openingHours) return { start: localStart(s), end: localIso(s.ends_at, zone), allDay: false, hours: [] as { from: string; to: string }[] };
  return {
    start: localIso(localToUtc(s.local_date, '00:00', zone), zone),
    end: localIso(localToUtc(nextDay(s.local_date), '00:00', zone), zone),
    allDay: true,
    hours: [{ from: s.local_time.slice(0, 5), to: localIso(s.ends_at, zone).slice(11, 16) }],
  };
}
const opensByHours = (p: Partner, productId: string) => p.products.get(productId)?.openingHours ?? false;

/** A unit's price: `retail`, and the net by the contract at the net price of the rate that gives it (`rateNet`). */
function pricing(p: Partner, productId: string, unitId: string, retail: number, rateNet: number | null | undefined, quantity = 1): Pricing {
  return {
    original: retail * quantity,
    retail: retail * quantity,
    net: netOf(p, productId, unitId, retail, rateNet) * quantity,
    currency: p.currency,
    currencyPrecision: fractionDigits(p.currency),
    includedTaxes: [],
  };
}

export function supplierOf(p: Partner, endpoint: string): Supplier {
  return { id: p.supplierId, name: p.supplierName, endpoint, contact: { website: null, email: null, telephone: null, address: null } };
}

function unitOf(p: Partner, v: ProductView, u: ProductView['units'][number], withPricing: boolean, withContent = false): Unit {
  return {
    ...(withContent ? { title: u.title } : {}),
    id: u.id,
    internalName: u.label,
    reference: u.type,
    type: UNIT_TYPE[unitTypeOf(u.type)],
    restrictions: { minAge: u.min_age ?? 0, maxAge: u.max_age ?? 99, idRequired: false, minQuantity: null, maxQuantity: null, paxCount: u.occupies_seat ? 1 : 0, accompaniedBy: [] },
    requiredContactFields: [],
    ...(withPricing ? { pricingFrom: [pricing(p, v.product.id, u.id, u.from_price, u.from_net)] } : {}),
  };
}

/** The cancellation cut-off of the offer's policy: the smallest notice at which it still refunds in full (a partner's cancel is free), else 0. */
function cutoffHours(policy: ProductView['policy']) {
  if (!policy?.length) return 0;
  const refunding = policy.filter((r) => r.refund_percent >= 100).map((r) => r.hours_before);
  return refunding.length ? Math.min(...refunding) : 0;
}

/**
 * OCTO's content capability (octo/content): the offer's texts in the language negotiated (v.language,
 * localize() field by field), its lists as features, and the languages the supplier sells in.
 */
function contentOf(p: Partner, v: ProductView, origin: string): ProductContent & { availableLanguages: string[] } {
  const t = v.texts;
  const features: Feature[] = [
    ...t.highlights.map((x) => ({ shortDescription: x, type: FeatureType.HIGHLIGHT })),
    ...t.inclusions.map((x) => ({ shortDescription: x, type: FeatureType.INCLUSION })),
    ...t.exclusions.map((x) => ({ shortDescription: x, type: FeatureType.EXCLUSION })),
    ...t.what_to_bring.map((x) => ({ shortDescription: x, type: FeatureType.PREARRIVAL_INFORMATION })),
    ...(t.meeting_instructions.trim() ? [{ shortDescription: t.meeting_instructions, type: FeatureType.PREARRIVAL_INFORMATION }] : []),
    ...(t.voucher_text.trim() ? [{ shortDescription: t.voucher_text, type: FeatureType.REDEMPTION_INSTRUCTION }] : []),
    ...(t.important_information.trim() ? [{ shortDescription: t.important_information, type: FeatureType.ADDITIONAL_INFORMATION }] : []),
    ...(v.policyTexts?.description.trim() ? [{ shortDescription: v.policyTexts.description, type: FeatureType.CANCELLATION_TERM }] : []),
  ];
  return {
    title: t.title,
    shortDescription: t.short_description || null,
    description: t.long_description || null,
    features,
    ...(v.product.durationMinutes ? { durationMinutesFrom: v.product.durationMinutes, durationMinutesTo: null } : {}),
    // The offer's pictures (the first its cover) as the web store serves them; OCTO names JPEG and PNG only.
    media: v.images
      .filter((i) => i.type === MediaType.IMAGE_JPEG || i.type === MediaType.IMAGE_PNG)
      .map((i, n) => ({ src: `${origin}/api/media/${i.key}`, type: i.type as MediaType, rel: n === 0 ? MediaRel.COVER : MediaRel.GALLERY, title: null, caption: null, copyright: null })),
    // Its meeting points where the guests start (a point without coordinates cannot be a place: left out).
    locations: v.points
      .filter((m) => m.latitude !== null && m.longitude !== null)
      .map((m) => ({
        title: m.name,
        shortDescription: m.instructions || null,
        types: [LocationType.START],
        minutesTo: null,
        minutesAt: null,
        place: {
          latitude: m.latitude!,
          longitude: m.longitude!,
          postalAddress: { streetAddress: m.address || null, addressLocality: null, addressRegion: null, postalCode: null, addressCountry: null, postOfficeBoxNumber: null },
          identifiers: { googlePlaceId: null, applePlaceId: null, tripadvisorLocationId: null, yelpPlaceId: null, facebookPlaceId: null, foursquarePlaceId: null, baiduPlaceId: null, amapPlaceId: null },
          sameAs: [],
        },
      })),
    availableLanguages: [...p.languages],
  };
}

/**
 * OCTO's questions capability (octo/questions): the offer's booking questions on its option, in the
 * language negotiated. They are asked once per booking (a question "per participant" is answered
 * for the group, as in the web store), so the units carry none.
 */
export function questionsOf(v: ProductView) {
  return v.questions.map((x) => ({
    id: x.id,
    label: x.question,
    description: null,
    required: x.required,
    inputType: x.answer_type === 'number' ? 'number' : x.answer_type === 'text' ? 'text' : x.answer_type === 'yes_no' || x.choices.length <= 5 ? 'radio' : 'select',
    selectOptions: x.answer_type === 'yes_no' ? [{ label: 'Yes', value: 'yes' }, { label: 'No', value: 'no' }] : x.choices.map((value, i) => ({ label: x.labels[i] ?? value, value })),
  }));
}

export function productOf(p: Partner, v: ProductView, withPricing: boolean, withContent = false, withQuestions = false, origin = ''): Product {
  const hours = cutoffHours(v.policy);
  const option: Option = {
    id: DEFAULT_OPTION,
    default: true,
    internalName: v.product.title,
    reference: null,
    // OCTO: an OPENING_HOURS product has no start times (its availabilities are whole days with opening hours).
    availabilityLocalStartTimes: v.product.openingHours ? [] : v.startTimes,
    cancellationCutoff: `${hours} hours`,
    cancellationCutoffAmount: hours,
    cancellationCutoffUnit: DurationUnit.HOUR,
    requiredContactFields: REQUIRED_CONTACT,
    // OCTO: minUnits is a number (0: no minimum); maxUnits null is no maximum.
    restrictions: { minUnits: 0, maxUnits: null },
    units: v.units.map((u) => ({ ...unitOf(p, v, u, withPricing, withContent), ...(withQuestions ? { questions: [] } : {}) })),
    ...(withContent ? { title: v.texts.title, shortDescription: v.texts.short_description || null } : {}),
    ...(withQuestions ? { questions: questionsOf(v) } : {}),
  };
  return {
    id: v.product.id,
    internalName: v.product.title,
    reference: null,
    locale: v.language,
    timeZone: p.timeZone,
    allowFreesale: false,
    instantConfirmation: v.product.instantConfirmation,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: v.product.openingHours ? AvailabilityType.OPENING_HOURS : AvailabilityType.START_TIME,
    deliveryFormats: [DeliveryFormat.QRCODE],
    deliveryMethods: [DeliveryMethod.VOUCHER, DeliveryMethod.TICKET],
    redemptionMethod: RedemptionMethod.DIGITAL,
    options: [option],
    ...(withPricing ? { defaultCurrency: p.currency, availableCurrencies: [p.currency] } : {}),
    ...(withContent ? contentOf(p, v, origin) : {}),
  };
}

const STATUS: Record<string, AvailabilityStatus> = {
  available: AvailabilityStatus.AVAILABLE,
  limited: AvailabilityStatus.LIMITED,
  sold_out: AvailabilityStatus.SOLD_OUT,
  closed: AvailabilityStatus.CLOSED,
};

/** A departure's OCTO status: closed or sold out for everyone, else sold out for the units asked for when they do not fit. */
function statusOf(bookable: boolean, status: string, fits: boolean) {
  if (!bookable) return status === 'sold_out' ? AvailabilityStatus.SOLD_OUT : AvailabilityStatus.CLOSED;
  if (!fits) return AvailabilityStatus.SOLD_OUT;
  return STATUS[status] ?? AvailabilityStatus.AVAILABLE;
}
const slotStatus = (s: SlotView) => statusOf(s.bookable, s.status, s.fits);

export function availabilityOf(p: Partner, productId: string, s: SlotView, withPricing: boolean): Availability {
  const status = slotStatus(s);
  const available = status === AvailabilityStatus.AVAILABLE || status === AvailabilityStatus.LIMITED;
  const times = timesOf(s, s.time_zone, opensByHours(p, productId));
  return {
    id: s.id,
    localDateTimeStart: times.start,
    localDateTimeEnd: times.end,
    utcCutoffAt: s.cutoffAt,
    allDay: times.allDay,
    available,
    status,
    vacancies: seatsForSale(s),
    capacity: s.capacity,
    maxUnits: null,
    openingHours: times.hours,
    ...(withPricing ? { unitPricing: s.prices.map((x): PricingUnit => ({ ...pricing(p, productId, x.pricing_category, x.retail_price, s.rateNet[x.pricing_category]), unitId: x.pricing_category })) } : {}),
  };
}

/**
 * A departure's fixed part as OCTO text — `{"id":…,"localDateTimeStart":…,"localDateTimeEnd":…,
 * "utcCutoffAt":…,"allDay":false,"available":` — a pure function of the slot's fixed part
 * (api_head: id, times, local date and time, rewritten by the database whenever one changes), the
 * zone and the product's cut-off.
 */
interface Fixed {
  head: string;
  id: string;
  day: string;
  text: string;
  /** `"openingHours":[…]` */
  hours: string;
}
function fixedOf(head: string, zone: string, cutoffMinutes: number, openingHours: boolean): Fixed {
  const s = JSON.parse(`${head}}`) as Pick<SlotView, 'id' | 'starts_at' | 'ends_at' | 'local_date' | 'local_time'>;
  const cutoffAt = cutoffAtOf(s.starts_at, cutoffMinutes);
  const times = timesOf(s, zone, openingHours);
  return {
    head,
    id: s.id,
    day: s.local_date,
    text: `{"id":"${s.id}","localDateTimeStart":"${times.start}","localDateTimeEnd":"${times.end}","utcCutoffAt":"${cutoffAt}","allDay":${times.allDay},"available":`,
    hours: `"openingHours":${JSON.stringify(times.hours)}`,
  };
}

/**
 * The fixed parts of the departures last answered for one question (product, zone, cut-off,
 * dates), in the database's order: the next answer to it takes each one whose slot's api_head is
 * still the same (a string comparison) instead of writing it again — never stale, since a changed
 * slot has another api_head. At most LAST_MAX questions are kept (then the list starts afresh).
 */
const LAST_MAX = 200;
const lastAnswers = new Map<string, Fixed[]>();

/**
 * The hot call's departures as JSON text, from tourdesk_availability's rows: the same fields as
 * availabilityOf() (a test parses the answer against it) without building each departure's
 * object and serialising it again. Each day's prices are written once; every value is a number,
 * a boolean, an id, a time or a status word: nothing to escape.
 */
export function departuresText(
  p: Partner,
  product: SharedProduct,
  q: { zone: string; from: string; to: string; rows: SlotTextRow[]; pricesOf: (day: string) => Rate[]; seats: number; ids: Set<string> | null },
  withPricing: boolean,
) {
  const precision = fractionDigits(p.currency);
  const pricingOfDay = new Map<string, string>();
  const pricingOf = (day: string, prices: Rate[]) => {
    let text = pricingOfDay.get(day);
    if (text === undefined) {
      const units = prices.map(
        (x) =>
          `{"original":${x.retail_price},"retail":${x.retail_price},"net":${netOf(p, product.id, x.pricing_category, x.retail_price, x.net_price)},"currency":"${p.currency}","currencyPrecision":${precision},"includedTaxes":[],"unitId":"${x.pricing_category}"}`,
      );
      pricingOfDay.set(day, (text = `,"unitPricing":[${units.join(',')}]`));
    }
    return text;
  };
  const key = `${product.id} ${q.zone} ${product.cutoffMinutes} ${product.openingHours} ${q.from} ${q.to}`;
  const last = lastAnswers.get(key);
  const fixedNow: Fixed[] = new Array(q.rows.length);
  let out = '';
  for (let i = 0; i < q.rows.length; i++) {
    const row = q.rows[i]!;
    let fixed = last?.[i];
    if (fixed === undefined || fixed.head !== row.api_head) fixed = fixedOf(row.api_head, q.zone, product.cutoffMinutes, product.openingHours);
    fixedNow[i] = fixed;
    const prices = q.pricesOf(fixed.day);
    if (q.ids && !q.ids.has(fixed.id)) continue;
    const status = statusOf(row.bookable, row.status, row.bookable && row.remaining >= q.seats);
    const available = status === AvailabilityStatus.AVAILABLE || status === AvailabilityStatus.LIMITED;
    out += `${out ? ',' : ''}${fixed.text}${available},"status":"${status}","vacancies":${seatsForSale(row)},"capacity":${row.capacity},"maxUnits":null,${fixed.hours}${withPricing ? pricingOf(fixed.day, prices) : ''}}`;
  }
  if (!last && lastAnswers.size >= LAST_MAX) lastAnswers.clear();
  lastAnswers.set(key, fixedNow);
  return `[${out}]`;
}

export function calendarOf(p: Partner, productId: string, slots: SlotView[], from: string, to: string, withPricing: boolean): AvailabilityCalendar[] {
  const days = new Map<string, SlotView[]>();
  for (const s of slots) days.set(s.local_date, [...(days.get(s.local_date) ?? []), s]);
  const out: AvailabilityCalendar[] = [];
  // OCTO gives every day of an OPENING_HOURS product its opening hours, a closed day too: the usual ones (the range's first departure's).
  const usual = opensByHours(p, productId) && slots[0] ? timesOf(slots[0], slots[0].time_zone, true).hours : [];
  for (let day = from; day <= to; day = nextDay(day)) {
    const list = days.get(day) ?? [];
    const statuses = list.map(slotStatus);
    const open = list.filter((_, i) => statuses[i] === AvailabilityStatus.AVAILABLE || statuses[i] === AvailabilityStatus.LIMITED);
    const status = open.length
      ? statuses.every((x) => x === AvailabilityStatus.AVAILABLE)
        ? AvailabilityStatus.AVAILABLE
        : AvailabilityStatus.LIMITED
      : statuses.includes(AvailabilityStatus.SOLD_OUT)
        ? AvailabilityStatus.SOLD_OUT
        : AvailabilityStatus.CLOSED;
    const own = opensByHours(p, productId) ? list.flatMap((s) => timesOf(s, s.time_zone, true).hours) : [];
    const hours = own.length ? own : usual;
    // The lowest price of each unit that day, with the net price of its rate (one day: one rate per unit).
    const lowest = new Map<string, { retail: number; net: number | undefined }>();
    for (const s of open) {
      for (const x of s.prices) if (x.retail_price < (lowest.get(x.pricing_category)?.retail ?? Infinity)) lowest.set(x.pricing_category, { retail: x.retail_price, net: s.rateNet[x.pricing_category] });
    }
    out.push({
      localDate: day,
      available: open.length > 0,
      status,
      vacancies: open.reduce((n, s) => n + Math.max(0, s.remaining), 0),
      capacity: list.reduce((n, s) => n + s.capacity, 0),
      openingHours: hours,
      ...(withPricing ? { unitPricingFrom: [...lowest].map(([unitId, x]): PricingUnit => ({ ...pricing(p, productId, unitId, x.retail, x.net), unitId })) } : {}),
    });
  }
  return out;
}

function nextDay(day: string) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function contactOf(raw: Record<string, unknown>): Contact {
  const str = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string) : null);
  const first = str('firstName');
  const last = str('lastName');
  return {
    fullName: str('fullName') ?? ([first, last].filter(Boolean).join(' ') || null),
    firstName: first,
    lastName: last,
    emailAddress: str('emailAddress'),
    phoneNumber: str('phoneNumber'),
    locales: Array.isArray(raw.locales) ? (raw.locales as string[]) : [],
    postalCode: str('postalCode'),
    country: str('country'),
    notes: str('notes'),
  };
}

const BOOKING_STATUS: Record<BookingView['status'], BookingStatus> = {
  ON_HOLD: BookingStatus.ON_HOLD,
  PENDING: BookingStatus.PENDING,
  CONFIRMED: BookingStatus.CONFIRMED,
  REJECTED: BookingStatus.REJECTED,
  CANCELLED: BookingStatus.CANCELLED,
  EXPIRED: BookingStatus.EXPIRED,
};

export function bookingOf(p: Partner, v: BookingView, withPricing: boolean, withQuestions = false): Booking {
  const status = BOOKING_STATUS[v.status];
  const contact = contactOf(v.row.contact);
  const priceOf = new Map(v.items.map((i) => [i.id, i.unit_price]));
  // The QR code only for a confirmed booking (PENDING waits for the supplier, a reservation is not sold yet).
  const voucherCode = v.ticketCode && v.status === 'CONFIRMED' ? v.ticketCode : null;
  const unitItems: UnitItem[] = v.row.unit_items.map((u) => ({
    uuid: u.uuid ?? '',
    resellerReference: u.resellerReference,
    supplierReference: v.ticketCode,
    unitId: u.unitId,
    status,
    utcRedeemedAt: null,
    contact,
    ticket: ticketOf(voucherCode),
    ...(withPricing && priceOf.has(u.unitId) ? { pricing: pricing(p, v.row.experience_id, u.unitId, priceOf.get(u.unitId)!, v.rateNet[u.unitId]) } : {}),
  }));
  const total = v.items.reduce((n, i) => n + i.unit_price * i.quantity, 0);
  const net = netOfView(p, v);
  const times = timesOf({ ...v.slot, starts_at: v.slot.starts_at.toISOString(), ends_at: v.slot.ends_at.toISOString() }, v.timeZone, opensByHours(p, v.row.experience_id));
  const slot: Availability = {
    id: v.slot.id,
    localDateTimeStart: times.start,
    localDateTimeEnd: times.end,
    utcCutoffAt: cutoffAtOf(v.slot.starts_at, p.products.get(v.row.experience_id)?.cutoffMinutes ?? 0),
    allDay: times.allDay,
    available: true,
    status: AvailabilityStatus.AVAILABLE,
    vacancies: null,
    capacity: null,
    maxUnits: null,
    openingHours: times.hours,
  };
  return {
    id: v.row.uuid,
    uuid: v.row.uuid,
    testMode: false,
    resellerReference: v.row.reseller_reference,
    supplierReference: v.orderReference,
    status,
    utcCreatedAt: octoUtc(v.row.created_at),
    utcUpdatedAt: octoUtc(v.row.updated_at),
    utcExpiresAt: v.status === 'ON_HOLD' && v.row.expires_at ? octoUtc(v.row.expires_at) : null,
    utcRedeemedAt: null,
    utcConfirmedAt: v.confirmedAt ? octoUtc(v.confirmedAt) : null,
    productId: v.row.experience_id,
    optionId: DEFAULT_OPTION,
    cancellable: v.cancellable,
    cancellation: v.status === 'CANCELLED' ? { refund: v.row.order_id ? Refund.FULL : Refund.NONE, reason: v.row.cancellation_reason, utcCancelledAt: octoUtc(v.row.updated_at) } : null,
    freesale: false,
    availabilityId: v.slot.id,
    availability: slot,
    contact,
    notes: v.row.notes,
    deliveryMethods: [DeliveryMethod.VOUCHER, DeliveryMethod.TICKET],
    voucher: ticketOf(voucherCode),
    unitItems,
    ...(withPricing ? { pricing: { original: total, retail: total, net, currency: p.currency, currencyPrecision: fractionDigits(p.currency), includedTaxes: [] } } : {}),
    ...(withQuestions ? { questionAnswers: Object.entries(v.answers).map(([questionId, value]) => ({ questionId, value })) } : {}),
  };
}
