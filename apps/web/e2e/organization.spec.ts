import { expect, test, type Page } from '@playwright/test';
import { call, demoKayak, kayakSlot } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
/** The demo's details as seeded; restored at the end so the other specs see them. */
const ORIGINAL = { vat_rate_bp: 810, billing_email: 'billing@demo.tourdesk.test', legal_name: 'Alpine Trails & Tours AG' };
const NEW_LEGAL_NAME = 'Alpine Trails & Tours Holding AG';
const NEW_BILLING_EMAIL = 'accounts@demo.tourdesk.test';

interface Organization {
  name: string;
  time_zone: string;
  legal_name: string;
  billing_email: string;
  vat_rate_bp: number;
  next_invoice_number: string;
}

/** An order of one adult on the kayak's 09:30 slot `days` ahead, made through the API. */
async function kayakOrder(page: Page, days: number) {
  const kayak = await demoKayak(page);
  const slot = await kayakSlot(page, kayak.id, days);
  return call<{ id: string; reference: string }>(page, 'POST', 'orders/', {
    customer: { email: 'ida.invoice@example.com', first_name: 'Ida', last_name: 'Invoice' },
    lines: [{ slot: slot.id, quantities: { [kayak.adult]: 1 } }],
    answers: { [kayak.swim]: 'yes' },
  });
}

test.describe.serial('organisation settings: contact, legal and billing info', () => {
  test('billing and legal details are saved, checked, kept, and shown on the next invoice', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    try {
      // Settings → Organisation opens the contact info; the billing tab has its own address.
      await page.getByRole('navigation', { name: 'Main navigation' }).getByText('Settings', { exact: true }).click();
      await page.getByRole('link', { name: 'Organisation' }).click();
      await expect(page).toHaveURL(org('demo', '/settings/organization/contact'));
      await expect(page.getByRole('tab', { name: 'Contact info' })).toHaveAttribute('aria-selected', 'true');
      await page.goto(org('demo', '/settings/organization/billing'));
      await expect(page.getByRole('tab', { name: 'Billing info' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('link', { name: 'Organisation' })).toHaveAttribute('data-active', 'true');

      const form = page.getByRole('form', { name: 'Billing info' });
      const vat = form.getByLabel('VAT rate');
      const email = form.getByLabel('Billing e-mail');
      const save = form.getByRole('button', { name: 'Save' });
      await expect(vat).toHaveValue('8.1 %');
      await expect(email).toHaveValue(ORIGINAL.billing_email);
      await expect(form.getByLabel('Billing address')).toHaveValue('Haldenstrasse 12\n6006 Luzern\nSwitzerland');
      await expect(form.getByLabel('Next invoice number')).toHaveAttribute('readonly');
      const next = await form.getByLabel('Next invoice number').inputValue();
      expect(next).toMatch(/^INV-\d{4}-\d{5}$/);
      await expect(form).toContainText('Invoices show these details. Prices include VAT');
      await expect(save).toBeDisabled();

      // VAT 7.7 % and another billing e-mail: saved, and kept after a reload.
      await vat.fill('7.7');
      await email.fill(NEW_BILLING_EMAIL);
      await expect(save).toBeEnabled();
      await save.click();
      await expect(page.getByText('Organisation details saved.')).toBeVisible();
      await expect(save).toBeDisabled();
      expect((await call<Organization>(page, 'GET', 'account/')).vat_rate_bp).toBe(770);
      await page.reload();
      await expect(vat).toHaveValue('7.7 %');
      await expect(email).toHaveValue(NEW_BILLING_EMAIL);
      await expect(save).toBeDisabled();

      // Not an e-mail address: the field says so and nothing is sent.
      await email.fill('not-an-address');
      await save.click();
      await expect(form.getByText('Enter a valid e-mail address.')).toBeVisible();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      expect((await call<Organization>(page, 'GET', 'account/')).billing_email).toBe(NEW_BILLING_EMAIL);
      await page.screenshot({ path: `${SHOTS}/organization-billing-error.png`, fullPage: true });

      // Leaving with changes asks first; leaving without saving drops them.
      await page.getByRole('tab', { name: 'Legal info' }).click();
      const leave = page.getByRole('dialog', { name: 'Unsaved changes' });
      await expect(leave).toBeVisible();
      await leave.getByRole('button', { name: 'Leave without saving' }).click();
      await expect(page).toHaveURL(org('demo', '/settings/organization/profile'));
      await expect(page.getByRole('tab', { name: 'Legal info' })).toHaveAttribute('aria-selected', 'true');

      // The legal name changes.
      const legal = page.getByRole('form', { name: 'Legal info' });
      await expect(legal.getByLabel('Legal name')).toHaveValue(ORIGINAL.legal_name);
      await legal.getByLabel('Legal name').fill(NEW_LEGAL_NAME);
      await legal.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Organisation details saved.')).toBeVisible();
      await expect(legal.getByRole('button', { name: 'Save' })).toBeDisabled();

      // The next invoice shows the new details, with the next number of the sequence.
      const order = await kayakOrder(page, 16);
      await page.goto(org('demo', `/orders/editor/${order.id}/invoice`));
      await page.getByRole('button', { name: 'Issue invoice' }).click();
      // It asks first, naming the number the invoice will take.
      const confirm = page.getByRole('dialog', { name: 'Issue the invoice?' });
      await expect(confirm.getByTestId('issue-confirmation')).toContainText(`Invoice ${next} for CHF`);
      await confirm.getByRole('button', { name: 'Issue invoice' }).click();
      await expect(page.getByText(`Invoice ${next} issued.`)).toBeVisible();
      const invoice = page.getByTestId('invoice');
      await expect(invoice).toBeVisible();
      await expect(invoice.getByRole('heading', { name: NEW_LEGAL_NAME })).toBeVisible();
      await expect(invoice).toContainText(NEW_BILLING_EMAIL);
      await expect(page.getByTestId('invoice-number')).toHaveText(next);
      await expect(page.getByRole('table', { name: 'VAT breakdown' })).toContainText('7.7 %');
      await page.screenshot({ path: `${SHOTS}/organization-invoice.png`, fullPage: true });
      expect((await call<Organization>(page, 'GET', 'account/')).next_invoice_number).toBe(`${next.slice(0, -5)}${String(Number(next.slice(-5)) + 1).padStart(5, '0')}`);
    } finally {
      await call(page, 'PATCH', 'account/', ORIGINAL);
    }
    const restored = await call<Organization>(page, 'GET', 'account/');
    expect({ vat_rate_bp: restored.vat_rate_bp, billing_email: restored.billing_email, legal_name: restored.legal_name }).toEqual(ORIGINAL);
  });

  test('contact info: the time zone is picked from a searchable list; each tab in light and dark', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/settings/organization'));
    await expect(page).toHaveURL(org('demo', '/settings/organization/contact'));
    const form = page.getByRole('form', { name: 'Contact info' });
    await expect(form.getByLabel('Organisation name')).toHaveValue('Alpine Trails & Tours');
    await expect(form.getByLabel('Subdomain')).toHaveValue('demo');
    await expect(form.getByLabel('Subdomain')).toHaveAttribute('readonly');
    // The currency can change only until the first sale: the demo has sold, so it is refused.
    const currency = form.getByRole('combobox', { name: 'Currency' });
    await expect(currency).toHaveValue('CHF — Swiss Franc');
    await currency.fill('Yen');
    await page.getByRole('option', { name: 'JPY — Japanese Yen' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The currency cannot change after the first sale').first()).toBeVisible();
    await form.getByRole('button', { name: 'Discard changes' }).click();
    await expect(currency).toHaveValue('CHF — Swiss Franc');
    await expect(form).toContainText('Changing the time zone moves the future start times of your schedules to the new zone');
    const zone = form.getByRole('combobox', { name: 'Time zone' });
    await expect(zone).toHaveValue('Europe/Zurich');

    // Searching finds a zone; choosing it makes the form savable; discarding puts the old one back
    // (saving would move every schedule's slots, which the other specs count on).
    await zone.click();
    await zone.fill('Lisb');
    await expect(page.getByRole('option')).toHaveCount(1);
    await page.getByRole('option', { name: 'Europe/Lisbon' }).click();
    await expect(zone).toHaveValue('Europe/Lisbon');
    await expect(form.getByRole('button', { name: 'Save' })).toBeEnabled();
    await form.getByRole('button', { name: 'Discard changes' }).click();
    await expect(zone).toHaveValue('Europe/Zurich');
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();

    // An empty name is refused on the field.
    await form.getByLabel('Organisation name').fill('  ');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Give the organisation a name.')).toBeVisible();
    await form.getByRole('button', { name: 'Discard changes' }).click();

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const tab of ['contact', 'profile', 'billing']) {
        await page.goto(org('demo', `/settings/organization/${tab}`));
        await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
        await page.screenshot({ path: `${SHOTS}/organization-${tab}${scheme === 'dark' ? '-dark' : ''}.png`, fullPage: true });
      }
    }
  });
});

