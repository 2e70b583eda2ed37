import { expect, test } from '@playwright/test';
import { call } from './support/demo-api';
import { DEMO, org, sameMonthAsToday, signIn, zurichDate } from './support/helpers';

const OFFER = 'Sunrise Kayak on Lake Lucerne';
const SWIM = 'Can everyone in the group swim?';

/**
 * The customer's language (issue 30): sold at the counter in German, shown on the order's page,
 * changed there to French, and still French after a reload (the server keeps it).
 */
test('a counter sale in German, then the order’s language changed to French', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  // The organisation sells in German and French too (another spec may have taken German out).
  const config = await call<{ languages: string[] }>(page, 'GET', 'product-configuration/');
  const wanted = [...config.languages, ...(['de', 'fr'] as const).filter((l) => !config.languages.includes(l))];
  if (wanted.length !== config.languages.length) await call(page, 'PATCH', 'product-configuration/', { languages: wanted });

  await page.goto(org('demo', '/bookings/checkout-editor'));
  await page.getByRole('combobox', { name: 'Offer' }).click();
  await page.getByRole('option', { name: OFFER }).click();
  const day = zurichDate(13);
  if (!sameMonthAsToday(day)) await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('button', { name: day, exact: true }).click();
  await page.getByLabel('Times').getByRole('button', { name: /^09:30/ }).click();
  await page.getByLabel('Adult quantity').fill('1');
  await page.getByRole('button', { name: 'Hold seats' }).click();
  await expect(page.getByTestId('cart-line')).toContainText('1 seat');

  await page.getByLabel('Customer e-mail').fill('greta.sprache@example.com');
  await page.getByLabel('First name').fill('Greta');
  await page.getByLabel('Last name').fill('Sprache');
  const language = page.getByRole('combobox', { name: 'Customer’s language' });
  await expect(language).toHaveValue('English'); // the organisation's main language
  await language.click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await expect(language).toHaveValue('Deutsch');
  await page.getByRole('radiogroup', { name: SWIM }).getByRole('radio', { name: 'Yes', exact: true }).check();
  await page.getByRole('button', { name: 'Check out' }).click();
  await expect(page.getByText('Order created!')).toBeVisible();
  await expect(page).toHaveURL(/\/orders\/editor\/[0-9a-f-]+\/details$/);
  const orderId = /\/orders\/editor\/([0-9a-f-]+)\/details$/.exec(page.url())![1]!;

  // The order's page shows it, and the server has it.
  const orderLanguage = page.getByRole('combobox', { name: 'Language', exact: true });
  await expect(orderLanguage).toHaveValue('Deutsch');
  expect((await call<{ language: string }>(page, 'GET', `orders/${orderId}/`)).language).toBe('de');

  // Changed to French: saved at once, and still French after a reload.
  await orderLanguage.click();
  await page.getByRole('option', { name: 'Français' }).click();
  await expect(page.getByText('The customer’s language is now Français.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Language', exact: true })).toHaveValue('Français');
  expect((await call<{ language: string }>(page, 'GET', `orders/${orderId}/`)).language).toBe('fr');
});
