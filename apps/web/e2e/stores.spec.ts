import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { demoKayak, kayakSlot, solvedChallenge } from './support/demo-api';
import { DEMO, org, signIn, zurichDate } from './support/helpers';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const KAYAK = 'Sunrise Kayak on Lake Lucerne';
const GLACIER = 'Glacier Hike with a Mountain Guide';
const PHONE = { width: 390, height: 844 };

/** A logo on disk: a 480×200 PNG. */
async function logoFile() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tourdesk-logo-')), 'lakeside-logo.png');
  const png = await sharp({ create: { width: 480, height: 200, channels: 3, background: { r: 20, g: 110, b: 190 } } })
    .composite([{ input: { create: { width: 160, height: 160, channels: 3, background: { r: 250, g: 200, b: 40 } } }, left: 20, top: 20 }])
    .png()
    .toBuffer();
  writeFileSync(file, png);
  return file;
}

/**
 * What customers do in the public store (its own API, no session): two visits, and one of them
 * books an adult on the kayak's 09:30 slot three days ahead, paying on site.
 */
async function customerBooks(page: Page, slug: string) {
  const kayak = await demoKayak(page);
  const slot = await kayakSlot(page, kayak.id, 3);
  const altcha = await solvedChallenge(page, slug);
  const res = await page.evaluate(
    async ({ slug, slot, adult, swim, altcha }) => {
      const send = async (path: string, body: unknown, token?: string) => {
        const r = await fetch(`/api/web-stores/${slug}/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { 'x-cart-token': token } : {}), ...(path === 'orders/' ? { 'x-altcha': altcha } : {}) },
          body: JSON.stringify(body),
        });
        if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
        return r.status === 204 ? null : r.json();
      };
      await send('visits/', { visit: 'e2e-visit-one' });
      await send('visits/', { visit: 'e2e-visit-two' });
      const cart = (await send('carts/', {})) as { id: string; token: string };
      await send(`carts/${cart.id}/lines/`, { slot, quantities: { [adult]: 1 } }, cart.token);
      const order = (await send(
        'orders/',
        {
          cart: cart.id,
          customer: { email: 'sam.store@example.com', first_name: 'Sam', last_name: 'Store' },
          answers: { [swim]: 'yes' },
          accept_terms: true,
          payment_option: 'pay_on_site',
        },
        cart.token,
      )) as { total: number };
      return order.total;
    },
    { slug, slot: slot.id, adult: kayak.adult, swim: kayak.swim, altcha },
  );
  expect(res).toBeGreaterThan(0);
  return res;
}

/** The store's offers as the Products tab lists them, in order. */
const offerTitles = (page: Page) => page.getByTestId('store-offer').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-title')));

test.describe.serial('stores: create, set up, fill from the catalog, order, and read the figures', () => {
  const name = `Lakeside Shop ${Date.now().toString(36)}`;
  const slug = name.toLowerCase().replace(/ /g, '-');
  let editor = '';

  test('a store is created, set up, filled, ordered, and all of it is kept', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');

    // The navigation's Stores and sales → Stores opens the list.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByText('Stores and sales', { exact: true }).click();
    await page.getByRole('link', { name: 'Stores', exact: true }).click();
    await expect(page).toHaveURL(org('demo', '/sales/stores'));
    await expect(page.getByRole('heading', { name: 'Stores' })).toBeVisible();

    // Create: the address follows the name; the new store opens on its Settings tab.
    await page.getByRole('button', { name: 'Create store' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create store' });
    await dialog.getByLabel('Name').fill(name);
    await expect(dialog.getByLabel('Address')).toHaveValue(slug);
    await dialog.getByRole('button', { name: 'Create store' }).click();
    await expect(page.getByText('Store created', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/sales\/stores\/editor\/[0-9a-f-]+\/settings$/);
    editor = new URL(page.url()).pathname.replace(/\/settings$/, '');
    await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(page.getByTestId('store-status')).toHaveText('Active');
    const open = page.getByRole('link', { name: 'Open store' });
    await expect(open).toHaveAttribute('href', org('demo', `/s/${slug}/`));
    await expect(open).toHaveAttribute('target', '_blank');

    // Settings: a new introduction and a logo, saved together.
    const form = page.getByRole('form', { name: 'Store settings' });
    await expect(form.getByText(`Customers find the store at ${org('demo', `/s/${slug}/`)}`)).toBeVisible();
    await form.getByLabel('Introduction').fill('Boats at sunrise and hikes on the ice, booked in a minute.');
    await form.locator('input[type="file"]').setInputFiles(await logoFile());
    await expect(form.getByRole('img', { name: 'Store logo' })).toBeVisible();
    await form.getByLabel('Site to add').fill('not a site');
    await form.getByRole('button', { name: 'Add site' }).click();
    await expect(form.getByText('A site is written as its origin, such as https://www.example.com.')).toBeVisible();
    await form.getByLabel('Site to add').fill('https://www.lakeside.example');
    await form.getByRole('button', { name: 'Add site' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Store updated', { exact: true })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();

    // Global catalog: choose two offers (one of them found by a search), add them in one call.
    await page.getByRole('tab', { name: 'Global catalog' }).click();
    await expect(page).toHaveURL(org('demo', `${editor}/add-products`));
    await page.getByRole('checkbox', { name: `Select ${KAYAK}` }).check();
    await page.getByLabel('Search offers').fill('Glacier');
    await expect(page.getByTestId('eligible-offer')).toHaveCount(1);
    await page.getByRole('checkbox', { name: `Select ${GLACIER}` }).check();
    await page.getByRole('button', { name: 'Add 2 to store' }).click();
    await expect(page.getByText('2 offers added to the store.')).toBeVisible();
    await expect(page.getByTestId('eligible-offer')).toHaveCount(0);
    await expect(page.getByText('No offer matches this search.')).toBeVisible();

    // Products: in the order added; the Inactive one says when customers will see it; move it up.
    await page.getByRole('tab', { name: 'Products' }).click();
    await expect(page).toHaveURL(org('demo', `${editor}/store-products`));
    await expect(page.getByTestId('store-offer')).toHaveCount(2);
    expect(await offerTitles(page)).toEqual([KAYAK, GLACIER]);
    await expect(page.getByTestId('store-offer').filter({ hasText: GLACIER })).toContainText('Customers see it once it is Active.');
    await expect(page.getByTestId('store-offer').filter({ hasText: KAYAK })).not.toContainText('Customers see it once it is Active.');
    await expect(page.getByRole('button', { name: `Move ${KAYAK} up` })).toBeDisabled();
    const reordered = page.waitForResponse((r) => r.url().includes('/reorder-experiences/') && r.status() === 204);
    await page.getByRole('button', { name: `Move ${GLACIER} up` }).focus();
    await page.keyboard.press('Enter');
    await reordered;
    expect(await offerTitles(page)).toEqual([GLACIER, KAYAK]);
    await page.screenshot({ path: `${SHOTS}/store-products.png`, fullPage: true });

    // Customers visit the store and one books; Analytics shows it: the last 30 days by default
    // (to tomorrow here, as the organisation's day may already be the browser's tomorrow).
    await customerBooks(page, slug);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await expect(page).toHaveURL(org('demo', `${editor}/overview`));
    await expect(page.getByText('Revenue per day')).toBeVisible();
    await expect(page.getByRole('img', { name: /Revenue per day, 30 days/ })).toBeVisible();
    const perDay = page.getByRole('table', { name: 'Per day' });
    await expect(perDay.locator('tbody tr')).toHaveCount(30);
    await page.getByLabel('To', { exact: true }).fill(zurichDate(1));
    await expect(perDay.locator('tbody tr')).toHaveCount(31);
    await expect(perDay.locator('tfoot')).toContainText('Total');
    const totals = page.getByLabel('Totals');
    await expect(totals).toContainText('Visits2');
    await expect(totals).toContainText('Orders1');
    await expect(totals).toContainText('Conversion50 %');
    await expect(totals).toContainText('RevenueCHF');
    await page.screenshot({ path: `${SHOTS}/store-overview.png`, fullPage: true });
    await page.getByLabel('Chart').getByText('Orders', { exact: true }).click();
    await expect(page.getByText('Orders per day')).toBeVisible();

    // A reload keeps everything: the order of the offers, the introduction, the logo, the site.
    await page.reload();
    await expect(page.getByText('Orders per day').or(page.getByText('Revenue per day'))).toBeVisible();
    await page.getByRole('tab', { name: 'Products' }).click();
    await expect(page.getByTestId('store-offer')).toHaveCount(2);
    expect(await offerTitles(page)).toEqual([GLACIER, KAYAK]);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(form.getByLabel('Introduction')).toHaveValue('Boats at sunrise and hikes on the ice, booked in a minute.');
    await expect(form.getByRole('img', { name: 'Store logo' })).toBeVisible();
    await expect(form.getByText('https://www.lakeside.example')).toBeVisible();

    // The list shows it with two offers, and the Inactive filter leaves it out.
    await page.goto(org('demo', '/sales/stores'));
    const row = page.getByTestId('store-row').filter({ hasText: name });
    await expect(row).toContainText('/s/' + slug + '/');
    await expect(row.getByRole('cell').nth(2)).toHaveText('2');
    await page.screenshot({ path: `${SHOTS}/stores-list.png`, fullPage: true });
    await page.getByRole('combobox', { name: 'Status filter' }).click();
    await page.getByRole('option', { name: 'Inactive' }).click();
    await expect(page).toHaveURL(org('demo', '/sales/stores?active=false'));
    await expect(row).toHaveCount(0);
  });

  test('a store that cannot be loaded shows why and stays on its address', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const missing = '/sales/stores/editor/00000000-0000-4000-8000-000000000000/settings';
    await page.goto(org('demo', missing));
    await expect(page.getByRole('alert').filter({ hasText: 'The store could not be loaded.' })).toContainText('No store with this id.');
    await expect(page).toHaveURL(org('demo', missing));
  });

  test('phone width, light and dark: list and every tab', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const suffix = scheme === 'dark' ? '-dark' : '';
      await page.goto(org('demo', '/sales/stores'));
      await expect(page.getByTestId('store-row').filter({ hasText: name })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/stores-list-phone${suffix}.png`, fullPage: true });
      for (const tab of ['overview', 'store-products', 'settings', 'add-products'] as const) {
        await page.goto(org('demo', `${editor}/${tab}`));
        await expect(page.getByRole('heading', { name })).toBeVisible();
        if (tab === 'overview') await expect(page.getByRole('img', { name: /per day/ })).toBeVisible();
        if (tab === 'store-products') await expect(page.getByTestId('store-offer')).toHaveCount(2);
        if (tab === 'settings') await expect(page.getByRole('img', { name: 'Store logo' })).toBeVisible();
        if (tab === 'add-products') await expect(page.getByTestId('eligible-offer').first()).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/store-${tab}-phone${suffix}.png`, fullPage: true });
      }
    }
    // The create dialog at phone width.
    await page.goto(org('demo', '/sales/stores'));
    await page.getByRole('button', { name: 'Create store' }).click();
    await page.getByRole('dialog', { name: 'Create store' }).getByLabel('Name').fill('Bergbahnen & Seilbahnen Zentralschweiz');
    await page.waitForTimeout(500); // the dialog's opening transition
    await page.screenshot({ path: `${SHOTS}/stores-create-phone-dark.png` });
  });
});