test('product configuration: its choices are kept, and 12-hour times show on the capacity page', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.goto(org('demo', '/settings/product-configuration'));
  await expect(page.getByRole('heading', { name: 'Product configuration' })).toBeVisible();
  try {
    await page.getByText('12-hour (02:30 PM)').click();
    await page.getByLabel('Capacity of a new schedule').fill('16');
    await page.getByLabel('Rental (%)').fill('7.7');
    await page.getByLabel('Order reference').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Product configuration saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Capacity of a new schedule')).toHaveValue('16');
    await expect(page.getByLabel('Rental (%)')).toHaveValue('7.7');
    await expect(page.getByLabel('Order reference')).not.toBeChecked();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${SHOTS}/product-configuration${scheme === 'dark' ? '-dark' : ''}.png`, fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    // The kayak's times read as 12-hour times on the capacity page.
    const kayak = await demoKayak(page);
    const slot = await kayakSlot(page, kayak.id, 5);
    await page.goto(org('demo', `/capacity/overview?date=${slot.local_date}`));
    await expect(page.getByTestId('capacity-slot').filter({ hasText: '09:30 AM' })).toBeVisible();
  } finally {
    await call(page, 'PATCH', 'product-configuration/', { time_format: '24h', default_capacity: 10, vat_rates_by_type: { Rental: null }, ticket_fields: ['meeting_point', 'customer_name', 'items', 'balance_due', 'order_reference'] });
  }
});
