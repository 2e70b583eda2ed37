import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import { baseAccount, role, subscriptionTier, users } from '../src/db/schema';
import { QUEUES } from '../src/lib/jobs';
import { isApiPath } from '../src/lib/access';
import { inTenant } from '../src/lib/tenancy';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { sellableExperience } from './catalog-fixtures';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

let t: TestApp;
let sink: MailSink;
let a: Browser;
let b: Browser;
const A: Record<string, string> = {};
const B: Record<string, string> = {};

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  a = await createOrganisation(t.app, sink, { subdomain: 'first' });
  b = await createOrganisation(t.app, sink, { subdomain: 'second' });
  for (const [browser, ids, sub] of [[a, A, 'first'], [b, B, 'second']] as const) {
    const me = (await browser.get('/api/users/me/')).json();
    ids.account = me.base_account.id;
    ids.owner = me.id;
    ids.role = (await browser.post('/api/roles/', { name: `${sub} guides`, permission_sets: ['view_experiences'] })).json().id;
    ids.member = (await inviteMember(t.app, sink, browser, sub, `guide@${sub}.test`, ids.role!)).id;
    const made = await sellableExperience(browser, `${sub} tour`);
    ids.experience = made.id;
    ids.category = made.category;
    ids.rate = made.rate;
    ids.image = (await browser.get(`/api/experiences/${made.id}/`)).json().images[0].id;
    ids.pendingImage = (await browser.post('/api/images/', { original_name: 'later.png', experience: made.id })).json().id;
    ids.video = (await browser.post('/api/videos/', { url: 'https://example.com/clip', experience: made.id })).json().id;
    ids.helpVideo = (await browser.post('/api/help-videos/', { url: 'https://example.com/how-to', topic: 'check-in', title: `${sub} how to` })).json().id;
    ids.meetingPoint = (await browser.post('/api/meeting-points/', { name: `${sub} harbour` })).json().id;
    ids.question = (await browser.post('/api/booking-questions/', { question: 'Diet?', answer_type: 'text' })).json().id;
    ids.policy = (await browser.post('/api/cancellation-policies/', { name: `${sub} flexible` })).json().id;
    ids.itemCategory = (await browser.post('/api/inventory-item-categories/', { name: `${sub} boats` })).json().id;
    ids.item = (await browser.post('/api/inventory-items/', { type: 'Extras', name: `${sub} lunch`, price: 900 })).json().id;
    ids.folder = (await browser.post('/api/file-folders/', { name: `${sub} photos` })).json().id;
    ids.agenda = (await browser.post('/api/agenda-items/', { experience: made.id, title: 'Welcome', minutes_from_start: 0 })).json().id;
    // Availability: a rule, its slots, a booking (order) and a held cart line.
    await browser.patch(`/api/experiences/${made.id}/`, { status: 'Active' });
    const today = new Date().toISOString().slice(0, 10);
    ids.rule = (await browser.post('/api/schedule-rules/', { experience: made.id, valid_from: today, start_times: ['10:00'], capacity: 8 })).json().id;
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    ids.slot = (await browser.get(`/api/bookings/check-availability/?experience=${made.id}&date=${later}`)).json()[0].id;
    await browser.post('/api/cart/lines/', { slot: ids.slot, quantities: { [made.category]: 1 } });
    const order = (await browser.post('/api/cart/checkout/', { customer: { email: `guest@${sub}.test`, first_name: 'Guest' } })).json();
    ids.order = order.id;
    ids.booking = order.bookings[0].id;
    ids.customer = order.customer.id;
    ids.payment = (await browser.post(`/api/orders/${order.id}/payments/`, { amount: 100, currency: order.currency, method: 'cash' })).json().id;
    await browser.patch('/api/account/', { billing_address: `1 ${sub} street`, vat_number: `CHE-${sub}`, vat_rate_bp: 810 });
    ids.invoice = (await browser.post(`/api/orders/${order.id}/invoice/`)).json().id;
    const held = (await browser.post('/api/cart/lines/', { slot: ids.slot, quantities: { [made.category]: 1 } })).json();
    ids.cartLine = held.id;
    ids.cart = held.cart;
    ids.store = (await browser.post('/api/stores/', { name: `${sub} shop`, slug: 'shop' })).json().id;
    await browser.post(`/api/stores/${ids.store}/add-experience/`, { experiences: [made.id] });
    ids.qrCode = (await browser.post('/api/qr-codes/', { name: `${sub} flyer`, store: ids.store })).json().id;
    ids.partnership = (await browser.post('/api/partners/', { partner_type: 'Resellers', email: `partner@${sub}.test` })).json().id;
    const promo = await browser.post('/api/promo-codes/', { code: `${sub.toUpperCase().replace(/[^A-Z0-9]/g, '')}10`, kind: 'percent', percent_bp: 1000 });
    expect(promo.statusCode, promo.body).toBe(201);
    ids.promo = promo.json().id;
    const voucher = await browser.post('/api/gift-vouchers/', { value: 5000, reason: 'Tenancy check' });
    expect(voucher.statusCode, voucher.body).toBe(201);
    ids.voucher = voucher.json().id;
    ids.webhook = (await browser.post('/api/webhooks/endpoints/', { url: `https://hooks.${sub}.example/in`, event_types: ['order.created'] })).json().id;
    // An e-mail of the organisation whose retries are spent (failed as the queue fails it).
    ids.failedJob = (await t.app.jobs.send(QUEUES.email, { account: ids.account, to: `lost@${sub}.test`, subject: 'Lost', text: 'x' }, { startAfter: 3600 }))!;
    await t.database.db.execute(sql`update pgboss.job set state = 'failed', completed_on = now(), output = '{"message":"refused"}' where id = ${ids.failedJob}::uuid`);
  }
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/**
 * Which of organisation A's ids each route takes. Every signed-in route with an :id must be
 * listed here, so a new route cannot skip the cross-tenant check.
 */
