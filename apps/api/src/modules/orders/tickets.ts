import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { formatMoney } from '@tourdesk/contracts';

/**
 * Tickets: one page per booking with its QR code — the booking's ticket code, the same code the
 * check-in scanner reads and the e-mail shows — and an .ics calendar file with an event per booking.
 * Drawn from what the booking stored when it was sold.
 */
export interface TicketBooking {
  id: string;
  offer_title: string;
  starts_at: string;
  ends_at?: string | null;
  time_zone: string;
  status: string;
  ticket_code: string;
  items: { kind: string; label: string; quantity: number }[];
  meeting_point: string | null;
}
export interface TicketOrder {
  reference: string;
  organisation: string;
  customer: { first_name: string; last_name: string };
  currency: string;
  total: number;
  paid: number;
  bookings: TicketBooking[];
}

/** The local date and time of an instant in a zone: "Tuesday, 1 December 2026, 09:30". */
export const localWhen = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/** The QR code's modules drawn as squares: sharp at any zoom, scanned from paper or a screen. */
function drawQr(page: PDFPage, text: string, x: number, y: number, size: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 4;
  const cell = size / (n + 2 * quiet);
  page.drawRectangle({ x, y, width: size, height: size, color: rgb(1, 1, 1) });
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (qr.modules.get(row, col)) {
        page.drawRectangle({ x: x + (col + quiet) * cell, y: y + size - (row + quiet + 1) * cell, width: cell, height: cell, color: rgb(0, 0, 0) });
      }
    }
  }
}

/** Text that the standard fonts can draw (WinAnsi): other characters become '?'. */
const drawable = (font: PDFFont, text: string) => [...text].map((ch) => (font.getCharacterSet().includes(ch.codePointAt(0)!) ? ch : '?')).join('');

export async function ticketsPdf(o: TicketOrder): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Tickets ${o.reference}`);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const open = o.bookings.filter((b) => b.status !== 'Canceled');
  for (const b of open) {
    const page = pdf.addPage([420, 595]);
    let y = 555;
    const line = (text: string, font = regular, size = 11, color = rgb(0.1, 0.1, 0.1)) => {
      page.drawText(drawable(font, text), { x: 36, y, size, font, color, maxWidth: 348 });
      y -= size + 8;
    };
    line(o.organisation, bold, 10, rgb(0.35, 0.35, 0.35));
    line(b.offer_title, bold, 18);
    line(localWhen(b.starts_at, b.time_zone), regular, 12);
    if (b.meeting_point) line(`Meeting point: ${b.meeting_point}`, regular, 10);
    y -= 4;
    line(`${o.customer.first_name} ${o.customer.last_name}`.trim(), bold, 12);
    for (const i of b.items) line(`${i.quantity} × ${i.label}`, regular, 11);
    drawQr(page, b.ticket_code, 110, 130, 200);
    page.drawText(b.ticket_code, { x: 210 - bold.widthOfTextAtSize(b.ticket_code, 14) / 2, y: 105, size: 14, font: bold });
    page.drawText(drawable(regular, `Order ${o.reference}`), { x: 36, y: 60, size: 9, font: regular, color: rgb(0.4, 0.4, 0.4) });
    const due = o.total - o.paid;
    if (due > 0) page.drawText(`To pay on site: ${formatMoney(due, o.currency)}`, { x: 36, y: 46, size: 9, font: regular, color: rgb(0.4, 0.4, 0.4) });
  }
  if (open.length === 0) {
    const page = pdf.addPage([420, 595]);
    page.drawText('This order has no tickets: every booking is cancelled.', { x: 36, y: 540, size: 12, font: regular });
  }
  return pdf.save();
}

const icsDate = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const icsText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** An iCalendar file (RFC 5545) with one event per open booking; times in UTC. */
export function bookingsIcs(o: TicketOrder, domain: string, durationMinutes: (b: TicketBooking) => number | null): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Tourdesk//Bookings//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'];
  for (const b of o.bookings.filter((x) => x.status !== 'Canceled')) {
    const minutes = durationMinutes(b) ?? 60;
    const end = b.ends_at ?? new Date(new Date(b.starts_at).getTime() + minutes * 60_000).toISOString();
    lines.push(
      'BEGIN:VEVENT',
      `UID:${b.id}@${domain}`,
      `DTSTAMP:${icsDate(new Date().toISOString())}`,
      `DTSTART:${icsDate(b.starts_at)}`,
      `DTEND:${icsDate(end)}`,
      `SUMMARY:${icsText(b.offer_title)}`,
      ...(b.meeting_point ? [`LOCATION:${icsText(b.meeting_point)}`] : []),
      `DESCRIPTION:${icsText(`${o.organisation} — order ${o.reference}, ticket ${b.ticket_code}`)}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  // Lines end with CRLF; long lines are folded at 75 octets.
  return lines.map(fold).join('\r\n') + '\r\n';
}

function fold(line: string) {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + (start === 0 ? 75 : 74), bytes.length);
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--; // never split a character
    parts.push((start === 0 ? '' : ' ') + bytes.subarray(start, end).toString('utf8'));
    start = end;
  }
  return parts.join('\r\n');
}
