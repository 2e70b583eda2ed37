import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, expectNoSeriousA11yViolationsInBothSchemes } from './support/a11y';
import { call, demoKayak, KAYAK } from './support/demo-api';
import { bare, DEMO, org, signIn } from './support/helpers';

test('the landing page on the bare host is the sign-in page', async ({ page }) => {
  await page.goto(bare('/'));
  await expect(page).toHaveURL(bare('/auth/login'));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'No account yet? Sign up' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/sign-in.png', fullPage: true });
});

test('the demo owner lands on the shell with its navigation and live data', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  const nav = page.getByLabel('Main navigation');
  for (const section of ['Dashboard', 'Offers', 'Stores and sales', 'Bookings', 'Capacity', 'Orders', 'Customers', 'Settings']) {
    await expect(nav.getByText(section, { exact: true })).toBeVisible();
  }
  // The day at a glance: revenue with its chart, today's departures, nearly full ones, money due.
  await expect(page.getByLabel('Revenue').getByTestId('revenue-last-30-days')).toHaveText(/^CHF\s[1-9]/);
  await expect(page.getByLabel('Revenue').getByRole('img')).toBeVisible();
  await expect(page.getByLabel('Today’s departures')).toBeVisible();
  await expect(page.getByLabel('Money due')).toContainText(/refunds? due/);
  await expect(page.getByText('Welcome to Tourdesk')).toBeVisible();
  // The bell: the announcements not opened yet; opening them lists them and clears the count.
  const bell = page.getByRole('button', { name: /^Notifications, \d+ new$/ });
  await bell.click();
  await expect(page.getByRole('dialog', { name: /^Notifications/ }).getByTestId('notification').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(page.getByText('Alpine Trails & Tours')).toBeVisible();
  // The demo's web store, linked from the dashboard to its public page.
  const stores = page.getByLabel('Your web stores');
  await expect(stores.getByText('Alpine Trails online')).toBeVisible();
  await expect(stores.getByRole('link', { name: 'Open' }).first()).toHaveAttribute('href', /\/s\/kayak\/$/);
  await page.screenshot({ path: 'test-results/screenshots/dashboard.png', fullPage: true });
});

test('the theme toggle switches light and dark and remembers the choice', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(bare('/auth/login'));
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(255, 255, 255)');
  await page.screenshot({ path: 'test-results/screenshots/sign-in-dark.png', fullPage: true });
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
});

test('the theme starts from the system preference', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(bare('/auth/login'));
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
});

test('an unknown page shows the not-found panel with a way back', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.goto(org('demo', '/no/such/page'));
  await expect(page.getByText('Page not found')).toBeVisible();
  await expect(page.getByText('There is no page at /no/such/page.')).toBeVisible();
  await page.getByRole('button', { name: 'Go to dashboard' }).click();
  await expect(page).toHaveURL(org('demo', '/dashboard'));
});

test('hashed assets are cached for a year and the page itself is revalidated', async ({ request, page }) => {
  const html = await request.get(bare('/auth/login'));
  expect(html.headers()['cache-control']).toBe('no-cache');
  const scripts: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/assets/') && res.url().endsWith('.js')) scripts.push(res.url());
  });
  await page.goto(bare('/auth/login'));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(1); // the shell and the lazily loaded sign-in chunk
  const asset = await request.get(scripts[0]!, { headers: { 'accept-encoding': 'gzip, br' } });
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toMatch(/gzip|br/);
});

/**
 * axe-core (WCAG 2 A and AA) finds no serious or critical violation on the back office's pages,
 * in light and in dark: the shell (header, navigation, its active link), grey secondary text,
 * buttons, badges, tables and forms of a representative page of each section. The colours come
 * from the theme (apps/web/src/app/theme.ts), so a failure here is fixed there, not per page.
 */
