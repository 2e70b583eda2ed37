import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';

/**
 * The fake Stripe itself, driven through the real `stripe` SDK and verified on a webhook receiver
 * that checks every event's signature with the SDK's constructEvent, as the app will.
 */

const SECRET = 'whsec_fake_stripe_test';
let fake: FakeStripe;
let stripe: Stripe;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

/** A tiny webhook endpoint: 200 for a verified event (kept), 400 for a bad signature. */
async function startReceiver(secret: string) {
  const verifier = new Stripe('sk_test_receiver');
  const events: Stripe.Event[] = [];
  const rejected: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        events.push(verifier.webhooks.constructEvent(Buffer.concat(chunks), String(req.headers['stripe-signature']), secret));
        res.writeHead(200).end('{"received":true}');
      } catch (error) {
        rejected.push(error instanceof Error ? error.message : String(error));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`,
    events,
    rejected,
    ofType: (type: string) => events.filter((event) => event.type === type),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Submits a hosted page's form as a browser would, without following the redirect. */
function submit(url: string, fields: Record<string, string>) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields), redirect: 'manual' });
}

async function onboardedAccount(): Promise<string> {
  const account = await stripe.accounts.create({ type: 'standard', country: 'FR', email: `op-${Math.random()}@example.com` });
  await fake.completeOnboarding(account.id);
  return account.id;
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

function paymentSession(account: string, overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  return stripe.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [
        { price_data: { currency: 'eur', unit_amount: 2000, product_data: { name: 'Sunset kayak tour' } }, quantity: 2 },
        { price_data: { currency: 'eur', unit_amount: 1000, product_data: { name: 'Child' } }, quantity: 1 },
      ],
      payment_intent_data: { application_fee_amount: 250, metadata: { order_id: 'ord_1' } },
      success_url: 'http://shop.test/orders/ord_1/paid?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://shop.test/orders/ord_1',
      expires_at: inAnHour(),
      client_reference_id: 'ord_1',
      customer_email: 'guest@example.com',
      metadata: { order_id: 'ord_1' },
      ...overrides,
    },
    { stripeAccount: account },
  );
}

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  fake = await startFakeStripe({ webhookUrl: receiver.url, webhookSecret: SECRET });
  stripe = new Stripe('sk_test_fake_platform', fake.sdkOptions);
});
afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});
beforeEach(async () => {
  await fake.settled();
  receiver.events.length = 0;
  receiver.rejected.length = 0;
});

describe('Connect onboarding', () => {
  it('creates an account that cannot take payments, onboards it through the hosted page, and sends a verified account.updated', async () => {
    const account = await stripe.accounts.create({ type: 'express', country: 'FR', email: 'owner@example.com', metadata: { organisation_id: 'org_1' } });
    expect(account).toMatchObject({ object: 'account', type: 'express', country: 'FR', default_currency: 'eur', details_submitted: false, charges_enabled: false, payouts_enabled: false });
    expect(account.id).toMatch(/^acct_1[0-9A-Za-z]{15}$/);
    expect(account.metadata).toEqual({ organisation_id: 'org_1' });
    expect(account.requirements?.currently_due).toEqual(expect.arrayContaining(['external_account', 'business_profile.url']));

    const link = await stripe.accountLinks.create({ account: account.id, refresh_url: 'http://app.test/connect/refresh', return_url: 'http://app.test/connect/return', type: 'account_onboarding' });
    expect(link.object).toBe('account_link');
    expect(link.url.startsWith(`${fake.url}/connect/onboarding/${account.id}?`)).toBe(true);

    const page = await fetch(link.url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<button type="submit">Complete onboarding</button>');
    expect(html).toMatch(/<label for="business_url">Business website<\/label>/);

    const done = await submit(link.url, { business_name: 'Kayak Co', business_url: 'https://kayak.example' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('http://app.test/connect/return');

    const after = await stripe.accounts.retrieve(account.id);
    expect(after).toMatchObject({ details_submitted: true, charges_enabled: true, payouts_enabled: true });
    expect(after.requirements?.currently_due).toEqual([]);
    expect(after.business_profile?.url).toBe('https://kayak.example');

    const [updated] = receiver.ofType('account.updated');
    expect(updated?.account).toBe(account.id);
    expect((updated?.data.object as Stripe.Account).charges_enabled).toBe(true);
    expect(updated?.data.previous_attributes).toMatchObject({ charges_enabled: false });
    expect(receiver.rejected).toEqual([]);

    expect(await stripe.accounts.del(account.id)).toEqual({ id: account.id, object: 'account', deleted: true });
    await expect(stripe.accounts.retrieve(account.id)).rejects.toMatchObject({ type: 'StripePermissionError', statusCode: 403, code: 'account_invalid' });
  });

  it('exchanges an OAuth code the fake issued for the connected account, once, and deauthorizes it', async () => {
    const code = fake.issueOAuthCode();
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code });
    expect(token).toMatchObject({ token_type: 'bearer', scope: 'read_write', livemode: false });
    expect(token.stripe_user_id).toMatch(/^acct_/);
    await expect(stripe.oauth.token({ grant_type: 'authorization_code', code })).rejects.toMatchObject({ type: 'StripeInvalidGrantError' });
    await expect(stripe.oauth.token({ grant_type: 'authorization_code', code: 'ac_nope' })).rejects.toMatchObject({ type: 'StripeInvalidGrantError' });

    expect(await stripe.oauth.deauthorize({ client_id: 'ca_test_platform', stripe_user_id: token.stripe_user_id! })).toMatchObject({ stripe_user_id: token.stripe_user_id });
    await fake.settled();
    expect(receiver.ofType('account.application.deauthorized')[0]?.account).toBe(token.stripe_user_id);
    await expect(stripe.customers.list({}, { stripeAccount: token.stripe_user_id! })).rejects.toMatchObject({ statusCode: 403 });
  });
});

describe('Checkout on a connected account', () => {
  it('pays through the hosted page: declined with 4000000000000002, then paid with 4242424242424242', async () => {
    const account = await onboardedAccount();
    const session = await paymentSession(account);
    expect(session).toMatchObject({ object: 'checkout.session', mode: 'payment', status: 'open', payment_status: 'unpaid', amount_total: 5000, currency: 'eur', payment_intent: null, livemode: false });
    expect(session.id).toMatch(/^cs_test_a1[0-9A-Za-z]+$/);
    expect(session.url).toBe(`${fake.url}/pay/${session.id}`);
    expect(fake.state.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', account });
    expect(fake.state.requests.at(-1)?.body).toMatchObject({ line_items: [{ quantity: '2', price_data: { unit_amount: '2000' } }, { quantity: '1' }] });

    const page = await fetch(session.url!);
    const html = await page.text();
    expect(html).toContain('€50.00');
    expect(html).toContain('<label for="card_number">Card number</label>');
    expect(html).toContain('<button type="submit">Pay</button>');
    expect(html).toContain('<a href="http://shop.test/orders/ord_1">Back</a>');

    const declined = await submit(session.url!, { card_number: '4000 0000 0000 0002' });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    const failedIntent = (receiver.ofType('payment_intent.payment_failed')[0]?.data.object ?? null) as Stripe.PaymentIntent | null;
    expect(failedIntent?.last_payment_error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' });
    expect((await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: account })).status).toBe('open');

    const paid = await submit(session.url!, { card_number: '4242424242424242' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://shop.test/orders/ord_1/paid?session=${session.id}`);

    const complete = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] }, { stripeAccount: account });
    expect(complete).toMatchObject({ status: 'complete', payment_status: 'paid', client_reference_id: 'ord_1', metadata: { order_id: 'ord_1' } });
    const intent = complete.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({ object: 'payment_intent', id: failedIntent?.id, status: 'succeeded', amount: 5000, amount_received: 5000, application_fee_amount: 250, metadata: { order_id: 'ord_1' } });
    expect(intent.latest_charge).toMatch(/^ch_3[0-9A-Za-z]+$/);
    expect(await stripe.paymentIntents.retrieve(intent.id, {}, { stripeAccount: account })).toMatchObject({ status: 'succeeded' });

    const completed = receiver.ofType('checkout.session.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ account, data: { object: { id: session.id, payment_status: 'paid', payment_intent: intent.id } } });
    expect(receiver.ofType('payment_intent.succeeded')[0]).toMatchObject({ account, data: { object: { id: intent.id, status: 'succeeded' } } });
    expect(receiver.rejected).toEqual([]);
    expect(await (await fetch(session.url!)).text()).toContain('This payment is complete.');
  });

  it('refuses what Stripe refuses, naming the parameter', async () => {
    const account = await onboardedAccount();
    await expect(paymentSession(account, { success_url: undefined })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, param: 'success_url', code: 'parameter_missing' });
    await expect(paymentSession(account, { line_items: undefined })).rejects.toMatchObject({ param: 'line_items' });
    await expect(paymentSession(account, { line_items: [{ price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'x' } } }] })).rejects.toMatchObject({ param: 'line_items[0][quantity]' });
    await expect(paymentSession(account, { expires_at: Math.floor(Date.now() / 1000) + 600 })).rejects.toMatchObject({ param: 'expires_at' });
    await expect(stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price_data: { currency: 'eur', unit_amount: 5000, product_data: { name: 'x' } }, quantity: 1 }], payment_intent_data: { application_fee_amount: 1 }, success_url: 'http://shop.test/ok' })).rejects.toMatchObject({
      param: 'payment_intent_data[application_fee_amount]',
    });
  });

  it('declines a server-side confirmation with 402 card_error', async () => {
    const account = await onboardedAccount();
    const error = await stripe.paymentIntents.create({ amount: 3000, currency: 'eur', payment_method: 'pm_card_chargeDeclined', confirm: true }, { stripeAccount: account }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline' });
    const ok = await stripe.paymentIntents.create({ amount: 3000, currency: 'eur', payment_method: 'pm_card_visa', confirm: true }, { stripeAccount: account });
    expect(ok.status).toBe('succeeded');
  });

  it('expires a session through the API: checkout.session.expired, and the page says so', async () => {
    const account = await onboardedAccount();
    const session = await paymentSession(account);
    const expired = await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: account });
    expect(expired).toMatchObject({ status: 'expired', payment_status: 'unpaid', url: null });
    await fake.settled();
    expect(receiver.ofType('checkout.session.expired')).toMatchObject([{ account, data: { object: { id: session.id, status: 'expired' } } }]);

    const page = await fetch(session.url!);
    expect(await page.text()).toContain('This payment page has expired');
    expect((await submit(session.url!, { card_number: '4242424242424242' })).status).toBe(410);
    await expect(stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: account })).rejects.toMatchObject({ statusCode: 400 });

    const other = await paymentSession(account);
    await fake.expireCheckoutSession(other.id);
    expect(receiver.ofType('checkout.session.expired').map((event) => (event.data.object as Stripe.Checkout.Session).id)).toEqual([session.id, other.id]);
  });

  it('refunds in part, then the rest, then refuses one too many; each sends charge.refunded', async () => {
    const account = await onboardedAccount();
    const session = await paymentSession(account);
    await fake.payCheckoutSession(session.id);
    const intentId = fake.state.checkoutSessions.get(session.id)!.payment_intent as string;

    const part = await stripe.refunds.create({ payment_intent: intentId, amount: 2000, reason: 'requested_by_customer', metadata: { order_id: 'ord_1' } }, { stripeAccount: account });
    expect(part).toMatchObject({ object: 'refund', status: 'succeeded', amount: 2000, currency: 'eur', payment_intent: intentId, reason: 'requested_by_customer', metadata: { order_id: 'ord_1' } });
    await expect(stripe.refunds.create({ payment_intent: intentId, amount: 3001 }, { stripeAccount: account })).rejects.toMatchObject({ statusCode: 400, code: 'amount_too_large', param: 'amount' });
    const rest = await stripe.refunds.create({ payment_intent: intentId }, { stripeAccount: account });
    expect(rest.amount).toBe(3000);
    await expect(stripe.refunds.create({ payment_intent: intentId }, { stripeAccount: account })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'charge_already_refunded' });
    expect(await stripe.refunds.retrieve(part.id, {}, { stripeAccount: account })).toMatchObject({ id: part.id, amount: 2000 });

    await fake.settled();
    const refunded = receiver.ofType('charge.refunded').map((event) => event.data.object as Stripe.Charge);
    expect(refunded.map((charge) => [charge.amount_refunded, charge.refunded])).toEqual([
      [2000, false],
      [5000, true],
    ]);
    expect(receiver.ofType('charge.refunded').every((event) => event.account === account)).toBe(true);
  });

  it('answers pending for a refund of the card 4000000000007726, and ends a refund later: succeeded, or failed with its money back on the charge', async () => {
    const account = await onboardedAccount();
    const session = await paymentSession(account);
    await fake.payCheckoutSession(session.id, { card: '4000000000007726' });
    const intentId = fake.state.checkoutSessions.get(session.id)!.payment_intent as string;
    const first = await stripe.refunds.create({ payment_intent: intentId, amount: 1000 }, { stripeAccount: account });
    expect(first.status).toBe('pending');
    const second = await stripe.refunds.create({ payment_intent: intentId, amount: 2000 }, { stripeAccount: account });
    expect(second.status).toBe('pending');
    expect(await fake.finishRefund(first.id, 'succeeded')).toMatchObject({ status: 'succeeded' });
    expect(await fake.finishRefund(second.id, 'failed')).toMatchObject({ status: 'failed', failure_reason: 'expired_or_canceled_card' });
    expect((await stripe.refunds.retrieve(second.id, {}, { stripeAccount: account })).status).toBe('failed');
    expect(fake.state.charges.get(first.charge as string)!.amount_refunded).toBe(1000);
    await expect(fake.finishRefund(second.id, 'succeeded')).rejects.toThrow(/is failed/);
    await fake.settled();
    const updates = receiver.ofType('charge.refund.updated').map((event) => event.data.object as Stripe.Refund);
    expect(updates.filter((r) => r.id === first.id || r.id === second.id).map((r) => [r.id, r.status])).toEqual([
      [first.id, 'succeeded'],
      [second.id, 'failed'],
    ]);
    expect(receiver.ofType('refund.failed').map((event) => (event.data.object as Stripe.Refund).id)).toContain(second.id);
    // Any other card's refunds succeed at once.
    const other = await paymentSession(account);
    await fake.payCheckoutSession(other.id);
    const ok = await stripe.refunds.create({ payment_intent: fake.state.checkoutSessions.get(other.id)!.payment_intent as string, amount: 500 }, { stripeAccount: account });
    expect(ok.status).toBe('succeeded');
  });
});

