import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolationsInBothSchemes } from './support/a11y';
import { call, demoKayak, KAYAK, kayakSlot } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

/**
 * Resource pools (issue 34): the demo's sunrise kayak and kayak taster share 12 kayaks, and
 * wetsuits (an extra) take from a wetsuit pool with 30 minutes to dry. The owner sees a pool's
 * buffers in the inventory editor and the offer's resources in its editor; with 9 adults booked (two parties) on
 * the sunrise kayak's 09:30 departure, the taster at 10:00 has 3 kayaks left, and the capacity page
 * marks it and draws the kayaks' day. The day 17 days ahead (other specs use other days). axe in
 * light and dark, and the capacity page at phone width.
 */
const DAYS = 29; // days ahead: no other spec books the kayaks then (order-language books day 17)
const PHONE = { width: 390, height: 844 };
const GUEST = { email: 'pool.guest@example.com', first_name: 'Pia', last_name: 'Paddle' };

test.describe.serial('resource pools', () => {
  test('a pool’s buffers in the inventory editor, the offer’s resources in its editor', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/products/experiences/inventory/overview'));
    await page.getByRole('button', { name: 'Edit Wetsuits' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Buffer after use (minutes)')).toHaveValue('30');
    await dialog.getByLabel('Buffer after use (minutes)').fill('20');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const items = await call<{ results: { name: string; buffer_after_minutes: number }[] }>(page, 'GET', 'inventory-items/?type=Equipment&page_size=50');
    expect(items.results.find((i) => i.name === 'Wetsuits')?.buffer_after_minutes).toBe(20);
    await call(page, 'PATCH', `inventory-items/${(await call<{ results: { id: string; name: string }[] }>(page, 'GET', 'inventory-items/?search=Wetsuits')).results.find((i) => i.name === 'Wetsuits')!.id}/`, { buffer_after_minutes: 30 });

    const kayak = await demoKayak(page);
    await page.goto(org('demo', `/products/experiences/editor/${kayak.id}/schedule`));
    const card = page.getByTestId('offer-resources');
    await expect(card.getByRole('heading', { name: 'Resources' })).toBeVisible();
    await expect(card.getByTestId('resource-rule')).toHaveCount(3);
    await expect(card.getByTestId('resource-rule').first().getByLabel('Pool')).toHaveValue('Kayaks (12 in stock)');
    await expect(card.getByTestId('resource-rule').nth(2).getByLabel('Taken')).toHaveValue('per extra sold');
    await card.getByRole('button', { name: 'Save resources' }).click();
    await expect(page.getByText('Resources saved.')).toBeVisible();
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'offer editor with its resources');
  });

  test('the capacity page draws the kayaks’ day and marks the departure a pool limits', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const kayak = await demoKayak(page);
    const slot = await kayakSlot(page, kayak.id, DAYS);
    await call(page, 'POST', 'orders/', { customer: GUEST, lines: [{ slot: slot.id, quantities: { [kayak.adult]: 5 } }, { slot: slot.id, quantities: { [kayak.adult]: 4 } }], answers: { [kayak.swim]: 'yes' } });
    await page.goto(org('demo', `/capacity/overview?date=${slot.local_date}`));
    const taster = page.getByTestId('capacity-slot').filter({ hasText: 'Kayak Taster on Lake Lucerne' }).filter({ hasText: '10:00' });
    await expect(taster.getByTestId('pool-limited')).toHaveText('Pool: 3 left');
    const timeline = page.getByTestId('pool-timeline').filter({ hasText: 'Kayaks' });
    await expect(timeline).toContainText('12 in stock');
    await expect(timeline.getByTestId('pool-departure').filter({ hasText: KAYAK }).filter({ hasText: '09:30' })).toContainText('takes 9, 9 of 12 in use at most');
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'capacity page with the pools’ day');
    await page.setViewportSize(PHONE);
    await expect(timeline).toBeVisible();
    const box = await timeline.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'capacity page with the pools’ day, phone');
  });
});