test.describe('accessibility of the back office, light and dark', () => {
  interface Ids {
    kayak: string;
    order: string;
    booking: string;
    store: string;
    customer: { id: string; name: string };
  }
  /** The demo's ids the pages need, read through the API. */
  async function demoIds(page: Page): Promise<Ids> {
    const kayak = (await demoKayak(page)).id;
    const orders = await call<{ results: { id: string }[] }>(page, 'GET', 'orders/?page_size=5');
    const order = await call<{ id: string; bookings: { id: string }[] }>(page, 'GET', `orders/${orders.results[0]!.id}/`);
    const stores = await call<{ results: { id: string }[] }>(page, 'GET', 'stores/');
    const customers = await call<{ results: { id: string; first_name: string; last_name: string }[] }>(page, 'GET', 'customers/?page_size=5');
    const c = customers.results[0]!;
    return { kayak, order: order.id, booking: order.bookings[0]!.id, store: stores.results[0]!.id, customer: { id: c.id, name: `${c.first_name} ${c.last_name}`.trim() } };
  }

  /** Waits until the page shows its data: its heading, and no loader or skeleton left. */
  async function settle(page: Page, heading: string | RegExp) {
    await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.locator('.mantine-Loader, .mantine-Skeleton')).toHaveCount(0);
  }

  const PAGES: { name: string; path: (ids: Ids) => string; heading: string | RegExp | ((ids: Ids) => string) }[] = [
    { name: 'the dashboard', path: () => '/dashboard', heading: 'Dashboard' },
    { name: 'the offers list', path: () => '/products/experiences/overview', heading: 'Offers' },
    { name: 'the offer editor (basic info)', path: (i) => `/products/experiences/editor/${i.kayak}/basic-info`, heading: KAYAK },
    { name: 'the offer editor (pricing)', path: (i) => `/products/experiences/editor/${i.kayak}/pricing`, heading: KAYAK },
    { name: 'the offer editor (description)', path: (i) => `/products/experiences/editor/${i.kayak}/description`, heading: KAYAK },
    { name: 'the offer editor (schedule)', path: (i) => `/products/experiences/editor/${i.kayak}/schedule`, heading: KAYAK },
    { name: 'the offer editor (media)', path: (i) => `/products/experiences/editor/${i.kayak}/media`, heading: KAYAK },
    { name: 'the pricing categories', path: () => '/products/experiences/pricing-categories', heading: 'Pricing categories' },
    { name: 'the orders list', path: () => '/orders/list', heading: 'Orders' },
    { name: 'an order (details)', path: (i) => `/orders/editor/${i.order}/details`, heading: /^Order / },
    { name: 'an order (payments)', path: (i) => `/orders/editor/${i.order}/payments`, heading: /^Order / },
    { name: 'an order (invoice)', path: (i) => `/orders/editor/${i.order}/invoice`, heading: /^Order / },
    { name: 'an order (audit trail)', path: (i) => `/orders/editor/${i.order}/audit`, heading: /^Order / },
    { name: 'the day’s manifests', path: () => '/bookings/manifests', heading: 'Manifests' },
    { name: 'a booking', path: (i) => `/orders/editor/${i.order}/booking/${i.booking}`, heading: KAYAK },
    { name: 'the bookings overview', path: () => '/bookings/overview', heading: 'Bookings' },
    { name: 'the capacity overview', path: () => '/capacity/overview', heading: 'Capacity' },
    { name: 'the customers list', path: () => '/customers/list', heading: 'Customers' },
    { name: 'the stores list', path: () => '/sales/stores', heading: 'Stores' },
    { name: 'a store (analytics)', path: (i) => `/sales/stores/editor/${i.store}/overview`, heading: 'Alpine Trails online' },
    { name: 'a store (settings)', path: (i) => `/sales/stores/editor/${i.store}/settings`, heading: 'Alpine Trails online' },
    { name: 'the organisation settings', path: () => '/settings/organization/contact', heading: 'Organisation' },
    { name: 'the product configuration', path: () => '/settings/product-configuration', heading: 'Product configuration' },
    { name: 'the payment providers', path: () => '/settings/payment-providers', heading: 'Payment providers' },
    { name: 'the webhooks', path: () => '/settings/webhooks', heading: 'Webhooks' },
    { name: 'the team members', path: () => '/settings/team/members', heading: 'Team members' },
    { name: 'the roles', path: () => '/settings/team/roles', heading: 'Roles' },
    { name: 'the profile', path: () => '/profile', heading: 'Profile' },
    { name: 'the offer editor (settings)', path: (i) => `/products/experiences/editor/${i.kayak}/settings`, heading: KAYAK },
    { name: 'the offer editor (booking info)', path: (i) => `/products/experiences/editor/${i.kayak}/booking-info`, heading: KAYAK },
    { name: 'the offer editor (preview)', path: (i) => `/products/experiences/editor/${i.kayak}/preview`, heading: KAYAK },
    { name: 'the pricing rates', path: () => '/products/experiences/pricing-catalogue', heading: 'Pricing rates' },
    { name: 'the inventory items', path: () => '/products/experiences/inventory/overview', heading: 'Inventory' },
    { name: 'the inventory categories', path: () => '/products/experiences/inventory/categories', heading: 'Inventory' },
    { name: 'the inventory tags', path: () => '/products/experiences/inventory/tags', heading: 'Inventory' },
    { name: 'the check-in page', path: () => '/check-in', heading: 'Check-in' },
    { name: 'the counter checkout', path: () => '/bookings/checkout-editor', heading: 'Checkout' },
    { name: 'a customer', path: (i) => `/customers/${i.customer.id}`, heading: (i: Ids) => i.customer.name },
    { name: 'a store (products)', path: (i) => `/sales/stores/editor/${i.store}/store-products`, heading: 'Alpine Trails online' },
    { name: 'the QR codes', path: () => '/sales/qr-codes', heading: 'QR codes' },
    { name: 'the promo codes', path: () => '/sales/promo-codes', heading: 'Promo codes' },
    { name: 'the partners', path: () => '/sales/partners', heading: 'Partners' },
    { name: 'the resales', path: () => '/resales/overview', heading: 'Resales' },
    { name: 'the settlement statements', path: () => '/resales/settlements', heading: 'Resales' },
    { name: 'the supplier plans', path: () => '/settings/subscription/supplier-plans', heading: 'Subscription' },
  ];

  // One sign-in for all of it: the server throttles sign-ins per address (30 in 15 minutes) and the
  // whole suite shares one address. Each page is a step, soft-checked, so one run lists every failure.
  test('every page, light and dark, on a desktop and on a 375 px phone, has no serious or critical violation', async ({ page }) => {
    test.setTimeout(480_000);
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const ids = await demoIds(page);
    for (const { name, path, heading } of PAGES) {
      await test.step(name, async () => {
        await page.goto(org('demo', path(ids)));
        await settle(page, typeof heading === 'function' ? heading(ids) : heading);
        await expectNoSeriousA11yViolationsInBothSchemes(page, name, { soft: true });
      });
    }

    await test.step('the dashboard and the opened navigation on a phone', async () => {
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(org('demo', '/dashboard'));
      await settle(page, 'Dashboard');
      await expectNoSeriousA11yViolationsInBothSchemes(page, 'the dashboard on a phone', { soft: true });
      await page.getByRole('button', { name: 'Toggle navigation' }).click();
      await expect(page.getByLabel('Main navigation').getByRole('link', { name: 'Dashboard' })).toBeVisible();
      await expectNoSeriousA11yViolationsInBothSchemes(page, 'the navigation on a phone', { soft: true });
      await page.getByRole('button', { name: 'Toggle navigation' }).click();
    });

    await test.step('dark chosen with the toggle, on a light system', async () => {
      // The user's own switch, not only the system preference; it holds on the next page.
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      await page.goto(org('demo', '/orders/list'));
      await settle(page, 'Orders');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      await expectNoSeriousA11yViolations(page, 'the orders list on a phone, dark chosen with the toggle');
    });
  });

  test('the sign-in page has no serious or critical violation', async ({ page }) => {
    await page.goto(bare('/auth/login'));
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'the sign-in page');
  });
});