const ID_OF: Record<string, keyof typeof A> = {
  '/api/roles/:id/': 'role',
  '/api/users/:id/': 'member',
  '/api/team-members/:id/': 'member',
  '/api/users/:id/resend_invitation/': 'member',
  '/api/team-members/:id/resend_invitation/': 'member',
  '/api/team-members/:id/calendar-feed/': 'member',
  '/api/guides/:id/': 'member',
  '/api/guides/:id/days-off/': 'member',
  '/api/guides/:id/days-off/:dayOff/': 'member',
  '/api/experiences/:id/': 'experience',
  '/api/experiences/:id/duplicate/': 'experience',
  '/api/experiences/:id/reorder-images/': 'experience',
  '/api/experiences/:id/channels/': 'experience',
  '/api/experiences/:id/pools/': 'experience',
  '/api/pricing-categories/:id/': 'category',
  '/api/pricing-rates/:id/': 'rate',
  '/api/images/:id/': 'image',
  '/api/images/:id/upload/': 'pendingImage',
  '/api/videos/:id/': 'video',
  '/api/help-videos/:id/': 'helpVideo',
  '/api/meeting-points/:id/': 'meetingPoint',
  '/api/booking-questions/:id/': 'question',
  '/api/cancellation-policies/:id/': 'policy',
  '/api/inventory-item-categories/:id/': 'itemCategory',
  '/api/inventory-items/:id/': 'item',
  '/api/file-folders/:id/': 'folder',
  '/api/schedule-rules/:id/': 'rule',
  '/api/agenda-items/:id/': 'agenda',
  '/api/start-times/:id/': 'slot',
  '/api/start-times/:id/waitlist/': 'slot',
  '/api/start-times/:id/guides/': 'slot',
  '/api/start-times/:id/guides/:guide/': 'slot',
  '/api/start-times/:id/waitlist/:entry/': 'slot',
  '/api/start-times/:id/waitlist/:entry/offer/': 'slot',
  '/api/cart/lines/:id/': 'cartLine',
  '/api/bookings/:id/': 'booking',
  '/api/bookings/:id/cancel/': 'booking',
  '/api/bookings/:id/attendance/': 'booking',
  '/api/check-in/tickets/:id/undo/': 'booking',
  '/api/orders/:id/': 'order',
  '/api/orders/:id/detail/': 'order',
  '/api/orders/:id/cancel/': 'order',
  '/api/orders/:id/confirm/': 'order',
  '/api/orders/:id/lines/': 'order',
  '/api/orders/:id/lines/:lineId/': 'order',
  '/api/orders/:id/lines/:lineId/cancel/': 'order',
  '/api/orders/:id/payments/': 'order',
  '/api/orders/:id/payment-link/': 'order',
  '/api/orders/:id/payments/:paymentId/': 'order',
  '/api/orders/:id/invoice/': 'order',
  '/api/orders/:id/invoice.pdf': 'order',
  '/api/orders/:id/invoices/': 'order',
  '/api/orders/:id/invoices/:invoiceId/': 'order',
  '/api/orders/:id/invoices/:invoiceId/pdf/': 'order',
  '/api/orders/:id/audit/': 'order',
  '/api/orders/:id/refund-proposal/': 'order',
  '/api/orders/:id/tickets.pdf': 'order',
  '/api/orders/:id/confirmation.pdf': 'order',
  '/api/orders/:id/send-tickets/': 'order',
  '/api/bookings/:id/tickets.pdf': 'booking',
  '/api/manifests/:id/': 'slot',
  '/api/manifests/:id/export.csv': 'slot',
  '/api/manifests/:id/manifest.pdf': 'slot',
  '/api/customers/:id/': 'customer',
  '/api/carts/:id/': 'cart',
  '/api/jobs/failed/:id/retry/': 'failedJob',
  '/api/partners/:id/': 'partnership',
  '/api/partners/:id/accept/': 'partnership',
  '/api/partners/:id/decline/': 'partnership',
  '/api/partners/:id/suspend/': 'partnership',
  '/api/partners/:id/resume/': 'partnership',
  '/api/partners/:id/end/': 'partnership',
  '/api/partners/:id/offers/': 'partnership',
  '/api/partners/:id/api-keys/': 'partnership',
  '/api/partners/:id/api-keys/:keyId/revoke/': 'partnership',
  '/api/stores/:id/': 'store',
  '/api/stores/:id/experiences/': 'store',
  '/api/stores/:id/eligible-experiences/': 'store',
  '/api/stores/:id/add-experience/': 'store',
  '/api/stores/:id/remove-experience/': 'store',
  '/api/stores/:id/reorder-experiences/': 'store',
  '/api/stores/:id/analytics/': 'store',
  '/api/qr-codes/:id/': 'qrCode',
  '/api/qr-codes/:id/qr.png': 'qrCode',
  '/api/qr-codes/:id/qr.svg': 'qrCode',
  '/api/qr-codes/:id/flyer.pdf': 'qrCode',
  // Another organisation's order is no resale of B's, and no statement of B's has its id either.
  '/api/resales/:id/': 'order',
  // Another organisation's offer is no partner's offer of B's.
  '/api/resales/counter/offers/:id/': 'experience',
  '/api/resales/counter/offers/:id/slots/': 'experience',
  '/api/settlements/:id/': 'order',
  '/api/settlements/:id/export.csv': 'order',
  '/api/settlements/:id/statement.pdf': 'order',
  '/api/settlements/:id/settle/': 'order',
  '/api/promo-codes/:id/': 'promo',
  '/api/gift-vouchers/:id/': 'voucher',
  '/api/gift-vouchers/:id/cancel/': 'voucher',
  '/api/gift-vouchers/:id/extend/': 'voucher',
  '/api/webhooks/endpoints/:id/': 'webhook',
  '/api/webhooks/endpoints/:id/rotate-secret/': 'webhook',
  '/api/webhooks/endpoints/:id/deliveries/': 'webhook',
  '/api/webhooks/endpoints/:id/deliveries/:delivery/resend/': 'webhook',
};
/** Query strings a route needs before it looks for the id. */
const QUERY: Record<string, string> = { '/api/stores/:id/analytics/': '?from=2026-01-01&to=2026-01-02', '/api/resales/counter/offers/:id/slots/': '?from=2026-01-01&to=2026-01-02' };
const BODY: Record<string, () => unknown> = {
  'PUT /api/roles/:id/': () => ({ name: 'Hijacked', permission_sets: [] }),
  'PATCH /api/roles/:id/': () => ({ name: 'Hijacked' }),
  'PUT /api/users/:id/': () => ({ first_name: 'X', last_name: 'Y', role: B.role, is_active: true }),
  'PATCH /api/users/:id/': () => ({ first_name: 'Hijacked' }),
  'PUT /api/team-members/:id/': () => ({ first_name: 'X', last_name: 'Y', role: B.role, is_active: true }),
  'PATCH /api/team-members/:id/': () => ({ first_name: 'Hijacked' }),
  'PUT /api/experiences/:id/': () => ({ title: 'Hijacked', type: 'Transfer' }),
  'PATCH /api/experiences/:id/': () => ({ title: 'Hijacked' }),
  'PATCH /api/experiences/:id/reorder-images/': () => ({ images: [] }),
  'PUT /api/experiences/:id/pools/': () => ({ rules: [] }),
  'PUT /api/pricing-categories/:id/': () => ({ type: 'Adult', label: 'Hijacked' }),
  'PATCH /api/pricing-categories/:id/': () => ({ label: 'Hijacked' }),
  'PUT /api/pricing-rates/:id/': () => ({ experience: B.experience, pricing_category: B.category, retail_price: 1 }),
  'PATCH /api/pricing-rates/:id/': () => ({ retail_price: 1 }),
  'PATCH /api/images/:id/': () => ({ folder: null }),
  'PUT /api/videos/:id/': () => ({ url: 'https://example.com/hijack' }),
  'PATCH /api/videos/:id/': () => ({ title: 'Hijacked' }),
  'PATCH /api/help-videos/:id/': () => ({ title: 'Hijacked' }),
  'PUT /api/meeting-points/:id/': () => ({ name: 'Hijacked' }),
  'PATCH /api/meeting-points/:id/': () => ({ name: 'Hijacked' }),
  'PUT /api/promo-codes/:id/': () => ({ code: 'HIJACKED', kind: 'percent', percent_bp: 5000 }),
  'PATCH /api/promo-codes/:id/': () => ({ active: false }),
  'POST /api/gift-vouchers/:id/cancel/': () => ({ reason: 'Hijacked' }),
  'POST /api/gift-vouchers/:id/extend/': () => ({ expires_on: '2040-01-01', reason: 'Hijacked' }),
  'PUT /api/booking-questions/:id/': () => ({ question: 'Hijacked?', answer_type: 'text' }),
  'PATCH /api/booking-questions/:id/': () => ({ question: 'Hijacked?' }),
  'PUT /api/cancellation-policies/:id/': () => ({ name: 'Hijacked' }),
  'PATCH /api/cancellation-policies/:id/': () => ({ name: 'Hijacked' }),
  'PUT /api/inventory-item-categories/:id/': () => ({ name: 'Hijacked' }),
  'PATCH /api/inventory-item-categories/:id/': () => ({ name: 'Hijacked' }),
  'PUT /api/inventory-items/:id/': () => ({ type: 'Extras', name: 'Hijacked', price: 1 }),
  'PATCH /api/inventory-items/:id/': () => ({ name: 'Hijacked' }),
  'PUT /api/file-folders/:id/': () => ({ name: 'Hijacked' }),
  'PATCH /api/file-folders/:id/': () => ({ name: 'Hijacked' }),
  'PUT /api/schedule-rules/:id/': () => ({ experience: B.experience, valid_from: '2030-01-01', start_times: ['09:00'], capacity: 1 }),
  'PATCH /api/start-times/:id/': () => ({ closed: true }),
  'PUT /api/agenda-items/:id/': () => ({ experience: B.experience, title: 'Hijacked' }),
  'PATCH /api/agenda-items/:id/': () => ({ title: 'Hijacked' }),
  'PUT /api/start-times/:id/': () => ({ capacity: 0, closed: true }),
  'PATCH /api/cart/lines/:id/': () => ({ quantities: { [B.category!]: 1 } }),
  'PATCH /api/bookings/:id/attendance/': () => ({ attendance: 'No show' }),
  'POST /api/check-in/tickets/:id/undo/': () => ({ reason: 'Hijacked' }),
  'PUT /api/orders/:id/': () => ({ notes: 'Hijacked' }),
  'PATCH /api/orders/:id/': () => ({ notes: 'Hijacked' }),
  'PATCH /api/orders/:id/lines/:lineId/': () => ({ quantities: { [B.category!]: 2 } }),
  'POST /api/orders/:id/payments/': () => ({ amount: 100, currency: 'EUR', method: 'cash' }),
  'PUT /api/customers/:id/': () => ({ email: 'hijack@example.com', first_name: 'Hijacked' }),
  'PATCH /api/customers/:id/': () => ({ first_name: 'Hijacked' }),
  'PUT /api/qr-codes/:id/': () => ({ name: 'Hijacked', store: B.store }),
  'PATCH /api/qr-codes/:id/': () => ({ name: 'Hijacked' }),
  'PUT /api/stores/:id/': () => ({ name: 'Hijacked', slug: 'hijacked' }),
  'PATCH /api/stores/:id/': () => ({ name: 'Hijacked' }),
  'POST /api/stores/:id/add-experience/': () => ({ experiences: [B.experience] }),
  'POST /api/stores/:id/remove-experience/': () => ({ experience: B.experience }),
  'POST /api/stores/:id/reorder-experiences/': () => ({ experiences: [B.experience] }),
  'PATCH /api/partners/:id/': () => ({ commission_bp: 10_000 }),
  'POST /api/partners/:id/api-keys/': () => ({ name: 'Hijacked' }),
  'PATCH /api/webhooks/endpoints/:id/': () => ({ enabled: false }),
  'PUT /api/guides/:id/': () => ({ guides: true }),
  'POST /api/guides/:id/days-off/': () => ({ starts_on: '2030-01-01', ends_on: '2030-01-01' }),
  'POST /api/start-times/:id/guides/': () => ({ guide: B.member }),
};

