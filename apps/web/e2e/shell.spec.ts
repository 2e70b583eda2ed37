import { expect, test } from '@playwright/test';
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
  for (const section of ['Dashboard', 'Offers', 'Stores and sales', 'Bookings', 'Capacity', 'Resales', 'Orders', 'Customers', 'Settings']) {
    await expect(nav.getByText(section, { exact: true })).toBeVisible();
  }
  await expect(page.getByText('All systems go')).toBeVisible();
  await expect(page.getByText('Welcome to Tourdesk')).toBeVisible();
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
