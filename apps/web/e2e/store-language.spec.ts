import { devices, expect, test, type Page } from '@playwright/test';
import { call } from './support/demo-api';
import { attachmentOf, DEMO, mailTo, org, pdfText, signIn, zurichDate } from './support/helpers';

/**
 * The web store in the customer's language (issue 30), on a phone with a German browser: the first
 * visit goes to the German store, the offer and its calendar are German, seats are held; the
 * language switch goes to French and back and the cart stays (same cart, same line, its language
 * following); a pay-on-site booking ends on the German confirmation, the order is German (its
 * private link says so, and the confirmation e-mail, its tickets PDF and calendar file, the booking
 * page it opens and the invoice the operator then issues are German).
 * No console warning on the way (a hydration mismatch in German would be one).
 */
const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 7'];
test.use({ ...pixel, locale: 'de-DE' });

const SLUG = 'kayak';
const store = (p = '') => org('demo', `/s/${SLUG}/${p}`);

/** The guest cart as the store's API answers it, with the secret the page keeps (localStorage, never a cookie). */
async function cartOf(page: Page) {
  return page.evaluate(async (slug) => {
    const ref = JSON.parse(localStorage.getItem(`tourdesk.cart.${slug}`) ?? 'null') as { id: string; token: string } | null;
    if (!ref) return null;
    const res = await fetch(`/api/web-stores/${slug}/carts/${ref.id}/`, { headers: { 'x-cart-token': ref.token } });
    return { id: ref.id, ...((await res.json()) as { language: string; lines: { id: string }[] }) };
  }, SLUG);
}

