import { eq, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZQrCode, type TQrCode } from '@tourdesk/contracts';
import { onlineCheckout, order, qrCode } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { seedDemo } from '../src/seed/demo';
import { sellableExperience } from './catalog-fixtures';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { createTestApp, type TestApp, until } from './harness';
import { Browser } from './http-client';
import { createOrganisation, signIn } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * QR codes: full CRUD with their targets checked (the organisation's own store, an offer that
 * store sells), the PNG, SVG and flyer of the address, the scan at /q/{code} (counted once per
 * GET, every one of many at once, on the organisation's host only), and the order the scan
 * brings — paid on site or online through (the fake of) Stripe — recorded with its code, so the
 * list shows scans, orders and revenue per code.
 */
const SECRET = 'whsec_test_tourdesk';
const ZONE = 'Europe/Zurich';
let fake: FakeStripe;
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let rival: Browser;
let guest: Browser;
let tour: { id: string; category: string };
let other: { id: string; category: string };
let storeId: string;
let emptyStoreId: string;
let rivalStoreId: string;
const base = '/api/web-stores/qrshop';
const day = () => addDays(todayIn(ZONE), 5);

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: SECRET });
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, STRIPE_SECRET_KEY: 'sk_test_tourdesk', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhook(`${address}/api/stripe/webhook/`, SECRET);
  owner = await createOrganisation(t.app, sink, { subdomain: 'qrtours', currency: 'CHF', time_zone: ZONE });
  rival = await createOrganisation(t.app, sink, { subdomain: 'qrrival', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Kayak tour');
  other = await sellableExperience(owner, 'Canoe tour');
  for (const e of [tour, other]) expect((await owner.patch(`/api/experiences/${e.id}/`, { status: 'Active' })).statusCode).toBe(200);
  storeId = (await owner.post('/api/stores/', { name: 'QR shop', slug: 'qrshop' })).json().id;
  await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [tour.id] });
  emptyStoreId = (await owner.post('/api/stores/', { name: 'Empty shop', slug: 'empty' })).json().id;
  rivalStoreId = (await rival.post('/api/stores/', { name: 'Rival shop', slug: 'rival' })).json().id;
  guest = new Browser(t.app, 'qrtours.localhost');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await sink?.close();
});

async function create(body: Record<string, unknown>, as = owner) {
  const res = await as.post('/api/qr-codes/', body);
  expect(res.statusCode, res.body).toBe(201);
  return ZQrCode.parse(res.json());
}
const one = async (id: string) => ZQrCode.parse((await owner.get(`/api/qr-codes/${id}/`)).json());

