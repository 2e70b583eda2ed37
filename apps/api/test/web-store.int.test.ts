import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebCart, ZWebDay, ZWebMonth, ZWebOffer, ZWebOrder, ZWebStore } from '@tourdesk/contracts';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * The public web store: a customer without an account finds an offer, holds seats in a guest cart
 * (proven by a secret, never a cookie), books, gets the confirmation with tickets, sees and cancels
 * their booking; the store counts visits and the availability answers are cacheable.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guest: Browser;
let tour: { id: string; category: string };
let hidden: { id: string };
let storeId: string;
const ZONE = 'Europe/Zurich';
const day = () => addDays(todayIn(ZONE), 5);

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'lakeshop', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Lake tour');
  hidden = await sellableExperience(owner, 'Private tour');
  for (const e of [tour, hidden]) expect((await owner.patch(`/api/experiences/${e.id}/`, { status: 'Active' })).statusCode).toBe(200);
  // A child price below the adult's, and a free infant: the "from" price stays the adult's.
  const child = (await owner.post('/api/pricing-categories/', { type: 'Child', label: 'Child' })).json().id;
  const infant = (await owner.post('/api/pricing-categories/', { type: 'Infant', label: 'Infant', occupies_seat: false })).json().id;
  await owner.post('/api/pricing-rates/', { experience: tour.id, pricing_category: child, retail_price: 2500 });
  await owner.post('/api/pricing-rates/', { experience: tour.id, pricing_category: infant, retail_price: 0 });
  const policy = (await owner.post('/api/cancellation-policies/', { name: 'Flexible', rules: [{ hours_before: 24, refund_percent: 100 }, { hours_before: 0, refund_percent: 0 }] })).json().id;
  await owner.patch(`/api/experiences/${tour.id}/`, { cancellation_policy: policy });
  const made = await owner.post('/api/stores/', { name: 'Lake shop', slug: 'lake', intro: 'Paddle with us.', notify_new_bookings: true, notify_email: 'office@lakeshop.test' });
  storeId = made.json().id;
  await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [tour.id] });
  guest = new Browser(t.app, 'lakeshop.localhost');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const base = '/api/web-stores/lake';

