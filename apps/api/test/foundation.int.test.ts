import SwaggerParser from '@apidevtools/swagger-parser';
import { ZErrorEnvelope } from '@tourdesk/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseAccount, invoice, order, store, storeVisit, systemNotification, users } from '../src/db/schema';
import { isApiPath } from '../src/lib/access';
import { seedDemo } from '../src/seed/demo';
import { createTestApp, type TestApp } from './harness';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    configure(app) {
      // Deliberately failing routes that exercise the one error handler.
      app.post(
        '/api/test-echo/',
        {
          config: { access: { public: true, reason: 'test' } },
          schema: { body: z.object({ name: z.string().min(2), price: z.number().int().min(0) }) },
        },
        async (request) => request.body,
      );
      app.get('/api/test-crash/', { config: { access: { public: true, reason: 'test' } } }, async () => {
        throw new Error('secret internals: password=hunter2 at /srv/app.ts:12');
      });
    },
  });
});
afterAll(() => t?.close());

const expectEnvelope = (body: unknown) => ZErrorEnvelope.parse(body);

describe('health', () => {
  it('reports the database engine and answers 200', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.database.ok).toBe(true);
    expect(body.database.engine).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
    expect(body.database.version).toMatch(/^\d+/);
  });
});

describe('error envelope', () => {
  it('answers an unknown /api/ path with 404 in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing/' });
    expect(res.statusCode).toBe(404);
    expect(expectEnvelope(res.json())).toEqual({
      type: 'client_error',
      errors: [{ code: 'not_found', detail: 'Not found.', attr: null }],
    });
  });

  it('gives one validation item per bad field, naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test-echo/', payload: { name: 'x', price: -1.5 } });
    expect(res.statusCode).toBe(400);
    const body = expectEnvelope(res.json());
    expect(body.type).toBe('validation_error');
    expect(body.errors.map((e) => e.attr).sort()).toEqual(['name', 'price']);
  });

  it('marks a missing field as required', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/test-echo/', payload: { name: 'ok' } });
    expect(res.statusCode).toBe(400);
    expect(expectEnvelope(res.json()).errors).toEqual([
      { code: 'required', detail: 'This field is required.', attr: 'price' },
    ]);
  });

  it('answers malformed JSON with a 400 parse error, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo/',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "abc", ',
    });
    expect(res.statusCode).toBe(400);
    const body = expectEnvelope(res.json());
    expect(body.type).toBe('client_error');
    expect(body.errors[0]?.code).toBe('parse_error');
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo/',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(expectEnvelope(res.json()).errors[0]?.code).toBe('unsupported_media_type');
  });

  it('never shows internals in a 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test-crash/' });
    expect(res.statusCode).toBe(500);
    const body = expectEnvelope(res.json());
    expect(body.type).toBe('server_error');
    expect(res.body).not.toMatch(/secret|hunter2|app\.ts|stack/);
  });
});