describe('QR codes in the back office', () => {
  it('are created, read, changed and deleted, each with a short code of its own', async () => {
    const made = await create({ name: 'Hotel desk flyer', campaign: 'Summer 2026', store: storeId });
    expect(made).toMatchObject({ name: 'Hotel desk flyer', campaign: 'Summer 2026', ownership: 'Internal', target: 'store', store: storeId, store_name: 'QR shop', experience: null, scans: 0, orders: 0, revenue: 0, currency: 'CHF' });
    expect(made.code).toMatch(/^[a-z2-7]{8}$/);
    expect(made.url).toBe(`http://qrtours.localhost:3000/q/${made.code}`);
    expect(made.target_url).toBe('http://qrtours.localhost:3000/s/qrshop/');

    const offer = await create({ name: 'Kayak poster', ownership: 'External', target: 'experience', store: storeId, experience: tour.id });
    expect(offer).toMatchObject({ target: 'experience', experience: tour.id, experience_title: 'Kayak tour', target_url: `http://qrtours.localhost:3000/s/qrshop/offers/${tour.id}` });
    expect(offer.code).not.toBe(made.code);

    const patched = await owner.patch(`/api/qr-codes/${made.id}/`, { campaign: 'Autumn 2026' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Hotel desk flyer', campaign: 'Autumn 2026', code: made.code });
    const put = await owner.put(`/api/qr-codes/${made.id}/`, { name: 'Hotel desk', campaign: 'Summer 2026', store: storeId });
    expect(put.json()).toMatchObject({ name: 'Hotel desk', campaign: 'Summer 2026', ownership: 'Internal', code: made.code });
    // Changing a code's target to the store keeps its code (the flyers already printed stay good).
    const retargeted = await owner.patch(`/api/qr-codes/${offer.id}/`, { target: 'store' });
    expect(retargeted.json()).toMatchObject({ target: 'store', experience: null, code: offer.code });

    const temp = await create({ name: 'Temporary', store: storeId });
    expect((await owner.delete(`/api/qr-codes/${temp.id}/`)).statusCode).toBe(204);
    expect((await owner.get(`/api/qr-codes/${temp.id}/`)).statusCode).toBe(404);
  });

  it('lead only to the organisation’s own store, and to an offer only in a store that sells it', async () => {
    const bad = async (body: Record<string, unknown>, attr: string) => {
      const res = await owner.post('/api/qr-codes/', { name: 'Bad', ...body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.map((e: { attr: string }) => e.attr)).toContain(attr);
    };
    await bad({ store: rivalStoreId }, 'store');
    await bad({ target: 'experience', store: storeId }, 'experience');
    await bad({ target: 'experience', store: emptyStoreId, experience: tour.id }, 'experience');
    await bad({ target: 'experience', store: storeId, experience: other.id }, 'experience');
    // Its own store is no partner's store (a partner's store: test/reseller-store.int.test.ts).
    await bad({ target: 'partner_store', store: storeId }, 'store');
    await bad({ name: '', store: storeId }, 'name');
    await bad({ store: storeId, ownership: 'Partner' }, 'ownership');
    // Another organisation sees none of them, and cannot point its codes at this store.
    const mine = (await owner.get('/api/qr-codes/')).json().results[0] as TQrCode;
    expect((await rival.get(`/api/qr-codes/${mine.id}/`)).statusCode).toBe(404);
    expect((await rival.patch(`/api/qr-codes/${mine.id}/`, { name: 'Stolen' })).statusCode).toBe(404);
    expect((await rival.delete(`/api/qr-codes/${mine.id}/`)).statusCode).toBe(404);
    expect((await rival.get(`/api/qr-codes/${mine.id}/qr.png`)).statusCode).toBe(404);
    expect((await rival.get('/api/qr-codes/')).json().count).toBe(0);
    const theirs = await create({ name: 'Rival flyer', store: rivalStoreId }, rival);
    expect((await owner.get(`/api/qr-codes/${theirs.id}/`)).statusCode).toBe(404);
  });

  it('are listed newest first with search, ownership filter and pages in SQL', async () => {
    const all = (await owner.get('/api/qr-codes/')).json();
    expect(all.count).toBe(2);
    expect(all.results.map((r: TQrCode) => r.name)).toEqual(['Kayak poster', 'Hotel desk']);
    expect((await owner.get('/api/qr-codes/?search=summer')).json().results.map((r: TQrCode) => r.name)).toEqual(['Hotel desk']);
    expect((await owner.get('/api/qr-codes/?ownership=External')).json().results.map((r: TQrCode) => r.name)).toEqual(['Kayak poster']);
    const page = (await owner.get('/api/qr-codes/?page_size=5&page=1')).json();
    expect(page).toMatchObject({ count: 2, total_pages: 1, current_page_number: 1 });
    expect((await owner.get('/api/qr-codes/?page=2')).statusCode).toBe(404);
    expect((await owner.get('/api/qr-codes/?ownership=Nobody')).statusCode).toBe(400);
  });

  it('download as a PNG and an SVG of the address, and a printable flyer', async () => {
    const code = await create({ name: 'Download me', target: 'experience', store: storeId, experience: tour.id });
    const png = await owner.get(`/api/qr-codes/${code.id}/qr.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toContain(`qr-download-me-${code.code}.png`);
    expect(png.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // The PNG's pixels are the modules of a QR code of the address: sampled at each module's centre.
    const matrix = QRCode.create(code.url, { errorCorrectionLevel: 'M' }).modules;
    const { data, info } = await sharp(png.rawPayload).greyscale().raw().toBuffer({ resolveWithObject: true });
    const scale = info.width / (matrix.size + 8);
    let wrong = 0;
    for (let r = 0; r < matrix.size; r++) {
      for (let c = 0; c < matrix.size; c++) {
        const px = data[Math.floor((r + 4.5) * scale) * info.width + Math.floor((c + 4.5) * scale)]!;
        if (px < 128 !== Boolean(matrix.get(r, c))) wrong++;
      }
    }
    expect(wrong).toBe(0);
    // Another address's matrix does not match (the comparison can fail).
    const another = QRCode.create(`${code.url}x`, { errorCorrectionLevel: 'M' }).modules;
    expect(another.data.some((v, i) => v !== matrix.data[i])).toBe(true);

    const svg = await owner.get(`/api/qr-codes/${code.id}/qr.svg`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body.startsWith('<svg')).toBe(true);
    expect(svg.body).toBe(await QRCode.toString(code.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 }));

    const pdf = await owner.get(`/api/qr-codes/${code.id}/flyer.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(pdf.rawPayload) }).promise;
    expect(doc.numPages).toBe(1);
    const page = await doc.getPage(1);
    expect(page.view).toEqual([0, 0, 420, 595]);
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    for (const s of ['qrtours tours', 'Kayak tour', 'QR shop', 'Scan to book online', code.url]) expect(text).toContain(s);
    expect((await owner.delete(`/api/qr-codes/${code.id}/`)).statusCode).toBe(204);
  });
});

describe('a scan of /q/{code}', () => {
  const scanCount = async (id: string) => (await t.database.db.select({ scans: qrCode.scans }).from(qrCode).where(eq(qrCode.id, id)))[0]!.scans;
  const dayScans = async (id: string) =>
    ((await t.database.db.execute(sql`select day::text as day, scans from qr_scan_day where qr_code_id = ${id}::uuid`)) as unknown as { rows: { day: string; scans: number }[] }).rows;

  it('counts each GET and sends the customer to the store or the offer with ?qr=', async () => {
    const code = await create({ name: 'Scan to store', store: storeId });
    const res = await guest.get(`/q/${code.code}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/s/qrshop/?qr=${code.code}`);
    expect(res.headers['cache-control']).toBe('no-store');
    // A HEAD (a link checker) and a browser's prefetch find it without counting it.
    expect((await t.app.inject({ method: 'HEAD', url: `/q/${code.code}`, headers: { host: 'qrtours.localhost' } })).statusCode).toBe(302);
    expect((await guest.get(`/q/${code.code}`, { 'sec-purpose': 'prefetch' })).statusCode).toBe(302);
    expect(await scanCount(code.id)).toBe(1);
    expect(await dayScans(code.id)).toEqual([{ day: todayIn(ZONE), scans: 1 }]);
    const fetched = await one(code.id);
    expect(fetched.scans).toBe(1);
    expect(fetched.last_scanned_at).not.toBeNull();

    const offer = await create({ name: 'Scan to offer', target: 'experience', store: storeId, experience: tour.id });
    expect((await guest.get(`/q/${offer.code}`)).headers.location).toBe(`/s/qrshop/offers/${tour.id}?qr=${offer.code}`);
  });

  it('counts every one of many scans at once', async () => {
    const code = await create({ name: 'Busy', store: storeId });
    const answers = await Promise.all(Array.from({ length: 25 }, () => guest.get(`/q/${code.code}`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(25).fill(302));
    expect(await scanCount(code.id)).toBe(25);
    expect(await dayScans(code.id)).toEqual([{ day: todayIn(ZONE), scans: 25 }]);
  });

  it('is not found for an unknown code, on another organisation’s host, or on the bare host', async () => {
    const code = await create({ name: 'Mine', store: storeId });
    for (const [host, path] of [
      ['qrtours.localhost', '/q/zzzzzzzz'],
      ['qrtours.localhost', '/q/not-a-code'],
      ['qrrival.localhost', `/q/${code.code}`],
      ['localhost', `/q/${code.code}`],
    ] as const) {
      const res = await new Browser(t.app, host).get(path);
      expect(res.statusCode, `${host}${path}`).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('does not lead anywhere');
    }
    expect(await scanCount(code.id)).toBe(0);
  });
});

describe('the order a scan brings', () => {
  let flyer: TQrCode;
  const orderQr = async (id: string) => (await t.database.db.select({ qr: order.qr_code_id }).from(order).where(eq(order.id, id)))[0]!.qr;
  const slotOf = async (date: string) => (await guest.get(`${base}/experiences/${tour.id}/day/?date=${date}`)).json().slots[0].id as string;
  async function heldCart(seats: number, qr?: { create?: string; hold?: string }, date = day()) {
    const made = await guest.post(`${base}/carts/`, undefined, qr?.create ? { 'x-qr-code': qr.create } : {});
    expect(made.statusCode, made.body).toBe(201);
    const { id, token } = made.json();
    const held = await guest.post(`${base}/carts/${id}/lines/`, { slot: await slotOf(date), quantities: { [tour.category]: seats } }, { 'x-cart-token': token, ...(qr?.hold ? { 'x-qr-code': qr.hold } : {}) });
    expect(held.statusCode, held.body).toBe(201);
    return { cart: id as string, token: token as string, line: held.json().lines[0].id as string };
  }
  const customer = (n: string) => ({ email: `${n}@example.com`, first_name: n, last_name: 'Scanner' });
  async function payOnSite(c: { cart: string; token: string; line: string }, who: string) {
    const placed = await guest.post(`${base}/orders/`, { cart: c.cart, lines: [c.line], customer: customer(who), accept_terms: true, payment_option: 'pay_on_site' }, { 'x-cart-token': c.token });
    expect(placed.statusCode, placed.body).toBe(201);
    const ref = placed.json().reference as string;
    return (await t.database.db.select({ id: order.id }).from(order).where(eq(order.reference, ref)))[0]!.id;
  }

  beforeAll(async () => {
    flyer = await create({ name: 'Attribution flyer', campaign: 'Summer 2026', store: storeId });
  });

  it('is recorded from the scan through the cart to an order paid on site', async () => {
    const scanned = await guest.get(`/q/${flyer.code}`);
    const qr = new URL(scanned.headers.location as string, 'http://x').searchParams.get('qr')!;
    expect(qr).toBe(flyer.code);
    const id = await payOnSite(await heldCart(2, { create: qr }), 'ana');
    expect(await orderQr(id)).toBe(flyer.id);
    // The order in the back office names the code.
    expect((await owner.get(`/api/orders/${id}/`)).json().qr_code).toEqual({ id: flyer.id, name: 'Attribution flyer' });
  });

  it('is recorded when the code comes with the first hold of a cart made before the scan', async () => {
    const id = await payOnSite(await heldCart(1, { hold: flyer.code }), 'ben');
    expect(await orderQr(id)).toBe(flyer.id);
  });

  it('is not recorded for an unknown code, another organisation’s code, or none — and never refuses the booking', async () => {
    const theirs = (await rival.get('/api/qr-codes/')).json().results[0] as TQrCode;
    for (const [who, qr] of [
      ['cy', 'zzzzzzzz'],
      ['di', theirs.code],
      ['ed', 'NOT A CODE'],
    ] as const) {
      const id = await payOnSite(await heldCart(1, { create: qr }), who);
      expect(await orderQr(id)).toBeNull();
    }
    const none = await payOnSite(await heldCart(1), 'fy');
    expect(await orderQr(none)).toBeNull();
    expect((await owner.get(`/api/orders/${none}/`)).json().qr_code).toBeNull();
  });

  it('is recorded for an order paid online, made when Stripe says it is paid', async () => {
    // The organisation connects its Stripe account and its store takes payments online.
    expect((await owner.post('/api/payment-providers/connect/')).statusCode).toBe(200);
    const account = (await owner.get('/api/payment-providers/oauth/')).json().account as string;
    await fake.completeOnboarding(account);
    await until('the account to take charges', async () => (await owner.get('/api/payment-providers/oauth/')).json().charges_enabled);
    expect((await owner.patch(`/api/stores/${storeId}/`, { payment_options: ['pay_on_site', 'online'] })).statusCode).toBe(200);

    const c = await heldCart(2, { create: flyer.code }, addDays(todayIn(ZONE), 6));
    const started = await guest.post(`${base}/payments/`, { cart: c.cart, customer: customer('gil'), accept_terms: true, payment_option: 'online' }, { 'x-cart-token': c.token });
    expect(started.statusCode, started.body).toBe(201);
    const { checkout, token } = started.json() as { checkout: string; token: string };
    const session = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout)))[0]!.session_id!;
    await fake.payCheckoutSession(session, { card: '4242424242424242' });
    const paid = await until('the paid order', async () => {
      const p = (await guest.get(`${base}/payments/${checkout}/`, { 'x-order-token': token })).json();
      return p.status === 'paid' ? p : null;
    });
    expect(paid.order).toMatchObject({ total: 9800, payment_status: 'Fully paid' });
    const id = (await t.database.db.select({ id: order.id }).from(order).where(eq(order.reference, paid.order.reference)))[0]!.id;
    expect(await orderQr(id)).toBe(flyer.id);
  });

  it('shows in the list as the code’s orders and revenue; a cancelled order is no revenue', async () => {
    // Four orders: 2 + 1 seats on site, 2 online (49.00 each seat).
    let row = await one(flyer.id);
    expect(row).toMatchObject({ scans: 1, orders: 3, revenue: 5 * 4900 });
    const listed = (await owner.get('/api/qr-codes/?search=Attribution')).json().results[0] as TQrCode;
    expect(listed).toMatchObject({ scans: 1, orders: 3, revenue: 5 * 4900 });
    const ben = (await t.database.db.execute(sql`select o.id from orders o join customer c on c.id = o.customer_id where c.email = 'ben@example.com'`)) as unknown as { rows: { id: string }[] };
    const cancelled = await owner.post(`/api/orders/${ben.rows[0]!.id}/cancel/`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    row = await one(flyer.id);
    expect(row).toMatchObject({ orders: 3, revenue: 4 * 4900 });
    // Other codes brought nothing.
    const others = (await owner.get('/api/qr-codes/?page_size=50')).json().results.filter((r: TQrCode) => r.id !== flyer.id) as TQrCode[];
    expect(others.every((r) => r.orders === 0 && r.revenue === 0)).toBe(true);
  });
});

describe('the demo', () => {
  // Seeding the whole demo on PGlite takes tens of seconds on a busy two-core machine.
  it('has QR codes on the kayak store with scans over recent days and a web order one brought', { timeout: 120_000 }, async () => {
    expect(await seedDemo(t.database.db)).toBe(true);
    const demo = new Browser(t.app);
    await signIn(demo, 'owner@demo.tourdesk.test', 'demo', 'tourdesk-demo');
    const list = (await demo.get('/api/qr-codes/')).json() as { count: number; results: TQrCode[] };
    expect(list.count).toBeGreaterThanOrEqual(2);
    const flyerRow = list.results.find((r) => r.name === 'Hotel desk flyer')!;
    expect(flyerRow).toMatchObject({ campaign: 'Summer 2026', store_name: 'Alpine Trails online', orders: 1 });
    expect(flyerRow.revenue).toBeGreaterThan(0);
    const days = (await t.database.db.execute(sql`select count(*)::int as n, sum(scans)::int as scans from qr_scan_day where qr_code_id = ${flyerRow.id}::uuid`)) as unknown as { rows: { n: number; scans: number }[] };
    expect(days.rows[0]!.n).toBeGreaterThan(5);
    expect(days.rows[0]!.scans).toBe(flyerRow.scans);
    // Its scan still leads to the store.
    expect((await new Browser(t.app, 'demo.localhost').get(`/q/${flyerRow.code}`)).headers.location).toBe(`/s/kayak/?qr=${flyerRow.code}`);
  });
});