describe('the web store, for a customer without an account', () => {
  it('shows the store and its offers on the organisation’s host only, with the adult "from" price', async () => {
    const s = await guest.get(`${base}/`);
    expect(s.statusCode, s.body).toBe(200);
    expect(ZWebStore.parse(s.json())).toMatchObject({ name: 'Lake shop', currency: 'CHF', intro: 'Paddle with us.', payment_options: ['pay_on_site'] });
    expect((await new Browser(t.app, 'localhost').get(`${base}/`)).statusCode).toBe(404);
    expect((await guest.get('/api/web-stores/nowhere/')).statusCode).toBe(404);
    const list = (await guest.get(`${base}/experiences/`)).json();
    expect(list.results.map((o: { id: string }) => o.id)).toEqual([tour.id]);
    expect(list.results[0]).toMatchObject({ from_price: 4900, currency: 'CHF', time_zone: ZONE });
    const offer = ZWebOffer.parse((await guest.get(`${base}/experiences/${tour.id}/`)).json());
    expect(offer.categories.map((c) => c.type)).toEqual(['Adult', 'Child', 'Infant']);
    expect(offer.cancellation_policy?.name).toBe('Flexible');
    // An offer of the organisation that this store does not sell is not found here.
    expect((await guest.get(`${base}/experiences/${hidden.id}/`)).statusCode).toBe(404);
  });

  it('answers a month and a day of times, cacheable with an ETag', async () => {
    const month = await guest.get(`${base}/experiences/${tour.id}/month/?month=${day().slice(0, 7)}`);
    expect(month.statusCode).toBe(200);
    expect(month.headers['cache-control']).toContain('max-age=2');
    const days = ZWebMonth.parse(month.json()).days;
    expect(days.find((d) => d.date === day())).toMatchObject({ seats_left: 8, times: 1 });
    const again = await guest.get(`${base}/experiences/${tour.id}/month/?month=${day().slice(0, 7)}`, { 'if-none-match': String(month.headers.etag) });
    expect(again.statusCode).toBe(304);
    const d = ZWebDay.parse((await guest.get(`${base}/experiences/${tour.id}/day/?date=${day()}`)).json());
    expect(d.slots).toHaveLength(1);
    expect(d.slots[0]).toMatchObject({ local_time: '10:00', seats_left: 8 });
    expect(d.slots[0]!.prices.map((p) => p.price).sort((a, b) => a - b)).toEqual([0, 2500, 4900]);
  });

  it('holds seats in a guest cart proven by its secret, never a cookie, and books exactly what it shows', async () => {
    const created = await guest.post(`${base}/carts/`);
    expect(created.statusCode).toBe(201);
    expect(created.headers['set-cookie']).toBeUndefined();
    const { id: cart, token } = created.json();
    const slotId = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${day()}`)).json().slots[0].id;
    const hold = (headers: Record<string, string>) => guest.post(`${base}/carts/${cart}/lines/`, { slot: slotId, quantities: { [tour.category]: 2 } }, headers);
    expect((await hold({ 'x-cart-token': 'not-the-secret' })).statusCode).toBe(404);
    const held = await hold({ 'x-cart-token': token });
    expect(held.statusCode, held.body).toBe(201);
    const c = ZWebCart.parse(held.json());
    expect(c).toMatchObject({ total: 9800, currency: 'CHF' });
    expect(c.lines[0]).toMatchObject({ offer: tour.id, seats: 2 });
    // Right after a hold, the availability counts it (the cache holds an answer two seconds at most).
    expect((await guest.get(`${base}/experiences/${tour.id}/day/?date=${day()}`)).json().slots[0].seats_left).toBe(6);

    // The terms must be accepted.
    const order = { cart, lines: [c.lines[0]!.id], customer: { email: 'Mia.Guest@Example.com', first_name: 'Mia', last_name: 'Guest' }, accept_terms: true, payment_option: 'pay_on_site' };
    const noTerms = await guest.post(`${base}/orders/`, { ...order, accept_terms: false }, { 'x-cart-token': token });
    expect(noTerms.statusCode).toBe(400);
    expect((await guest.post(`${base}/orders/`, order, { 'x-cart-token': 'stolen' })).statusCode).toBe(404);
    const placed = await guest.post(`${base}/orders/`, order, { 'x-cart-token': token });
    expect(placed.statusCode, placed.body).toBe(201);
    const o = ZWebOrder.parse(placed.json());
    expect(o).toMatchObject({ total: 9800, payment_status: 'Not paid', customer: { email: 'mia.guest@example.com' } });
    expect(o.bookings).toHaveLength(1);
    expect(o.manage_url).toMatch(/^http:\/\/lakeshop\.localhost:3000\/s\/lake\/booking\/[A-Z0-9-]+\?lang=en#[A-Za-z0-9_-]{20,}$/);
    expect(o.cancellation).toMatchObject({ allowed: true, refund: 0 });

    // The confirmation: the order, a ticket per booking (its QR code is its ticket code), a calendar file.
    const mail = await sink.latest('mia.guest@example.com', /Your booking/);
    expect(mail.text).toContain(o.bookings[0]!.ticket_code);
    expect(mail.text).toContain(o.manage_url);
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([`booking-${o.reference}.ics`, `tickets-${o.reference}.pdf`]);
    const ics = mail.attachments.find((a) => a.filename.endsWith('.ics'))!.content.toString();
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain('SUMMARY:Lake tour');
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const pdf = await getDocument({ data: new Uint8Array(mail.attachments.find((a) => a.filename.endsWith('.pdf'))!.content) }).promise;
    const text = (await (await pdf.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain(o.bookings[0]!.ticket_code);
    // The organisation asked to hear of every booking in this store.
    await sink.latest('office@lakeshop.test', new RegExp(`New booking ${o.reference}`));

    // The back office sees the web order with its store, no seller.
    const listed = (await owner.get(`/api/orders/?search=${o.reference}`)).json().results[0];
    expect(listed).toMatchObject({ reference: o.reference, seller: null, store: { id: storeId, name: 'Lake shop' } });
    expect((await owner.get('/api/orders/filter-options/')).json().stores).toEqual([{ id: storeId, name: 'Lake shop' }]);
    expect((await owner.get(`/api/orders/?store=${storeId}`)).json().count).toBe(1);
    // The cart is empty now.
    expect((await guest.get(`${base}/carts/${cart}/`, { 'x-cart-token': token })).json().lines).toEqual([]);
  });

  it('lets the customer see their booking with its secret, download tickets and cancel under the policy', async () => {
    const { id: cart, token } = (await guest.post(`${base}/carts/`)).json();
    const slotId = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${day()}`)).json().slots[0].id;
    await guest.post(`${base}/carts/${cart}/lines/`, { slot: slotId, quantities: { [tour.category]: 1 } }, { 'x-cart-token': token });
    const o = (await guest.post(`${base}/orders/`, { cart, customer: { email: 'leo@example.com', first_name: 'Leo', last_name: 'Late' }, accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': token })).json();
    const secret = o.manage_url.split('#')[1];
    expect((await guest.get(`${base}/orders/${o.reference}/`, { 'x-order-token': 'guess' })).statusCode).toBe(404);
    const seen = await guest.get(`${base}/orders/${o.reference}/`, { 'x-order-token': secret });
    expect(seen.statusCode).toBe(200);
    const tickets = await guest.get(`${base}/orders/${o.reference}/tickets.pdf`, { 'x-order-token': secret });
    expect(tickets.headers['content-type']).toBe('application/pdf');
    const left = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${day()}`)).json().slots[0].seats_left;
    const cancelled = await guest.post(`${base}/orders/${o.reference}/cancel/`, {}, { 'x-order-token': secret });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'Canceled', cancellation: { allowed: false } });
    expect((await guest.get(`${base}/experiences/${tour.id}/day/?date=${day()}`)).json().slots[0].seats_left).toBe(left + 1);
    expect((await guest.post(`${base}/orders/${o.reference}/cancel/`, {}, { 'x-order-token': secret })).statusCode).toBe(409);
  });

  it('counts visits once per session and day, and shows the store’s sales in its analytics', async () => {
    for (const visit of ['visit-aaaaaaaa', 'visit-aaaaaaaa', 'visit-bbbbbbbb']) expect((await guest.post(`${base}/visits/`, { visit })).statusCode).toBe(204);
    const today = todayIn(ZONE);
    const a = (await owner.get(`/api/stores/${storeId}/analytics/?from=${addDays(today, -1)}&to=${today}`)).json();
    const row = a.days.find((d: { date: string }) => d.date === today);
    expect(row).toMatchObject({ visits: 2, orders: 2, carts: 2 });
    expect(row.seats).toBe(2); // the cancelled order's seat is not counted
    expect(row.revenue).toBe(9800);
    expect(row.conversion).toBe(1);
  });

  it('draws its pages with React on the server: content, prices, the calendar as links, JSON-LD, Open Graph, the data to hydrate, a sitemap, its own frame policy', async () => {
    await owner.patch(`/api/stores/${storeId}/`, { embed_origins: ['https://www.lakeside-hotel.example'] });
    const home = await guest.get('/s/lake/');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toContain('text/html');
    expect(home.body).toMatch(/<h1[^>]*>Lake shop<\/h1>/);
    expect(home.body).toContain(`href="/s/lake/offers/${tour.id}"`);
    expect(home.body).toContain('from CHF');
    expect(home.body).toContain('"@type":"ItemList"');
    expect(home.body).toContain('<title>Lake shop</title>');
    // The store's script, and what the page was drawn from for it to hydrate.
    expect(home.body).toMatch(/<script type="module" src="\/s-assets\/assets\/main-[\w-]+\.js"[^>]*><\/script>/);
    const preload = JSON.parse(home.body.match(/<script type="application\/json" id="td-preload">(.*?)<\/script>/)![1]!);
    expect(preload).toMatchObject({ slug: 'lake', origin: 'http://lakeshop.localhost:3000', store: { name: 'Lake shop' } });
    expect(preload.data['offers:1'].all.map((o: { id: string }) => o.id)).toContain(tour.id);
    // Framed by its own host and the hotel's site only; the back office stays unframeable.
    expect(home.headers['content-security-policy']).toContain("frame-ancestors 'self' https://www.lakeside-hotel.example");
    expect(home.headers['x-frame-options']).toBeUndefined();
    expect((await owner.get('/api/users/me/')).headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const page = await guest.get(`/s/lake/offers/${tour.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Lake tour | Lake shop</title>');
    expect(page.body).toContain('<meta property="og:title" content="Lake tour | Lake shop"/>');
    expect(page.body).toContain(`<link rel="canonical" href="http://lakeshop.localhost:3000/s/lake/offers/${tour.id}"/>`);
    expect(page.body).toMatch(/<meta property="og:image" content="http:\/\/lakeshop\.localhost:3000\/api\/media\//);
    expect(page.body).toContain('Two hours on the lake.');
    const ld = JSON.parse(page.body.match(/<script type="application\/ld\+json">(.*?)<\/script>/)![1]!);
    expect(ld).toMatchObject({ '@type': 'Product', name: 'Lake tour', offers: { '@type': 'AggregateOffer', priceCurrency: 'CHF', lowPrice: '49.00' } });
    // The calendar's first month: each day with seats a link to its times, drawn by the server too.
    const days = [...page.body.matchAll(/<a class="td-day td-day--available[^"]*" href="([^"]+)"[^>]*data-date="([\d-]+)"/g)];
    expect(days.length).toBeGreaterThan(0);
    const [, href, date] = days[0]!;
    expect(href).toBe(`/s/lake/offers/${tour.id}?date=${date}`);
    const day = await guest.get(href!.replace(/&amp;/g, '&'));
    expect(day.statusCode).toBe(200);
    expect(day.body).toMatch(new RegExp(`<a class="td-day td-day--available td-day--selected" href="[^"]+" aria-current="date"[^>]*data-date="${date}"`));
    expect(day.body).toMatch(/<input type="radio" name="td-slot"[^>]*value="[0-9a-f-]{36}"/);
    // A month asked for that is not a month, or is past, draws the first one.
    expect((await guest.get(`/s/lake/offers/${tour.id}?month=1999-01&date=nonsense`)).statusCode).toBe(200);
    for (const asked of ['date=2027-02-31', 'date=2027-02-29', 'month=9999-12', 'date=9999-12-31']) {
      const odd = await guest.get(`/s/lake/offers/${tour.id}?${asked}`);
      expect(odd.statusCode, asked).toBe(200);
      expect(odd.body, asked).toContain('<title>Lake tour | Lake shop</title>');
    }
    // The id written in capitals is the same offer, drawn with its head.
    const upper = await guest.get(`/s/lake/offers/${tour.id.toUpperCase()}`);
    expect(upper.statusCode).toBe(200);
    expect(upper.body).toContain('<title>Lake tour | Lake shop</title>');

    const missing = await guest.get(`/s/lake/offers/${hidden.id}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('This offer is not sold in this store.');
    expect(missing.body).toContain('<meta name="robots" content="noindex"/>');
    expect((await guest.get('/s/lake/offers/not-an-id')).statusCode).toBe(404);
    expect((await guest.get('/s/lake/no/such/page')).statusCode).toBe(404);
    const closed = await guest.get('/s/nowhere/');
    expect(closed.statusCode).toBe(404);
    expect(closed.body).toContain('This store does not exist or is closed.');
    const checkout = await guest.get('/s/lake/checkout');
    expect(checkout.statusCode).toBe(200);
    expect(checkout.body).toContain('<meta name="robots" content="noindex"/>');
    expect(checkout.body).toContain('<title>Checkout | Lake shop</title>');

    const sitemap = await guest.get('/s/lake/sitemap.xml');
    expect(sitemap.headers['content-type']).toContain('xml');
    expect(sitemap.body).toContain(`<loc>http://lakeshop.localhost:3000/s/lake/offers/${tour.id}</loc>`);
  });

  it('belongs to its organisation’s host: another organisation’s host finds neither the store nor its carts', async () => {
    await createOrganisation(t.app, sink, { subdomain: 'othershop' });
    const elsewhere = new Browser(t.app, 'othershop.localhost');
    expect((await elsewhere.get(`${base}/`)).statusCode).toBe(404);
    expect((await elsewhere.get(`${base}/experiences/${tour.id}/`)).statusCode).toBe(404);
    const { id, token } = (await guest.post(`${base}/carts/`)).json();
    expect((await elsewhere.get(`${base}/carts/${id}/`, { 'x-cart-token': token })).statusCode).toBe(404);
    expect((await elsewhere.get('/s/lake/')).statusCode).toBe(404);
  });

  it('is closed when the store is deactivated', async () => {
    await owner.patch(`/api/stores/${storeId}/`, { active: false });
    expect((await guest.get(`${base}/`)).statusCode).toBe(404);
    await owner.patch(`/api/stores/${storeId}/`, { active: true });
  });
});
