import { expect, test, type Page } from '@playwright/test';
import { org, zurichDate } from './support/helpers';

/**
 * No hard-coded text in the web store (issue 30): the store in the pseudo-locale (en-XA, served
 * because the test server runs with STORE_PSEUDO_LOCALE=1, the translators' aid) draws every word
 * of its catalog accented (⟦Ŝéé ţĥé öƀƀéŕš⟧). Walking its pages — the store, an offer, the booking
 * panel, the checkout, the confirmation and the booking page — every visible text and every label
 * a screen reader hears is read: a plain ASCII word that is not the organisation's data (names,
 * titles, descriptions, answers, the customer's details, currency codes, as the store's API answers
 * them) is text that did not come from the catalog. The language switch (language names) and the
 * country list (Intl's names) are not the catalog's by design.
 */
const SLUG = 'kayak';
const store = (p = '') => org('demo', `/s/${SLUG}/en-XA/${p}`);
test.use({ viewport: { width: 390, height: 844 } });

/** The string values (never the keys) of JSON answers: the organisation's and the customer's own words. */
const valuesOf = (json: string): string[] => {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(JSON.parse(json));
  return out;
};

/** Everything the store's API answers for these pages, as words: the organisation's own. */
async function dataOf(page: Page, extra: string[] = []) {
  const answers = await page.evaluate(async (slug) => {
    const get = async (path: string) => (await fetch(`/api/web-stores/${slug}/${path}`, { headers: { 'accept-language': 'en' } })).text();
    const offers = JSON.parse(await get('experiences/?page_size=50')) as { results: { id: string }[] };
    const details = await Promise.all(offers.results.map((o) => get(`experiences/${o.id}/`)));
    return [await get(''), JSON.stringify(offers), ...details];
  }, SLUG);
  return [...answers.flatMap(valuesOf), ...extra].flatMap((v) => v.match(/[A-Za-z]{2,}/g) ?? []);
}

/** The words of the page that are neither the catalog's (accented) nor the data's. */
async function hardCoded(page: Page, data: string[]) {
  return page.evaluate((data) => {
    const known = new Set(data);
    const found: string[] = [];
    const check = (text: string, where: string) => {
      for (const word of text.match(/[A-Za-z]{2,}/g) ?? []) if (!known.has(word)) found.push(`"${word}" in ${where}: ${text.trim().slice(0, 80)}`);
    };
    const skip = (el: Element) => el.closest('script, style, noscript, .td-languages, select[autocomplete="country"]');
    const root = document.getElementById('store-root')!;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement!;
      if (skip(el) || !el.checkVisibility()) continue;
      check(node.textContent ?? '', `<${el.tagName.toLowerCase()} class="${el.className}">`);
    }
    for (const el of root.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
      if (skip(el)) continue;
      for (const attr of ['aria-label', 'title', 'alt', 'placeholder']) {
        const value = el.getAttribute(attr);
        if (value) check(value, `${attr} of <${el.tagName.toLowerCase()}>`);
      }
    }
    check(document.title, '<title>');
    return found;
  }, data);
}

test('the store in the pseudo-locale shows no text that is not in its catalog', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') warnings.push(m.text());
  });
  const customer = { first_name: 'Quinn', last_name: 'Pseudolocale', email: `quinn.${Date.now()}@example.com` };
  const data = async () => dataOf(page, [customer.first_name, customer.last_name, customer.email]);

  // The store page.
  await page.goto(store());
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  await expect(page.locator('.td-card-link').first()).toBeVisible();
  // The check sees what it should: the pseudo-locale's words, and the store's own name as data.
  await expect(page.locator('.td-card .td-price').first()).toContainText('⟦');
  const words = await data();
  expect(await hardCoded(page, words), 'store page').toEqual([]);

  // An offer, its calendar and the booking panel with a time and a participant chosen.
  await page.locator('.td-card-link').first().click();
  await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/en-XA/offers/`));
  await expect(page.locator('.td-calendar')).toBeVisible();
  expect(await hardCoded(page, words), 'offer page').toEqual([]);
  const date = zurichDate(21);
  for (let i = 0; i < 3 && !(await page.locator(`[data-date="${date}"]`).isVisible()); i += 1) await page.locator('.td-calendar-head a.td-icon-btn').last().click();
  await page.locator(`a[data-date="${date}"]`).click();
  await page.locator('input[name="td-slot"]:not([disabled])').first().check();
  await page.locator('.td-stepper-btn').nth(1).click();
  await expect(page.locator('.td-hold')).toBeVisible();
  expect(await hardCoded(page, words), 'booking panel').toEqual([]);

  // The checkout, its form filled in, with a field left wrong first (the errors are the catalog's too).
  await page.locator('.td-hold .td-btn--primary').click();
  await expect(page).toHaveURL(store('checkout'));
  await expect(page.locator('[data-testid="cart-line"]')).toHaveCount(1);
  await page.locator('#td-first_name').fill(customer.first_name);
  await page.locator('#td-last_name').fill(customer.last_name);
  await page.locator('#td-email').fill('not an address');
  await page.locator('form button[type="submit"].td-btn--primary').click();
  await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
  expect(await hardCoded(page, await data()), 'checkout').toEqual([]);
  await page.locator('#td-email').fill(customer.email);
  for (const group of await page.locator('fieldset fieldset:has(input[value="yes"])').all()) await group.locator('input[value="yes"]').check();
  await page.locator('#td-accept').check();
  await page.locator('form button[type="submit"].td-btn--primary').click();

  // The confirmation.
  await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/en-XA/confirmation/`));
  await expect(page.locator('[data-testid="ticket-code"]').first()).toBeVisible();
  const reference = decodeURIComponent(page.url().split('/confirmation/')[1]!);
  const order = await page.evaluate(
    async ({ slug, reference }) => {
      const secret = sessionStorage.getItem(`tourdesk.order.${slug}.${reference}`)!;
      return (await fetch(`/api/web-stores/${slug}/orders/${encodeURIComponent(reference)}/`, { headers: { 'x-order-token': secret } })).text();
    },
    { slug: SLUG, reference },
  );
  const withOrder = [...(await data()), ...valuesOf(order).flatMap((v) => v.match(/[A-Za-z]{2,}/g) ?? [])];
  expect(await hardCoded(page, withOrder), 'confirmation').toEqual([]);

  // The booking page, from the confirmation's link.
  await page.locator('.td-actions .td-btn--primary').click();
  await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/en-XA/booking/`));
  await expect(page.getByTestId('order-status')).toContainText('⟦');
  expect(await hardCoded(page, withOrder), 'booking page').toEqual([]);

  expect(warnings).toEqual([]);
});

test('the check finds hard-coded text: a drawing with an English word in it fails', async ({ page }) => {
  await page.goto(store());
  await expect(page.locator('.td-card-link').first()).toBeVisible();
  const words = await dataOf(page);
  await page.evaluate(() => document.querySelector('.td-card .td-price')!.append(' from'));
  expect(await hardCoded(page, words)).toEqual([expect.stringContaining('"from" in <span class="td-price">')]);
});
