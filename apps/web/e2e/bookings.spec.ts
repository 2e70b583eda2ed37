import { expect, test, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import { DEMO, org, signIn } from './support/helpers';

const OFFER = 'Sunrise Kayak on Lake Lucerne';

/** Opens the checkout editor on the demo kayak tour, on a day `days` ahead, at 09:30. */
async function pickSlot(page: Page, days: number) {
  await page.goto(org('demo', '/bookings/checkout-editor'));
  await page.getByRole('combobox', { name: 'Offer' }).click();
  await page.getByRole('option', { name: OFFER }).click();
  const day = dayjs().add(days, 'day');
  if (day.format('YYYY-MM') !== dayjs().format('YYYY-MM')) await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('button', { name: day.format('YYYY-MM-DD'), exact: true }).click();
  await page.getByLabel('Times').getByRole('button', { name: /^09:30/ }).click();
  return day.format('YYYY-MM-DD');
}

test.describe.serial('booking at the counter, cancelling and checking in', () => {
  test('books two seats, sees the seats drop, cancels, and sees them return', async ({ page }) => {
    page.on('dialog', (d) => void d.accept());
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const date = await pickSlot(page, 5);
    await expect(page.getByTestId('remaining')).toHaveText('12 of 12 seats left');
    await page.getByLabel('Adult quantity').fill('2');
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await expect(page.getByTestId('cart-line')).toContainText('2 seats');
    await expect(page.getByTestId('cart-line')).toContainText('09:30'); // the tour's own time zone, not the browser's
    await expect(page.getByLabel('Hold countdown')).toContainText('Seats held for');
    await expect(page.getByTestId('remaining')).toHaveText('10 of 12 seats left');
    await page.getByLabel('Customer e-mail').fill('walk.in@example.com');
    await page.getByLabel('First name').fill('Walter');
    await page.getByLabel('Last name').fill('In');
    await page.screenshot({ path: 'test-results/screenshots/checkout.png', fullPage: true });
    await page.getByRole('button', { name: 'Check out' }).click();
    await expect(page.getByText('Order created!')).toBeVisible();
    await expect(page).toHaveURL(/\/orders\/editor\/[0-9a-f-]+\/booking\/[0-9a-f-]+$/);
    await expect(page.getByTestId('booking-status')).toHaveText('Confirmed');
    await expect(page.getByAltText(/QR code of ticket/)).toBeVisible();
    const bookingUrl = page.url();

    // The capacity page shows the two seats gone…
    await page.goto(org('demo', '/capacity/overview'));
    if (dayjs(date).format('YYYY-MM') !== dayjs().format('YYYY-MM')) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: date, exact: true }).click();
    const row = page.getByTestId('capacity-slot').filter({ hasText: '09:30' });
    await expect(row).toContainText('10 left');

    // …and back after the booking is cancelled.
    await page.goto(bookingUrl);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await expect(page.getByTestId('booking-status')).toHaveText('Canceled');
    await page.goto(org('demo', '/capacity/overview'));
    if (dayjs(date).format('YYYY-MM') !== dayjs().format('YYYY-MM')) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: date, exact: true }).click();
    await expect(page.getByTestId('capacity-slot').filter({ hasText: '09:30' })).toContainText('12 left');
  });

  test('checks a guest in by ticket code, and a second scan says when', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await pickSlot(page, 6);
    await page.getByLabel('Adult quantity').fill('1');
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await page.getByLabel('Customer e-mail').fill('early.bird@example.com');
    await page.getByLabel('First name').fill('Early');
    await page.getByRole('button', { name: 'Check out' }).click();
    const code = (await page.getByTestId('ticket-code').textContent())!.trim();

    await page.goto(org('demo', '/bookings/overview'));
    await page.getByLabel('Scan or type a ticket code').fill(code);
    await page.getByRole('button', { name: 'Check in' }).click();
    await expect(page.getByText(/Early .* checked in \(1 seat\)/)).toBeVisible();
    await page.getByLabel('Scan or type a ticket code').fill(code);
    await page.getByRole('button', { name: 'Check in' }).click();
    await expect(page.getByText(/^Already checked in at \d{2}:\d{2}\.$/)).toBeVisible();
    await page.getByLabel('Search bookings').fill('early.bird');
    await expect(page.getByRole('table', { name: 'Bookings' }).getByText('Arrived')).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/bookings.png', fullPage: true });
  });
});