describe('pagination', () => {
  beforeAll(async () => {
    await t.database.db.insert(systemNotification).values(
      Array.from({ length: 12 }, (_, i) => ({
        title: `Notice ${String(i).padStart(2, '0')}`,
        body: 'Body',
        level: i % 3 === 0 ? 'warning' : 'info',
        published_at: new Date(Date.UTC(2026, 0, 1 + i)),
      })),
    );
  });

  it('pages in the spec envelope with next and previous links', async () => {
    const first = (await t.app.inject({ url: '/api/system-notifications/?page_size=5' })).json();
    expect(first).toMatchObject({ count: 12, total_pages: 3, current_page_number: 1, previous: null });
    expect(first.results).toHaveLength(5);
    expect(first.results[0].title).toBe('Notice 11');
    const next = new URL(first.next);
    expect(next.pathname).toBe('/api/system-notifications/');
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('page_size')).toBe('5');

    const last = (await t.app.inject({ url: '/api/system-notifications/?page_size=5&page=3' })).json();
    expect(last.results.map((r: { title: string }) => r.title)).toEqual(['Notice 01', 'Notice 00']);
    expect(last.next).toBeNull();
    expect(new URL(last.previous).searchParams.get('page')).toBe('2');
  });

  it('defaults to 25 a page', async () => {
    const body = (await t.app.inject({ url: '/api/system-notifications/' })).json();
    expect(body.results).toHaveLength(12);
    expect(body.total_pages).toBe(1);
  });

  it('applies filters in SQL before counting', async () => {
    const body = (await t.app.inject({ url: '/api/system-notifications/?level=warning' })).json();
    expect(body.count).toBe(4);
    expect(body.results.every((r: { level: string }) => r.level === 'warning')).toBe(true);
  });

  it('answers a page past the end with 404', async () => {
    const res = await t.app.inject({ url: '/api/system-notifications/?page_size=5&page=4' });
    expect(res.statusCode).toBe(404);
    expect(expectEnvelope(res.json()).errors[0]).toMatchObject({ detail: 'Invalid page.', attr: 'page' });
  });

  it.each(['7', '0', 'abc', '100'])('refuses page_size=%s with 400 naming page_size', async (size) => {
    const res = await t.app.inject({ url: `/api/system-notifications/?page_size=${size}` });
    expect(res.statusCode).toBe(400);
    expect(expectEnvelope(res.json()).errors[0]?.attr).toBe('page_size');
  });

  it.each(['0', '-1', '1.5'])('refuses page=%s with 400 naming page', async (page) => {
    const res = await t.app.inject({ url: `/api/system-notifications/?page=${page}` });
    expect(res.statusCode).toBe(400);
    expect(expectEnvelope(res.json()).errors[0]?.attr).toBe('page');
  });

  it('retrieves one item and answers 404 or 400 for unknown and malformed ids', async () => {
    const list = (await t.app.inject({ url: '/api/system-notifications/?page_size=5' })).json();
    const id = list.results[0].id;
    const one = await t.app.inject({ url: `/api/system-notifications/${id}/` });
    expect(one.statusCode).toBe(200);
    expect(one.json().id).toBe(id);
    const missing = await t.app.inject({ url: '/api/system-notifications/00000000-0000-4000-8000-000000000000/' });
    expect(missing.statusCode).toBe(404);
    const malformed = await t.app.inject({ url: '/api/system-notifications/not-a-uuid/' });
    expect(malformed.statusCode).toBe(400);
    expect(expectEnvelope(malformed.json()).errors[0]?.attr).toBe('id');
  });
});

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3 document generated from the route schemas', async () => {
    const res = await t.app.inject({ url: '/api/schema/' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/health/', '/api/system-notifications/', '/api/system-notifications/{id}/']),
    );
    const params = doc.paths['/api/system-notifications/'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['page', 'page_size', 'level']));
  });

  it('serves a browsable docs page', async () => {
    const res = await t.app.inject({ url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('route declarations', () => {
  it('every /api/ route declares its access (permissions and features, or public with a reason)', () => {
    const apiRoutes = t.app.routeCatalog.filter((r) => isApiPath(r.url));
    expect(apiRoutes.length).toBeGreaterThan(5);
    for (const route of apiRoutes) {
      expect(route.access, `${route.method} ${route.url}`).toBeDefined();
    }
  });

  it('refuses to start when a route declares nothing', async () => {
    await expect(
      createTestApp({
        configure(app) {
          app.get('/api/undeclared/', async () => ({}));
        },
      }),
    ).rejects.toThrow(/GET \/api\/undeclared\//);
  });
});

describe('request ids', () => {
  it('returns a request id and honours a safe incoming one', async () => {
    const minted = await t.app.inject({ url: '/api/health/' });
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.app.inject({ url: '/api/health/', headers: { 'x-request-id': 'lb-1234' } });
    expect(given.headers['x-request-id']).toBe('lb-1234');
    const unsafe = await t.app.inject({ url: '/api/health/', headers: { 'x-request-id': 'a b\nc' } });
    expect(unsafe.headers['x-request-id']).not.toBe('a b\nc');
  });
});

describe('demo seed', () => {
  // Seeding the whole demo on PGlite takes tens of seconds on a busy two-core machine.
  it('creates the demo organisation once and is idempotent', { timeout: 120_000 }, async () => {
    expect(await seedDemo(t.database.db)).toBe(true);
    expect(await seedDemo(t.database.db)).toBe(false);
    const accounts = await t.database.db.select().from(baseAccount).where(eq(baseAccount.subdomain, 'demo'));
    expect(accounts).toHaveLength(1);
    const people = await t.database.db.select().from(users).where(eq(users.account_id, accounts[0]!.id));
    expect(people).toHaveLength(3);
    // The owner's password (rows come back in no particular order; the invited front desk has none yet).
    expect(people.find((p) => p.email === 'owner@demo.tourdesk.test')!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('shows a deposit: the kayak store asks for 20 %, and a web order is Partially paid with its balance due by a date', async () => {
    const [demo] = await t.database.db.select().from(baseAccount).where(eq(baseAccount.subdomain, 'demo'));
    const [shop] = await t.database.db.select().from(store).where(and(eq(store.account_id, demo!.id), eq(store.slug, 'kayak')));
    expect(shop!.deposit).toEqual({ kind: 'percent', value: 2000, balance_due_days: 3 });
    const orders = await t.database.db.select().from(order).where(eq(order.account_id, demo!.id));
    const deposit = orders.find((o) => o.balance_due_on !== null);
    expect(deposit).toMatchObject({ payment_status: 'Partially paid', store_id: shop!.id });
    expect(deposit!.paid).toBe(Math.round(deposit!.total * 0.2));
  });

  it('shows the money cases an operator meets: a refund due, a refunded order, a corrected invoice', async () => {
    const [demo] = await t.database.db.select().from(baseAccount).where(eq(baseAccount.subdomain, 'demo'));
    const orders = await t.database.db.select().from(order).where(eq(order.account_id, demo!.id));
    // At the counter (the web store's are below).
    const cancelled = orders.filter((o) => o.status === 'Canceled' && o.store_id === null);
    // Cancelled and paid, the money still to give back; and one given back. Both keep what they sold for.
    expect(cancelled.map((o) => o.payment_status).sort()).toEqual(['Refund due', 'Refunded']);
    for (const o of cancelled) expect(o.sold_total).toBeGreaterThan(0);
    expect(cancelled.find((o) => o.payment_status === 'Refund due')!.paid).toBe(cancelled.find((o) => o.payment_status === 'Refund due')!.sold_total);
    // A corrected invoice: a credit note cancelling it, and a new invoice for what is still sold.
    const docs = await t.database.db.select().from(invoice).where(eq(invoice.account_id, demo!.id));
    const note = docs.find((d) => d.kind === 'credit_note');
    expect(note).toBeDefined();
    const credited = docs.find((d) => d.id === note!.credits_invoice_id)!;
    const replacement = docs.find((d) => d.kind === 'invoice' && d.order_id === credited.order_id && d.id !== credited.id);
    expect(replacement).toBeDefined();
    const total = (d: typeof note) => (d!.data as { total: number }).total;
    expect(total(note)).toBe(-total(credited));
    expect(total(replacement)).toBeLessThan(total(credited));
    expect(total(replacement)).toBe(orders.find((o) => o.id === credited.order_id)!.total);
  });

  it('has a web store with its offers, visits and orders made in it', async () => {
    const [demo] = await t.database.db.select().from(baseAccount).where(eq(baseAccount.subdomain, 'demo'));
    const [shop] = await t.database.db.select().from(store).where(eq(store.account_id, demo!.id));
    expect(shop).toMatchObject({ slug: 'kayak', active: true, currency: 'CHF' });
    const sold = await t.database.db.select().from(order).where(eq(order.store_id, shop!.id));
    expect(sold.length).toBeGreaterThanOrEqual(4);
    for (const o of sold) expect(o).toMatchObject({ created_by: null });
    expect(sold.filter((o) => o.status === 'Confirmed').length).toBeGreaterThanOrEqual(3);
    // One cancelled by its customer under the policy's 50 %: half kept as the cancellation fee (the
    // order's total now, its VAT at the line's rate), the other half refunded — settled.
    const [cancelled] = sold.filter((o) => o.status === 'Canceled');
    expect(cancelled).toBeDefined();
    expect(cancelled!.cancellation_fee).toBeGreaterThan(0);
    expect(cancelled).toMatchObject({ total: cancelled!.cancellation_fee, paid: cancelled!.cancellation_fee, refunded: cancelled!.sold_total - cancelled!.cancellation_fee, payment_status: 'Fully paid' });
    expect(cancelled!.cancellation_fee).toBe(cancelled!.sold_total / 2);
    expect(cancelled!.tax_total).toBeGreaterThan(0);
    expect((await t.database.db.select().from(storeVisit).where(eq(storeVisit.store_id, shop!.id))).length).toBeGreaterThan(50);
  });
});
