import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { KAYAK, SWIM } from './support/demo-api';
import { DEMO, org, signIn, zurichDate } from './support/helpers';

/**
 * QR codes, end to end: the demo owner makes a code for the kayak store, downloads its PNG and
 * its PDF flyer; a customer on a phone opens the code's address, lands on the store, books the
 * kayak paying on site; back in the list the code shows the scan, the order and its revenue.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const PHONE = { width: 390, height: 844 };
const NAME = 'Lakeside café flyer';

/** Full-page screenshots, light and dark. */
async function shoot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/qr-codes-${name}${scheme === 'dark' ? '-dark' : ''}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a QR code brings a customer from the scan to a booking, and the list counts the scan, the order and its revenue', async ({ page, browser }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.goto(org('demo', '/sales/qr-codes'));
  await expect(page.getByRole('heading', { name: 'QR codes', level: 2 })).toBeVisible();
  // The demo's codes, with what they brought.
  await expect(page.getByTestId('qr-row').filter({ hasText: 'Hotel desk flyer' })).toBeVisible();
  await shoot(page, 'list');

  // A new code for the kayak store.
  await page.getByRole('button', { name: 'Create QR code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create QR code' });
  await dialog.getByLabel('Name').fill(NAME);
  await dialog.getByLabel('Campaign').fill('Autumn 2026');
  await dialog.getByText('External', { exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Store' }).click();
  await page.getByRole('option', { name: 'Alpine Trails online' }).click();
  await dialog.getByRole('button', { name: 'Create QR code' }).click();

  // Its detail: the preview, the files, the link.
  const detail = page.getByRole('dialog', { name: NAME });
  await expect(detail.getByRole('img', { name: `QR code of ${NAME}` })).toBeVisible();
  const url = (await detail.getByTestId('qr-url').textContent())!.trim();
  expect(url).toMatch(new RegExp(`^http://demo\\.localhost:\\d+/q/[a-z2-7]{8}$`));
  const code = url.split('/').pop()!;
  await shoot(page, 'detail');

  const [png] = await Promise.all([page.waitForEvent('download'), detail.getByRole('button', { name: 'PNG' }).click()]);
  expect(png.suggestedFilename()).toBe(`qr-lakeside-caf-flyer-${code}.png`);
  expect(readFileSync((await png.path())!).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const [pdf] = await Promise.all([page.waitForEvent('download'), detail.getByRole('button', { name: 'PDF flyer' }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  const pdfBytes = readFileSync((await pdf.path())!);
  expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
  await page.keyboard.press('Escape');

  const row = page.getByTestId('qr-row').filter({ hasText: NAME });
  await expect(row.getByTestId('qr-scans')).toHaveText('0');
  await expect(row.getByTestId('qr-orders')).toHaveText('0');

  // A customer scans it with their phone: the store opens, and they book the kayak paying on site.
  const phone = await browser.newContext({ viewport: PHONE });
  const customer = await phone.newPage();
  await customer.goto(url);
  await expect(customer).toHaveURL(org('demo', `/s/kayak/?qr=${code}`));
  await expect(customer.getByRole('heading', { name: 'Alpine Trails online', level: 1 })).toBeVisible();
  await customer.getByRole('link', { name: new RegExp(KAYAK) }).click();
  await expect(customer.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
  const date = zurichDate(19);
  const day = customer.locator(`a[data-date="${date}"]`);
  for (let i = 0; i < 3 && !(await customer.locator(`[data-date="${date}"]`).isVisible()); i += 1) await customer.getByRole('link', { name: 'Next month' }).click();
  await day.click();
  await customer.getByRole('radio', { name: /^09:30/ }).check();
  await customer.getByRole('button', { name: 'More: Adult', exact: true }).click();
  await customer.getByRole('button', { name: 'Hold seats' }).click();
  await expect(customer.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await customer.getByLabel('First name').fill('Quinn');
  await customer.getByLabel('Last name').fill('Scanner');
  await customer.getByLabel('E-mail').fill('quinn.scanner@example.com');
  await customer.getByRole('group', { name: SWIM }).getByLabel('Yes').check();
  await expect(customer.getByRole('radio', { name: 'Reserve now, pay on site' })).toBeChecked();
  await customer.getByRole('checkbox', { name: /I accept the terms/ }).check();
  const total = (await customer.getByTestId('cart-line').first().textContent())!.match(/CHF\s?([\d.,’']+)/)?.[1];
  expect(total).toBeTruthy();
  await customer.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(customer.getByRole('heading', { name: 'Thank you, Quinn!' })).toBeVisible();
  await phone.close();

  // Back in the list: one scan, one order, and that order's total as revenue.
  await page.reload();
  await expect(row.getByTestId('qr-scans')).toHaveText('1');
  await expect(row.getByTestId('qr-orders')).toHaveText('1');
  await expect(row.getByTestId('qr-revenue')).toContainText(total!);
  await shoot(page, 'list-after');
  await page.setViewportSize(PHONE);
  await shoot(page, 'list-phone');
});

test('a code for a partner’s store leads the customer to the agency’s store, on the agency’s host', async ({ page, browser }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.goto(org('demo', '/sales/qr-codes'));
  await page.getByRole('button', { name: 'Create QR code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create QR code' });
  await dialog.getByLabel('Name').fill('Agency door sticker');
  await dialog.getByText('A partner’s store', { exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Partner’s store' }).click();
  await page.getByRole('option', { name: /\(Alpine Agency\)$/ }).click();
  await shoot(page, 'partner-store-form');
  await dialog.getByRole('button', { name: 'Create QR code' }).click();
  const detail = page.getByRole('dialog', { name: 'Agency door sticker' });
  await expect(detail).toContainText('Alpine Agency’s store');
  const url = (await detail.getByTestId('qr-url').textContent())!.trim();
  const code = url.split('/').pop()!;
  await page.keyboard.press('Escape');

  const phone = await browser.newContext({ viewport: PHONE });
  const customer = await phone.newPage();
  await customer.goto(url);
  await expect(customer).toHaveURL(org('alpine-agency', `/s/tours/?qr=${code}`));
  await expect(customer.getByRole('link', { name: new RegExp(KAYAK) })).toBeVisible();
  await phone.close();
  await page.reload();
  await expect(page.getByTestId('qr-row').filter({ hasText: 'Agency door sticker' }).getByTestId('qr-scans')).toHaveText('1');

  // The list as CSV, with each code's scans.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^qr-codes-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await csv.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toContain('name,campaign,ownership,leads_to');
  expect(text).toMatch(/Agency door sticker,,Internal,Alpine Agency tours \(Alpine Agency\),http:\/\/demo\.localhost:\d+\/q\/[a-z2-7]{8},1,/);
});
