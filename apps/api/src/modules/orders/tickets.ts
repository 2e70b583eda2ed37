import type { TTicketField, TTimeFormat, TWebOrder } from '@tourdesk/contracts';
import type { Language } from '@tourdesk/contracts/i18n';
import type { TenantCtx } from '../../lib/crud';
import { documentMoney, localWhen, translateFor } from '../../lib/customer-text';
import { notFound } from '../../lib/errors';
import { icsCalendar } from '../../lib/ical';
import { createPdf, drawQr, grey, INK, PAPER } from '../../lib/pdf';
import { sellingLanguages } from '../organization/queries';
import * as q from './queries/tickets';
import { wordsIn } from './words-in';

/**
 * Tickets: one page per booking with its QR code — the booking's ticket code, the same code the
 * check-in scanner reads and the e-mail shows — and an .ics calendar file with an event per booking.
 * Drawn from what the booking stored when it was sold, in the order's language (translateFor() in
 * lib/customer-text.ts: its texts, dates, times and money).
 */
export interface TicketBooking {
  id: string;
  offer_title: string;
  starts_at: string;
  ends_at?: string | null;
  time_zone: string;
  status: string;
  ticket_code: string;
  items: { kind: string; label: string; quantity: number; unit_price?: number; total?: number }[];
  meeting_point: string | null;
  /** The line's gross total (the confirmation shows it; a ticket does not). */
  total?: number;
}
export interface TicketOrder {
  reference: string;
  /** The customer's language (the order's): every text, date and amount of its tickets is in it. */
  language: Language;
  organisation: string;
  /** What the organisation's tickets show, and how its times read (Settings → Product configuration). */
  fields: TTicketField[];
  time_format: TTimeFormat;
  customer: { first_name: string; last_name: string };
  currency: string;
  total: number;
  paid: number;
  bookings: TicketBooking[];
}

/** What a ticket needs of an order, and what sending it needs besides (whom, the store, each booking's duration). */
export interface TicketSource {
  tickets: TicketOrder;
  email: string;
  storeId: string | null;
  orderId: string;
  durations: Map<string, number | null>;
}

/**
 * An order's tickets as stored: the one source of every ticket PDF (the confirmation e-mail, the
 * customer's booking page, staff printing and re-sending), so each shows the same codes and
 * figures. Three queries: the order with its customer and organisation, its bookings, their
 * meeting points. Times are shown in the organisation's zone, where the offers' slots are local.
 */
export async function ticketSource(ctx: TenantCtx, orderId: string): Promise<TicketSource> {
  const o = await q.orderForTickets(ctx, orderId);
  if (!o) throw notFound('No order with this id.');
  const language = translateFor(o.o.language).language;
  // The offers' titles, pricing categories and extras in the order's language (wordsIn(), the rule a sale writes them by too).
  const sold = await q.ticketBookingRows(ctx, orderId);
  const words = await wordsIn(ctx, language, (await sellingLanguages(ctx.tx, { id: ctx.accountId }))[0]!, sold.flatMap((r) => r.b.items));
  const rows = sold.map((r) => ({ ...r, title: words.title(r), b: { ...r.b, items: r.b.items.map((i) => ({ ...i, label: words.label(i) })) } }));
  const bookings = await bookingsAsShown(ctx, rows, o.zone);
  return {
    orderId,
    email: o.c.email,
    storeId: o.o.store_id,
    durations: new Map(rows.map((r) => [r.b.id, r.minutes])),
    tickets: {
      reference: o.o.reference,
      language,
      organisation: o.organisation,
      fields: o.fields as TTicketField[],
      time_format: o.timeFormat as TTimeFormat,
      customer: { first_name: o.c.first_name, last_name: o.c.last_name },
      currency: o.o.currency,
      total: o.o.total,
      paid: o.o.paid,
      bookings,
    },
  };
}