describe('Idempotency and accounts', () => {
  it('replays a request with the same key and parameters, and refuses the key with other parameters', async () => {
    const first = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'customer-1' });
    const again = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'customer-1' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect([...fake.state.customers.values()].filter((c) => c.email === 'a@example.com')).toHaveLength(1);
    await expect(stripe.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'customer-1' })).rejects.toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400 });

    // The key is scoped to the account: on a connected account it is a new request.
    const account = await onboardedAccount();
    const elsewhere = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'customer-1', stripeAccount: account });
    expect(elsewhere.id).not.toBe(first.id);

    // Concurrent retries of one checkout make one session (and so one payment).
    const retried = await Promise.all([1, 2, 3].map(() => stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price_data: { currency: 'eur', unit_amount: 900, product_data: { name: 'x' } }, quantity: 1 }], success_url: 'http://shop.test/ok' }, { stripeAccount: account, idempotencyKey: 'order-9' })));
    expect(new Set(retried.map((s) => s.id)).size).toBe(1);
    expect(fake.state.requests.filter((r) => r.idempotencyKey === 'order-9' && r.replayed)).toHaveLength(2);
  });

  it('keeps objects on their connected account', async () => {
    const a = await onboardedAccount();
    const b = await onboardedAccount();
    const session = await paymentSession(a);
    await expect(stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: b })).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
    await expect(stripe.checkout.sessions.retrieve(session.id)).rejects.toMatchObject({ statusCode: 404 });
    await fake.payCheckoutSession(session.id);
    const intent = fake.state.checkoutSessions.get(session.id)!.payment_intent as string;
    expect(fake.state.owners.get(intent)).toBe(a);
    await expect(stripe.paymentIntents.retrieve(intent, {}, { stripeAccount: b })).rejects.toMatchObject({ statusCode: 404 });
    await expect(stripe.refunds.create({ payment_intent: intent }, { stripeAccount: b })).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing' });
    await expect(stripe.customers.list({}, { stripeAccount: 'acct_doesnotexist' })).rejects.toMatchObject({ type: 'StripePermissionError', code: 'account_invalid' });
  });
});

