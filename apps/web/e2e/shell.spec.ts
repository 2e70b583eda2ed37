import { expect, test } from '@playwright/test';

test('the landing page loads the shell with its navigation and live data', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const nav = page.getByLabel('Main navigation');
  for (const section of ['Dashboard', 'Offers', 'Stores and sales', 'Bookings', 'Capacity', 'Resales', 'Orders', 'Customers', 'Settings']) {
    await expect(nav.getByText(section, { exact: true })).toBeVisible();
  }
  // Data from the API through RTK Query: the health check and the seeded announcements.
  await expect(page.getByText('All systems go')).toBeVisible();
  await expect(page.getByText('Welcome to Tourdesk')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/dashboard.png', fullPage: true });
});

test('the theme toggle switches light and dark and remembers the choice', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/dashboard');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(255, 255, 255)');
  await page.screenshot({ path: 'test-results/screenshots/dashboard-dark.png', fullPage: true });
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
});

test('the theme starts from the system preference', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/dashboard');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
});

test('an unknown page shows the not-found panel with a way back', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page not found')).toBeVisible();
  await expect(page.getByText('There is no page at /no/such/page.')).toBeVisible();
  await page.getByRole('button', { name: 'Go to dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('hashed assets are cached for a year and the page itself is revalidated', async ({ request, page }) => {
  const html = await request.get('/dashboard');
  expect(html.headers()['cache-control']).toBe('no-cache');
  const scripts: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/assets/') && res.url().endsWith('.js')) scripts.push(res.url());
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(1); // the shell and the lazily loaded page chunk
  const asset = await request.get(scripts[0]!, { headers: { 'accept-encoding': 'gzip, br' } });
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toMatch(/gzip|br/);
});
