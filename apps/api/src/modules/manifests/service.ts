import { dateText, dateTimeText, timeText } from '@tourdesk/contracts/date-format';
import { missingAnswers, toMajorText, type TManifest, type TManifestBooking, type TManifestCount, type TManifestDay, type TManifestTotals, type TTimeFormat } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { csvDocument, type CsvValue } from '../../lib/csv';
import { notFound } from '../../lib/errors';
import { createPdf, documentMoney, grey, INK, PAPER, type PDFFont, type PDFPage } from '../../lib/pdf';
import type { CustomerVisibility } from '../auth/principal';
import { answeredQuestions } from '../orders/order-basics';
import * as q from './queries';

/**
 * A departure's manifest, read in three statements whatever its size (the departure, its bookings
 * with their orders and customers, the questions answered), and its CSV and PDF. A day's manifest
 * is the same for every departure of a local date, still three statements.
 */

/** Adds counts by id, keeping the order in which ids first appear. */
function addCounts(into: Map<string, TManifestCount>, counts: TManifestCount[]) {
  for (const c of counts) {
    const known = into.get(c.id);
    if (known) known.quantity += c.quantity;
    else into.set(c.id, { ...c });
  }
}

const byLabel = (a: TManifestCount, b: TManifestCount) => a.label.localeCompare(b.label, 'en') || a.id.localeCompare(b.id);

function totalsOf(bookings: TManifestBooking[], sees: CustomerVisibility): TManifestTotals {
  const categories = new Map<string, TManifestCount>();
  const extras = new Map<string, TManifestCount>();
  for (const b of bookings) {
    addCounts(categories, b.categories);
    addCounts(extras, b.extras);
  }
  return {
    bookings: bookings.length,
    seats: bookings.reduce((n, b) => n + b.seats, 0),
    arrived: bookings.filter((b) => b.attendance === 'Arrived').reduce((n, b) => n + b.seats, 0),
    no_show: bookings.filter((b) => b.attendance === 'No show').reduce((n, b) => n + b.seats, 0),
    categories: [...categories.values()].sort(byLabel),
    extras: [...extras.values()].sort(byLabel),
    balance_due: sees.payment ? bookings.reduce((n, b) => n + (b.balance_due ?? 0), 0) : null,
  };
}

/**
 * The rows of the given departures, grouped by departure, with the balance on each order's first
 * row; contacts and balances only for a role that may see them (customerVisibility).
 */
async function assemble(ctx: TenantCtx, departures: q.Departure[], sees: CustomerVisibility): Promise<{ manifests: TManifest[]; zone: string; currency: string }> {
  const { zone, currency } = await q.organisationZone(ctx);
  const rows = await q.bookingsOf(ctx, departures.map((d) => d.id));
  const answersOf = await answeredQuestions(ctx, rows.map((r) => r.answers));
  const bySlot = new Map<string, TManifestBooking[]>(departures.map((d) => [d.id, []]));
  const asked = new Map(departures.map((d) => [d.id, d.required_questions]));
  const owing = new Set<string>();
  for (const r of rows) {
    const first = !owing.has(`${r.slot}:${r.order}`);
    owing.add(`${r.slot}:${r.order}`);
    bySlot.get(r.slot)!.push({
      id: r.id,
      order: r.order,
      order_reference: r.reference,
      ticket_code: r.ticket_code,
      status: r.status as TManifestBooking['status'],
      attendance: r.attendance as TManifestBooking['attendance'],
      checked_in_at: r.checked_in_at?.toISOString() ?? null,
      customer: { first_name: r.first_name, last_name: r.last_name, email: sees.contact ? r.email : null, phone: sees.contact ? r.phone : null },
      seats: r.seats,
      categories: r.items.filter((i) => i.kind === 'category' && i.quantity > 0).map((i) => ({ id: i.id, label: i.label, quantity: i.quantity }))
        .sort(byLabel),
      extras: r.items
        .filter((i) => i.kind === 'extra' && i.quantity > 0)
        .map((i) => ({ id: i.id, label: i.label, quantity: i.quantity }))
        .sort(byLabel),
      answers: answersOf(r.answers),
      missing_answers: missingAnswers(asked.get(r.slot) ?? [], r.answers as Record<string, string>).map((q) => q.question),
      balance_due: !sees.payment ? null : first ? Math.max(0, r.order_total - r.order_paid) : 0,
      currency: r.currency,
      notes: [r.order_notes, r.customer_notes].map((n) => n.trim()).filter(Boolean).join('\n'),
    });
  }
  const manifests = departures.map((d): TManifest => {
    const bookings = bySlot.get(d.id)!;
    return {
      slot: d.id,
      experience: d.experience,
      experience_title: d.title,
      starts_at: d.starts_at.toISOString(),
      ends_at: d.ends_at.toISOString(),
      local_date: String(d.local_date),
      local_time: d.local_time,
      time_zone: zone,
      capacity: d.capacity,
      closed: d.closed,
      guides: d.guides,
      currency: bookings[0]?.currency ?? currency,
      bookings,
      totals: totalsOf(bookings, sees),
    };
  });
  return { manifests, zone, currency };
}