/**
 * An order's bookings as its customer sees them, on the tickets and on the booking page
 * (presentWebOrder()): each with its offer's title, its start in `zone`, its items and total as
 * sold and the address of its offer's first meeting point (one query for all of them).
 */
export async function bookingsAsShown(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, rows: Pick<Awaited<ReturnType<typeof q.ticketBookingRows>>[number], 'b' | 'title' | 'starts' | 'points'>[], zone: string): Promise<TWebOrder['bookings']> {
  const pointIds = [...new Set(rows.flatMap((r) => r.points.slice(0, 1)))];
  const points = new Map(pointIds.length ? (await q.meetingPointsByIds(ctx, pointIds)).map((m) => [m.id, m]) : []);
  return rows.map((r) => {
    const point = r.points[0] ? points.get(r.points[0]) : undefined;
    return {
      id: r.b.id,
      offer_title: r.title,
      starts_at: r.starts.toISOString(),
      time_zone: zone,
      status: r.b.status,
      ticket_code: r.b.ticket_code,
      items: r.b.items.map((i) => ({ kind: i.kind, label: i.label, quantity: i.quantity, unit_price: i.unit_price, total: i.total })),
      total: r.b.total,
      meeting_point: point ? [point.name, point.address].filter(Boolean).join(', ') : null,
    };
  });
}

/**
 * The tickets as A5 PDF pages, one per open booking: the organisation, the offer and its time, the
 * fields the organisation shows, the QR code of the ticket code; what is left to pay is written as
 * every document writes money ("EUR 12.50": documentMoney()).
 */
export async function ticketsPdf(o: TicketOrder): Promise<Uint8Array> {
  const t = translateFor(o.language);
  const pdf = await createPdf(PAPER.A5, { title: t('ticket.documentTitle', { reference: o.reference }) });
  const { regular, bold } = pdf;
  const { left, right, top } = pdf.paper;
  const centre = pdf.paper.size[0] / 2;
  const open = o.bookings.filter((b) => b.status !== 'Canceled');
  for (const b of open) {
    const page = pdf.addPage();
    let y = top;
    const line = (text: string, font = regular, size = 11, color = grey(0.1)) => {
      pdf.text(page, text, left, y, { size, font, color, maxWidth: right - left });
      y -= size + 8;
    };
    line(o.organisation, bold, 10, grey(0.35));
    line(b.offer_title, bold, 18);
    const shows = new Set(o.fields);
    line(localWhen(t, b.starts_at, b.time_zone, o.time_format), regular, 12);
    if (b.meeting_point && shows.has('meeting_point')) line(t('ticket.meetingPoint', { place: b.meeting_point }), regular, 10);
    y -= 4;
    if (shows.has('customer_name')) line(`${o.customer.first_name} ${o.customer.last_name}`.trim(), bold, 12);
    if (shows.has('items')) for (const i of b.items) line(`${i.quantity} × ${i.label}`, regular, 11);
    drawQr(page, b.ticket_code, centre - 100, 130, 200);
    pdf.text(page, b.ticket_code, centre, 105, { size: 14, font: bold, color: grey(0), align: 'center' });
    if (shows.has('order_reference')) pdf.text(page, t('ticket.order', { reference: o.reference }), left, 60, { size: 9, color: grey(0.4) });
    const due = o.total - o.paid;
    if (due > 0 && shows.has('balance_due')) pdf.text(page, t('ticket.due', { amount: documentMoney(t, due, o.currency) }), left, 46, { size: 9, color: grey(0.4) });
  }
  if (open.length === 0) pdf.text(pdf.addPage(), t('ticket.none'), left, 540, { size: 12, color: grey(0) });
  return pdf.save();
}

/**
 * The order confirmation as an A4 PDF: the organisation, the order and its customer, each booking
 * (cancelled ones marked) with its items and prices and its ticket code, the total, what was paid
 * and what is left to pay. Drawn from the same source as the tickets.
 */
