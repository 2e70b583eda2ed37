import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR_FEED_DAYS_AHEAD, ZCalendarFeed, type TCalendarFeed } from '@tourdesk/contracts';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { tenantHost, type Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Team members' calendar feeds: a member's private address answers an iCalendar feed (parsed here
 * by ical.js) of the departures with bookings, with times, seats and the manifest's link; a closed
 * departure, or one whose bookings are all cancelled, leaves it; a reset address, a deactivated
 * member or one without View experiences answers 404; another organisation's host or token never
 * shows this organisation's departures.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
let guide: { member: Browser; id: string };
let clerk: { member: Browser; id: string };
let tour: { id: string; category: string };
let quiet: { id: string; category: string };
const ZONE = 'Europe/Zurich';
const SUB = 'feeds';
const day = (n: number) => addDays(todayIn(ZONE), n);
const slots: Record<'soon' | 'later' | 'closing' | 'emptied', string> = {} as never;
const starts: Record<string, { starts_at: string; ends_at: string; local_time: string }> = {};
let emptiedOrder = '';
/** Every log line of the file's app (debug level), and every feed address it made. */
const lines: string[] = [];
const tokens = new Set<string>();

async function slotOn(experience: string, date: string) {
  const res = await owner.get(`/api/bookings/check-availability/?experience=${experience}&date=${date}`);
  expect(res.statusCode, res.body).toBe(200);
  const slot = res.json()[0];
  starts[slot.id] = slot;
  return slot.id as string;
}
async function sell(slot: string, seats: number) {
  const res = await owner.post('/api/orders/', { customer: { email: 'guest@example.com', first_name: 'Gina', last_name: 'Guest' }, lines: [{ slot, quantities: { [tour.category]: seats } }] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; bookings: { id: string }[] };
}
async function myFeed(browser: Browser, method: 'GET' | 'POST' = 'GET') {
  const res = method === 'GET' ? await browser.get('/api/users/me/calendar-feed/') : await browser.post('/api/users/me/calendar-feed/');
  expect(res.statusCode, res.body).toBe(method === 'GET' ? 200 : 201);
  const feed = ZCalendarFeed.parse(res.json());
  if (feed.url) tokens.add(new URL(feed.url).pathname.split('/')[3]!);
  return feed;
}
/** Fetches a feed's address as a calendar app does: no cookie, the address's own host. */
async function fetchFeed(url: string, headers: Record<string, string> = {}) {
  const u = new URL(url);
  return t.app.inject({ method: 'GET', url: u.pathname, headers: { host: u.host, ...headers } });
}
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    calendar,
    events: calendar.getAllSubcomponents('vevent').map((v) => {
      const e = new ICAL.Event(v);
      return { uid: e.uid, summary: e.summary, location: e.location, description: e.description, start: e.startDate.toJSDate().toISOString(), end: e.endDate.toJSDate().toISOString(), url: v.getFirstPropertyValue('url') as string | null };
    }),
  };
}

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, LOG_LEVEL: 'debug' }, logStream: { write: (line) => void lines.push(line) } });
  owner = await createOrganisation(t.app, sink, { subdomain: SUB, currency: 'CHF', time_zone: ZONE });
  other = await createOrganisation(t.app, sink, { subdomain: 'otherfeeds', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Harbour walk; at dawn, with coffee');
  quiet = await sellableExperience(owner, 'Nobody booked this');
  const place = await owner.post('/api/meeting-points/', { name: 'Old harbour', address: 'Quai 1, Luzern' });
  expect(place.statusCode, place.body).toBe(201);
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { meeting_points: [place.json().id], status: 'Active' })).statusCode).toBe(200);
  expect((await owner.patch(`/api/experiences/${quiet.id}/`, { status: 'Active' })).statusCode).toBe(200);
  slots.soon = await slotOn(tour.id, day(2));
  slots.later = await slotOn(tour.id, day(5));
  slots.closing = await slotOn(tour.id, day(6));
  slots.emptied = await slotOn(tour.id, day(7));
  await sell(slots.soon, 3);
  await sell(slots.soon, 2);
  await sell(slots.later, 1);
  await sell(slots.closing, 1);
  emptiedOrder = (await sell(slots.emptied, 2)).bookings[0]!.id;
  // The other organisation has a departure with bookings of its own.
  const theirs = await sellableExperience(other, 'Their secret tour');
  expect((await other.patch(`/api/experiences/${theirs.id}/`, { status: 'Active' })).statusCode).toBe(200);
  const theirSlot = (await other.get(`/api/bookings/check-availability/?experience=${theirs.id}&date=${day(2)}`)).json()[0].id;
  expect((await other.post('/api/orders/', { customer: { email: 'x@example.com', first_name: 'X', last_name: 'Y' }, lines: [{ slot: theirSlot, quantities: { [theirs.category]: 1 } }] })).statusCode).toBe(201);

  const guideRole = (await owner.post('/api/roles/', { name: 'Guide', permission_sets: ['view_experiences'] })).json().id;
  const clerkRole = (await owner.post('/api/roles/', { name: 'Stock clerk', permission_sets: ['manage_inventory'] })).json().id;
  guide = await inviteMember(t.app, sink, owner, SUB, 'guide@example.com', guideRole);
  clerk = await inviteMember(t.app, sink, owner, SUB, 'clerk@example.com', clerkRole);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('a member’s own feed address', () => {
  it('is none until made; made, it is an https-or-http address on the organisation’s host, with its webcal:// twin', async () => {
    const none = await myFeed(guide.member);
    expect(none).toMatchObject({ url: null, webcal_url: null, days_back: 30, days_ahead: CALENDAR_FEED_DAYS_AHEAD });
    const made = await myFeed(guide.member, 'POST');
    const url = new URL(made.url!);
    expect(url.hostname).toBe(tenantHost(SUB));
    expect(url.pathname).toMatch(/^\/api\/calendar-feeds\/[0-9a-f-]{36}\.[0-9a-f]{16}\.[\w-]{43}\/departures\.ics$/);
    expect(made.webcal_url).toBe(made.url!.replace(/^http:/, 'webcal:'));
    // Read again, the same address (the member can copy it again later).
    expect((await myFeed(guide.member)).url).toBe(made.url);
  });

  it('is refused to a role that may not check in (no View experiences)', async () => {
    expect((await clerk.member.get('/api/users/me/calendar-feed/')).statusCode).toBe(403);
    expect((await clerk.member.post('/api/users/me/calendar-feed/')).statusCode).toBe(403);
  });
});

