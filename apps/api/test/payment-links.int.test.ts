import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAYMENT_LINK_CALLS_PER_LINK } from '../src/modules/payments/link-routes';
import type * as PaymentQueries from '../src/modules/payments/queries';
import { onlineCheckout, orderPayment } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { createTestApp, type TestApp, until } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/** The order's links' lock, switched off by the test that shows the race it prevents. */
const lockOff = vi.hoisted(() => ({ on: false }));
vi.mock('../src/modules/payments/queries', async (importOriginal) => {
  const real = await importOriginal<typeof PaymentQueries>();
  return { ...real, lockOrderLinks: (...args: Parameters<typeof real.lockOrderLinks>) => (lockOff.on ? Promise.resolve() : real.lockOrderLinks(...args)) };
});

/**
 * Payment links, through the official SDK against the local fake of Stripe: staff e-mail a link
 * for an order's balance; the customer's page shows what is due when they open it; paying makes a
 * Checkout session for that amount on the organisation's connected account, and Stripe's signed
 * event (or the customer's return) records the payment as every online payment is recorded. Paid
 * up, the link says so and sends nobody to Stripe; a balance paid at the desk meanwhile is
 * refunded; another organisation sees nothing of it.
 */
const SECRET = 'whsec_test_links';
const ZONE = 'Europe/Zurich';
let fake: FakeStripe;
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
let customerBrowser: Browser;
let tour: { id: string; category: string };
let slotId: string;
/** Another day's departure, for the tests of two links (the first day's seats are the other tests'). */
let otherDaySlot: string;

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: SECRET });
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, STRIPE_SECRET_KEY: 'sk_test_tourdesk', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhook(`${address}/api/stripe/webhook/`, SECRET);
  owner = await createOrganisation(t.app, sink, { subdomain: 'linky', currency: 'CHF', time_zone: ZONE });
  other = await createOrganisation(t.app, sink, { subdomain: 'elsewhere', currency: 'CHF', time_zone: ZONE, email: 'owner@elsewhere.test' });
  tour = await sellableExperience(owner, 'Glacier walk');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  slotId = (await owner.get(`/api/bookings/check-availability/?experience=${tour.id}&date=${addDays(todayIn(ZONE), 5)}`)).json()[0].id;
  otherDaySlot = (await owner.get(`/api/bookings/check-availability/?experience=${tour.id}&date=${addDays(todayIn(ZONE), 6)}`)).json()[0].id;
  const account = (await owner.post('/api/payment-providers/connect/')).statusCode;
  expect(account).toBe(200);
  const state = (await owner.get('/api/payment-providers/oauth/')).json();
  await fake.completeOnboarding(state.account);
  await until('charges enabled', async () => (await owner.get('/api/payment-providers/oauth/')).json().charges_enabled);
  customerBrowser = new Browser(t.app, 'linky.localhost');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await sink?.close();
});

