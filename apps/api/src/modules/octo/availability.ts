import { todayIn } from '../../lib/local-time';
import { inTenant } from '../../lib/tenancy';
import { availabilityJsonAndRates, availabilityRows, type Rate, ratesOn } from '../availability/slots';
import type { Partner } from './auth';
import { OctoError } from './errors';
import { cutoffAtOf, departuresText } from './present';
import { departureDays } from './queries';
import { type Deps, defaultOption, sharedProduct, type SlotView } from './service';

/**
 * A product's departures for a partner, from the one definition of open for sale and seats left
 * (tourdesk_availability, through availabilityRows / availabilityJsonAndRates): as Slot objects for the
 * calendar and the public booking API, and as OCTO's JSON text for the hot call (POST
 * /octo/v1/availability), written from the database's rows in one pass.
 */

export interface AvailabilityQuery {
  productId: string;
  optionId: string;
  localDateStart?: string;
  localDateEnd?: string;
  availabilityIds?: string[];
  units?: { id: string; quantity: number }[];
}

const MAX_DAYS = 400;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The seats the units asked for take: a category that does not occupy a seat (a lap infant,
 * pricing_category.occupies_seat = false) takes none, as a hold counts them (tourdesk_price).
 */
export function seatsOf(p: Partner, units: { id: string; quantity: number }[] | undefined) {
  let seats = 0;
  for (const u of units ?? []) if (!p.seatless.has(u.id)) seats += u.quantity;
  return seats;
}

/** The net price of each category's rate among a day's rates (`ratesOn`), those that have one. */
function rateNetOf(rates: Rate[]) {
  const net: Record<string, number> = {};
  for (const r of rates) if (r.net_price !== null && r.net_price !== undefined) net[r.pricing_category] = r.net_price;
  return net;
}

/** The dates asked for, checked; null when nothing can be open (all of it past, or no such departure). */
async function rangeOf(deps: Deps, p: Partner, q: AvailabilityQuery) {
  const product = sharedProduct(p, q.productId);
  defaultOption(q.optionId);
  let from = q.localDateStart;
  let to = q.localDateEnd ?? q.localDateStart;
  // OCTO: a range or some ids, never both (its validator asks for BAD_REQUEST).
  if (q.availabilityIds?.length && (q.localDateStart || q.localDateEnd)) {
    throw new OctoError('BAD_REQUEST', 'Send either localDateStart and localDateEnd, or availabilityIds, not both.', undefined, 'availabilityIds');
  }
  if (q.availabilityIds?.length) {
    const rows = await inTenant(deps.db, p.supplierId, (tx) => departureDays(tx, p.supplierId, product.id, q.availabilityIds!));
    if (rows.length === 0) return null;
    const days = rows.map((r) => String(r.day)).sort();
    from = days[0]!;
    to = days.at(-1)!;
  } else if (!from || !to) {
    throw new OctoError('BAD_REQUEST', 'Send localDateStart and localDateEnd, or availabilityIds.', undefined, 'localDateStart');
  }
  if (to! < from!) throw new OctoError('BAD_REQUEST', 'localDateEnd is before localDateStart.', undefined, 'localDateEnd');
  if (addDays(from!, MAX_DAYS) < to!) throw new OctoError('BAD_REQUEST', `Ask for at most ${MAX_DAYS} days at a time.`, undefined, 'localDateEnd');
  const today = p.today || todayIn(p.timeZone);
  if (to! < today) return null;
  return { product, from: from! < today ? today : from!, to: to!, ids: q.availabilityIds?.length ? new Set(q.availabilityIds) : null };
}

function assertPriced(priced: Set<string>, units: AvailabilityQuery['units'], any: boolean) {
  for (const u of units ?? []) {
    if (!priced.has(u.id) && any) throw new OctoError('INVALID_UNIT_ID', 'The unit does not exist for this product.', u.id, 'unitId');
  }
}

/** The product's departures for a date range (or some ids) as Slot objects, with whether the units fit; no transaction. */
export async function availability(deps: Deps, p: Partner, q: AvailabilityQuery): Promise<SlotView[]> {
  const range = await rangeOf(deps, p, q);
  if (!range) return [];
  const { json, rates } = await availabilityJsonAndRates(deps.db, p.supplierId, range.product.id, range.from, range.to);
  const slots = JSON.parse(json) as SlotView[];
  assertPriced(new Set(slots.flatMap((s) => s.prices.map((x) => x.pricing_category))), q.units, slots.length > 0);
  const seats = seatsOf(p, q.units);
  const netOfDay = new Map<string, Record<string, number>>();
  const out: SlotView[] = [];
  for (const s of slots) {
    if (range.ids && !range.ids.has(s.id)) continue;
    s.fits = s.bookable && s.remaining >= seats;
    s.cutoffAt = cutoffAtOf(s.starts_at, range.product.cutoffMinutes);
    let net = netOfDay.get(s.local_date);
    if (!net) netOfDay.set(s.local_date, (net = rateNetOf(ratesOn(rates, s.local_date))));
    s.rateNet = net;
    out.push(s);
  }
  return out;
}

/**
 * The hot call: the same departures as availability(), written as OCTO's JSON text straight from
 * the database's rows (each departure's fixed part — id, local start and end, cut-off — is
 * kept between answers, see departuresText; its state is written every time).
 * test/octo.int.test.ts checks it equals availabilityOf() of availability().
 */
export async function availabilityText(deps: Deps, p: Partner, q: AvailabilityQuery, withPricing: boolean): Promise<string> {
  const range = await rangeOf(deps, p, q);
  if (!range) return '[]';
  const { zone, rates, slots } = await availabilityRows(deps.db, p.supplierId, range.product.id, range.from, range.to);
  const days = new Map<string, Rate[]>();
  const pricesOf = (day: string) => {
    let prices = days.get(day);
    if (!prices) days.set(day, (prices = ratesOn(rates, day)));
    return prices;
  };
  const text = departuresText(p, range.product, { zone, from: range.from, to: range.to, rows: slots, pricesOf, seats: seatsOf(p, q.units), ids: range.ids }, withPricing);
  if (q.units?.length) {
    const priced = new Set<string>();
    for (const prices of days.values()) for (const x of prices) priced.add(x.pricing_category);
    assertPriced(priced, q.units, slots.length > 0);
  }
  return text;
}
