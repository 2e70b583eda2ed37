/**
 * The one iCalendar (RFC 5545) writer: the .ics file of a customer's bookings
 * (orders/tickets.ts: bookingsIcs()) and the team's calendar feeds (modules/calendar-feeds). Times
 * in UTC (`…Z`), text escaped, lines ending with CRLF and folded at 75 octets without splitting a
 * character. Small enough to keep by hand: the two callers need VCALENDAR and VEVENT only.
 */
export interface IcsEvent {
  /** Globally unique and stable: a calendar updates the event of the same UID instead of adding one. */
  uid: string;
  /** When the event's information last changed (RFC 5545's DTSTAMP of a calendar that is not a scheduling message). */
  stamp: string | Date;
  start: string | Date;
  end: string | Date;
  summary: string;
  location?: string | null;
  description?: string | null;
  /** The DESCRIPTION's language (a LANGUAGE parameter). */
  descriptionLanguage?: string;
  url?: string | null;
  lastModified?: string | Date | null;
}

export interface IcsCalendar {
  prodId: string;
  /** METHOD:PUBLISH for a file sent once (an e-mail's attachment); none for a subscribed feed. */
  method?: 'PUBLISH';
  /** The calendar's name as a subscribing app shows it (X-WR-CALNAME, NAME). */
  name?: string;
  /** How often a subscribing app should fetch again (REFRESH-INTERVAL of RFC 7986 and X-PUBLISHED-TTL), in minutes. */
  refreshMinutes?: number;
}

export const icsDate = (value: string | Date) => new Date(value).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
export const icsText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** The calendar as text, ready to send as `text/calendar; charset=utf-8`. */
export function icsCalendar(calendar: IcsCalendar, events: readonly IcsEvent[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${calendar.prodId}`, 'CALSCALE:GREGORIAN'];
  if (calendar.method) lines.push(`METHOD:${calendar.method}`);
  if (calendar.name) lines.push(`NAME:${icsText(calendar.name)}`, `X-WR-CALNAME:${icsText(calendar.name)}`);
  if (calendar.refreshMinutes) {
    const m = calendar.refreshMinutes;
    const duration = m % 60 === 0 ? `PT${m / 60}H` : `PT${m}M`;
    lines.push(`REFRESH-INTERVAL;VALUE=DURATION:${duration}`, `X-PUBLISHED-TTL:${duration}`);
  }
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${icsDate(e.stamp)}`,
      `DTSTART:${icsDate(e.start)}`,
      `DTEND:${icsDate(e.end)}`,
      `SUMMARY:${icsText(e.summary)}`,
      ...(e.location ? [`LOCATION:${icsText(e.location)}`] : []),
      ...(e.description ? [`DESCRIPTION${e.descriptionLanguage ? `;LANGUAGE=${e.descriptionLanguage}` : ''}:${icsText(e.description)}`] : []),
      ...(e.url ? [`URL:${e.url}`] : []),
      ...(e.lastModified ? [`LAST-MODIFIED:${icsDate(e.lastModified)}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

/** A content line folded at 75 octets (RFC 5545, 3.1), never inside a character. */
export function fold(line: string) {
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