const signedInRoutes = () =>
  t.app.routeCatalog.filter((r) => isApiPath(r.url) && r.access && !('public' in r.access) && r.method !== 'HEAD');

describe('cross-tenant access', () => {
  it('answers 404 to every signed-in route called with another organisation’s id', async () => {
    const withId = signedInRoutes().filter((r) => r.url.includes(':id'));
    expect(withId.length).toBeGreaterThanOrEqual(Object.keys(ID_OF).length);
    for (const route of withId) {
      const kind = ID_OF[route.url];
      expect(kind, `${route.url} has no entry in ID_OF`).toBeDefined();
      const url = route.url.replace(':id', A[kind!]!).replace(':lineId', A.booking!).replace(':paymentId', A.payment!).replace(':invoiceId', A.invoice!).replace(':keyId', A.booking!).replace(':delivery', A.booking!).replace(':entry', A.booking!).replace(':dayOff', A.booking!).replace(':guide', A.member!) + (QUERY[route.url] ?? '');
      const body = BODY[`${route.method} ${route.url}`]?.();
      const res = await b.request(route.method, url, body ?? (route.method === 'GET' || route.method === 'DELETE' ? undefined : {}));
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(404);
    }
    // Nothing of A's changed.
    const roles = (await a.get('/api/roles/')).json().results.map((r: { name: string }) => r.name);
    expect(roles).toContain('first guides');
    const member = (await a.get(`/api/team-members/${A.member}/`)).json();
    expect(member).toMatchObject({ first_name: 'Mia', status: 'active' });
    const exp = (await a.get(`/api/experiences/${A.experience}/`)).json();
    expect(exp).toMatchObject({ title: 'first tour', status: 'Active' });
    expect(exp.images).toHaveLength(2);
    expect(exp.prices[0].retail_price).toBe(4900);
    expect((await a.get(`/api/inventory-items/${A.item}/`)).json().name).toBe('first lunch');
    expect((await a.get(`/api/bookings/${A.booking}/`)).json()).toMatchObject({ status: 'Confirmed', attendance: 'Open' });
    expect((await a.get(`/api/orders/${A.order}/`)).json()).toMatchObject({ status: 'Confirmed', notes: '', paid: 100, payment_status: 'Partially paid' });
    expect((await a.get(`/api/customers/${A.customer}/`)).json().first_name).toBe('Guest');
    expect((await a.get('/api/cart/')).json().lines).toHaveLength(1);
  });

  it('never lists another organisation’s rows', async () => {
    // Lists: GET routes without a path parameter (an id, or an invitation's token).
    const lists = signedInRoutes().filter((r) => r.method === 'GET' && !r.url.includes(':'));
    expect(lists.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/roles/', '/api/team-members/', '/api/users/']));
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const since = new Date(Date.now() - 300 * 86_400_000).toISOString().slice(0, 10);
    // Lists that need a parameter get the second organisation's own.
    const query: Record<string, () => string> = {
      '/api/schedule-rules/': () => `?experience=${B.experience}`,
      '/api/bookings/check-availability/': () => `?experience=${B.experience}&date=${day}`,
      '/api/capacity/calendar/': () => `?from=${day}&to=${day}`,
      '/api/bookings/calendar/': () => `?experience=${B.experience}&from=${day}&to=${day}`,
      '/api/capacity/by-date/': () => `?date=${day}`,
      '/api/pools/day/': () => `?date=${day}`,
      '/api/bookings/by-date/': () => `?date=${day}`,
      '/api/check-in/departures/': () => `?date=${day}`,
      '/api/check-in/tickets/': () => `?slots=${A.slot},${B.slot}`,
      '/api/manifests/': () => `?date=${day}`,
      '/api/guides/me/departures/': () => `?from=${day}&to=${day}`,
      '/api/manifests/export.csv': () => `?date=${day}`,
      '/api/manifests/manifests.pdf': () => `?date=${day}`,
      '/api/locations/autocomplete/': () => '?q=Zermatt',
      '/api/locations/forward-geocode/': () => '?q=Zermatt',
      // The accounting export: a period (at most 366 days) that holds the first organisation's rows too.
      '/api/accounting/summary/': () => `?from=${since}&to=${day}`,
      '/api/accounting/journal.csv': () => `?from=${since}&to=${day}`,
      '/api/accounting/documents.zip': () => `?from=${since}&to=${day}`,
    };
    for (const route of lists) {
      const res = await b.get(`${route.url}${query[route.url]?.() ?? ''}`);
      expect(res.statusCode, route.url).toBe(200);
      for (const id of Object.values(A)) expect(res.body, `${route.url} leaks ${id}`).not.toContain(id);
      expect(res.body).not.toContain('first.test');
    }
  });

  it('does not let a role of one organisation be given to a member of another', async () => {
    const res = await b.patch(`/api/team-members/${B.member}/`, { role: A.role });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].attr).toBe('role');
  });
});

