import { expect, test, type Page } from '@playwright/test';
import { call, demoKayak, kayakSlot } from './support/demo-api';
import { DEMO, mailTo, org, PORT, signIn } from './support/helpers';

/**
 * A payment link, without the internet: Stripe is the local fake that apps/web/e2e/support/
 * server.mjs starts. The demo owner connects the organisation's Stripe account (the fake's
 * onboarding); an order of the spec's own customer has a balance after a cash deposit at the desk;
 * staff press "Send payment link" on the order's payments; the customer opens the link from the
 * e-mail, sees what is left, pays it on Stripe's page, and comes back to a page that says the order
 * is paid; the back office shows it fully paid, by an online card payment. The order is the
 * spec's own (its own customer, a kayak departure no other spec books).
 *
 * Named to run after payment-providers.spec.ts (specs run by file name on one demo database): that
 * spec needs the demo's first Stripe connection to be an account not onboarded yet, and connecting
 * again after a disconnect gets the same account back (the app's Idempotency-Key for the account's
 * creation, which the fake, unlike Stripe, never expires). Stripe is disconnected again at the end,
 * as the demo was.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const STRIPE = `http://127.0.0.1:${PORT + 4}`;
const customer = { first_name: 'Paula', last_name: 'Linkpayer', email: 'paula.linkpayer@example.com' };

/** The owner connects the organisation's Stripe account through the fake's onboarding (nothing to do when it takes payments already). */
async function connectStripe(page: Page) {
  const before = await call<{ charges_enabled: boolean }>(page, 'GET', 'payment-providers/oauth/');
  if (before.charges_enabled) return;
  const { url } = await call<{ url: string }>(page, 'POST', 'payment-providers/connect/');
  expect(url.startsWith(`${STRIPE}/connect/onboarding/`), url).toBeTruthy();
  await page.goto(url);
  await page.getByRole('button', { name: 'Complete onboarding' }).click();
  await expect(page).toHaveURL(org('demo', '/settings/payment-providers?stripe=return'));
  expect(await call<{ charges_enabled: boolean }>(page, 'GET', 'payment-providers/oauth/')).toMatchObject({ charges_enabled: true });
}

/** Stripe disconnected again, as the demo was. */
async function disconnectStripe(page: Page) {
  const status = await page.evaluate(async () => {
    await fetch('/api/jwt/refresh/', { method: 'POST', credentials: 'include' });
    return (await fetch('/api/payment-providers/connect/', { method: 'DELETE', credentials: 'include' })).status;
  });
  expect(status).toBe(204);
}

test('staff send a payment link for an order’s balance; the customer pays it on Stripe’s page and the order is fully paid', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await connectStripe(page);
  try {
    // The spec's own order: two adults on the kayak, 20.00 paid in cash at the desk.
    const kayak = await demoKayak(page);
    const slot = await kayakSlot(page, kayak.id, 22);
    const order = await call<{ id: string; reference: string; total: number }>(page, 'POST', 'orders/', {
      customer,
      lines: [{ slot: slot.id, quantities: { [kayak.adult]: 2 } }],
      answers: { [kayak.swim]: 'yes' },
    });
    await call(page, 'POST', `orders/${order.id}/payments/`, { amount: 2000, currency: 'CHF', method: 'cash', reference: 'Deposit at the desk' });
    const due = ((order.total - 2000) / 100).toFixed(2);

    // The order's payments: what is left, and the payment link.
    await page.goto(org('demo', `/orders/editor/${order.id}/payments`));
    await expect(page.getByTestId('order-payment-status')).toHaveText('Partially paid');
    const card = page.getByLabel('Payment link', { exact: true });
    await expect(card).toContainText(customer.email);
    await expect(card).toContainText(due);
    await card.getByRole('button', { name: 'Send payment link' }).click();
    await expect(page.getByText(`sent to ${customer.email}`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/payment-link-sent.png`, fullPage: true });
    // The audit trail says who sent it, to whom.
    const audit = await call<{ action: string; changes: Record<string, unknown> }[] | { results: { action: string; changes: Record<string, unknown> }[] }>(page, 'GET', `orders/${order.id}/audit/`);
    const events = Array.isArray(audit) ? audit : audit.results;
    expect(events.find((e) => e.action === 'payment link sent')?.changes).toMatchObject({ email: customer.email });

    // The customer, in their own browser, opens the link from the e-mail.
    const { mail, link } = await mailTo(customer.email, /Pay what is left/);
    expect(mail.text).toContain(order.reference);
    expect(link.startsWith(org('demo', '/pay/')), link).toBeTruthy();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await context.newPage();
    try {
      await phone.goto(link);
      await expect(phone.getByRole('heading', { level: 1 })).toContainText(order.reference);
      await expect(phone.getByTestId('due')).toContainText(due);
      await phone.getByRole('link', { name: /^Pay CHF\s?.*by card$/ }).click();

      // Stripe's payment page (the fake's): the balance, paid with a good card.
      await expect(phone).toHaveURL(new RegExp(`^${STRIPE}/pay/cs_`));
      await expect(phone.getByTestId('amount')).toContainText(due);
      await phone.getByLabel('Card number').fill('4242 4242 4242 4242');
      await phone.getByRole('button', { name: 'Pay' }).click();

      // Back on the organisation's page: paid.
      await expect(phone).toHaveURL(/\/pay\/[\w-]+\/done\?session_id=cs_/, { timeout: 25_000 });
      await expect(phone.getByRole('status')).toHaveText(`Thank you: your payment was received. Order ${order.reference} is fully paid.`);
      await phone.screenshot({ path: `${SHOTS}/payment-link-paid.png`, fullPage: true });
    } finally {
      await context.close();
    }

    // The back office: fully paid, the balance by an online card payment.
    await page.reload();
    await expect(page.getByTestId('order-payment-status')).toHaveText('Fully paid');
    const rows = page.getByTestId('payment-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Online (card)' })).toContainText(due);
    await expect(page.getByRole('button', { name: 'Send payment link' })).toHaveCount(0);
  } finally {
    await disconnectStripe(page);
  }
});
