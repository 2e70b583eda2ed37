import { expect, test, type Page } from '@playwright/test';
import { call, demoKayak, kayakSlot } from './support/demo-api';
import { DEMO, org, sameMonthAsToday, signIn, zurichDate } from './support/helpers';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

const OFFER = 'Sunrise Kayak on Lake Lucerne';
const SWIM = 'Can everyone in the group swim?';

test.afterEach(async ({ page }) => {
  // The demo owner's back-office language back to none (other specs expect English); through call(), which fails loudly.
  await call(page, 'PATCH', 'users/me/', { language: null });
});

/** The organisation sells in German and French too (another spec may have taken them out). */
async function sellingGermanAndFrench(page: Page) {
  const config = await call<{ languages: string[] }>(page, 'GET', 'product-configuration/');
  const wanted = [...config.languages, ...(['de', 'fr'] as const).filter((l) => !config.languages.includes(l))];
  if (wanted.length !== config.languages.length) await call(page, 'PATCH', 'product-configuration/', { languages: wanted });
}

/**
 * The customer's language (issue 30): sold at the counter in German, shown on the order's page,
 * changed there to French, and still French after a reload (the server keeps it).
 */
test('a counter sale in German, then the order’s language changed to French', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await sellingGermanAndFrench(page);

  await page.goto(org('demo', '/bookings/checkout-editor'));
  await page.getByRole('combobox', { name: 'Offer' }).click();
  await page.getByRole('option', { name: OFFER }).click();
  const day = zurichDate(13);
  if (!sameMonthAsToday(day)) await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('button', { name: day, exact: true }).click();
  await page.getByLabel('Times').getByRole('button', { name: /^09:30/ }).click();
  await page.getByLabel('Adult quantity').fill('1');
  await page.getByRole('button', { name: 'Hold seats' }).click();
  await expect(page.getByTestId('cart-line')).toContainText('1 seat');

  await page.getByLabel('Customer e-mail').fill('greta.sprache@example.com');
  await page.getByLabel('First name').fill('Greta');
  await page.getByLabel('Last name').fill('Sprache');
  const language = page.getByRole('combobox', { name: 'Customer’s language' });
  await expect(language).toHaveValue('English'); // the organisation's main language
  await language.click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await expect(language).toHaveValue('Deutsch');
  await page.getByRole('radiogroup', { name: SWIM }).getByRole('radio', { name: 'Yes', exact: true }).check();
  await page.getByRole('button', { name: 'Check out' }).click();
  await expect(page.getByText('Order created!')).toBeVisible();
  await expect(page).toHaveURL(/\/orders\/editor\/[0-9a-f-]+\/details$/);
  const orderId = /\/orders\/editor\/([0-9a-f-]+)\/details$/.exec(page.url())![1]!;

  // The order's page shows it, and the server has it.
  const orderLanguage = page.getByRole('combobox', { name: 'Language', exact: true });
  await expect(orderLanguage).toHaveValue('Deutsch');
  expect((await call<{ language: string }>(page, 'GET', `orders/${orderId}/`)).language).toBe('de');

  // Changed to French: saved at once, and still French after a reload.
  await orderLanguage.click();
  await page.getByRole('option', { name: 'Français' }).click();
  await expect(page.getByText('The customer’s language is now Français.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Language', exact: true })).toHaveValue('Français');
  expect((await call<{ language: string }>(page, 'GET', `orders/${orderId}/`)).language).toBe('fr');
});

/**
 * An issued invoice on screen reads as the PDF the customer got: a German order's invoice is German
 * (its words, date and money) for an English user, while the tab around it stays English; a German
 * user gets the payments tab (hints, methods, the recorded payment) and the line's items in German,
 * and the document still in the language it was issued in.
 */
test('a German order’s invoice reads German for an English user; a German user’s payments tab is German', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await sellingGermanAndFrench(page);
  const kayak = await demoKayak(page);
  const slot = await kayakSlot(page, kayak.id, 17);
  const order = await call<{ id: string; reference: string }>(page, 'POST', 'orders/', {
    customer: { email: 'hanna.rechnung@example.com', first_name: 'Hanna', last_name: 'Rechnung' },
    lines: [{ slot: slot.id, quantities: { [kayak.adult]: 1 } }],
    answers: { [kayak.swim]: 'yes' },
    language: 'de',
  });
  const invoice = await call<{ number: string; language: string }>(page, 'POST', `orders/${order.id}/invoice/`);
  expect(invoice.language).toBe('de');

  // The English user: the sheet is German, the tab around it English.
  await page.goto(org('demo', `/orders/editor/${order.id}/invoice`));
  const sheet = page.getByTestId('invoice');
  await expect(sheet.getByRole('heading', { name: `Rechnung ${invoice.number}` })).toBeVisible();
  await expect(sheet).toHaveAttribute('lang', 'de-DE');
  for (const words of ['Rechnungsempfänger', 'Beschreibung', 'Menge', 'Einzelpreis', 'MwSt.', 'Betrag', 'Netto', 'Gesamtbetrag', 'Bezahlt', 'Offener Betrag', `Bestellung ${order.reference}`]) {
    await expect(sheet).toContainText(words);
  }
  await expect(sheet).toContainText(/Datum \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4}/);
  await expect(page.getByTestId('invoice-total')).toHaveText(/^\d+,\d{2} CHF$/);
  await expect(sheet).not.toContainText(/Invoice|Bill to|Balance due|Unit price/);
  await expect(page.getByRole('table', { name: 'Invoices and credit notes' })).toContainText(`Invoice ${invoice.number}`);
  await expect(page.getByRole('button', { name: 'Print', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/order-invoice-german-for-english-user.png`, fullPage: true });

  // The German user: the payments tab speaks German.
  await call(page, 'PATCH', 'users/me/', { language: 'de' });
  await page.goto(org('demo', `/orders/editor/${order.id}/payments`));
  await expect(page.getByRole('tab', { name: 'Zahlungen' })).toHaveAttribute('aria-selected', 'true');
  const form = page.locator('[aria-label="Zahlung erfassen"]');
  await expect(form.getByText(/^Offener Betrag: \d+,\d{2}\sCHF$/)).toBeVisible();
  await expect(page.getByText('Noch keine Zahlung erfasst.')).toBeVisible();
  await form.getByText('Erstattung', { exact: true }).click();
  await expect(form.getByText('Bisher bezahlt: 0,00 CHF')).toBeVisible();
  await form.getByRole('button', { name: 'Erstattung erfassen' }).click();
  await expect(form.getByText(/^Geben Sie einen Betrag ein, z\. B\. /)).toBeVisible();
  await form.getByText('Zahlung', { exact: true }).click();
  await form.getByLabel('Betrag').fill('10.00');
  await form.getByRole('button', { name: 'Zahlung erfassen' }).click();
  await expect(page.getByText('Zahlung von 10,00 CHF erfasst.')).toBeVisible();
  await expect(page.getByTestId('payment-row')).toContainText('Bar');
  await page.screenshot({ path: `${SHOTS}/order-payments-german.png`, fullPage: true });

  // Its line's items, and the document still German around a German tab.
  await page.getByRole('tab', { name: 'Details' }).click();
  await expect(page.getByRole('table', { name: 'Posten' })).toContainText(/1 Platz[\s\S]*davon MwSt\./);
  await page.getByRole('tab', { name: 'Rechnung' }).click();
  await expect(page.getByRole('button', { name: 'Drucken', exact: true })).toBeVisible();
  await expect(page.getByTestId('invoice').getByRole('heading', { name: `Rechnung ${invoice.number}` })).toBeVisible();
});