export async function confirmationPdf(o: TicketOrder): Promise<Uint8Array> {
  const t = translateFor(o.language);
  const pdf = await createPdf(PAPER.A4, { title: t('confirmation.documentTitle', { reference: o.reference }), author: o.organisation });
  const { regular, bold } = pdf;
  const { left, right, top } = pdf.paper;
  let page = pdf.addPage();
  let y = top;
  const text = (str: string, x: number, size = 10, font = regular, align: 'left' | 'right' = 'left', color = INK) => pdf.text(page, str, x, y, { size, font, align, color });
  const room = (needed: number) => {
    if (y - needed > 60) return;
    page = pdf.addPage();
    y = top;
  };
  const money = (n: number) => documentMoney(t, n, o.currency);
  text(o.organisation, left, 10, bold, 'left', grey(0.35));
  y -= 26;
  text(t('confirmation.title'), left, 18, bold);
  text(o.reference, right, 18, bold, 'right');
  y -= 24;
  text(`${o.customer.first_name} ${o.customer.last_name}`.trim(), left, 12, bold);
  y -= 30;
  for (const b of o.bookings) {
    room(40 + b.items.length * 14);
    const cancelled = b.status === 'Canceled';
    text(cancelled ? t('confirmation.cancelled', { title: b.offer_title }) : b.offer_title, left, 12, bold);
    if (b.total !== undefined) text(money(b.total), right, 12, bold, 'right');
    y -= 16;
    text(localWhen(t, b.starts_at, b.time_zone, o.time_format), left, 10);
    text(t('confirmation.ticket', { code: b.ticket_code }), right, 10, regular, 'right', grey(0.4));
    y -= 14;
    if (b.meeting_point) {
      text(t('ticket.meetingPoint', { place: b.meeting_point }), left, 9, regular, 'left', grey(0.4));
      y -= 13;
    }
    for (const i of b.items) {
      text(`${i.quantity} x ${i.label}`, left + 12, 10);
      if (i.total !== undefined) text(money(i.total), right, 10, regular, 'right');
      y -= 14;
    }
    y -= 10;
  }
  room(80);
  pdf.rule(page, y + 8);
  y -= 8;
  text(t('confirmation.total'), left, 11, bold);
  text(money(o.total), right, 11, bold, 'right');
  y -= 16;
  text(t('confirmation.paid'), left, 10);
  text(money(o.paid), right, 10, regular, 'right');
  y -= 16;
  const due = o.total - o.paid;
  text(t(due > 0 ? 'confirmation.toPayOnSite' : due < 0 ? 'confirmation.toRefund' : 'confirmation.leftToPay'), left, 11, bold);
  text(money(Math.abs(due)), right, 11, bold, 'right');
  return pdf.save();
}

/**
 * An iCalendar file (RFC 5545, written by lib/ical.ts) with one event per open booking; times in
 * UTC. Its events speak the order's language: SUMMARY is the offer's title as the order shows it (in
 * the customer's language when the offer has it, else its fallback, so no LANGUAGE parameter),
 * DESCRIPTION the order's words with LANGUAGE.
 */
export function bookingsIcs(o: TicketOrder, domain: string, durationMinutes: (b: TicketBooking) => number | null): string {
  const t = translateFor(o.language);
  const now = new Date();
  return icsCalendar(
    { prodId: '-//Tourdesk//Bookings//EN', method: 'PUBLISH' },
    o.bookings
      .filter((x) => x.status !== 'Canceled')
      .map((b) => ({
        uid: `${b.id}@${domain}`,
        stamp: now,
        start: b.starts_at,
        end: b.ends_at ?? new Date(new Date(b.starts_at).getTime() + (durationMinutes(b) ?? 60) * 60_000).toISOString(),
        summary: b.offer_title,
        location: b.meeting_point,
        description: t('ics.description', { organisation: o.organisation, reference: o.reference, code: b.ticket_code }),
        descriptionLanguage: t.language,
      })),
  );
}
