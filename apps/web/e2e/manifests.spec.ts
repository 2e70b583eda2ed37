import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { call, demoKayak, KAYAK, kayakSlot } from './support/demo-api';
import { DEMO, mailOf, org, signIn } from './support/helpers';

/**
 * A departure's manifest from the capacity page: who comes with their category split and phone,
 * the totals, printed without the app around it, exported as CSV; and staff print and e-mail a
 * customer's tickets from the order. The kayak on day 23 ahead (other specs use other days).
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const DAYS = 23;
const GUEST = { email: 'mara.manifest@example.com', first_name: 'Mara', last_name: 'Manifest', phone: '+41 79 111 22 33' };

async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

test.describe.serial('manifests and tickets', () => {
  let order: { id: string; reference: string; bookings: { ticket_code: string }[] };
  let slot: { id: string; local_date: string };

  test('opens a departure’s manifest from the capacity page, prints only it and exports its CSV', async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const kayak = await demoKayak(page);
    const categories = await call<{ results: { id: string; label: string }[] }>(page, 'GET', 'pricing-categories/?page_size=50');
    const child = categories.results.find((c) => c.label === 'Child')!.id;
    slot = await kayakSlot(page, kayak.id, DAYS);
    order = await call(page, 'POST', 'orders/', { customer: GUEST, lines: [{ slot: slot.id, quantities: { [kayak.adult]: 2, [child]: 1 } }], answers: { [kayak.swim]: 'yes' }, notes: 'Celebrating a birthday' });

    await page.goto(org('demo', `/capacity/overview?date=${slot.local_date}`));
    await page.getByRole('link', { name: `Manifest of 09:30 ${KAYAK}` }).click();
    await expect(page).toHaveURL(org('demo', `/bookings/manifests/${slot.id}`));
    const sheet = page.getByTestId('manifest-sheet');
    const row = sheet.getByTestId('manifest-booking').filter({ hasText: 'Mara Manifest' });
    await expect(row).toContainText('2 Adult, 1 Child');
    await expect(row).toContainText(GUEST.phone);
    await expect(row).toContainText('Celebrating a birthday');
    await expect(row).toContainText(order.bookings[0]!.ticket_code);
    // 2 × 89.00 + 59.00 is left to pay on site.
    await expect(row).toContainText('CHF');
    const totals = sheet.getByTestId('manifest-totals');
    await expect(totals).toContainText('Adult');
    await expect(totals).toContainText('seats');
    await page.screenshot({ path: `${SHOTS}/manifest-light.png`, fullPage: true });

    // Printing shows the manifest and nothing of the app around it.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
    await expect(page.locator('header')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(row).toBeVisible();
    await expect(sheet.getByTestId('manifest-card').first()).toBeHidden();
    await page.screenshot({ path: `${SHOTS}/manifest-print.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();

    const csv = await downloaded(page, () => page.getByRole('button', { name: 'CSV' }).click());
    expect(csv.name).toBe(`manifest-${slot.local_date}-0930.csv`);
    const text = csv.bytes.toString('utf8');
    expect(text.split('\r\n')[0]).toBe('date,time,offer,order,ticket,status,check_in,guest,phone,email,seats,categories,extras,answers,currency,balance_due,notes,guides');
    expect(text).toContain(`${order.reference},${order.bookings[0]!.ticket_code},Confirmed,Open,Mara Manifest,'+41 79 111 22 33,${GUEST.email},3,"2 Adult, 1 Child"`);
    expect(text).toMatch(/,TOTAL,/);

    // Dark, and at a phone's width (cards instead of the table).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(row).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/manifest-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByTestId('manifest-card').filter({ hasText: 'Mara Manifest' });
    await expect(card).toBeVisible();
    await expect(card).toContainText('2 Adult, 1 Child');
    await expect(card.getByRole('link', { name: GUEST.phone })).toHaveAttribute('href', 'tel:+41791112233');
    await page.screenshot({ path: `${SHOTS}/manifest-phone.png`, fullPage: true });

    // The day lists this departure with the others of the date.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(org('demo', `/bookings/manifests?date=${slot.local_date}`));
    await expect(page.getByRole('link', { name: `09:30 ${KAYAK}` })).toBeVisible();
    await expect(page.getByTestId('manifest-booking').filter({ hasText: 'Mara Manifest' })).toBeVisible();
  });

  test('staff print the tickets of an order and e-mail them again', async ({ page, context }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', `/orders/editor/${order.id}/details`));
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Print tickets' }).click()]);
    await expect.poll(() => tab.url()).toMatch(/^blob:/);
    await tab.close();

    const confirmation = await downloaded(page, () => page.getByRole('button', { name: 'Confirmation PDF' }).click());
    expect(confirmation.name).toBe(`confirmation-${order.reference}.pdf`);
    expect(confirmation.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    await page.getByRole('button', { name: 'E-mail tickets' }).click();
    await expect(page.getByRole('dialog')).toContainText(GUEST.email);
    await page.getByRole('button', { name: 'Send e-mail' }).click();
    await expect(page.getByText(`The tickets and the order confirmation are on their way to ${GUEST.email}.`)).toBeVisible();
    const mail = await mailOf(GUEST.email, /Your booking/);
    expect(mail.text).toContain(order.bookings[0]!.ticket_code);
    expect(mail.text).toContain('again');
  });
});