/** The organisation's name, as the manifests' PDF names its author. */
export async function organisationName(ctx: TenantCtx) {
  return (await q.organisationZone(ctx)).name;
}

export async function manifest(ctx: TenantCtx, slotId: string, sees: CustomerVisibility): Promise<TManifest> {
  const found = await q.departure(ctx, slotId);
  if (found.length === 0) throw notFound('No departure with this id.');
  return (await assemble(ctx, found, sees)).manifests[0]!;
}

export async function manifestDay(ctx: TenantCtx, date: string, sees: CustomerVisibility): Promise<TManifestDay> {
  const { manifests, zone, currency } = await assemble(ctx, await q.departuresOn(ctx, date), sees);
  return { date, time_zone: zone, currency, departures: manifests, totals: totalsOf(manifests.flatMap((m) => m.bookings), sees) };
}

/** The manifests of the given departures (a guide's own, from the guides module), still three statements. */
export async function manifestsOf(ctx: TenantCtx, slotIds: string[], sees: CustomerVisibility): Promise<TManifest[]> {
  return (await assemble(ctx, await q.departuresIn(ctx, slotIds), sees)).manifests;
}

// --- Exports -----------------------------------------------------------------------------

/** "2 Adult, 1 Child". */
export const countsText = (counts: TManifestCount[]) => counts.map((c) => `${c.quantity} ${c.label}`).join(', ');
const answersText = (b: TManifestBooking) => [...b.answers.map((a) => `${a.question}: ${a.answer}`), ...b.missing_answers.map((q) => `${q}: (missing)`)].join('; ');
/** "Arrived 09:40" ("Arrived 9:40 am" in 12-hour time) in the organisation's zone. */
const checkInText = (b: TManifestBooking, zone: string, format: TTimeFormat) => (b.attendance === 'Arrived' && b.checked_in_at ? `Arrived ${timeText(b.checked_in_at, zone, format)}` : b.attendance);

/** "Anna Berg, Tom Ode": the departure's guides, as the exports name them. */
const guidesText = (m: TManifest) => m.guides.map((g) => g.name).join(', ');

/**
 * The manifests as CSV: a line per booking, then a TOTAL line per departure. Amounts are plain
 * numbers in the currency's major unit (12.50), times local to the organisation's zone (the check-in
 * time in its 12/24-hour setting; the departure's time column stays "HH:mm" for sorting). The phone
 * and e-mail columns, and the balance columns, are there only for a role that may see them.
 */
