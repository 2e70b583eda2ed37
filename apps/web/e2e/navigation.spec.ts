import { expect, test, type Page } from '@playwright/test';
import { DEMO, org, signIn } from './support/helpers';

/**
 * Every menu entry leads to a working page for the user who sees it: an Owner, the demo's guide
 * (View experiences only) and the demo's reseller (an affiliate whose plan has no offers of its
 * own). Each entry is clicked as a user does; the page must show its heading and neither a refusal,
 * a not-found panel, nor an error toast. A plan-gated entry shows a lock and leads to the plans.
 */
const REFUSALS = ['You have no permissions to access this page!', 'Your current subscription plan does not grant access to this feature!', 'Page not found', 'An error occured!'];

async function walkMenu(page: Page, who: string) {
  const nav = page.getByLabel('Main navigation');
  // Open every section (a button, for keyboards too) so that every entry is a visible link.
  for (const section of await nav.getByRole('button').all()) {
    if ((await section.getAttribute('data-expanded')) === null) await section.click();
  }
  const links = nav.getByRole('link');
  const count = await links.count();
  expect(count, `${who}: menu entries`).toBeGreaterThan(2);
  const walked: string[] = [];
  for (let i = 0; i < count; i++) {
    const link = links.nth(i);
    const name = (await link.innerText()).trim();
    const locked = (await link.getByLabel('Needs another plan').count()) > 0;
    await link.click();
    if (locked) await expect(page, `${who}: ${name} (locked)`).toHaveURL(/\/settings\/subscription\/supplier-plans$/);
    await expect(page.getByRole('heading', { level: 2 }).first(), `${who}: ${name}`).toBeVisible();
    for (const refusal of REFUSALS) await expect(page.getByText(refusal), `${who}: ${name}`).toHaveCount(0);
    await expect(page.locator('.Toastify__toast--error'), `${who}: ${name} shows an error`).toHaveCount(0);
    walked.push(`${name}${locked ? ' (locked)' : ''}`);
  }
  return walked;
}

test('an Owner, a guide and a reseller each reach a working page from every entry of their menu', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  const owner = await walkMenu(page, 'owner');
  expect(owner).toEqual(expect.arrayContaining(['Dashboard', 'Catalog', 'Stores', 'Manifests', 'Check-in', 'Resales', 'Orders', 'Roles']));

  await page.context().clearCookies();
  await signIn(page, 'guide@demo.tourdesk.test', DEMO.password, 'demo');
  const guide = await walkMenu(page, 'guide');
  expect(guide).toEqual(['Dashboard', 'Catalog', 'Manifests', 'Check-in', 'My departures', 'Capacity']);

  await page.context().clearCookies();
  await signIn(page, 'owner@alpine-agency.tourdesk.test', DEMO.password, 'alpine-agency');
  const reseller = await walkMenu(page, 'reseller');
  expect(reseller).toEqual(expect.arrayContaining(['Catalog (locked)', 'Stores', 'Partners', 'Checkout', 'Resales', 'Orders']));
  await page.goto(org('alpine-agency', '/dashboard'));
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/navigation-reseller.png', fullPage: true });
});