describe('row-level security', () => {
  const db = () => t.database.db;
  const ids = async (tx: Db, table: 'users' | 'role') =>
    ((await tx.execute(sql.raw(`select account_id from ${table}`))) as unknown as { rows: { account_id: string }[] }).rows.map((r) => r.account_id);

  it('returns only the tenant’s rows to a query that forgot its filter', async () => {
    for (const table of ['users', 'role'] as const) {
      const seen = await inTenant(db(), A.account!, (tx) => ids(tx, table));
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([A.account]));
      const seenB = await inTenant(db(), B.account!, (tx) => ids(tx, table));
      expect(new Set(seenB)).toEqual(new Set([B.account]));
      // Outside any tenant (the system role) both organisations' rows are there: only RLS hides them.
      const all = new Set(await ids(db(), table));
      expect(all.has(A.account!) && all.has(B.account!)).toBe(true);
    }
  });

  it('returns nothing when the tenant setting is missing', async () => {
    const seen = await db().transaction(async (tx) => {
      await tx.execute(sql`set local role tourdesk_app`);
      return ids(tx as unknown as Db, 'users');
    });
    expect(seen).toEqual([]);
  });

  it('refuses to write a row into another organisation', async () => {
    await expect(
      inTenant(db(), A.account!, (tx) => tx.insert(role).values({ account_id: B.account!, name: 'Planted', permission_set_ids: [] })),
    ).rejects.toThrow();
    await expect(
      inTenant(db(), A.account!, (tx) => tx.update(users).set({ first_name: 'Hacked' }).where(eq(users.account_id, B.account!)).returning()),
    ).resolves.toEqual([]);
  });

  // partner_isolation: a table both partners of a partnership read (db/partners-schema.ts).
  it('covers every table that belongs to an organisation', async () => {
    const result = (await db().execute(sql`
      select c.relname as table, c.relrowsecurity as rls,
             exists (select 1 from pg_policies p where p.tablename = c.relname and p.policyname in ('tenant_isolation', 'partner_isolation')) as policy
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and (c.relname = 'base_account' or exists (
          select 1 from information_schema.columns col
          where col.table_schema = 'public' and col.table_name = c.relname and col.column_name = 'account_id'))
    `)) as unknown as { rows: { table: string; rls: boolean; policy: boolean }[] };
    expect(result.rows.length).toBeGreaterThanOrEqual(5);
    for (const row of result.rows) expect(row, row.table).toMatchObject({ rls: true, policy: true });
  });
});