describe('Billing on the platform', () => {
  it('subscribes with a trial through Checkout, changes the plan, and cancels through the customer portal', async () => {
    const customer = await stripe.customers.create({ email: 'owner@kayak.example', metadata: { organisation_id: 'org_1' } });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price_data: { currency: 'eur', unit_amount: 2900, recurring: { interval: 'month' }, product_data: { name: 'Pro' } }, quantity: 1 }],
      subscription_data: { trial_period_days: 14, metadata: { tier: 'pro' } },
      success_url: 'http://app.test/settings/subscription?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.test/settings/subscription',
    });
    expect(session).toMatchObject({ mode: 'subscription', status: 'open', amount_total: 0 });
    const html = await (await fetch(session.url!)).text();
    expect(html).toContain('€29.00 per month');
    expect(html).toContain('14 days free');

    const done = await submit(session.url!, { card_number: '4242424242424242' });
    expect(done.headers.get('location')).toBe(`http://app.test/settings/subscription?session=${session.id}`);
    const complete = await stripe.checkout.sessions.retrieve(session.id);
    expect(complete).toMatchObject({ status: 'complete', payment_status: 'no_payment_required', customer: customer.id });
    const subscription = await stripe.subscriptions.retrieve(complete.subscription as string);
    expect(subscription).toMatchObject({ status: 'trialing', customer: customer.id, metadata: { tier: 'pro' }, cancel_at_period_end: false });
    expect(subscription.trial_end! - subscription.trial_start!).toBe(14 * 86_400);
    expect(subscription.items.data[0]?.price).toMatchObject({ unit_amount: 2900, currency: 'eur', recurring: { interval: 'month' } });
    expect(receiver.ofType('customer.subscription.created')[0]?.data.object).toMatchObject({ id: subscription.id, status: 'trialing' });
    expect(receiver.ofType('checkout.session.completed')[0]?.account).toBeUndefined();

    const item = subscription.items.data[0]!;
    const changed = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price_data: { currency: 'eur', product: item.price.product as string, unit_amount: 29000, recurring: { interval: 'year' } } }],
    });
    expect(changed.items.data).toHaveLength(1);
    expect(changed.items.data[0]?.price).toMatchObject({ unit_amount: 29000, recurring: { interval: 'year' } });
    await fake.settled();
    expect(receiver.ofType('customer.subscription.updated')[0]?.data.previous_attributes).toHaveProperty('items');

    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://app.test/settings/subscription' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, url: `${fake.url}/portal/${portal.id}` });
    const portalHtml = await (await fetch(portal.url)).text();
    expect(portalHtml).toContain('Cancel plan');
    expect(portalHtml).toContain('Pro');
    const canceled = await submit(portal.url, { subscription: subscription.id });
    expect(canceled.status).toBe(303);
    expect(canceled.headers.get('location')).toBe('http://app.test/settings/subscription');
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'canceled' });
    expect(receiver.ofType('customer.subscription.deleted')[0]?.data.object).toMatchObject({ id: subscription.id, status: 'canceled' });
    expect(receiver.rejected).toEqual([]);
  });
});