/** A counter order of `seats` adults (49.00 each), for `who`, in `language`. */
async function counterOrder(who: string, seats = 2, language = 'en', slot = slotId) {
  const res = await owner.post('/api/orders/', { customer: { email: `${who}@example.com`, first_name: who, last_name: 'Payer' }, language, lines: [{ slot, quantities: { [tour.category]: seats } }] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; reference: string; total: number };
}
const cash = (orderId: string, amount: number) => owner.post(`/api/orders/${orderId}/payments/`, { amount, currency: 'CHF', method: 'cash', reference: '' });
const orderOf = async (id: string) => (await owner.get(`/api/orders/${id}/`)).json();
/** The link's path from the e-mail the customer got. */
async function linkFromMail(who: string, subject: RegExp) {
  const mail = await sink.latest(`${who}@example.com`, subject);
  const url = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
  expect(url.hostname).toBe('linky.localhost');
  return { mail, path: url.pathname };
}

describe('payment links', () => {
  it('e-mails a link for the balance in the order’s language; the customer pays the balance as it is when they open it, and the order is fully paid', async () => {
    const o = await counterOrder('greta', 2, 'de');
    expect((await cash(o.id, 3000)).statusCode).toBe(201);
    const sent = await owner.post(`/api/orders/${o.id}/payment-link/`);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ email: 'greta@example.com', amount: 9800 - 3000, currency: 'CHF' });
    // In the audit trail: who sent it, to whom, for how much.
    const audit = (await owner.get(`/api/orders/${o.id}/audit/`)).json();
    const events = (Array.isArray(audit) ? audit : audit.results) as { action: string; changes: Record<string, unknown> }[];
    expect(events.find((e) => e.action === 'payment link sent')?.changes).toMatchObject({ email: 'greta@example.com', amount: 6800 });

    const { mail, path } = await linkFromMail('greta', /Restbetrag/);
    expect(mail.subject).toContain(o.reference);
    expect(mail.text).toContain('68,00');
    expect(path).toMatch(/^\/pay\/[\w-]{20,}$/);
    // The job's stored data never holds the working link (sealed, lib/sealed.ts).
    const token = path.split('/')[2]!;
    const jobs = (await t.database.db.execute(sql`select data::text as d from pgboss.job where name = 'order-mail'`)) as unknown as { rows: { d: string }[] };
    expect(jobs.rows.some((r) => r.d.includes(token))).toBe(false);

    // Opened later: the page says what is due now (20.00 more was paid at the desk meanwhile), in German.
    expect((await cash(o.id, 2000)).statusCode).toBe(201);
    const page = await customerBrowser.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('lang="de"');
    expect(page.body).toContain('48,00');
    const go = await customerBrowser.get(`${path}/checkout`);
    expect(go.statusCode, go.body).toBe(303);
    const sessionId = new URL(go.headers.location as string).pathname.split('/').at(-1)!;
    const session = fake.state.checkoutSessions.get(sessionId)!;
    expect(session.amount_total).toBe(4800);
    // Opened again (a second tab): the same session, not a second one to pay.
    expect((await customerBrowser.get(`${path}/checkout`)).headers.location).toBe(go.headers.location);

    await fake.payCheckoutSession(sessionId);
    await until('paid', async () => (await orderOf(o.id)).payment_status === 'Fully paid');
    const after = await orderOf(o.id);
    expect(after).toMatchObject({ paid: 9800, balance: 0, payment_status: 'Fully paid' });
    const online = await t.database.db.select().from(orderPayment).where(eq(orderPayment.order_id, o.id));
    expect(online.filter((p) => p.method === 'online')).toEqual([expect.objectContaining({ amount: 4800, provider_ref: expect.stringMatching(/^pi_/) })]);
    // The platform's fee, as on the web store's payments (1.5 % of 48.00).
    const pi = fake.state.paymentIntents.get(online.find((p) => p.method === 'online')!.provider_ref!)!;
    expect(pi.application_fee_amount).toBe(72);

    // Back from Stripe: paid, in the customer's language; the page offers nothing more to pay.
    const back = await customerBrowser.get(`${path}/done?session_id=${sessionId}`);
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('vollständig bezahlt');
    expect(back.body).not.toContain('/checkout');
    // The duplicate event and the return recorded it once.
    expect((await t.database.db.select().from(orderPayment).where(eq(orderPayment.provider_ref, pi.id))).length).toBe(1);
  });

  // The link's row lock (links.ts: payByLink) makes this hold; without it, on PostgreSQL, three
  // sessions were made (PGlite runs one statement at a time and cannot show the race).
  it('lets one link call Stripe a customer’s number of times, not without end (a scanner, a script)', async () => {
    const o = await counterOrder('rita', 1);
    expect((await owner.post(`/api/orders/${o.id}/payment-link/`)).statusCode).toBe(201);
    const { path } = await linkFromMail('rita', /Pay what is left/);
    const answers: number[] = [];
    for (let i = 0; i < PAYMENT_LINK_CALLS_PER_LINK; i++) answers.push((await customerBrowser.get(`${path}/checkout`)).statusCode);
    expect(answers).toEqual(Array(PAYMENT_LINK_CALLS_PER_LINK).fill(303));
    const refused = await customerBrowser.get(`${path}/checkout`);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The page itself (no call to Stripe) still shows what is due.
    expect((await customerBrowser.get(path)).statusCode).toBe(200);
  });

  it('makes one Stripe session when the link is opened twice at the same moment (two tabs, a double click)', async () => {
    const o = await counterOrder('lotte', 1);
    expect((await owner.post(`/api/orders/${o.id}/payment-link/`)).statusCode).toBe(201);
    const { path } = await linkFromMail('lotte', /Pay what is left/);
    const before = fake.state.checkoutSessions.size;
    const opened = await Promise.all([1, 2, 3].map(() => customerBrowser.get(`${path}/checkout`)));
    expect(opened.map((r) => r.statusCode)).toEqual([303, 303, 303]);
    expect(new Set(opened.map((r) => r.headers.location)).size).toBe(1);
    expect(fake.state.checkoutSessions.size).toBe(before + 1);
    const rows = await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.order_id, o.id));
    expect(rows).toHaveLength(1);
  });

  /** The order's two links (sent twice) opened at the same moment: the sessions made for it. */
  async function twoLinksAtOnce(who: string) {
    const o = await counterOrder(who, 1, 'en', otherDaySlot);
    expect((await owner.post(`/api/orders/${o.id}/payment-link/`)).statusCode).toBe(201);
    const first = (await linkFromMail(who, /Pay what is left/)).path;
    expect((await owner.post(`/api/orders/${o.id}/payment-link/`)).statusCode).toBe(201);
    await until('the second e-mail', async () => (await linkFromMail(who, /Pay what is left/)).path !== first);
    const second = (await linkFromMail(who, /Pay what is left/)).path;
    const opened = await Promise.all([first, second, first, second].map((path) => customerBrowser.get(`${path}/checkout`)));
    expect(opened.map((r) => r.statusCode)).toEqual([303, 303, 303, 303]);
    const rows = await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.order_id, o.id));
    return { open: rows.filter((r) => r.status === 'open').length, pages: new Set(opened.map((r) => r.headers.location)).size };
  }

  it('makes one Stripe session for an order whose two links are opened at the same moment', async () => {
    expect(await twoLinksAtOnce('twice')).toEqual({ open: 1, pages: 1 });
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('makes a session per link when the order’s links are not serialised (the lock off)', async () => {
    lockOff.on = true;
    try {
      const { pages } = await twoLinksAtOnce('racing');
      expect(pages).toBeGreaterThan(1);
    } finally {
      lockOff.on = false;
    }
  });

  it('refuses a link once nothing is due, and the link then sends nobody to Stripe', async () => {
    const o = await counterOrder('hans', 1);
    expect((await owner.post(`/api/orders/${o.id}/payment-link/`)).statusCode).toBe(201);
    const { path } = await linkFromMail('hans', /Pay what is left/);
    expect((await cash(o.id, 4900)).statusCode).toBe(201);
    const refused = await owner.post(`/api/orders/${o.id}/payment-link/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].detail).toMatch(/fully paid/);
    const sessions = fake.state.checkoutSessions.size;
    const go = await customerBrowser.get(`${path}/checkout`);
    expect(go.statusCode).toBe(200);
    expect(go.body).toContain('Nothing is left to pay');
    expect(fake.state.checkoutSessions.size).toBe(sessions);
    // A cancelled order has nothing to pay either.
    const c = await counterOrder('ines', 1);
    expect((await owner.post(`/api/orders/${c.id}/cancel/`, {})).statusCode).toBeLessThan(300);
    expect((await owner.post(`/api/orders/${c.id}/payment-link/`)).statusCode).toBe(400);
  });

  it('refunds a link’s payment when the balance was paid at the desk while the customer was on Stripe’s page', async () => {
    const o = await counterOrder('jana', 1);
    expect((await owner.post(`/api/orders/${o.id}/payment-link/`)).statusCode).toBe(201);
    const { path } = await linkFromMail('jana', /Pay what is left/);
    const go = await customerBrowser.get(`${path}/checkout`);
    const sessionId = new URL(go.headers.location as string).pathname.split('/').at(-1)!;
    expect((await cash(o.id, 4900)).statusCode).toBe(201);
    await fake.payCheckoutSession(sessionId);
    const row = await until('refunded', async () => {
      const [r] = await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.session_id, sessionId));
      return r?.status === 'refunded' ? r : null;
    });
    expect(row.order_id).toBe(o.id);
    expect([...fake.state.refunds.values()].some((r) => r.payment_intent === row.payment_intent && r.amount === 4900)).toBe(true);
    expect(await orderOf(o.id)).toMatchObject({ paid: 4900, payment_status: 'Fully paid' });
    const back = await customerBrowser.get(`${path}/done?session_id=${sessionId}`);
    expect(back.body).toContain('goes back to your card');
  });

  it('is the organisation’s own: another one’s order is a 404, and a link answers only on its organisation’s host', async () => {
    const o = await counterOrder('karl', 1);
    expect((await other.post(`/api/orders/${o.id}/payment-link/`)).statusCode).toBe(404);
    expect((await owner.post(`/api/orders/${o.id}/payment-link/`)).statusCode).toBe(201);
    const { path } = await linkFromMail('karl', /Pay what is left/);
    const elsewhere = new Browser(t.app, 'elsewhere.localhost');
    expect((await elsewhere.get(path)).statusCode).toBe(404);
    expect((await elsewhere.get(`${path}/checkout`)).statusCode).toBe(404);
    expect((await customerBrowser.get('/pay/not-a-real-token')).statusCode).toBe(404);
    expect((await customerBrowser.get(path)).statusCode).toBe(200);
  });
});
