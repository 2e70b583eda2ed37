import { expect, test, type Page } from '@playwright/test';
import { call, demoKayak } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

/**
 * Offer content per language (issue 30): the owner chooses the organisation's languages (German
 * taken out, then added again), opens the kayak tour in the editor, switches its texts to German,
 * writes the German title and short description, saves, and the marker of what German still misses
 * changes; the store's catalogue then answers German for Accept-Language de.
 */
const TITLE_DE = 'Kajak bei Sonnenaufgang auf dem Vierwaldstättersee';
const SHORT_DE = 'Paddeln im Morgengrauen, während die Alpen rosa leuchten.';

type Texts = Record<string, unknown>;

/** The store's offers as a customer's browser asks for them (Chromium resolves *.localhost, Node does not). */
async function storeOffers(page: Page, language: string) {
  return page.evaluate(async (acceptLanguage) => {
    const r = await fetch('/api/web-stores/kayak/experiences/', { headers: { 'accept-language': acceptLanguage } });
    return { status: r.status, contentLanguage: r.headers.get('content-language'), body: (await r.json()) as { results: { title: string; short_description: string }[] } };
  }, language);
}

test('an owner adds German, translates the kayak tour’s title and short description in the editor, and the store serves them', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  const kayak = await demoKayak(page);
  const before = await call<{ languages: string[] }>(page, 'GET', 'product-configuration/');
  // Before: the kayak has no German title nor short description (the rest of its German texts stay).
  const saved = await call<{ translations: Record<string, Texts> }>(page, 'GET', `experiences/${kayak.id}/`);
  const { title: _t, short_description: _s, ...restDe } = saved.translations.de ?? {};
  await call(page, 'PATCH', `experiences/${kayak.id}/`, { translations: { de: restDe } });

  // Settings › Product configuration: German out, then in again (last, not the main language).
  await page.goto(org('demo', '/settings/product-configuration'));
  const languages = page.locator('[aria-label="Languages you sell in"]');
  await expect(languages.getByTestId('language-en').getByText('Main language')).toBeVisible();
  if (await languages.getByTestId('language-de').isVisible()) {
    await languages.getByRole('button', { name: 'Remove Deutsch' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Product configuration saved.')).toBeVisible();
    await expect(languages.getByTestId('language-de')).toHaveCount(0);
  }
  await languages.getByRole('combobox', { name: 'Add a language' }).click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await expect(languages.getByTestId('language-de')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Product configuration saved.').last()).toBeVisible();
  const config = await call<{ languages: string[] }>(page, 'GET', 'product-configuration/');
  expect(config.languages[0]).toBe('en');
  expect(config.languages).toContain('de');

  // The editor: the German texts, with the English ones as placeholders, and what German misses.
  await page.goto(org('demo', `/products/experiences/editor/${kayak.id}/basic-info`));
  await expect(page.getByLabel('Title')).toHaveValue('Sunrise Kayak on Lake Lucerne');
  const switcher = page.getByRole('group', { name: 'Language' });
  await switcher.getByRole('button', { name: /^Deutsch/ }).click();
  await expect(switcher.getByRole('button', { name: /^Deutsch/ })).toHaveAttribute('aria-pressed', 'true');
  const marker = page.getByTestId('missing-de');
  await expect(marker).toHaveText('2 missing');
  await expect(page.getByLabel('Title')).toHaveValue('');
  await expect(page.getByLabel('Title')).toHaveAttribute('placeholder', 'Sunrise Kayak on Lake Lucerne');
  await page.getByLabel('Title').fill(TITLE_DE);
  await page.getByLabel('Short description').fill(SHORT_DE);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Offer updated!')).toBeVisible();
  await expect(marker).toHaveText('complete');
  // The main language is untouched.
  await switcher.getByRole('button', { name: /^English/ }).click();
  await expect(page.getByLabel('Title')).toHaveValue('Sunrise Kayak on Lake Lucerne');

  // The store's catalogue in German; English without the header.
  const german = await storeOffers(page, 'de-CH, de;q=0.9');
  expect(german.status).toBe(200);
  expect(german.contentLanguage).toBe('de');
  expect(german.body.results).toContainEqual(expect.objectContaining({ title: TITLE_DE, short_description: SHORT_DE }));
  const english = await storeOffers(page, 'en');
  expect(english.contentLanguage).toBe('en');
  expect(english.body.results).toContainEqual(expect.objectContaining({ title: 'Sunrise Kayak on Lake Lucerne' }));

  // The demo as it was for the next specs: its languages in their order (the German texts are the seed's again).
  if (before.languages.includes('de')) await call(page, 'PATCH', 'product-configuration/', { languages: before.languages });
});
