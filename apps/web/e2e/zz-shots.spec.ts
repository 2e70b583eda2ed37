import { test, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import { DEMO, org, signIn } from './support/helpers';

const shot = (page: Page, name: string, full = false) => page.screenshot({ path: `test-results/shots/${name}.png`, fullPage: full });

for (const scheme of ['light', 'dark'] as const) {
  test(`screens ${scheme}`, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.addInitScript((s) => localStorage.setItem('tourdesk-color-scheme', s), scheme);
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/bookings/checkout-editor'));
    await page.getByRole('combobox', { name: 'Offer' }).click();
    await page.getByRole('option', { name: 'Sunrise Kayak on Lake Lucerne' }).click();
    const day = dayjs().add(3, 'day');
    if (day.format('YYYY-MM') !== dayjs().format('YYYY-MM')) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: day.format('YYYY-MM-DD'), exact: true }).click();
    await page.getByLabel('Times').getByRole('button', { name: /^07:00/ }).click();
    await page.getByLabel('Adult quantity').fill('3');
    await page.getByLabel('Picnic lunch quantity').fill('2');
    await shot(page, `checkout-quantities-${scheme}`);
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await page.getByTestId('cart-line').waitFor();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByText('Please answer:').first().waitFor();
    await page.getByRole('button', { name: 'Check out' }).scrollIntoViewIfNeeded();
    await shot(page, `checkout-errors-${scheme}`);
    await page.getByRole('button', { name: 'Release' }).click();

    await page.goto(org('demo', '/bookings/overview'));
    await page.getByLabel('Manifest of').fill(dayjs().add(1, 'day').format('YYYY-MM-DD'));
    await page.getByTestId('manifest-row').first().waitFor();
    await page.getByLabel('Manifest', { exact: true }).scrollIntoViewIfNeeded();
    await shot(page, `manifest-${scheme}`);

    await page.goto(org('demo', `/capacity/overview?view=week&date=${dayjs().add(1, 'day').format('YYYY-MM-DD')}`));
    await page.getByTestId('week-slot').first().waitFor();
    await page.waitForTimeout(500);
    await page.getByTestId('week-slot').first().click();
    await page.getByLabel('Capacity at 07:00').waitFor();
    await shot(page, `week-popover-${scheme}`);
    await page.keyboard.press('Escape');
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Month', { exact: true }).click();
    await page.getByTestId('capacity-slot').first().waitFor();
    await page.getByText('/24').first().waitFor();
    await shot(page, `month-${scheme}`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(org('demo', `/capacity/overview?view=week&date=${dayjs().add(1, 'day').format('YYYY-MM-DD')}`));
    await page.getByTestId('week-slot').first().waitFor();
    await shot(page, `week-mobile-${scheme}`);
    await page.goto(org('demo', '/bookings/overview'));
    await page.getByLabel('Manifest of').fill(dayjs().add(1, 'day').format('YYYY-MM-DD'));
    await page.getByTestId('manifest-row').first().waitFor();
    await page.getByLabel('Manifest', { exact: true }).scrollIntoViewIfNeeded();
    await shot(page, `manifest-mobile-${scheme}`);
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: 760, height: 1000 });
    await shot(page, `manifest-print-${scheme}`, true);
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(org('demo', '/bookings/checkout-editor'));
    await page.getByRole('combobox', { name: 'Offer' }).click();
    await page.getByRole('option', { name: 'Sunrise Kayak on Lake Lucerne' }).click();
    const d2 = dayjs().add(3, 'day');
    if (d2.format('YYYY-MM') !== dayjs().format('YYYY-MM')) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: d2.format('YYYY-MM-DD'), exact: true }).click();
    await page.getByLabel('Times').getByRole('button', { name: /^07:00/ }).click();
    await page.getByLabel('Adult quantity').fill('1');
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await page.getByTestId('cart-line').waitFor();
    await page.getByTestId('cart-line').scrollIntoViewIfNeeded();
    await shot(page, `checkout-mobile-${scheme}`);
    await page.getByRole('button', { name: 'Release' }).click();
  });
}
