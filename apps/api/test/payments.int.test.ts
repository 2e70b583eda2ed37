import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlineCheckout, order, orderPayment, slot } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { createTestApp, type TestApp, until } from './harness';
import { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Money in online, through the official SDK against a local fake of Stripe's API: an Owner
 * connects the organisation's Stripe account, the web store takes payments on it with the
 * platform's fee, the order is made once Stripe says it is paid (its signed event, once), a late
 * payment whose seats are gone is refunded, an unpaid session gives its seats back, and staff
 * refund online payments through Stripe.
 */
const SECRET = 'whsec_test_tourdesk';
const ZONE = 'Europe/Zurich';
let fake: FakeStripe;
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guest: Browser;
let tour: { id: string; category: string };
let storeId: string;
let stripeAccount: string;
const base = '/api/web-stores/paddle';
const day = () => addDays(todayIn(ZONE), 6);

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: SECRET });
  sink = await startMailSink();
  // Every customer of this file books from one address (127.0.0.1), some twenty orders and payments
  // in minutes: an operator whose customers share an address raises its order limit (config.ts).
  t = await createTestApp({ env: { SMTP_URL: sink.url, STRIPE_SECRET_KEY: 'sk_test_tourdesk', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url, STORE_ORDERS_PER_ADDRESS: '100' } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhook(`${address}/api/stripe/webhook/`, SECRET);
  owner = await createOrganisation(t.app, sink, { subdomain: 'paddle', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Paddle tour');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  storeId = (await owner.post('/api/stores/', { name: 'Paddle shop', slug: 'paddle' })).json().id;
  await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [tour.id] });
  guest = new Browser(t.app, 'paddle.localhost');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await sink?.close();
});

/** A guest cart holding `seats` adults in the day's slot. */
async function heldCart(seats = 2, date = day()) {
  const { id, token } = (await guest.post(`${base}/carts/`)).json();
  const slotId = (await guest.get(`${base}/experiences/${tour.id}/day/?date=${date}`)).json().slots[0].id as string;
  const held = await guest.post(`${base}/carts/${id}/lines/`, { slot: slotId, quantities: { [tour.category]: seats } }, { 'x-cart-token': token });
  expect(held.statusCode, held.body).toBe(201);
  return { cart: id as string, token: token as string, slotId, line: held.json().lines[0].id as string };
}
const customer = (n: string) => ({ email: `${n}@example.com`, first_name: n, last_name: 'Payer' });
async function startPaying(c: { cart: string; token: string }, who: string) {
  const res = await guest.post(`${base}/payments/`, { cart: c.cart, customer: customer(who), accept_terms: true, payment_option: 'online' }, { 'x-cart-token': c.token });
  expect(res.statusCode, res.body).toBe(201);
  const started = res.json() as { checkout: string; payment_url: string; token: string };
  const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, started.checkout)))[0]!;
  return { ...started, session: row.session_id! };
}
const paymentOf = (checkout: string, token: string) => guest.get(`${base}/payments/${checkout}/`, { 'x-order-token': token });
const seatsHeld = async (slotId: string) => (await t.database.db.select({ held: slot.held, booked: slot.booked }).from(slot).where(eq(slot.id, slotId)))[0]!;