export function manifestsCsv(manifests: TManifest[], sees: CustomerVisibility, format: TTimeFormat) {
  const contact = (phone: CsvValue, email: CsvValue): CsvValue[] => (sees.contact ? [phone, email] : []);
  const header = ['date', 'time', 'offer', 'order', 'ticket', 'status', 'check_in', 'guest', ...contact('phone', 'email'), 'seats', 'categories', 'extras', 'answers', ...(sees.payment ? ['currency', 'balance_due'] : []), 'notes', 'guides'] as string[];
  const rows: CsvValue[][] = [];
  for (const m of manifests) {
    const due = (n: number | null): CsvValue[] => (sees.payment ? [m.currency, { amount: toMajorText(n ?? 0, m.currency) }] : []);
    const guides = guidesText(m);
    for (const b of m.bookings) {
      rows.push([m.local_date, m.local_time, m.experience_title, b.order_reference, b.ticket_code, b.status, checkInText(b, m.time_zone, format), `${b.customer.first_name} ${b.customer.last_name}`.trim(), ...contact(b.customer.phone ?? '', b.customer.email ?? ''), b.seats, countsText(b.categories), countsText(b.extras), answersText(b), ...due(b.balance_due), b.notes, guides]);
    }
    const t = m.totals;
    rows.push([m.local_date, m.local_time, m.experience_title, 'TOTAL', '', `${t.bookings} bookings`, `${t.arrived} arrived`, '', ...contact('', ''), t.seats, countsText(t.categories), countsText(t.extras), '', ...due(t.balance_due), '', guides]);
  }
  return csvDocument(header, rows);
}

/**
 * The manifests as a landscape A4 PDF, one departure per page (continued on the next when long):
 * the offer, date and time, seats against capacity; a row per booking (guest and phone, the
 * category split, extras, answers and notes, ticket and order, what is left to pay, check-in and a
 * box to tick); the departure's totals.
 */
