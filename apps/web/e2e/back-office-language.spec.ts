import { expect, test, type Page } from '@playwright/test';
import { DEMO, org, signIn } from './support/helpers';

/**
 * A user's back-office language: chosen in the profile it applies at once (no reload) and stays on
 * the user; the menu and the pages speak it, dates are written in it, <html lang> follows it; back
 * to English, every text is English again. The demo owner's language is cleared after the test, so
 * no other spec finds it German.
 */
const chooseLanguage = async (page: Page, name: string) => {
  await page.getByRole('combobox', { name: /Back-office language|Sprache des Backoffice/ }).click();
  await page.getByRole('option', { name, exact: true }).click();
};

test.afterEach(async ({ page }) => {
  // From the page, as the app calls the API (its session cookies are the organisation host's).
  await page.evaluate(() => fetch('/api/users/me/', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ language: null }) }));
});

test('a user sets German in their profile: the menu, the dashboard, the bookings and the check-in speak German; back to English', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.goto(org('demo', '/profile'));
  await expect(page.getByRole('heading', { name: 'Profile', level: 2 })).toBeVisible();
  await chooseLanguage(page, 'Deutsch');
  // At once, without a reload: the page, the menu and <html lang>.
  await expect(page.getByRole('heading', { name: 'Profil', level: 2 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  await expect(nav.getByRole('button', { name: 'Buchungen' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Bestellungen' })).toBeVisible();

  // Kept on the user: a new page load starts in German.
  await page.goto(org('demo', '/dashboard'));
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  await page.screenshot({ path: 'test-results/screenshots/back-office-german-dashboard.png', fullPage: true });

  // Back to English.
  await page.goto(org('demo', '/profile'));
  await chooseLanguage(page, 'English');
  await expect(page.getByRole('heading', { name: 'Profile', level: 2 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Bookings' })).toBeVisible();
});
