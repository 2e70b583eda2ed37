import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolationsInBothSchemes } from './support/a11y';
import { demoKayak, KAYAK, kayakSlot } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

/**
 * Guides (issue 34): the owner assigns Gian (the demo's guide) to a departure from its manifest's
 * Guides panel; the manifest names him; Gian's menu has My departures, which shows that departure
 * with its manifest. The kayak 13 days ahead (other specs use other days; the demo's own
 * assignments cover only the coming week). axe in light and dark on both pages.
 */
const DAYS = 13;
const GIAN = { email: 'guide@demo.tourdesk.test', name: 'Gian Guide' };

test.describe.serial('guides', () => {
  let slot: { id: string; local_date: string };

  test('the owner assigns a guide from the departure’s manifest, which then names him', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const kayak = await demoKayak(page);
    slot = await kayakSlot(page, kayak.id, DAYS);
    await page.goto(org('demo', `/bookings/manifests/${slot.id}`));
    const panel = page.getByTestId('guides');
    await expect(panel.getByRole('heading', { name: 'Guides' })).toBeVisible();
    await expect(panel).toContainText('No guide is assigned yet.');
    await panel.getByLabel('Guide to assign').click();
    await page.getByRole('option', { name: GIAN.name }).click();
    await panel.getByRole('button', { name: 'Assign', exact: true }).click();
    await expect(panel.getByTestId('assigned-guide')).toHaveText(new RegExp(GIAN.name));
    await expect(page.getByTestId('manifest-guides')).toHaveText(`Guide: ${GIAN.name}`);
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'manifest with its guides');
  });

  test('the guide finds it under My departures, with its manifest', async ({ page }) => {
    await signIn(page, GIAN.email, DEMO.password, 'demo');
    await page.getByRole('link', { name: 'My departures' }).click();
    await expect(page).toHaveURL(org('demo', '/my-departures'));
    await expect(page.getByRole('heading', { name: 'My departures' })).toBeVisible();
    // The demo gave him departures of the coming week; the one assigned above is the latest.
    const sheet = page.getByTestId('manifest-sheet').last();
    await expect(sheet).toContainText(KAYAK);
    await expect(sheet.getByTestId('manifest-guides')).toContainText(GIAN.name);
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'my departures');
  });
});