export async function manifestsPdf(manifests: TManifest[], organisation: string, sees: CustomerVisibility, format: TTimeFormat): Promise<Uint8Array> {
  const pdf = await createPdf(PAPER['A4 landscape'], {
    title: manifests.length === 1 ? `Manifest ${manifests[0]!.experience_title} ${manifests[0]!.local_date} ${manifests[0]!.local_time}` : `Manifests ${manifests[0]?.local_date ?? ''}`,
    author: organisation,
  });
  const { regular: font, bold } = pdf;
  const { left, right, top } = pdf.paper;
  const muted = grey(0.4, 0.45);
  const cols = [
    { key: 'guest', title: 'Guest', x: left + 22, width: 150 },
    { key: 'booked', title: 'Booked', x: left + 180, width: 120 },
    { key: 'details', title: 'Extras, answers, notes', x: left + 308, width: 220 },
    { key: 'ticket', title: 'Ticket / order', x: left + 536, width: 90 },
    { key: 'due', title: sees.payment ? 'To pay' : '', x: left + 634, width: 64, right: true },
    { key: 'state', title: 'Check-in', x: left + 708, width: 62 },
  ] as const;
  if (manifests.length === 0) pdf.text(pdf.addPage(), 'No departures on this day.', left, pdf.paper.size[1] - 60, { size: 12 });
  for (const m of manifests) {
    let page: PDFPage = pdf.addPage();
    let y = top;
    const text = (p: PDFPage, str: string, x: number, yy: number, sz: number, f: PDFFont = font, color = INK, alignRight = false) => pdf.text(p, str, x, yy, { size: sz, font: f, color, align: alignRight ? 'right' : 'left' });
    const money = (n: number) => documentMoney(n, m.currency);
    const header = (continued: boolean) => {
      text(page, organisation, left, y, 9, font, muted);
      text(page, `Printed ${dateTimeText(new Date(), m.time_zone, format, 'en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}`, right, y, 9, font, muted, true);
      y -= 22;
      text(page, `${m.experience_title}${continued ? ' (continued)' : ''}`, left, y, 16, bold);
      y -= 18;
      const day = dateText(m.starts_at, 'en-GB', m.time_zone, true);
      text(page, `${day}, ${timeText(m.starts_at, m.time_zone, format)}–${timeText(m.ends_at, m.time_zone, format)} (${m.time_zone})${m.closed ? ' · closed for sale' : ''}`, left, y, 11);
      text(page, `${m.totals.seats} of ${m.capacity} seats · ${m.totals.bookings} bookings`, right, y, 11, bold, INK, true);
      if (m.guides.length > 0) {
        y -= 15;
        text(page, `Guide${m.guides.length === 1 ? '' : 's'}: ${guidesText(m)}`, left, y, 11);
      }
      y -= 24;
      for (const c of cols) text(page, c.title, 'right' in c ? c.x + c.width : c.x, y, 9, bold, muted, 'right' in c);
      y -= 6;
      pdf.rule(page, y, 0.6, muted);
      y -= 12;
    };
    header(false);
    if (m.bookings.length === 0) text(page, 'Nobody is booked on this departure.', left, y, 11, font, muted);
    for (const b of m.bookings) {
      const cells = {
        guest: [...pdf.wrap(`${b.customer.first_name} ${b.customer.last_name}`.trim(), cols[0].width, 10, bold), ...(b.customer.phone ? pdf.wrap(b.customer.phone, cols[0].width, 9) : []), ...(b.status === 'Created' ? ['(unconfirmed)'] : [])],
        booked: [...pdf.wrap(countsText(b.categories), cols[1].width, 10), `${b.seats} seat${b.seats === 1 ? '' : 's'}`],
        details: [countsText(b.extras), ...b.answers.map((a) => `${a.question}: ${a.answer}`), ...b.missing_answers.map((q) => `${q}: (missing)`), b.notes ? `Note: ${b.notes}` : ''].filter(Boolean).flatMap((t) => pdf.wrap(t, cols[2].width, 9)),
        ticket: [b.ticket_code, b.order_reference],
        due: b.balance_due === null ? [] : [b.balance_due > 0 ? money(b.balance_due) : '–'],
        state: [checkInText(b, m.time_zone, format)],
      };
      const height = Math.max(...Object.values(cells).map((c) => c.length)) * 12 + 8;
      if (y - height < 70) {
        page = pdf.addPage();
        y = top;
        header(true);
      }
      // A box to tick on paper, ticked when the guest has arrived.
      page.drawRectangle({ x: left, y: y - 3, width: 11, height: 11, borderColor: INK, borderWidth: 0.8, color: b.attendance === 'Arrived' ? grey(0.2, 0.22) : undefined });
      for (const c of cols) {
        const lines = cells[c.key];
        lines.forEach((line, i) => {
          const first = c.key === 'guest' && i === 0;
          text(page, line, 'right' in c ? c.x + c.width : c.x, y - i * 12, first ? 10 : 9, first ? bold : font, c.key === 'ticket' && i === 1 ? muted : INK, 'right' in c);
        });
      }
      y -= height;
      pdf.rule(page, y + 8, 0.3, grey(0.8, 0.82));
    }
    if (y < 110) {
      page = pdf.addPage();
      y = top;
      header(true);
    }
    y -= 10;
    const t = m.totals;
    text(page, `Total: ${t.seats} seats in ${t.bookings} bookings · ${t.arrived} arrived${t.no_show ? ` · ${t.no_show} no show` : ''}`, left, y, 11, bold);
    if (t.balance_due !== null) text(page, `To pay on site: ${money(t.balance_due)}`, right, y, 11, bold, INK, true);
    y -= 16;
    if (t.categories.length) text(page, `By category: ${countsText(t.categories)}`, left, y, 10);
    y -= 14;
    if (t.extras.length) text(page, `Extras: ${countsText(t.extras)}`, left, y, 10);
  }
  return pdf.save();
}