describe('Controls and unknown calls', () => {
  it('sends signed events, duplicated at once, and the app answers each copy', async () => {
    const account = await onboardedAccount();
    const session = await paymentSession(account);
    const statuses = await fake.send('checkout.session.completed', fake.state.checkoutSessions.get(session.id)!, { account, duplicate: 3, id: 'evt_dup_1' });
    expect(statuses).toEqual([200, 200, 200]);
    expect(receiver.events.filter((event) => event.id === 'evt_dup_1')).toHaveLength(3);
    expect(await fake.resend('evt_dup_1')).toEqual([200]);

    fake.setWebhook(receiver.url, 'whsec_wrong');
    expect(await fake.send('account.updated', fake.state.accounts.get(account)!, { account })).toEqual([400]);
    expect(receiver.rejected[0]).toMatch(/signature/i);
    fake.setWebhook(receiver.url, SECRET);

    fake.pauseWebhooks();
    await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: account });
    await fake.settled();
    expect(receiver.ofType('checkout.session.expired')).toEqual([]);
    expect(await fake.resumeWebhooks()).toEqual([200]);
    expect(receiver.ofType('checkout.session.expired')).toHaveLength(1);
  });

  it('answers 404 for calls it does not know and 401 without a secret key', async () => {
    await expect(stripe.rawRequest('POST', '/v1/coupons', { percent_off: 10 })).rejects.toMatchObject({ statusCode: 404, message: expect.stringContaining('Unrecognized request URL (POST: /v1/coupons)') });
    await expect(stripe.invoices.retrieve('in_123')).rejects.toMatchObject({ statusCode: 404, type: 'StripeInvalidRequestError' });
    const unknown = await fetch(`${fake.url}/nowhere`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('Unrecognized request URL (GET: /nowhere)') } });

    expect((await fetch(`${fake.url}/v1/customers`)).status).toBe(401);
    await expect(new Stripe('pk_test_publishable', fake.sdkOptions).customers.list()).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
  });
});