describe('the feed', () => {
  let feed: TCalendarFeed;
  let text = '';
  beforeAll(async () => {
    feed = await myFeed(owner, 'POST');
  });

  it('answers text/calendar that parses, with an ETag, no cookie needed', async () => {
    const res = await fetchFeed(feed.url!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toMatch(/^W\/"[\w-]{27}"$/);
    text = res.body;
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const { calendar } = parse(text);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toMatch(/: departures$/);
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT1H');
    // Unchanged, it is a 304.
    expect((await fetchFeed(feed.url!, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
    const strong = (res.headers.etag as string).replace(/^W\//, '');
    expect((await fetchFeed(feed.url!, { 'if-none-match': `"other", ${strong}` })).statusCode).toBe(304);
    expect((await fetchFeed(feed.url!, { 'if-none-match': 'W/"other"' })).statusCode).toBe(200);
  });

  it('lists the departures with bookings, each once, by a stable UID, in UTC, with place, seats and the manifest’s link', async () => {
    const { events } = parse(text);
    const origin = new URL(feed.url!).origin;
    expect(events.map((e) => e.uid)).toEqual([slots.soon, slots.later, slots.closing, slots.emptied].map((id) => `departure-${id}@localhost`));
    const soon = events[0]!;
    expect(soon.summary).toBe('Harbour walk; at dawn, with coffee');
    expect(soon.location).toBe('Old harbour, Quai 1, Luzern');
    // 10:00 in Zurich, as UTC instants, to the slot's own end.
    const slot = starts[slots.soon]!;
    expect(slot.local_time).toBe('10:00');
    expect(soon.start).toBe(new Date(slot.starts_at).toISOString());
    expect(soon.end).toBe(new Date(slot.ends_at).toISOString());
    expect(soon.end > soon.start).toBe(true);
    expect(soon.description).toBe(`Seats booked: 5 of 8\nManifest: ${origin}/bookings/manifests/${slots.soon}`);
    expect(soon.url).toBe(`${origin}/bookings/manifests/${slots.soon}`);
    // The quiet offer has departures, but nobody to guide: none is in the feed.
    expect(events.some((e) => e.summary === 'Nobody booked this')).toBe(false);
    // Times are UTC (…Z), never floating.
    expect(text).toMatch(/\r\nDTSTART:\d{8}T\d{6}Z\r\n/);
  });

  it('speaks the member’s back-office language', async () => {
    expect((await owner.patch('/api/users/me/', { language: 'de' })).statusCode).toBe(200);
    const { events, calendar } = parse((await fetchFeed(feed.url!)).body);
    expect(events[0]!.description).toMatch(/^Gebuchte Plätze: 5 von 8\n/);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toMatch(/: Abfahrten$/);
    expect((await owner.patch('/api/users/me/', { language: null })).statusCode).toBe(200);
  });

  it('loses a closed departure and one whose bookings are all cancelled; the others keep their UIDs', async () => {
    expect((await owner.patch(`/api/start-times/${slots.closing}/`, { closed: true })).statusCode).toBe(200);
    expect((await owner.post(`/api/bookings/${emptiedOrder}/cancel/`)).statusCode).toBe(200);
    const res = await fetchFeed(feed.url!);
    expect(res.headers.etag).not.toBe(undefined);
    const { events } = parse(res.body);
    expect(events.map((e) => e.uid)).toEqual([slots.soon, slots.later].map((id) => `departure-${id}@localhost`));
  });

  it('shows a guide (View experiences) every departure too, and follows what is booked', async () => {
    const guideFeed = await myFeed(guide.member);
    const { events } = parse((await fetchFeed(guideFeed.url!)).body);
    expect(events.map((e) => e.uid)).toEqual([slots.soon, slots.later].map((id) => `departure-${id}@localhost`));
  });
});

describe('what a feed never shows', () => {
  it('another organisation’s departures: its own feed has only its own, and a token on another host is not found', async () => {
    const theirs = await myFeed(other, 'POST');
    const { events } = parse((await fetchFeed(theirs.url!)).body);
    expect(events.map((e) => e.summary)).toEqual(['Their secret tour']);
    const mine = await myFeed(owner);
    const path = new URL(mine.url!).pathname;
    expect((await t.app.inject({ method: 'GET', url: path, headers: { host: tenantHost('otherfeeds') } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: path, headers: { host: 'localhost' } })).statusCode).toBe(404);
  });

  it('anything for a forged, malformed or unknown token', async () => {
    const mine = new URL((await myFeed(owner)).url!);
    const [id, kid, mac] = mine.pathname.split('/')[3]!.split('.');
    const at = (token: string) => t.app.inject({ method: 'GET', url: `/api/calendar-feeds/${token}/departures.ics`, headers: { host: mine.host } });
    const forged = `${id}.${kid}.${mac!.slice(0, -2)}${mac!.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const token of [forged, `${crypto.randomUUID()}.${kid}.${mac}`, `${id}.0000000000000000.${mac}`, 'nonsense', `${id}.${kid}`]) {
      const res = await at(token);
      expect(res.statusCode, token).toBe(404);
      expect(res.json().errors[0].code).toBe('not_found');
    }
  });
});

describe('when a feed stops', () => {
  it('a reset address answers 404 and the new one works', async () => {
    const before = await myFeed(owner);
    const after = await myFeed(owner, 'POST');
    expect(after.url).not.toBe(before.url);
    expect((await fetchFeed(before.url!)).statusCode).toBe(404);
    expect((await fetchFeed(after.url!)).statusCode).toBe(200);
  });

  it('turned off, it answers 404 and the member has none', async () => {
    const before = await myFeed(guide.member, 'POST');
    expect((await guide.member.delete('/api/users/me/calendar-feed/')).statusCode).toBe(204);
    expect((await fetchFeed(before.url!)).statusCode).toBe(404);
    expect((await myFeed(guide.member)).url).toBeNull();
    expect((await guide.member.delete('/api/users/me/calendar-feed/')).statusCode).toBe(404);
  });

  it('an Owner (Manage users) turns a member’s feed off; others may not', async () => {
    const feed = await myFeed(guide.member, 'POST');
    expect((await clerk.member.delete(`/api/team-members/${guide.id}/calendar-feed/`)).statusCode).toBe(403);
    expect((await other.delete(`/api/team-members/${guide.id}/calendar-feed/`)).statusCode).toBe(404);
    expect((await fetchFeed(feed.url!)).statusCode).toBe(200);
    expect((await owner.delete(`/api/team-members/${guide.id}/calendar-feed/`)).statusCode).toBe(204);
    expect((await fetchFeed(feed.url!)).statusCode).toBe(404);
    expect((await owner.delete(`/api/team-members/${guide.id}/calendar-feed/`)).statusCode).toBe(404);
  });

  it('a member who loses View experiences, or is deactivated, has a feed no more; given back, the same address works again', async () => {
    const feed = await myFeed(guide.member, 'POST');
    expect((await fetchFeed(feed.url!)).statusCode).toBe(200);
    const nothing = (await owner.post('/api/roles/', { name: 'Nothing', permission_sets: [] })).json().id;
    const guideRole = (await owner.get(`/api/team-members/${guide.id}/`)).json().role.id;
    expect((await owner.patch(`/api/team-members/${guide.id}/`, { role: nothing })).statusCode).toBe(200);
    expect((await fetchFeed(feed.url!)).statusCode).toBe(404);
    expect((await owner.patch(`/api/team-members/${guide.id}/`, { role: guideRole })).statusCode).toBe(200);
    expect((await fetchFeed(feed.url!)).statusCode).toBe(200);
    expect((await owner.patch(`/api/team-members/${guide.id}/`, { is_active: false })).statusCode).toBe(200);
    expect((await fetchFeed(feed.url!)).statusCode).toBe(404);
  });
});

describe('logs', () => {
  it('never carry a feed’s token, though its requests are logged', () => {
    const all = lines.join('\n');
    expect(all).toContain('/api/calendar-feeds/');
    expect(tokens.size).toBeGreaterThan(3);
    for (const token of tokens) {
      const [id, , mac] = token.split('.');
      expect(all).not.toContain(id);
      expect(all).not.toContain(mac);
    }
  });
});