describe('payment providers: the organisation’s Stripe account', () => {
  it('is connected by an Owner through Stripe’s onboarding, and its state follows Stripe', async () => {
    const before = (await owner.get('/api/payment-providers/oauth/')).json();
    expect(before).toMatchObject({ missing_settings: [], connected: false, application_fee_bp: 150 });
    // The store cannot offer online payment before the account can take payments.
    expect((await owner.patch(`/api/stores/${storeId}/`, { payment_options: ['pay_on_site', 'online'] })).statusCode).toBe(400);
    const link = await owner.post('/api/payment-providers/connect/');
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().url).toContain(`${fake.publicUrl}/connect/onboarding/`);
    const state = (await owner.get('/api/payment-providers/oauth/')).json();
    expect(state).toMatchObject({ connected: true, details_submitted: false, charges_enabled: false });
    expect(state.requirements.length).toBeGreaterThan(0);
    stripeAccount = state.account;
    // A member who is not an Owner may not.
    const roles = (await owner.get('/api/roles/')).json().results as { id: string; is_owner: boolean }[];
    const office = (await owner.post('/api/roles/', { name: 'Office', permission_sets: ['manage_account'] })).json().id;
    const { member } = await inviteMember(t.app, sink, owner, 'paddle', 'office@paddle.test', office);
    expect(roles.length).toBeGreaterThan(0);
    expect((await member.post('/api/payment-providers/connect/')).statusCode).toBe(403);

    // Onboarding done at Stripe: its account.updated event, verified and handled once, updates the state.
    await fake.completeOnboarding(stripeAccount);
    await until('the account to be updated', async () => (await t.database.db.execute(sql`select charges_enabled from payment_account where external_id = ${stripeAccount}`) as unknown as { rows: { charges_enabled: boolean }[] }).rows[0]?.charges_enabled);
    expect((await owner.get('/api/payment-providers/oauth/')).json()).toMatchObject({ details_submitted: true, charges_enabled: true, payouts_enabled: true, requirements: [] });
    expect((await owner.patch(`/api/stores/${storeId}/`, { payment_options: ['pay_on_site', 'online'] })).statusCode).toBe(200);
    expect((await guest.get(`${base}/`)).json().payment_options).toEqual(['pay_on_site', 'online']);
  });

  it('refuses an event whose signature is not Stripe’s', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/stripe/webhook/', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=bad' }, payload: '{"id":"evt_forged","type":"checkout.session.completed"}' });
    expect(res.statusCode).toBe(400);
  });
});

