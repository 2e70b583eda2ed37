import { expect, test } from '@playwright/test';
import { call, demoKayak } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

/**
 * The offer editor's Pricing, Schedule and Settings steps in German (issue 30): their labels, the
 * contract's values (category types, schedule kinds, confirmation modes) and weekdays in German, dates
 * as Intl writes them in de-DE, and a dialog that creates a cancellation policy, opened and closed
 * without creating anything. The demo owner's language is cleared after the test.
 */
test.afterEach(async ({ page }) => {
  await call(page, 'PATCH', 'users/me/', { language: null });
});

test('the Pricing, Schedule and Settings steps and the new cancellation policy dialog speak German', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await call(page, 'PATCH', 'users/me/', { language: 'de' });
  const { id } = await demoKayak(page);
  await page.goto(org('demo', `/products/experiences/editor/${id}/pricing`));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { name: 'Preise', exact: true })).toBeVisible();
  const prices = page.getByRole('table', { name: 'Preise pro Kategorie' });
  await expect(prices.getByRole('columnheader', { name: 'Verkaufspreis', exact: true })).toBeVisible();
  await expect(prices.getByRole('columnheader', { name: 'Nettopreis (Wiederverkäufer)' })).toBeVisible();
  // The category's type is a contract value, shown in German; its label is the organisation's own.
  await expect(prices.getByText('Erwachsene · Alter 16–∞', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Verkaufspreis Adult', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Saison- und Wochentagspreise' })).toBeVisible();
  // Weekdays as Intl writes them in German ("Mo", "Di" …).
  await expect(page.getByRole('checkbox', { name: 'Mo', exact: true })).toBeAttached();
  await expect(page.getByRole('checkbox', { name: 'So', exact: true })).toBeAttached();
  await page.screenshot({ path: 'test-results/screenshots/offer-settings-german-pricing.png', fullPage: true });

  // The steps' tabs (the editor's own texts: German, or English until they are translated).
  await page.getByRole('tab', { name: /^(Zeitplan|Schedule)$/ }).click();
  await expect(page.getByRole('heading', { name: 'Zeitpläne', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Zeitplan hinzufügen' })).toBeVisible();
  await expect(page.getByText('Öffnungszeiten', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nächste Termine' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Geschlossene Tage' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Programmpunkt hinzufügen' })).toBeVisible();
  // A schedule in German: its seats, and its first day with the month by name.
  await expect(page.getByTestId('schedule-rule').first()).toContainText(
    /\d+ Plätze · ab \d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/,
  );
  await page.screenshot({ path: 'test-results/screenshots/offer-settings-german-schedule.png', fullPage: true });

  await page.getByRole('tab', { name: /^(Einstellungen|Settings)$/ }).click();
  await expect(page.getByLabel('Mindestanzahl Teilnehmer pro Buchung')).toBeVisible();
  await expect(page.getByText('Bestätigung', { exact: true })).toBeVisible();
  await expect(page.getByText('Manuell (Sie bestätigen jede Buchung)')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Stornierungsbedingungen' })).toBeVisible();
  await page.getByRole('button', { name: 'Neue Stornierungsbedingungen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neue Stornierungsbedingungen' });
  await expect(dialog.getByText('Erstattungen', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('Regel 1: Erstattung in Prozent')).toHaveValue('100');
  await expect(dialog.getByRole('button', { name: 'Bedingungen erstellen' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/offer-settings-german-settings-dialog.png', fullPage: true });
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toBeHidden();
  await page.screenshot({ path: 'test-results/screenshots/offer-settings-german-settings.png', fullPage: true });
});