test('a German customer on a phone books in German, switching to French and back keeps the cart', async ({ page, browser }) => {
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') warnings.push(m.text());
  });
  const customer = { first_name: 'Lena', last_name: 'Sprachwald', email: `lena.${Date.now()}@example.com` };

  // The first visit, unprefixed: the browser's German sends it to the German store.
  await page.goto(store());
  await expect(page).toHaveURL(store('de/'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const languages = page.getByRole('navigation', { name: 'Sprache' });
  await expect(languages.getByRole('link', { name: 'Deutsch' })).toHaveAttribute('aria-current', 'true');
  await expect(languages.getByRole('link')).toHaveCount(5);
  // On a phone every language is a tap target of its own.
  for (const link of await languages.getByRole('link').all()) expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const card = page.locator('.td-card-link').first();
  await expect(card).toContainText(/ab\s89,00\sCHF/);

  // The offer in German: its headings, its policy, its calendar.
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/de/offers/[0-9a-f-]{36}$`));
  await expect(page.getByRole('heading', { name: 'Stornierungsbedingungen' })).toBeVisible();
  await expect(page.getByText('Volle Rückerstattung bei Stornierung mindestens 24 Stunden vor Beginn.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Datum wählen' })).toBeVisible();
  const date = zurichDate(19);
  for (let i = 0; i < 3 && !(await page.locator(`[data-date="${date}"]`).isVisible()); i += 1) await page.getByRole('link', { name: 'Nächster Monat' }).click();
  await page.locator(`a[data-date="${date}"]`).click();
  await expect(page.getByRole('group', { name: /^Zeiten am \w+, \d+\. \p{L}+ \d{4}$/u })).toBeVisible();
  await page.getByRole('radio', { name: /^07:00/ }).check();
  await page.getByRole('button', { name: /^Mehr: / }).first().click();
  await page.getByRole('button', { name: 'Plätze reservieren' }).click();

  // The checkout in German, the cart in German.
  await expect(page).toHaveURL(store('de/checkout'));
  await expect(page.getByRole('heading', { name: 'Kasse', level: 1 })).toBeVisible();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  const held = (await cartOf(page))!;
  expect(held.language).toBe('de');
  expect(held.lines).toHaveLength(1);

  // To French: the same cart, the same line, now French.
  await page.getByRole('navigation', { name: 'Sprache' }).getByRole('link', { name: 'Français' }).click();
  await expect(page).toHaveURL(store('fr/checkout'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { name: 'Paiement de la commande', level: 1 })).toBeVisible();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect.poll(async () => (await cartOf(page))?.language).toBe('fr');
  expect(await cartOf(page)).toMatchObject({ id: held.id, lines: [{ id: held.lines[0]!.id }] });

  // And back to German.
  await page.getByRole('navigation', { name: 'Langue' }).getByRole('link', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(store('de/checkout'));
  await expect(page.getByRole('heading', { name: 'Kasse', level: 1 })).toBeVisible();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect.poll(async () => (await cartOf(page))?.language).toBe('de');
  expect(await cartOf(page)).toMatchObject({ id: held.id, lines: [{ id: held.lines[0]!.id }] });

  // Pay on site, in German (the browser solves the store's challenge itself).
  await page.getByLabel('Vorname').fill(customer.first_name);
  await page.getByLabel('Nachname').fill(customer.last_name);
  await page.getByLabel('E-Mail').fill(customer.email);
  // The demo's swim question in German (the offer's own translation), its answers in the store's words.
  await page.getByRole('group', { name: /schwimmen/ }).getByLabel('Ja').check();
  await expect(page.getByRole('radio', { name: 'Jetzt reservieren, vor Ort bezahlen' })).toBeChecked();
  await page.getByRole('checkbox', { name: /Ich akzeptiere die Allgemeinen Geschäftsbedingungen/ }).check();
  await page.getByRole('button', { name: 'Buchen', exact: true }).click();

  // The German confirmation.
  await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/de/confirmation/`));
  await expect(page.getByRole('heading', { name: `Vielen Dank, ${customer.first_name}!`, level: 1 })).toBeVisible();
  await expect(page.getByTestId('confirmation-text')).toContainText('ist bestätigt');
  const reference = decodeURIComponent(page.url().split('/confirmation/')[1]!);

  // The order is German: its private link (from orders.language) says so.
  const order = await page.evaluate(
    async ({ slug, reference }) => {
      const secret = sessionStorage.getItem(`tourdesk.order.${slug}.${reference}`)!;
      return (await (await fetch(`/api/web-stores/${slug}/orders/${encodeURIComponent(reference)}/`, { headers: { 'x-order-token': secret } })).json()) as { manage_url: string };
    },
    { slug: SLUG, reference },
  );
  expect(order.manage_url).toContain(`/s/${SLUG}/booking/${reference}?lang=de#`);

  // The confirmation e-mail is German, and its link opens the German booking page.
  const { mail } = await mailTo(customer.email, new RegExp(`Ihre Buchung ${reference}`));
  const link = /https?:\/\/\S+\/booking\/\S+/.exec(mail.text)![0];
  expect(link).toContain('?lang=de#');
  // Its tickets (PDF) and its calendar file are German too.
  const tickets = await pdfText(attachmentOf(mail, 'tickets-'));
  expect(tickets).toContain(`Bestellung ${reference}`);
  expect(tickets).not.toContain(`Order ${reference}`);
  const ics = Buffer.from(attachmentOf(mail, 'booking-')).toString('utf8').replace(/\r\n[ \t]/g, '');
  expect(ics).toContain(`Bestellung ${reference}`);
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/de/booking/${reference}#`));
  await expect(page.getByRole('heading', { name: `Ihre Buchung ${reference}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Bestätigt');
  // The booking page in French: its secret (in the fragment) goes along.
  await page.getByRole('navigation', { name: 'Sprache' }).getByRole('link', { name: 'Français' }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/fr/booking/${reference}#`));
  await expect(page.getByRole('heading', { name: `Votre réservation ${reference}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('Confirmée');

  expect(warnings).toEqual([]);

  // The operator (English back office) issues the order's invoice: the customer's document is German.
  const staff = await (await browser.newContext({ locale: 'en-GB' })).newPage();
  await signIn(staff, DEMO.email, DEMO.password, 'demo');
  const found = await call<{ results: { id: string; reference: string }[] }>(staff, 'GET', `orders/?search=${encodeURIComponent(reference)}`);
  const orderId = found.results.find((o) => o.reference === reference)!.id;
  const invoice = await call<{ number: string; language: string }>(staff, 'POST', `orders/${orderId}/invoice/`);
  expect(invoice.language).toBe('de');
  const pdf = await staff.evaluate(async (id) => {
    await fetch('/api/jwt/refresh/', { method: 'POST', credentials: 'include' });
    const res = await fetch(`/api/orders/${id}/invoice.pdf`, { credentials: 'include' });
    return { ok: res.ok, bytes: [...new Uint8Array(await res.arrayBuffer())] };
  }, orderId);
  expect(pdf.ok).toBe(true);
  const text = await pdfText(new Uint8Array(pdf.bytes));
  for (const words of [`Rechnung ${invoice.number}`, `Bestellung ${reference}`, 'Rechnungsempfänger', 'Gesamtbetrag']) expect(text).toContain(words);
  expect(text).not.toMatch(/Invoice|Bill to|Balance due/);
  await staff.context().close();
});
