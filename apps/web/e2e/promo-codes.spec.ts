import { expect, test, type Page } from '@playwright/test';
import { KAYAK, SWIM } from './support/demo-api';
import { DEMO, org, signIn, zurichDate } from './support/helpers';

/**
 * Promo codes, end to end: the demo owner creates a code in the back office; a customer on a phone
 * books the kayak in the web store, tries the demo's expired code (refused with why), applies the
 * new one, sees "Discount (CODE)" on the cart and on the confirmation; back in the list the code
 * counts its use. The booking is on a day no other spec or the demo books (22 days ahead).
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const PHONE = { width: 390, height: 844 };
const CODE = 'AUTUMN15';

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/promo-codes-${name}.png`, fullPage: true });
}

test('a promo code made in the back office takes its discount in the web store, and an expired one is refused with why', async ({ page, browser }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.goto(org('demo', '/sales/promo-codes'));
  await expect(page.getByRole('heading', { name: 'Promo codes', level: 2 })).toBeVisible();
  // The demo's codes: SUMMER10 used by a demo order.
  await expect(page.getByTestId('promo-row').filter({ hasText: 'SUMMER10' }).getByTestId('promo-uses')).toHaveText('1');
  await page.getByRole('button', { name: 'Create promo code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create promo code' });
  await dialog.getByRole('textbox', { name: /^Code/ }).fill(CODE);
  await dialog.getByLabel('Description').fill('Autumn newsletter');
  await dialog.getByRole('textbox', { name: 'Percentage off' }).fill('15');
  await dialog.getByRole('textbox', { name: 'Total uses' }).fill('100');
  await shoot(page, 'form');
  await dialog.getByRole('button', { name: 'Create promo code' }).click();
  const row = page.getByTestId('promo-row').filter({ hasText: CODE });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('promo-uses')).toHaveText('0 of 100');

  // A customer on a phone books the kayak paying on site.
  const phone = await browser.newContext({ viewport: PHONE });
  const customer = await phone.newPage();
  await customer.goto(org('demo', '/s/kayak/'));
  await customer.getByRole('link', { name: new RegExp(KAYAK) }).click();
  await expect(customer.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
  const date = zurichDate(22);
  for (let i = 0; i < 3 && !(await customer.locator(`[data-date="${date}"]`).isVisible()); i += 1) await customer.getByRole('link', { name: 'Next month' }).click();
  await customer.locator(`a[data-date="${date}"]`).click();
  await customer.getByRole('radio', { name: /^09:30/ }).check();
  await customer.getByRole('button', { name: 'More: Adult', exact: true }).click();
  await customer.getByRole('button', { name: 'More: Adult', exact: true }).click();
  await customer.getByRole('button', { name: 'Hold seats' }).click();
  await expect(customer.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  const before = (await customer.getByTestId('cart-total').textContent())!;

  // The demo's EARLYBIRD has expired: refused, and the message says so.
  await customer.getByLabel('Promo code').fill('earlybird');
  await customer.getByRole('button', { name: 'Apply' }).click();
  await expect(customer.getByRole('alert').filter({ hasText: 'This promo code has expired.' })).toBeVisible();
  await expect(customer.getByTestId('cart-total')).toHaveText(before);

  // The new code, typed in lower case: 15 % off, its own row with its VAT.
  await customer.getByLabel('Promo code').fill(CODE.toLowerCase());
  await customer.getByRole('button', { name: 'Apply' }).click();
  const applied = customer.getByTestId('promo-applied');
  await expect(applied).toContainText(`Discount (${CODE})`);
  await expect(applied).toContainText('of which VAT');
  await expect(customer.getByTestId('cart-total')).not.toHaveText(before);
  await shoot(customer, 'cart-phone');

  await customer.getByLabel('First name').fill('Paula');
  await customer.getByLabel('Last name').fill('Promo');
  await customer.getByLabel('E-mail').fill('paula.promo@example.com');
  await customer.getByRole('group', { name: SWIM }).getByLabel('Yes').check();
  await customer.getByRole('checkbox', { name: /I accept the terms/ }).check();
  await customer.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(customer.getByRole('heading', { name: 'Thank you, Paula!' })).toBeVisible();
  const discount = customer.getByTestId('order-discount');
  await expect(discount).toContainText(`Discount (${CODE})`);
  await expect(discount).toContainText('of which VAT');
  await shoot(customer, 'confirmation-phone');
  await phone.close();

  // Back in the list: one use, and its order's total as revenue.
  await page.reload();
  await expect(row.getByTestId('promo-uses')).toHaveText('1 of 100');
  await expect(row.getByTestId('promo-revenue')).not.toHaveText(/CHF\s?0\.00/);
  await shoot(page, 'list-after');
});
