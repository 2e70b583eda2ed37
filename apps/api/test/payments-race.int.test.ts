import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as PaymentQueries from '../src/modules/payments/queries';
import type { TenantCtx } from '../src/lib/crud';
import { onlineCheckout, order, orderPayment } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * A paid session is finished by whoever comes first: Stripe's event (a job) or the customer's
 * page asking (several tabs, a reload). Each takes the online payment's row lock, so the first
 * books and the others find it done. With the lock switched off (here, in this file:
 * lockCheckout replaced by the same query without FOR UPDATE) the askers all find it open: one
 * books, the others find the cart's lines gone and refund the money of a booked order. PGlite
 * runs one transaction at a time, so the race itself can only happen on the PostgreSQL server
 * (npm run test:db in CI); on PGlite the protected case runs alone.
 */
const lock = vi.hoisted(() => ({ off: false }));
vi.mock('../src/modules/payments/queries', async (importOriginal) => {
  const real = await importOriginal<typeof PaymentQueries>();
  const { onlineCheckout: table } = await import('../src/db/schema');
  return {
    ...real,
    async lockCheckout(ctx: TenantCtx, where: { id?: string; session?: string }) {
      if (!lock.off) return real.lockCheckout(ctx, where);
      const [row] = await ctx.tx
        .select()
        .from(table)
        .where(and(eq(table.account_id, ctx.accountId), where.id ? eq(table.id, where.id) : eq(table.session_id, where.session!)));
      return row;
    },
  };
});

const SECRET = 'whsec_test_race';
const ZONE = 'Europe/Zurich';
const base = '/api/web-stores/race';
let fake: FakeStripe;
let t: TestApp;
let sink: MailSink;
let guest: Browser;
let tour: { id: string; category: string };

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: SECRET });
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, STRIPE_SECRET_KEY: 'sk_test_race', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhook(`${address}/api/stripe/webhook/`, SECRET);
  const owner = await createOrganisation(t.app, sink, { subdomain: 'race', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Race tour');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  const store = (await owner.post('/api/stores/', { name: 'Race shop', slug: 'race' })).json().id;
  await owner.post(`/api/stores/${store}/add-experience/`, { experiences: [tour.id] });
  await owner.post('/api/payment-providers/connect/');
  const account = (await owner.get('/api/payment-providers/oauth/')).json().account as string;
  await fake.completeOnboarding(account);
  for (let i = 0; i < 150; i += 1) {
    if ((await owner.patch(`/api/stores/${store}/`, { payment_options: ['pay_on_site', 'online'] })).statusCode === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  guest = new Browser(t.app, 'race.localhost');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await sink?.close();
});

/** A paid session whose event has not come yet, and five pages asking about it at once. */
async function paidAndAskedAtOnce(who: string) {
  const { id, token } = (await guest.post(`${base}/carts/`)).json();
  const slotId = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${addDays(todayIn(ZONE), 5)}`)).json().slots[0].id as string;
  expect((await guest.post(`${base}/carts/${id}/lines/`, { slot: slotId, quantities: { [tour.category]: 1 } }, { 'x-cart-token': token })).statusCode).toBe(201);
  const started = await guest.post(`${base}/payments/`, { cart: id, customer: { email: `${who}@example.com`, first_name: who, last_name: 'Racer' }, accept_terms: true, payment_option: 'online' }, { 'x-cart-token': token });
  expect(started.statusCode, started.body).toBe(201);
  const { checkout, token: secret } = started.json() as { checkout: string; token: string };
  const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout)))[0]!;
  fake.pauseWebhooks();
  await fake.payCheckoutSession(row.session_id!);
  const answers = await Promise.all(Array.from({ length: 5 }, () => guest.get(`${base}/payments/${checkout}/`, { 'x-order-token': secret })));
  await fake.resumeWebhooks();
  await new Promise((r) => setTimeout(r, 500));
  const done = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, checkout)))[0]!;
  const orders = await t.database.db.select({ id: order.id }).from(order).where(sql`${order.customer_id} in (select id from customer where email = ${`${who}@example.com`})`);
  const payments = await t.database.db.select().from(orderPayment).where(eq(orderPayment.provider_ref, done.payment_intent ?? ''));
  const refunds = [...fake.state.refunds.values()].filter((r) => r.payment_intent === done.payment_intent);
  return { answers: answers.map((a) => a.statusCode), status: done.status, orders: orders.length, payments: payments.length, refunds: refunds.length };
}

describe('a paid session finished by several callers at once', () => {
  it('makes one order and one payment, and refunds nothing', async () => {
    const r = await paidAndAskedAtOnce('locked');
    expect(r).toEqual({ answers: [200, 200, 200, 200, 200], status: 'paid', orders: 1, payments: 1, refunds: 0 });
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('with the row lock switched off, refunds the money of an order it booked', async () => {
    lock.off = true;
    try {
      const r = await paidAndAskedAtOnce('unlocked');
      expect(r.orders).toBe(1);
      expect(r.refunds).toBeGreaterThan(0);
    } finally {
      lock.off = false;
    }
  });
});
