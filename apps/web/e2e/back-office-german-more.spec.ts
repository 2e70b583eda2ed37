import { expect, test } from '@playwright/test';
import { call } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

/**
 * The rest of the back office in German (issue 30): the subscription page (plans, prices and dates
 * in German), a store's settings tab (its payment options), the product configuration (what tickets
 * show) and a date field's hint (TT.MM.JJJJ). The demo owner's language is cleared after the test,
 * so no other spec finds it German.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

test.afterEach(async ({ page }) => {
  await call(page, 'PATCH', 'users/me/', { language: null });
});

test('the subscription page, a store’s payment options, the ticket fields and a date field speak German', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await call(page, 'PATCH', 'users/me/', { language: 'de' });

  // The subscription page: title, the current plan, its usage, the plans with German prices.
  await page.goto(org('demo', '/settings/subscription/supplier-plans'));
  await expect(page.getByRole('heading', { name: 'Abonnement', level: 2 })).toBeVisible();
  const current = page.getByRole('region', { name: 'Aktueller Tarif' });
  await expect(current.getByTestId('current-plan-name')).toHaveText('Standard');
  await expect(current.getByTestId('usage-offers')).toContainText(/^\d+ von 50 Angeboten/);
  await expect(page.getByRole('tab', { name: 'Tarife für Anbieter', selected: true })).toBeVisible();
  const pro = page.getByRole('region', { name: 'Pro', exact: true });
  await expect(pro.getByTestId('plan-price')).toContainText('149,00 €');
  await expect(pro.getByText('pro Monat')).toBeVisible();
  await expect(pro.getByText('Unbegrenzt viele Angebote')).toBeVisible();
  await expect(pro.getByText('Verkaufsanalysen')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Standard', exact: true }).getByText('1,5 % Gebühr auf Online-Zahlungen')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Starter', exact: true }).getByText('Bis zu 3 Angebote')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/german-more-subscription.png`, fullPage: true });

  // A store's settings: the payment options.
  const stores = await call<{ results?: { id: string }[] } | { id: string }[]>(page, 'GET', 'stores/');
  const store = (Array.isArray(stores) ? stores : (stores.results ?? []))[0]!;
  await page.goto(org('demo', `/sales/stores/editor/${store.id}/settings`));
  await expect(page.getByRole('tab', { name: 'Einstellungen', selected: true })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Jetzt reservieren, vor Ort bezahlen' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Online mit Karte bezahlen' })).toBeVisible();
  await page.getByText('Zahlungsarten').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/german-more-store-payment.png` });

  // The product configuration: what tickets show.
  await page.goto(org('demo', '/settings/product-configuration'));
  await expect(page.getByRole('heading', { name: 'Produktkonfiguration', level: 2 })).toBeVisible();
  await expect(page.getByText('Was Tickets zeigen')).toBeVisible();
  for (const name of ['Treffpunkt', 'Name des Gastes', 'Gebuchte Kategorien und Extras', 'Vor Ort noch zu zahlender Betrag', 'Bestellreferenz']) {
    await expect(page.getByRole('checkbox', { name, exact: true })).toBeVisible();
  }
  await page.getByText('Was Tickets zeigen').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/german-more-ticket-fields.png` });

  // A date field: the German hint, and a typed German date shown with its German month.
  await page.goto(org('demo', '/bookings/overview'));
  const from = page.getByRole('textbox', { name: 'Von' });
  await expect(from).toHaveAttribute('placeholder', 'TT.MM.JJJJ');
  await from.fill('29.03.2026');
  await from.press('Enter');
  await expect(from).toHaveValue('29. März 2026');
  await page.screenshot({ path: `${SHOTS}/german-more-date-field.png` });
});
