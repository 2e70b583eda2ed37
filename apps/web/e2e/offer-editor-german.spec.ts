import { expect, test } from '@playwright/test';
import { call, KAYAK } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

/**
 * The offer editor's frame and its steps Basic info, Description, Booking info, Media and Preview in
 * German (issue 30): the step tabs, labels and hints, the offer type (a contract value) in German,
 * and the rich-text toolbar's buttons and link form. Nothing is saved. The demo owner's language is
 * cleared after the test.
 */
test.afterEach(async ({ page }) => {
  await call(page, 'PATCH', 'users/me/', { language: null });
});

test('the offer editor’s frame, Basic info, Description, Booking info, Media and Preview speak German', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await call(page, 'PATCH', 'users/me/', { language: 'de' });
  const offers = await call<{ results: { id: string; title: string }[] }>(page, 'GET', `experiences/?search=${encodeURIComponent(KAYAK)}`);
  const id = offers.results.find((o) => o.title === KAYAK)!.id;
  const shot = (name: string) => page.screenshot({ path: `test-results/screenshots/offer-editor-german-${name}.png`, fullPage: true });

  // The frame and Basic info.
  await page.goto(org('demo', `/products/experiences/editor/${id}/basic-info`));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('link', { name: 'Alle Angebote' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Duplizieren' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Basisdaten' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Buchungsinfos' })).toBeVisible();
  await expect(page.getByLabel('Titel', { exact: true })).toBeVisible();
  await expect(page.getByText('Ein oder zwei Sätze, angezeigt in Listen und Suchergebnissen.')).toBeVisible();
  await expect(page.getByLabel('Dauer (Minuten)')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Neuer Treffpunkt' })).toBeVisible();
  // The offer's type is a contract value: its German name in the select.
  await expect(page.getByRole('textbox', { name: 'Typ' }).or(page.getByRole('combobox', { name: 'Typ' }))).toHaveValue(/^(Verleih|Tickets & Pässe|Transfer)$/);
  await expect(page.getByRole('button', { name: 'Speichern und weiter' })).toBeVisible();
  await shot('basic-info');

  // Description: the rich-text toolbar and its link form.
  await page.getByRole('tab', { name: 'Beschreibung' }).click();
  const toolbar = page.getByRole('toolbar', { name: 'Ausführliche Beschreibung: Formatierung' });
  await expect(toolbar).toBeVisible();
  for (const name of ['Fett', 'Kursiv', 'Überschrift', 'Zwischenüberschrift', 'Aufzählung', 'Nummerierte Liste', 'Zitat', 'Link entfernen', 'Rückgängig']) {
    await expect(toolbar.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('Inbegriffen', { exact: true })).toBeVisible();
  await expect(page.getByText('Eine pro Zeile.').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Ausführliche Beschreibung' }).click();
  await toolbar.getByRole('button', { name: 'Link', exact: true }).click();
  await page.getByLabel('Linkadresse').fill('ftp://files.example');
  await page.getByRole('button', { name: 'Übernehmen' }).click();
  await expect(page.getByText('Ein Link beginnt mit https://, http:// oder mailto:.')).toBeVisible();
  await shot('description');
  await page.keyboard.press('Escape');

  // Booking info.
  await page.getByRole('tab', { name: 'Buchungsinfos' }).click();
  await expect(page.getByLabel('Hinweise zum Treffpunkt')).toBeVisible();
  await expect(page.getByText('Wird auf das Ticket gedruckt.')).toBeVisible();
  await shot('booking-info');

  // Media.
  await page.getByRole('tab', { name: 'Medien' }).click();
  await expect(page.getByRole('heading', { name: 'Bilder', exact: true })).toBeVisible();
  await expect(page.getByText('Bilder hier ablegen oder klicken, um sie auszuwählen')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Videos', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Video hinzufügen' })).toBeVisible();
  await shot('media');

  // Preview: as customers will see it, its headings in German.
  await page.getByRole('tab', { name: 'Vorschau' }).click();
  const preview = page.getByLabel('Vorschau', { exact: true });
  await expect(preview.getByText('Nächste Startzeiten')).toBeVisible();
  await expect(preview.getByText('Preise', { exact: true })).toBeVisible();
  await expect(preview.getByText('ab', { exact: true })).toBeVisible();
  await expect(preview.getByTestId('preview-times')).toContainText(/(Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}, .* · \d+ frei/);
  await shot('preview');
});
