import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount } from '../src/db/schema';
import { endOwnTrials } from '../src/modules/plans/service';
import { startFakeStripe, type FakeStripe } from './fakes/stripe';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Plans mean something: a new supplier tries Standard, then drops to Starter; the server enforces
 * features and limits on every call; a paid plan is bought through Stripe Checkout and kept
 * current by Stripe's events; a downgrade takes effect at once and keeps the data.
 */
const SECRET = 'whsec_test_plans';
let fake: FakeStripe;
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let accountId: string;

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: SECRET });
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, STRIPE_SECRET_KEY: 'sk_test_plans', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url } });
  fake.setWebhook(`${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/stripe/webhook/`, SECRET);
  owner = await createOrganisation(t.app, sink, { subdomain: 'planned' });
  accountId = (await owner.get('/api/users/me/')).json().base_account.id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await sink?.close();
});

const sub = async () => (await owner.get('/api/subscription/')).json();
const features = async () => (await owner.get('/api/users/me/')).json().base_account.active_subscription_features as string[];
async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('plans', () => {
  it('lists the tiers with their prices, limits and fees', async () => {
    const tiers = (await owner.get('/api/subscription-tiers/')).json() as { id: string; limits: Record<string, number>; yearly_price: number }[];
    expect(tiers.map((x) => x.id)).toEqual(expect.arrayContaining(['supplier-starter', 'supplier-standard', 'supplier-pro', 'affiliate-standard']));
    expect(tiers.find((x) => x.id === 'supplier-starter')!.limits).toMatchObject({ offers: 3, stores: 1 });
  });

  it('starts a new supplier on a Standard trial', async () => {
    const s = await sub();
    expect(s).toMatchObject({ tier: { id: 'supplier-standard' }, status: 'trialing', billing_available: true, can_manage: false });
    expect(new Date(s.trial_ends_at).getTime() - Date.now()).toBeGreaterThan(13 * 86_400_000);
  });

  it('drops to Starter when the trial is over: its features go at once, its limits hold on every call, nothing is deleted', async () => {
    for (const title of ['One', 'Two', 'Three', 'Four']) expect((await owner.post('/api/experiences/', { title, type: 'Rental' })).statusCode).toBe(201);
    expect((await owner.post('/api/stores/', { name: 'Shop A', slug: 'shop-a' })).statusCode).toBe(201);
    expect((await owner.post('/api/stores/', { name: 'Shop B', slug: 'shop-b' })).statusCode).toBe(201);
    expect(await features()).toContain('analytics');

    await t.database.db.update(baseAccount).set({ trial_ends_at: sql`now() - interval '1 minute'` }).where(eq(baseAccount.id, accountId));
    expect(await endOwnTrials(t.database.db)).toBeGreaterThanOrEqual(1);
    expect(await sub()).toMatchObject({ tier: { id: 'supplier-starter' }, status: 'none', usage: { offers: 4, stores: 2 } });
    expect(await features()).not.toContain('analytics');
    // Over the limit: nothing is deleted, everything stays readable and editable; adding is refused.
    const list = (await owner.get('/api/experiences/')).json();
    expect(list.count).toBe(4);
    expect((await owner.patch(`/api/experiences/${list.results[0].id}/`, { title: 'Renamed' })).statusCode).toBe(200);
    const fifth = await owner.post('/api/experiences/', { title: 'Five', type: 'Rental' });
    expect(fifth.statusCode).toBe(403);
    expect(fifth.json().errors[0]).toMatchObject({ code: 'plan_limit', detail: 'Your Starter plan allows 3 offers. Upgrade your plan to add more.' });
    expect((await owner.post('/api/stores/', { name: 'Shop C', slug: 'shop-c' })).statusCode).toBe(403);
    expect((await owner.get('/api/stores/')).json().count).toBe(2);
  });

  it('buys a paid plan through Stripe Checkout; Stripe’s events make it current, and a cancellation drops it at once', async () => {
    const chosen = await owner.post('/api/subscription/', { tier: 'supplier-standard', interval: 'month' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().url).toContain(`${fake.publicUrl}/pay/`);
    // Not paid yet: still Starter.
    expect((await sub()).tier.id).toBe('supplier-starter');
    const session = [...fake.state.checkoutSessions.values()].find((s) => s.mode === 'subscription')!;
    expect(session.metadata).toMatchObject({ tourdesk_account: accountId, tourdesk_tier: 'supplier-standard' });
    await fake.payCheckoutSession(session.id);
    // The trial was used already (the platform's own): paid at once, active.
    const active = await until('the plan', async () => {
      const s = await sub();
      return s.tier.id === 'supplier-standard' ? s : null;
    });
    expect(active).toMatchObject({ status: 'active', interval: 'month', can_manage: true });
    expect(await features()).toContain('analytics');
    expect((await owner.post('/api/experiences/', { title: 'Five', type: 'Rental' })).statusCode).toBe(201);

    // The customer portal manages it; cancelled at Stripe, the plan drops to Starter at once.
    const manage = await owner.post('/api/subscription/manage/');
    expect(manage.statusCode, manage.body).toBe(200);
    expect(manage.json().url).toContain(fake.publicUrl);
    const stripe = new Stripe('sk_test_plans', fake.sdkOptions);
    const [a] = await t.database.db.select().from(baseAccount).where(eq(baseAccount.id, accountId));
    await stripe.subscriptions.cancel(a!.stripe_subscription_id!);
    await until('the downgrade', async () => (await sub()).tier.id === 'supplier-starter');
    expect(await sub()).toMatchObject({ status: 'canceled', usage: { offers: 5 } });
    expect(await features()).not.toContain('analytics');
    expect((await owner.post('/api/experiences/', { title: 'Six', type: 'Rental' })).statusCode).toBe(403);
  });

  it('follows the plan of the subscription’s product (a change in the customer portal), and ignores events that are not the platform’s current subscription', async () => {
    const chosen = await owner.post('/api/subscription/', { tier: 'supplier-standard', interval: 'month' });
    const session = [...fake.state.checkoutSessions.values()].filter((s) => s.mode === 'subscription').at(-1)!;
    expect(chosen.json().url).toContain(session.id);
    await fake.payCheckoutSession(session.id);
    await until('Standard', async () => (await sub()).status === 'active');
    // Pro through the API: the subscription's price changes (Stripe prorates), and its event makes it current.
    expect((await owner.post('/api/subscription/', { tier: 'supplier-pro', interval: 'month' })).statusCode).toBe(200);
    await until('Pro', async () => (await sub()).tier.id === 'supplier-pro');
    const stripe = new Stripe('sk_test_plans', fake.sdkOptions);
    const [a] = await t.database.db.select().from(baseAccount).where(eq(baseAccount.id, accountId));
    const current = await stripe.subscriptions.retrieve(a!.stripe_subscription_id!);

    // Back to Standard in Stripe's customer portal: only the price's product says so (its metadata still says Pro).
    const standardProduct = (await t.database.db.execute(sql`select stripe_product_id from billing_product where tier_id = 'supplier-standard'`)) as unknown as { rows: { stripe_product_id: string }[] };
    await stripe.subscriptions.update(current.id, { items: [{ id: current.items.data[0]!.id, price_data: { currency: 'eur', unit_amount: 2900, recurring: { interval: 'month' }, product: standardProduct.rows[0]!.stripe_product_id } }] });
    await until('Standard again', async () => (await sub()).tier.id === 'supplier-standard');

    // An organisation's own Stripe account (connected) sends a subscription naming this organisation and Pro: nothing changes.
    const forged = { ...current, id: 'sub_forged', customer: a!.stripe_customer_id!, metadata: { tourdesk_account: accountId, tourdesk_tier: 'supplier-pro' } };
    expect(await fake.send('customer.subscription.created', forged, { account: 'acct_someone' })).toEqual([200]);
    // A late event of an older subscription of this customer: nothing changes either.
    expect(await fake.send('customer.subscription.deleted', { ...current, id: 'sub_older', status: 'canceled' })).toEqual([200]);
    await fake.settled();
    await new Promise((r) => setTimeout(r, 800));
    expect(await sub()).toMatchObject({ tier: { id: 'supplier-standard' }, status: 'active' });
    // A plan whose last payment failed is changed after the card is updated, not by a second subscription.
    await t.database.asOwner((tx) => tx.update(baseAccount).set({ subscription_status: 'past_due' }).where(eq(baseAccount.id, accountId)));
    const late = await owner.post('/api/subscription/', { tier: 'supplier-pro', interval: 'month' });
    expect(late.statusCode).toBe(409);
    await t.database.asOwner((tx) => tx.update(baseAccount).set({ subscription_status: 'active' }).where(eq(baseAccount.id, accountId)));
  });

  it('chooses a free plan at once, refuses a plan of the other kind, and lets only Owners choose', async () => {
    expect((await owner.post('/api/subscription/', { tier: 'affiliate-plus', interval: 'month' })).statusCode).toBe(400);
    const free = await owner.post('/api/subscription/', { tier: 'supplier-starter', interval: 'month' });
    expect(free.json()).toMatchObject({ url: null, subscription: { tier: { id: 'supplier-starter' } } });
  });
});

describe('without the platform’s Stripe keys', () => {
  it('says so, and sells no paid plan', async () => {
    const bare = await createTestApp({ env: { SMTP_URL: sink.url } });
    try {
      const o = await createOrganisation(bare.app, sink, { subdomain: 'nokeys' });
      expect((await o.get('/api/subscription/')).json()).toMatchObject({ billing_available: false });
      const paid = await o.post('/api/subscription/', { tier: 'supplier-pro', interval: 'month' });
      expect(paid.statusCode).toBe(400);
      expect((await o.get('/api/payment-providers/oauth/')).json().missing_settings).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    } finally {
      await bare.close();
    }
  });
});
