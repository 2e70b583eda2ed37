import { expect, test, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import { call } from './support/demo-api';
import { DEMO, mailOf, org, sameMonthAsToday, signIn, zurichDate } from './support/helpers';

const OFFER = 'Sunrise Kayak on Lake Lucerne';
const SWIM = 'Can everyone in the group swim?';
const DIET = 'Any dietary requirements?';

/** Opens the checkout editor on the demo kayak tour, on a day `days` ahead, at 09:30. */
async function pickSlot(page: Page, days: number) {
  await page.goto(org('demo', '/bookings/checkout-editor'));
  await page.getByRole('combobox', { name: 'Offer' }).click();
  await page.getByRole('option', { name: OFFER }).click();
  const day = zurichDate(days);
  if (!sameMonthAsToday(day)) await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('button', { name: day, exact: true }).click();
  await page.getByLabel('Times').getByRole('button', { name: /^09:30/ }).click();
  return day;
}

/** Answers the kayak's required question (yes or no), as the checkout asks before it books. */
async function answerSwim(page: Page, answer: 'Yes' | 'No') {
  await page.getByRole('radiogroup', { name: SWIM }).getByRole('radio', { name: answer, exact: true }).check();
}

test.describe.serial('booking at the counter, cancelling and checking in', () => {
  test('books two seats with an extra, answers the questions, sees the seats drop, cancels, and sees them return', async ({ page }) => {
    page.on('dialog', (d) => void d.accept());
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const date = await pickSlot(page, 5);
    await expect(page.getByTestId('remaining')).toHaveText('12 of 12 seats left');
    await page.getByLabel('Adult quantity').fill('2');
    await expect(page.getByTestId('line-total')).toHaveText('Total CHF 178.00');
    // The offer's extra, at the item's price, counts in the total.
    await expect(page.getByLabel('Extras')).toContainText('Picnic lunch · CHF 18.00');
    await page.getByLabel('Picnic lunch quantity').fill('1');
    await expect(page.getByTestId('line-total')).toHaveText('Total CHF 196.00');
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await expect(page.getByTestId('cart-line')).toContainText('2 seats');
    await expect(page.getByTestId('cart-line')).toContainText('09:30'); // the tour's own time zone, not the browser's
    await expect(page.getByTestId('cart-line')).toContainText('Picnic lunch × 1');
    await expect(page.getByTestId('cart-line')).toContainText('CHF 196.00'); // the server's figure
    await expect(page.getByLabel('Hold countdown')).toContainText('Seats held for');
    await expect(page.getByTestId('remaining')).toHaveText('10 of 12 seats left');
    await page.getByLabel('Customer e-mail').fill('walk.in@example.com');
    await page.getByLabel('First name').fill('Walter');
    await page.getByLabel('Last name').fill('In');
    // The required question is asked, and checked before anything is sent.
    await expect(page.getByRole('radiogroup', { name: SWIM })).toBeVisible();
    await page.getByRole('button', { name: 'Check out' }).click();
    await expect(page.getByText(`Please answer: ${SWIM}`)).toBeVisible();
    await expect(page).toHaveURL(/\/bookings\/checkout-editor$/);
    await answerSwim(page, 'Yes');
    await expect(page.getByText(`Please answer: ${SWIM}`)).toBeHidden();
    await page.getByLabel(DIET).fill('One vegetarian');
    await page.screenshot({ path: 'test-results/screenshots/checkout.png', fullPage: true });
    // "E-mail the confirmation" is ticked unless staff untick it: the customer gets it with the tickets.
    await expect(page.getByRole('checkbox', { name: 'E-mail the confirmation and tickets to the customer' })).toBeChecked();
    await page.getByRole('button', { name: 'Check out' }).click();
    await expect(page.getByText('Order created!')).toBeVisible();
    const confirmation = await mailOf('walk.in@example.com', /Your booking/);
    expect(confirmation.attachments?.map((a) => a.filename).sort()).toEqual([expect.stringMatching(/^booking-.*\.ics$/), expect.stringMatching(/^tickets-.*\.pdf$/)]);
    // The new order opens on its details; its line leads to the booking.
    await expect(page).toHaveURL(/\/orders\/editor\/[0-9a-f-]+\/details$/);
    await expect(page.getByTestId('order-line')).toContainText('Picnic lunch');
    await page.getByTestId('order-line').getByRole('link', { name: OFFER }).click();
    await expect(page).toHaveURL(/\/orders\/editor\/[0-9a-f-]+\/booking\/[0-9a-f-]+$/);
    await expect(page.getByTestId('booking-status')).toHaveText('Confirmed');
    await expect(page.getByAltText(/QR code of ticket/)).toBeVisible();
    // The booking carries its extra and its answers, by name.
    await expect(page.getByTestId('booking-extras')).toHaveText('Picnic lunch × 1');
    await expect(page.getByTestId('booking-answer').filter({ hasText: SWIM })).toHaveText(`${SWIM} Yes`);
    await expect(page.getByTestId('booking-answer').filter({ hasText: DIET })).toHaveText(`${DIET} One vegetarian`);
    await page.screenshot({ path: 'test-results/screenshots/booking-detail.png', fullPage: true });
    const bookingUrl = page.url();

    // The day's manifest shows them too.
    await page.goto(org('demo', `/bookings/manifests?date=${date}`));
    const manifestRow = page.getByTestId('manifest-booking').filter({ hasText: 'Walter' });
    await expect(manifestRow).toContainText('1 Picnic lunch');
    await expect(manifestRow).toContainText(`${SWIM} Yes`);

    // The capacity page shows the two seats gone…
    await page.goto(org('demo', '/capacity/overview'));
    if (!sameMonthAsToday(date)) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: date, exact: true }).click();
    const row = page.getByTestId('capacity-slot').filter({ hasText: '09:30' });
    await expect(row).toContainText('10 left');

    // …in the week too: seven days, Monday first, the chosen day among them; the view is in the address.
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Week', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Week' })).toBeChecked();
    await expect(page).toHaveURL(/[?&]view=week/);
    await expect(page.locator('section[data-date]')).toHaveCount(7);
    expect(dayjs(await page.locator('section[data-date]').first().getAttribute('data-date')).day()).toBe(1);
    const weekSlot = page.locator(`section[data-date="${date}"]`).getByTestId('week-slot').filter({ hasText: '09:30' });
    await expect(weekSlot).toContainText('10/12 left');
    await expect(weekSlot).toContainText(OFFER);
    await page.screenshot({ path: 'test-results/screenshots/capacity-week.png', fullPage: true });
    await page.reload();
    await expect(weekSlot).toContainText('10/12 left');
    // A slot opens the day list's controls: close it, and it shows closed.
    await weekSlot.click();
    await expect(page.getByLabel('Capacity at 09:30')).toHaveValue('12');
    await page.getByLabel('Open at 09:30').click({ force: true });
    await expect(page.getByText('09:30 closed.')).toBeVisible();
    await expect(weekSlot).toContainText('Closed');
    await page.getByLabel('Open at 09:30').click({ force: true });
    await expect(page.getByText('09:30 reopened.')).toBeVisible();
    await expect(weekSlot).toContainText('10/12 left');
    await page.getByRole('button', { name: 'Next week' }).click();
    await expect(page.locator(`section[data-date="${dayjs(date).add(7, 'day').format('YYYY-MM-DD')}"]`)).toBeVisible();

    // …and back after the booking is cancelled.
    await page.goto(bookingUrl);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await expect(page.getByTestId('booking-status')).toHaveText('Canceled');
    await page.goto(org('demo', '/capacity/overview'));
    if (!sameMonthAsToday(date)) await page.getByRole('button', { name: 'Next month' }).click();
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
    await answerSwim(page, 'No');
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByTestId('order-line').getByRole('link', { name: OFFER }).click();
    const code = (await page.getByTestId('ticket-code').textContent())!.trim();

    await page.goto(org('demo', '/bookings/overview'));
    await page.getByLabel('Scan or type a ticket code').fill(code);
    await page.getByRole('button', { name: 'Check in' }).click();
    // Its departure is in six days: the desk says so with the date, and staff may check it in anyway.
    const otherDay = page.getByTestId('check-in-other-day');
    await expect(otherDay).toContainText(/Booked for \w{3} \d{1,2} \w{3} at \d{2}:\d{2}\./);
    await otherDay.getByRole('button', { name: 'Check in anyway' }).click();
    await expect(page.getByText(/Early .* checked in \(1 seat\)/)).toBeVisible();
    await expect(otherDay).toHaveCount(0);
    // A USB scanner types the code and Enter.
    await page.getByLabel('Scan or type a ticket code').fill(code);
    await page.getByLabel('Scan or type a ticket code').press('Enter');
    await expect(page.getByText(/^Already checked in at \d{2}:\d{2}\.$/)).toBeVisible();
    await page.getByLabel('Search bookings').fill('early.bird');
    await expect(page.getByRole('table', { name: 'Bookings' }).getByText('Arrived')).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/bookings.png', fullPage: true });
  });

  test('names a held line that can no longer be booked, offers to remove it, and books the rest', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await pickSlot(page, 8);
    await page.getByLabel('Adult quantity').fill('1');
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await pickSlot(page, 9);
    await page.getByLabel('Adult quantity').fill('2');
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await expect(page.getByTestId('cart-line')).toHaveCount(2);
    // Meanwhile the office closes the first line's departure.
    const cart = await call<{ lines: { id: string; slot: string; seats: number }[] }>(page, 'GET', 'cart/');
    const first = cart.lines.find((l) => l.seats === 1)!;
    await call(page, 'PATCH', `start-times/${first.slot}/`, { closed: true });

    await page.getByLabel('Customer e-mail').fill('late.comer@example.com');
    await page.getByLabel('First name').fill('Late');
    await answerSwim(page, 'Yes');
    await page.getByRole('button', { name: 'Check out' }).click();
    const refused = page.locator('[data-testid="cart-line"][data-refused="true"]');
    await expect(refused).toHaveCount(1);
    await expect(refused).toContainText('1 seat');
    await expect(refused.getByRole('alert')).toContainText('is no longer open for sale');
    await expect(page.getByTestId('refused-lines')).toBeVisible();
    await expect(page).toHaveURL(/\/bookings\/checkout-editor$/);
    await page.screenshot({ path: 'test-results/screenshots/checkout-refused-line.png', fullPage: true });
    await refused.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await expect(page.getByTestId('refused-lines')).toBeHidden();
    await page.getByRole('button', { name: 'Check out' }).click();
    await expect(page.getByText('Order created!')).toBeVisible();
    await expect(page.getByTestId('order-line')).toHaveCount(1);
    await call(page, 'PATCH', `start-times/${first.slot}/`, { closed: false });
  });
});