describe('plan features', () => {
  it('refuses a route whose plan feature the organisation’s plan lacks, with the spec’s message', async () => {
    // Plans are the owner's to write (the application's role only reads them).
    await expect(t.database.db.insert(subscriptionTier).values({ id: 'test-no-team', name: 'No team', kind: 'supplier', features: ['experiences'] })).rejects.toMatchObject({ cause: { code: '42501' } });
    await t.database.asOwner((tx) => tx.insert(subscriptionTier).values({ id: 'test-no-team', name: 'No team', kind: 'supplier', features: ['experiences'] }));
    await t.database.db.update(baseAccount).set({ subscription_tier_id: 'test-no-team' }).where(eq(baseAccount.id, B.account!));
    const res = await b.get('/api/roles/');
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0]).toMatchObject({
      code: 'plan_required',
      detail: 'Your current subscription plan does not grant access to this feature!',
    });
    expect((await b.get('/api/users/me/')).json().base_account.active_subscription_features).toEqual(['experiences']);
    expect((await a.get('/api/roles/')).statusCode).toBe(200);
  });

  it('answers 401 without a session on every signed-in route', async () => {
    const { Browser } = await import('./http-client');
    const anonymous = new Browser(t.app, 'first.localhost');
    for (const route of signedInRoutes()) {
      const url = route.url.replace(':id', A.role!);
      const res = await anonymous.request(route.method, url, route.method === 'GET' ? undefined : {});
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });
});
