import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { call, KAYAK, SWIM } from './support/demo-api';
import { DEMO, mailTo, org, PORT, signIn, zurichDate } from './support/helpers';

/**
 * Paying online in the web store, on a phone, without the internet: Stripe is the local fake
 * that apps/web/e2e/support/server.mjs starts (its API for the server's SDK, its hosted pages
 * for the browser, its signed events to the API's webhook). The demo owner connects the
 * organisation's Stripe account through the fake's onboarding and lets the store "kayak" take
 * payments online; a customer holds a seat, chooses "Pay online by card", is declined on
 * Stripe's page, comes back to the store without paying (the seat still held), pays with a good
 * card, and lands on the confirmation with the ticket code; the e-mail follows; the back office
 * shows the order fully paid online.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const SLUG = 'kayak';
const PHONE = { width: 390, height: 844 };
const STRIPE = `http://127.0.0.1:${PORT + 4}`;
const store = (p = '') => org('demo', `/s/${SLUG}/${p}`);

test.use({ viewport: PHONE });

/** axe-core on the page as it is now, in light and dark: no serious or critical violation. */
async function accessible(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad, `${name} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/web-store-payment-${name}.png`, fullPage: true });
}

/** From the store page: the kayak, `date` at `time`, one adult held; lands on the checkout. */
async function holdOne(page: Page, date: string, time: string, checkout = store('checkout')) {
  await page.getByRole('link', { name: new RegExp(KAYAK) }).click();
  await expect(page.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
  const day = page.locator(`a[data-date="${date}"]`);
  for (let i = 0; i < 3 && !(await page.locator(`[data-date="${date}"]`).isVisible()); i += 1) await page.getByRole('link', { name: 'Next month' }).click();
  await day.click();
  await expect(day).toHaveAttribute('aria-current', 'date');
  await page.getByRole('radio', { name: new RegExp(`^${time}`) }).check();
  await page.getByRole('button', { name: 'More: Adult', exact: true }).click();
  await expect(page.getByLabel('Adult', { exact: true })).toHaveValue('1');
  await page.getByRole('button', { name: 'Hold seats' }).click();
  await expect(page).toHaveURL(checkout);
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
}

/**
 * The owner connects the organisation's Stripe account: Stripe's onboarding (the fake's page), then
 * back to the back office. Once connected (an earlier test), nothing to do.
 */
async function connectStripe(page: Page, first = false) {
  const before = await call<{ missing_settings: string[]; connected: boolean; charges_enabled: boolean }>(page, 'GET', 'payment-providers/oauth/');
  expect(before.missing_settings).toEqual([]);
  if (before.charges_enabled && !first) return;
  const { url } = await call<{ url: string }>(page, 'POST', 'payment-providers/connect/');
  expect(url.startsWith(`${STRIPE}/connect/onboarding/`), url).toBeTruthy();
  await page.goto(url);
  await expect(page.getByRole('heading', { name: /^Set up payments/ })).toBeVisible();
  if (first) await shoot(page, 'onboarding');
  await page.getByRole('button', { name: 'Complete onboarding' }).click();
  await expect(page).toHaveURL(org('demo', '/settings/payment-providers?stripe=return'));
  const state = await call<{ connected: boolean; charges_enabled: boolean }>(page, 'GET', 'payment-providers/oauth/');
  expect(state).toMatchObject({ connected: true, charges_enabled: true });
}

test('a customer pays the kayak online on Stripe’s page, declined once, and gets the confirmation; the order is fully paid online', async ({ page, browser }) => {
  test.setTimeout(120_000);

  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await connectStripe(page, true);

  // The store "kayak" now offers online payment besides paying on site, the whole total (the demo's
  // 20 % deposit is deposits.spec.ts's business).
  const stores = await call<{ results: { id: string; slug: string; deposit: unknown }[] }>(page, 'GET', `stores/?search=${SLUG}`);
  const shop = stores.results.find((s) => s.slug === SLUG)!;
  await call(page, 'PATCH', `stores/${shop.id}/`, { payment_options: ['pay_on_site', 'online'], deposit: null });

  // The customer, in their own browser.
  const context = await browser.newContext({ viewport: PHONE });
  const phone = await context.newPage();
  const customer = { first_name: 'Lena', last_name: 'Cardholder', email: 'lena.cardholder@example.com' };
  try {
    await phone.goto(store());
    await holdOne(phone, zurichDate(18), '09:30');
    await expect(phone.getByTestId('cart-line')).toContainText('1 × Adult');
    await phone.getByLabel('First name').fill(customer.first_name);
    await phone.getByLabel('Last name').fill(customer.last_name);
    await phone.getByLabel('E-mail').fill(customer.email);
    await phone.getByRole('group', { name: SWIM }).getByLabel('Yes').check();
    await phone.getByLabel(/Any dietary requirements/).fill('None');
    await phone.getByRole('checkbox', { name: /I accept the terms/ }).check();

    // Paying online: a choice of its own, said to happen on Stripe's page; the button says so.
    await expect(phone.getByRole('radio', { name: 'Reserve now, pay on site' })).toBeChecked();
    await expect(phone.getByRole('button', { name: 'Book', exact: true })).toBeVisible();
    const online = phone.getByRole('radio', { name: 'Pay online by card' });
    await online.check();
    await expect(online).toHaveAccessibleDescription(/Stripe’s secure payment page/);
    await accessible(phone, 'checkout paying online');
    await shoot(phone, 'checkout');
    await phone.getByRole('button', { name: 'Continue to payment' }).click();

    // Stripe's payment page (the fake's): the amount, and a declined card first.
    await expect(phone).toHaveURL(new RegExp(`^${STRIPE}/pay/cs_`));
    const payUrl = phone.url();
    await expect(phone.getByTestId('amount')).toContainText('89.00');
    await expect(phone.getByRole('table', { name: 'Order summary' })).toContainText(KAYAK);
    await phone.getByLabel('Card number').fill('4000 0000 0000 0002');
    await phone.getByRole('button', { name: 'Pay' }).click();
    await expect(phone.getByRole('alert')).toHaveText('Your card was declined.');
    await shoot(phone, 'declined');

    // Back to the store without paying: the seat is still held, the form as it was left.
    await phone.getByRole('link', { name: 'Back' }).click();
    await expect(phone).toHaveURL(store('checkout'));
    await expect(phone.getByTestId('payment-note')).toContainText('Your payment was not completed');
    await expect(phone.getByTestId('cart-line')).toHaveCount(1);
    await expect(phone.getByTestId('countdown')).toBeVisible();
    await expect(phone.getByLabel('E-mail')).toHaveValue(customer.email);
    await expect(online).toBeChecked();
    await accessible(phone, 'checkout after an unpaid payment page');
    await shoot(phone, 'not-completed');
    await phone.getByRole('checkbox', { name: /I accept the terms/ }).check();
    await phone.getByRole('button', { name: 'Continue to payment' }).click();
    // The same payment page again (the same cart and lines: the same Stripe session).
    await expect(phone).toHaveURL(payUrl);

    // A good card: Stripe brings the customer back, the store shows the confirmation.
    await phone.getByLabel('Card number').fill('4242 4242 4242 4242');
    await phone.getByRole('button', { name: 'Pay' }).click();
    await expect(phone.getByRole('heading', { name: 'Thank you, Lena!' })).toBeVisible({ timeout: 25_000 });
    await expect(phone).toHaveURL(new RegExp(`/s/${SLUG}/confirmation/[A-Z0-9-]+$`));
    const reference = decodeURIComponent(phone.url().split('/').pop()!);
    await expect(phone.getByTestId('confirmation-text')).toContainText(reference);
    await expect(phone.getByText(/^Paid: CHF\s89\.00\.$/)).toBeVisible();
    const code = (await phone.getByTestId('ticket-code').first().textContent())!.trim();
    expect(code.length).toBeGreaterThanOrEqual(6);
    await expect(phone.getByRole('link', { name: 'See or cancel your booking' })).toHaveAttribute('href', new RegExp(`/s/${SLUG}/booking/${reference}#.+`));
    await expect(phone.getByRole('link', { name: 'Cart, empty' })).toBeVisible();
    await accessible(phone, 'confirmation after paying online');
    await shoot(phone, 'confirmation');
    // Nothing of the payment is left in the tab.
    expect(await phone.evaluate((slug) => Object.keys(sessionStorage).filter((k) => k.startsWith(`tourdesk.payment.${slug}`) || k.startsWith(`tourdesk.details.${slug}`)), SLUG)).toEqual([]);

    // The confirmation e-mail, with the ticket's code.
    const { mail } = await mailTo(customer.email, /Your booking/);
    expect(mail.text).toContain(code);
    expect(mail.text).toContain(reference);

    // The back office: the order is fully paid, by an online card payment.
    await page.setViewportSize({ width: 1280, height: 900 });
    const orders = await call<{ results: { id: string; reference: string }[] }>(page, 'GET', `orders/?search=${encodeURIComponent(reference)}`);
    const paid = orders.results.find((o) => o.reference === reference)!;
    expect(paid, reference).toBeTruthy();
    await page.goto(org('demo', `/orders/editor/${paid.id}/payments`));
    await expect(page.getByTestId('order-payment-status')).toHaveText('Fully paid');
    const row = page.getByTestId('payment-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Online (card)');
    await expect(row).toContainText('89.00');
    await shoot(page, 'back-office');
  } finally {
    await context.close();
    // The store offers paying on site only again, with the demo's deposit, as the other tests expect.
    await call(page, 'PATCH', `stores/${shop.id}/`, { payment_options: ['pay_on_site'], deposit: shop.deposit }).catch(() => undefined);
  }
});

test('in the agency’s store, the supplier’s kayak is paid online to the supplier when the contract says the supplier collects', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await connectStripe(page);
  // The demo contract with the agency: the supplier collects from now on.
  const partners = await call<{ results: { id: string; partner: { subdomain: string } | null; status: string }[] }>(page, 'GET', 'partners/?status=Active&page_size=50');
  const contract = partners.results.find((p) => p.status === 'Active' && p.partner?.subdomain === 'alpine-agency')!;
  expect(contract).toBeTruthy();
  await call(page, 'PATCH', `partners/${contract.id}/`, { payment_collector: 'supplier' });

  // The agency's owner lets its store take payments online (it has no Stripe account of its own).
  const agency = await browser.newPage();
  await signIn(agency, 'owner@alpine-agency.tourdesk.test', DEMO.password, 'alpine-agency');
  const tours = (await call<{ results: { id: string; slug: string }[] }>(agency, 'GET', 'stores/?search=tours')).results.find((x) => x.slug === 'tours')!;
  await call(agency, 'PATCH', `stores/${tours.id}/`, { payment_options: ['pay_on_site', 'online'] });

  const context = await browser.newContext({ viewport: PHONE });
  const phone = await context.newPage();
  try {
    await phone.goto(org('alpine-agency', '/s/tours/'));
    await holdOne(phone, zurichDate(27), '09:30', org('alpine-agency', '/s/tours/checkout'));
    await expect(phone.getByText('You book this with Alpine Trails & Tours, who runs it and takes your payment.')).toBeVisible();
    await phone.getByLabel('First name').fill('Paula');
    await phone.getByLabel('Last name').fill('Partner');
    await phone.getByLabel('E-mail').fill('paula.partner@example.com');
    await phone.getByRole('group', { name: SWIM }).getByLabel('Yes').check();
    await phone.getByRole('checkbox', { name: /I accept the terms/ }).check();
    await phone.getByRole('radio', { name: 'Pay online by card' }).check();
    await shoot(phone, 'agency-checkout');
    await phone.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(phone).toHaveURL(new RegExp(`^${STRIPE}/pay/cs_`));
    await phone.getByLabel('Card number').fill('4242 4242 4242 4242');
    await phone.getByRole('button', { name: 'Pay' }).click();
    await expect(phone.getByRole('heading', { name: 'Thank you, Paula!' })).toBeVisible({ timeout: 25_000 });
    await expect(phone).toHaveURL(new RegExp('/s/tours/confirmation/[A-Z0-9-]+$'));
    const reference = decodeURIComponent(phone.url().split('/').pop()!);
    await expect(phone.getByText(/^Paid: CHF\s89\.00\.$/)).toBeVisible();

    // The supplier's order, paid online on its account, is the agency's resale.
    const found = await call<{ results: { id: string; reference: string; payment_status: string }[] }>(page, 'GET', `orders/?search=${encodeURIComponent(reference)}`);
    expect(found.results.find((o) => o.reference === reference)).toMatchObject({ payment_status: 'Fully paid' });
    const resales = await call<{ results: { order_reference: string; commission: number }[] }>(page, 'GET', 'resales/?side=supplier&page_size=50');
    expect(resales.results.find((r) => r.order_reference === reference)).toMatchObject({ commission: 1335 });
  } finally {
    await context.close();
    await call(agency, 'PATCH', `stores/${tours.id}/`, { payment_options: ['pay_on_site'] }).catch(() => undefined);
    await agency.close();
    await call(page, 'PATCH', `partners/${contract.id}/`, { payment_collector: 'reseller' }).catch(() => undefined);
  }
});