describe('paying online in the web store', () => {
  it('holds the seats while the customer pays, and books them when Stripe says it is paid, with the platform’s fee', async () => {
    const c = await heldCart(2);
    const paying = await startPaying(c, 'ada');
    expect(paying.payment_url).toContain(`${fake.publicUrl}/pay/`);
    // The hold now lasts as long as the payment page.
    const line = (await t.database.db.execute(sql`select expires_at from cart_line where id = ${c.line}::uuid`)) as unknown as { rows: { expires_at: Date }[] };
    expect(new Date(line.rows[0]!.expires_at).getTime() - Date.now()).toBeGreaterThan(25 * 60_000);
    // The session is a direct charge on the organisation's account, the fee from its plan (1.5 % of 98.00).
    const session = fake.state.checkoutSessions.get(paying.session)!;
    expect(fake.state.owners.get(paying.session)).toBe(stripeAccount);
    expect(session.amount_total).toBe(9800);
    // Not paid yet: no order, whatever the browser says.
    expect((await paymentOf(paying.checkout, paying.token)).json()).toMatchObject({ status: 'open', order: null });

    await fake.payCheckoutSession(paying.session, { card: '4242424242424242' });
    const paid = await until('the order', async () => {
      const p = (await paymentOf(paying.checkout, paying.token)).json();
      return p.status === 'paid' ? p : null;
    });
    expect(paid.order).toMatchObject({ total: 9800, paid: 9800, payment_status: 'Fully paid' });
    const pi = fake.state.paymentIntents.get([...fake.state.paymentIntents.keys()].at(-1)!)!;
    expect(pi.application_fee_amount).toBe(147);
    const mail = await sink.latest('ada@example.com', /Your booking/);
    expect(mail.text).toContain(paid.order.bookings[0].ticket_code);
    expect(mail.text).toContain('#');
    const payments = await t.database.db.select().from(orderPayment).where(eq(orderPayment.provider_ref, pi.id));
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ method: 'online', amount: 9800 });
  });

  it('makes one order and one payment from a retried start, duplicated events and a page that asks at the same time', async () => {
    const c = await heldCart(1);
    // Started twice at once (a double click): one session, the same page for both.
    const [paying, again] = await Promise.all([startPaying(c, 'bo'), startPaying(c, 'bo')]);
    expect(again.checkout).toBe(paying.checkout);
    expect(again.session).toBe(paying.session);
    fake.pauseWebhooks();
    await fake.payCheckoutSession(paying.session);
    const completed = [...fake.state.events.values()].find((e) => e.type === 'checkout.session.completed' && (e.data.object as Stripe.Checkout.Session).id === paying.session)!;
    await Promise.all([fake.resend(completed.id, { duplicate: 4 }), paymentOf(paying.checkout, paying.token), paymentOf(paying.checkout, paying.token)]);
    await fake.resumeWebhooks();
    await until('paid', async () => (await paymentOf(paying.checkout, paying.token)).json().status === 'paid');
    await new Promise((r) => setTimeout(r, 500));
    const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, paying.checkout)))[0]!;
    const orders = await t.database.db.select().from(order).where(eq(order.id, row.order_id!));
    expect(orders).toHaveLength(1);
    expect(await t.database.db.select().from(orderPayment).where(eq(orderPayment.order_id, row.order_id!))).toHaveLength(1);
    expect((await t.database.db.execute(sql`select count(*)::int as n from stripe_event where id = ${completed.id}`) as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  });

  it('refuses to start again once the customer has paid, so the paid session books its order; a line named twice is charged once', async () => {
    const another = addDays(todayIn(ZONE), 8);
    const c = await heldCart(1, another);
    const paying = await startPaying(c, 'jo');
    fake.pauseWebhooks();
    await fake.payCheckoutSession(paying.session);
    // Pay clicked again (another tab, the back button) before Stripe's event came.
    const again = await guest.post(`${base}/payments/`, { cart: c.cart, customer: customer('jo'), accept_terms: true, payment_option: 'online' }, { 'x-cart-token': c.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].detail).toContain('paid for online already');
    await fake.resumeWebhooks();
    const paid = await until('paid', async () => {
      const p = (await paymentOf(paying.checkout, paying.token)).json();
      return p.status === 'paid' ? p : null;
    });
    expect(paid.order).toMatchObject({ total: 4900, paid: 4900 });

    const d = await heldCart(1, another);
    const twice = await guest.post(`${base}/payments/`, { cart: d.cart, lines: [d.line, d.line], customer: customer('kim'), accept_terms: true, payment_option: 'online' }, { 'x-cart-token': d.token });
    expect(twice.statusCode, twice.body).toBe(201);
    const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, twice.json().checkout)))[0]!;
    expect(row.amount).toBe(4900);
    expect(fake.state.checkoutSessions.get(row.session_id!)!.amount_total).toBe(4900);
  });

  it('books nothing when what Stripe took is not what the order costs, and gives the money back', async () => {
    const c = await heldCart(1, addDays(todayIn(ZONE), 9));
    const paying = await startPaying(c, 'mo');
    // As a 5,000 ISK cart sent without Stripe's decimals would be: charged a hundredth of its price.
    const session = fake.state.checkoutSessions.get(paying.session)!;
    session.amount_total = 49;
    await fake.payCheckoutSession(paying.session);
    const done = await until('refunded', async () => {
      const p = (await paymentOf(paying.checkout, paying.token)).json();
      return p.status === 'refunded' ? p : null;
    });
    expect(done.order).toBeNull();
    const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, paying.checkout)))[0]!;
    expect(row.order_id).toBeNull();
    expect([...fake.state.refunds.values()].some((r) => r.payment_intent === row.payment_intent)).toBe(true);
  });

  it('books nothing on a declined card; an unpaid session that expires gives its seats back', async () => {
    const c = await heldCart(3);
    const before = await seatsHeld(c.slotId);
    const paying = await startPaying(c, 'cy');
    const declined = await fake.payCheckoutSession(paying.session, { card: '4000000000000002' });
    expect(declined).toBeTruthy();
    expect((await paymentOf(paying.checkout, paying.token)).json().status).toBe('open');
    await fake.expireCheckoutSession(paying.session);
    await until('expired', async () => (await paymentOf(paying.checkout, paying.token)).json().status === 'expired');
    expect((await seatsHeld(c.slotId)).held).toBe(before.held - 3);
  });

  it('ends an open payment when the customer books to pay on site instead, and refuses that once the payment is made', async () => {
    const c = await heldCart(1);
    const paying = await startPaying(c, 'fio');
    const onSite = { cart: c.cart, customer: customer('fio'), accept_terms: true, payment_option: 'pay_on_site' };
    const placed = await guest.post(`${base}/orders/`, onSite, { 'x-cart-token': c.token });
    expect(placed.statusCode, placed.body).toBe(201);
    // Stripe's page can no longer take the money, and the page that asks says so.
    expect(fake.state.checkoutSessions.get(paying.session)!.status).toBe('expired');
    expect((await paymentOf(paying.checkout, paying.token)).json()).toMatchObject({ status: 'expired', order: null });

    // Paid in the other tab first: booking on site again would sell the seats twice.
    const d = await heldCart(1);
    const paid = await startPaying(d, 'gus');
    fake.pauseWebhooks();
    await fake.payCheckoutSession(paid.session);
    const refused = await guest.post(`${base}/orders/`, { ...onSite, cart: d.cart, customer: customer('gus') }, { 'x-cart-token': d.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0].detail).toContain('have been paid for online already');
    await fake.resumeWebhooks();
    // Stripe's return address carries the session id: proof enough to see the order, without its secret.
    const back = await until('paid', async () => {
      const p = (await guest.get(`${base}/payments/${paid.checkout}/?session_id=${paid.session}`)).json();
      return p.status === 'paid' ? p : null;
    });
    expect(back.order.manage_url).not.toContain('#');
    expect((await guest.get(`${base}/payments/${paid.checkout}/?session_id=cs_test_guess`)).statusCode).toBe(404);
  });

  it('gives the seats back when a delayed payment fails after the customer completed Stripe’s page', async () => {
    const c = await heldCart(2);
    const before = await seatsHeld(c.slotId);
    const paying = await startPaying(c, 'hal');
    const session = fake.state.checkoutSessions.get(paying.session)!;
    await fake.send('checkout.session.async_payment_failed', { ...session, status: 'complete', payment_status: 'unpaid' }, { account: stripeAccount });
    await until('failed', async () => (await paymentOf(paying.checkout, paying.token)).json().status === 'failed');
    expect((await seatsHeld(c.slotId)).held).toBe(before.held - 2);
    expect(await t.database.db.select().from(order).where(sql`${order.customer_id} in (select id from customer where email = 'hal@example.com')`)).toHaveLength(0);
  });

  it('books a payment that came after its hold ran out when the seats are still free, and refunds one whose seats are gone', async () => {
    // The hold ran out and the sweep took the line: the seats are free, so they are held again and booked.
    const free = await heldCart(1);
    const late = await startPaying(free, 'dee');
    await t.database.db.execute(sql`delete from cart_line where id = ${free.line}::uuid`);
    await fake.payCheckoutSession(late.session);
    const booked = await until('booked', async () => {
      const p = (await paymentOf(late.checkout, late.token)).json();
      return p.status !== 'open' ? p : null;
    });
    expect(booked.status).toBe('paid');

    // Gone: the line swept, and the slot sold out since.
    const gone = await heldCart(1);
    // Its customer chose German in the store: the note that the money went back is in German.
    await t.database.asOwner((tx) => tx.execute(sql`update cart set language = 'de' where id = ${gone.cart}::uuid`));
    const tooLate = await startPaying(gone, 'eve');
    await t.database.db.execute(sql`delete from cart_line where id = ${gone.line}::uuid`);
    await t.database.asOwner((tx) => tx.execute(sql`update slot set capacity = booked + held, capacity_by_hand = true where id = ${gone.slotId}::uuid`));
    await fake.payCheckoutSession(tooLate.session);
    const refunded = await until('refunded', async () => {
      const p = (await paymentOf(tooLate.checkout, tooLate.token)).json();
      return p.status !== 'open' ? p : null;
    });
    expect(refunded).toMatchObject({ status: 'refunded', order: null });
    const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, tooLate.checkout)))[0]!;
    expect([...fake.state.refunds.values()].some((r) => r.payment_intent === row.payment_intent && r.amount === row.amount)).toBe(true);
    const note = await sink.latest('eve@example.com', /erstattet/);
    expect(note.subject).toBe('Ihre Zahlung wurde erstattet: Die Buchung konnte nicht vorgenommen werden');
    expect(note.text).toMatch(/^Hallo eve,\n\nIhre Zahlung über 49,00\sCHF ist erst eingegangen, nachdem die Reservierung Ihrer Plätze abgelaufen war/);
    await t.database.asOwner((tx) => tx.execute(sql`update slot set capacity = 8 where id = ${gone.slotId}::uuid`));
  });
});

