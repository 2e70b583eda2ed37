import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { fold, icsCalendar } from './ical';

/** The one iCalendar writer, read back by a real parser (ical.js). */
describe('icsCalendar', () => {
  const text = icsCalendar({ prodId: '-//Tourdesk//Test//EN', name: 'Zürich, Bern; and more', refreshMinutes: 90 }, [
    {
      uid: 'departure-1@example.test',
      stamp: '2026-11-27T08:00:00.000Z',
      start: '2026-12-01T09:30:00.000Z',
      end: new Date('2026-12-01T11:30:00.000Z'),
      summary: 'Kayak; sunrise, coffee \\ cake',
      location: 'Quai 1, Luzern',
      description: `Line one\nLine two ${'ü'.repeat(80)}`,
      descriptionLanguage: 'de',
      url: 'https://demo.example.test/bookings/manifests/1',
      lastModified: '2026-11-27T08:00:00.000Z',
    },
  ]);

  it('parses back to the same values, in UTC, with the calendar’s name and refresh hints', () => {
    const calendar = new ICAL.Component(ICAL.parse(text));
    // NAME (RFC 7986) and X-WR-CALNAME are TEXT, escaped (ical.js knows neither's type, so leaves the escapes).
    expect(text).toContain('\r\nNAME:Zürich\\, Bern\\; and more\r\nX-WR-CALNAME:Zürich\\, Bern\\; and more\r\n');
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT90M');
    expect(calendar.getFirstPropertyValue('method')).toBeNull();
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(event.uid).toBe('departure-1@example.test');
    expect(event.summary).toBe('Kayak; sunrise, coffee \\ cake');
    expect(event.location).toBe('Quai 1, Luzern');
    expect(event.description).toBe(`Line one\nLine two ${'ü'.repeat(80)}`);
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-12-01T09:30:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-12-01T11:30:00.000Z');
    expect(event.component.getFirstProperty('description')!.getParameter('language')).toBe('de');
  });

  it('ends lines with CRLF and folds them at 75 octets, never inside a character', () => {
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(text).not.toContain('\uFFFD');
    expect(fold('short')).toBe('short');
    expect(fold('ü'.repeat(60)).split('\r\n').map((l) => l.replace(/^ /, '')).join('')).toBe('ü'.repeat(60));
  });
});
