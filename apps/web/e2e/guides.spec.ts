import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolationsInBothSchemes } from './support/a11y';
import { call, demoKayak, KAYAK, kayakSlot, ownOffer, type Slot } from './support/demo-api';
import { DEMO, org, signIn, zurichDate } from './support/helpers';

/**
 * Guides (issue 34): the owner assigns Gian (the demo's guide) to a departure from its manifest's
 * Guides panel; the manifest names him; Gian's menu has My departures, which shows that departure
 * with its manifest. The kayak 13 days ahead (other specs use other days; the demo's own
 * assignments cover only the coming week). axe in light and dark on both pages.
 *
 * Then: the offer editor's "Guests per guide" (checked as typed, the API's refusal toasted, and once
 * saved a departure sells only what its guide can take), on an offer of the spec's own 10 days
 * ahead; the Guides settings page (who guides, a day off added and removed 20 days ahead, axe in
 * light and dark, a phone's width); and the owner, who guides in the demo, unmarking and marking
 * herself: the menu's My departures follows at once, without a reload. Every change is undone
 * before the spec ends (Gian guides, the owner guides, no day off added), so no other spec's
 * figures move.
 */
const DAYS = 13;
const GIAN = { email: 'guide@demo.tourdesk.test', name: 'Gian Guide' };
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

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

  test('the offer editor asks for a guide per so many guests; a departure then sells only what its guides can take', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const date = zurichDate(10);
    const offer = await ownOffer(page, `Guided gorge walk ${Date.now()}`, { time: '16:00', capacity: 8, from: date, to: date });
    const [departure] = await call<Slot[]>(page, 'GET', `bookings/check-availability/?experience=${offer.id}&from=${date}&to=${date}`);
    expect(departure).toMatchObject({ local_time: '16:00', remaining: 8 });
    await call(page, 'POST', 'orders/', { customer: { email: `gorge.${Date.now()}@example.com`, first_name: 'Gora', last_name: 'Gorge' }, lines: [{ slot: departure!.id, quantities: { [offer.adult]: 2 } }] });

    await page.goto(org('demo', `/products/experiences/editor/${offer.id}/settings`));
    const field = page.getByRole('textbox', { name: 'Guests per guide', exact: true });
    await expect(field).toHaveValue('');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    // Checked as typed: no guide per 0 guests.
    await field.fill('0');
    await save.click();
    await expect(page.getByText('From 1 to 1000 guests per guide, or empty: no guide needed.')).toBeVisible();
    // Two seats are sold and no guide is assigned yet: the API refuses, and says so in the toast.
    await field.fill('3');
    await save.click();
    const toast = page.locator('.Toastify__toast--error').last();
    await expect(toast).toContainText(`The departure of ${date} at 16:00 has 2 seats booked or held, and its guides take 0 guests at one guide per 3: assign guides to it first.`);
    await expect(field).toHaveValue('3');
    await page.screenshot({ path: `${SHOTS}/guides-offer-refused.png`, fullPage: true });

    // A guide for that departure (assigning from the manifest is the first test's), then the rule is saved.
    const team = await call<{ results: { id: string; name: string }[] }>(page, 'GET', 'guides/');
    await call(page, 'POST', `start-times/${departure!.id}/guides/`, { guide: team.results.find((m) => m.name === GIAN.name)!.id });
    await save.click();
    await expect(page.getByText('Offer updated!').first()).toBeVisible();
    // Its seats stop at what one guide takes: 3, of which 2 are sold.
    await page.getByRole('tab', { name: 'Schedule' }).click();
    await expect(page.getByLabel('Next time slots').getByText('1/8', { exact: true })).toBeVisible();
    await page.goto(org('demo', `/bookings/manifests/${departure!.id}`));
    await expect(page.getByTestId('guides')).toContainText('One guide per 3 guests: its guides take 3 (2 booked or held).');
    expect((await call<Slot[]>(page, 'GET', `bookings/check-availability/?experience=${offer.id}&from=${date}&to=${date}`))[0]!.remaining).toBe(1);
  });

  test('the Guides page: who guides, a day off added and removed; light, dark and a phone', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/settings/team/guides'));
    await expect(page.getByRole('heading', { name: 'Guides', level: 2 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Guides' });
    const row = table.getByRole('row').filter({ hasText: GIAN.name });
    const gian = row.getByRole('switch', { name: `${GIAN.name} guides` });
    const offs = page.getByRole('region', { name: 'Add day off' });
    const dayOffFor = offs.getByRole('combobox', { name: 'Day off for' });
    await expect(gian).toBeChecked();
    // Gian stops guiding (saved: still so after a reload), and a day off is no longer his to take.
    await gian.click();
    await expect(gian).not.toBeChecked();
    await page.reload();
    await expect(gian).not.toBeChecked();
    await dayOffFor.click();
    await expect(page.getByRole('option', { name: GIAN.name })).toHaveCount(0);
    await dayOffFor.press('Escape');
    // Marked as a guide again.
    await gian.click();
    await expect(gian).toBeChecked();

    const off = zurichDate(20);
    await dayOffFor.click();
    await page.getByRole('option', { name: GIAN.name }).click();
    const from = offs.getByRole('textbox', { name: 'From' });
    await from.fill(off);
    await from.press('Enter');
    await offs.getByRole('button', { name: 'Add day off' }).click();
    const remove = row.getByRole('button', { name: `Remove the day off from ${off} to ${off}` });
    await expect(remove).toBeVisible();
    await expect(row).toContainText(off);
    await expectNoSeriousA11yViolationsInBothSchemes(page, 'guides settings');
    await page.screenshot({ path: `${SHOTS}/guides-settings.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(remove).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/guides-settings-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await remove.click();
    await expect(remove).toHaveCount(0);
    await expect(row).not.toContainText(off);
  });

  test('a member who marks themselves as a guide has My departures in the menu at once', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/settings/team/guides'));
    // The demo's owner guides: My departures is in her menu.
    const mine = page.getByRole('link', { name: 'My departures' });
    await expect(mine).toBeVisible();
    const me = page.getByRole('switch', { name: 'Dana Demo guides' });
    await expect(me).toBeChecked();
    await me.click();
    await expect(me).not.toBeChecked();
    await expect(mine).toHaveCount(0);
    await me.click();
    await expect(me).toBeChecked();
    await expect(mine).toBeVisible();
    await mine.click();
    await expect(page.getByRole('heading', { name: 'My departures' })).toBeVisible();
  });
});