describe('refunds of online payments', () => {
  it('go back to the card through Stripe from the order’s payments, and a refund made at Stripe is recorded once', async () => {
    const c = await heldCart(2);
    const paying = await startPaying(c, 'fay');
    await fake.payCheckoutSession(paying.session);
    const o = (await until('paid', async () => {
      const p = (await paymentOf(paying.checkout, paying.token)).json();
      return p.status === 'paid' ? p : null;
    })).order;
    const orderId = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, paying.checkout)))[0]!.order_id!;
    const paid = (await owner.get(`/api/orders/${orderId}/payments/`)).json()[0];
    expect(paid).toMatchObject({ method: 'online', amount: o.total });
    // Nothing owed back yet: the policy (none here) gives nothing, and nothing was overpaid.
    expect((await owner.get(`/api/orders/${orderId}/refund-proposal/`)).json()).toMatchObject({ amount: 0 });
    // Online payments are recorded by Stripe, never by hand.
    expect((await owner.post(`/api/orders/${orderId}/payments/`, { amount: 100, currency: 'CHF', method: 'online' })).statusCode).toBe(400);
    const refund = await owner.request('POST', `/api/orders/${orderId}/payments/`, { amount: -3000, currency: 'CHF', method: 'online', refund_of: paid.id, reason: 'One paddler less' }, { 'idempotency-key': 'refund-fay-1' });
    expect(refund.statusCode, refund.body).toBe(201);
    expect(refund.json()).toMatchObject({ amount: -3000, kind: 'refund', method: 'online' });
    const pi = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, paying.checkout)))[0]!.payment_intent!;
    expect([...fake.state.refunds.values()].filter((r) => r.payment_intent === pi).map((r) => r.amount)).toEqual([3000]);
    // A retry with the same key changes nothing.
    await owner.request('POST', `/api/orders/${orderId}/payments/`, { amount: -3000, currency: 'CHF', method: 'online', refund_of: paid.id, reason: 'One paddler less' }, { 'idempotency-key': 'refund-fay-1' });
    expect([...fake.state.refunds.values()].filter((r) => r.payment_intent === pi)).toHaveLength(1);
    // Refunded at Stripe directly (its dashboard): its event records the rest once.
    const stripe = new Stripe('sk_test_tourdesk', fake.sdkOptions);
    await stripe.refunds.create({ payment_intent: pi, amount: 1000 }, { stripeAccount });
    await until('the refund from Stripe', async () => (await owner.get(`/api/orders/${orderId}/`)).json().refunded === 4000);
    await fake.settled();
    await new Promise((r) => setTimeout(r, 500));
    const after = (await owner.get(`/api/orders/${orderId}/payments/`)).json() as { amount: number }[];
    // Cancelled now, the order owes nothing: what is left of the payment is proposed.
    expect((await owner.post(`/api/orders/${orderId}/cancel/`)).statusCode).toBe(200);
    expect((await owner.get(`/api/orders/${orderId}/refund-proposal/`)).json()).toMatchObject({ amount: o.total - 4000 });
    expect(after.map((p) => p.amount).sort((a, b) => a - b)).toEqual([-3000, -1000, o.total]);
  });

  /** An order of two seats (98.00) paid online with `card`: its id, its payment and its payment intent. */
  async function paidOnline(who: string, card = '4242424242424242') {
    const c = await heldCart(2, addDays(todayIn(ZONE), 10));
    const paying = await startPaying(c, who);
    await fake.payCheckoutSession(paying.session, { card });
    await until('paid', async () => (await paymentOf(paying.checkout, paying.token)).json().status === 'paid');
    const row = (await t.database.db.select().from(onlineCheckout).where(eq(onlineCheckout.id, paying.checkout)))[0]!;
    const paid = (await owner.get(`/api/orders/${row.order_id}/payments/`)).json()[0] as { id: string; amount: number };
    return { orderId: row.order_id!, paid, pi: row.payment_intent! };
  }
  const refundBody = (paid: { id: string }, amount: number, method: string, reason = 'Asked for') => ({ amount: -amount, currency: 'CHF', method, refund_of: paid.id, reason });
  const settle = async () => {
    await fake.settled();
    await new Promise((r) => setTimeout(r, 700));
  };

  it('record a card refund made in Stripe after a cash refund at the desk in full: Stripe’s total is compared with the refunds that carry its reference only', async () => {
    const { orderId, paid, pi } = await paidOnline('gil');
    // Part of it given back in cash at the desk.
    const cash = await owner.post(`/api/orders/${orderId}/payments/`, refundBody(paid, 2000, 'cash', 'Cash at the desk'));
    expect(cash.statusCode, cash.body).toBe(201);
    // Then refunded to the card in Stripe's dashboard: its event records all of it, once.
    const stripe = new Stripe('sk_test_tourdesk', fake.sdkOptions);
    await stripe.refunds.create({ payment_intent: pi, amount: 3000 }, { stripeAccount });
    await settle();
    await until('the card refund', async () => (await owner.get(`/api/orders/${orderId}/`)).json().refunded === 5000, 8000).catch(() => null);
    expect((await owner.get(`/api/orders/${orderId}/`)).json()).toMatchObject({ paid: 9800 - 5000, refunded: 5000 });
    // And to the card through the order's payments: recorded once (its charge.refunded adds nothing).
    const card = await owner.request('POST', `/api/orders/${orderId}/payments/`, refundBody(paid, 1000, 'online'), { 'idempotency-key': 'refund-gil-1' });
    expect(card.statusCode, card.body).toBe(201);
    await settle();
    const payments = (await owner.get(`/api/orders/${orderId}/payments/`)).json() as { amount: number; method: string; status: string }[];
    expect(payments.map((p) => [p.method, p.amount]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['online', -3000],
      ['cash', -2000],
      ['online', -1000],
      ['online', 9800],
    ]);
    expect(payments.every((p) => p.status === 'succeeded')).toBe(true);
    // Each card refund carries Stripe's refund id; the cash one carries none.
    const refs = await t.database.db.select({ amount: orderPayment.amount, ref: orderPayment.provider_ref }).from(orderPayment).where(eq(orderPayment.order_id, orderId));
    expect(refs.filter((r) => r.amount < 0).map((r) => [r.amount, r.ref?.startsWith('re_') ?? null]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [-3000, true],
      [-2000, null],
      [-1000, true],
    ]);
    expect((await owner.get(`/api/orders/${orderId}/`)).json()).toMatchObject({ paid: 3800, refunded: 6000, payment_status: 'Partially paid' });
    expect((await owner.get(`/api/orders/${orderId}/payments/`)).json()[0]).toMatchObject({ amount: 9800, refunded: 6000 });
  });

  it('record a refund Stripe answers pending as pending: it counts in what is left to refund, becomes final when it succeeds, and is reversed in the books when it fails', async () => {
    const { orderId, paid } = await paidOnline('hil', '4000000000007726');
    const first = await owner.request('POST', `/api/orders/${orderId}/payments/`, refundBody(paid, 3000, 'online'), { 'idempotency-key': 'refund-hil-1' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ amount: -3000, kind: 'refund', method: 'online', status: 'pending' });
    await settle();
    // Stripe's charge.refunded (its total counts the pending refund) records nothing more.
    expect((await owner.get(`/api/orders/${orderId}/payments/`)).json()).toHaveLength(2);
    expect((await owner.get(`/api/orders/${orderId}/`)).json()).toMatchObject({ paid: 6800, refunded: 3000 });
    // What is left of the payment counts the pending refund: 68.00, not 98.00.
    const tooMuch = await owner.request('POST', `/api/orders/${orderId}/payments/`, refundBody(paid, 7000, 'online'), { 'idempotency-key': 'refund-hil-2' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().errors[0].detail).toContain('CHF 68.00');
    const refundIds = () => [...fake.state.refunds.values()].filter((r) => r.metadata?.tourdesk_payment === paid.id);
    expect(refundIds()).toHaveLength(1);
    // The customer is not told of a refund that may still fail.
    const refundMails = () => sink.messages.filter((m) => m.to.includes('hil@example.com') && /^Refund for your booking/.test(m.subject));
    expect(refundMails()).toHaveLength(0);

    // Stripe says it succeeded: final, and now the customer is told, once.
    await fake.finishRefund(refundIds()[0]!.id, 'succeeded');
    await until('succeeded', async () => ((await owner.get(`/api/orders/${orderId}/payments/${first.json().id}/`)).json().status === 'succeeded'));
    expect((await sink.latest('hil@example.com', /^Refund for your booking/)).text).toContain('30.00');

    // Another pending refund that fails: reversed in the books, the payment status follows, the audit trail says so.
    const second = await owner.request('POST', `/api/orders/${orderId}/payments/`, refundBody(paid, 6800, 'online'), { 'idempotency-key': 'refund-hil-3' });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({ amount: -6800, status: 'pending' });
    await settle();
    expect((await owner.get(`/api/orders/${orderId}/`)).json()).toMatchObject({ paid: 0, refunded: 9800, payment_status: 'Not paid' });
    await fake.finishRefund(refundIds().find((r) => r.amount === 6800)!.id, 'failed');
    await until('failed', async () => ((await owner.get(`/api/orders/${orderId}/payments/${second.json().id}/`)).json().status === 'failed'));
    await settle();
    expect((await owner.get(`/api/orders/${orderId}/`)).json()).toMatchObject({ paid: 6800, refunded: 3000, payment_status: 'Partially paid' });
    expect((await owner.get(`/api/orders/${orderId}/payments/`)).json().find((p: { id: string }) => p.id === paid.id)).toMatchObject({ refunded: 3000 });
    const audit = (await owner.get(`/api/orders/${orderId}/audit/`)).json() as { action: string; subject_id: string }[];
    expect(audit.filter((e) => e.subject_id === first.json().id).map((e) => e.action)).toEqual(expect.arrayContaining(['refund recorded', 'refund succeeded']));
    expect(audit.filter((e) => e.subject_id === second.json().id).map((e) => e.action)).toEqual(expect.arrayContaining(['refund recorded', 'refund failed']));
    // Its events again (Stripe retries) change nothing; what is left can be refunded again.
    await settle();
    // The failed refund was never announced; the one that went through was, once.
    expect(refundMails()).toHaveLength(1);
    expect((await owner.get(`/api/orders/${orderId}/`)).json()).toMatchObject({ paid: 6800 });
    const again = await owner.request('POST', `/api/orders/${orderId}/payments/`, refundBody(paid, 6800, 'cash', 'Cash instead'), { 'idempotency-key': 'refund-hil-4' });
    expect(again.statusCode, again.body).toBe(201);
    expect((await owner.get(`/api/orders/${orderId}/`)).json()).toMatchObject({ paid: 0, refunded: 9800 });
  });
});

describe('an organisation that removes the platform from its Stripe account', () => {
  it('is no longer connected, and its store stops offering online payment', async () => {
    const stripe = new Stripe('sk_test_tourdesk', fake.sdkOptions);
    await stripe.oauth.deauthorize({ client_id: 'ca_tourdesk', stripe_user_id: stripeAccount });
    await until('disconnected', async () => (await owner.get('/api/payment-providers/oauth/')).json().connected === false);
    expect((await guest.get(`${base}/`)).json().payment_options).toEqual(['pay_on_site']);
    const c = await heldCart(1);
    const res = await guest.post(`${base}/payments/`, { cart: c.cart, customer: customer('ivy'), accept_terms: true, payment_option: 'online' }, { 'x-cart-token': c.token });
    expect(res.statusCode).toBe(400);
  });
});
