import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { call, demoKayak, KAYAK as OFFER, kayakSlot } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const CUSTOMER = { email: 'olivia.order@example.com', first_name: 'Olivia', last_name: 'Order' };

/** Reads a file the browser downloaded after `click`. */
async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

/** The text of every page of a PDF, with the pdf.js the repository already installs. */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: true }).promise;
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const content = await (await doc.getPage(n)).getTextContent();
    parts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  return parts.join('\n');
}

test.describe.serial('orders: lines, payments, invoice, list and customers', () => {
  let orderId = '';
  let reference = '';

  test('pays an order in two parts, issues its invoice, cancels a line and gets the seats back', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');

    // An order of two kayak lines, made through the API (the checkout editor has its own spec).
    const kayak = await demoKayak(page);
    const { adult, swim } = kayak;
    const first = await kayakSlot(page, kayak.id, 9);
    const second = await kayakSlot(page, kayak.id, 10);
    const order = await call<{ id: string; reference: string }>(page, 'POST', 'orders/', {
      customer: CUSTOMER,
      lines: [
        { slot: first.id, quantities: { [adult]: 2 } },
        { slot: second.id, quantities: { [adult]: 1 } },
      ],
      answers: { [swim]: 'yes' },
    });
    orderId = order.id;
    reference = order.reference;
    const secondBooked = (await kayakSlot(page, kayak.id, 10)).remaining;
    expect(secondBooked).toBe(second.remaining - 1);

    // The list finds it; a row opens the editor on its details.
    await page.goto(org('demo', '/orders/list'));
    await page.getByLabel('Search orders').fill(reference);
    await expect(page).toHaveURL(new RegExp(`[?&]search=${reference}`));
    await expect(page.getByTestId('order-row')).toHaveCount(1);
    await page.getByTestId('order-row').filter({ hasText: reference }).getByText('Olivia Order').click();
    await expect(page).toHaveURL(org('demo', `/orders/editor/${orderId}/details`));
    await expect(page.getByRole('heading', { name: `Order ${reference}` })).toBeVisible();
    // Its audit trail: the order's creation, with who made it.
    await page.getByRole('tab', { name: 'Audit trail' }).click();
    await expect(page).toHaveURL(org('demo', `/orders/editor/${orderId}/audit`));
    await expect(page.getByTestId('audit-event').first()).toContainText('created');
    await expect(page.getByTestId('audit-event').first()).toContainText('Dana Demo');
    await page.getByRole('tab', { name: 'Details' }).click();
    await expect(page.getByTestId('order-line')).toHaveCount(2);
    await expect(page.getByTestId('order-total')).toHaveText('CHF 267.00');
    await expect(page.getByTestId('payment-status')).toHaveText('Not paid');
    // A line links to its booking.
    await expect(page.getByTestId('order-line').first().getByRole('link', { name: OFFER })).toHaveAttribute('href', /\/orders\/editor\/[0-9a-f-]+\/booking\/[0-9a-f-]+$/);

    // Quantities change inline: three adults on the first line.
    const firstLine = page.getByTestId('order-line').first();
    await firstLine.getByRole('button', { name: 'Change quantities' }).click();
    await firstLine.getByLabel('Adult quantity').fill('3');
    await firstLine.getByRole('button', { name: 'Save quantities' }).click();
    await expect(page.getByText('Quantities saved.')).toBeVisible();
    await expect(firstLine.getByTestId('line-quantity')).toHaveText('3 × CHF 89.00');
    await expect(page.getByTestId('order-total')).toHaveText('CHF 356.00');
    // Too many for the offer: the server's refusal is toasted, the line keeps its quantity.
    await firstLine.getByRole('button', { name: 'Change quantities' }).click();
    await firstLine.getByLabel('Adult quantity').fill('40');
    await firstLine.getByRole('button', { name: 'Save quantities' }).click();
    await expect(page.locator('.Toastify__toast--error').last()).toContainText('Book at most 8 participants.');
    await firstLine.getByRole('button', { name: 'Discard' }).click();
    await expect(firstLine.getByTestId('line-quantity')).toHaveText('3 × CHF 89.00');
    await page.screenshot({ path: `${SHOTS}/order-details.png`, fullPage: true });

    // Payments: a part, then an overpayment refused, then the rest.
    await page.getByRole('tab', { name: 'Payments' }).click();
    await expect(page).toHaveURL(org('demo', `/orders/editor/${orderId}/payments`));
    await page.getByLabel('Amount').fill('100.00');
    await page.getByRole('combobox', { name: 'Method' }).click();
    await page.getByRole('option', { name: 'Card terminal' }).click();
    await page.getByLabel('Reference').fill('TERM-0001');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByText('Payment of CHF 100.00 recorded.')).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText('Partially paid');
    await expect(page.getByTestId('order-balance')).toHaveText('CHF 256.00');
    await expect(page.getByTestId('payment-row')).toHaveCount(1);
    await expect(page.getByTestId('payment-row')).toContainText('TERM-0001');
    await page.getByLabel('Amount').fill('300.00');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByText('That is more than is left to pay (CHF 256.00).').first()).toBeVisible();
    await expect(page.getByTestId('payment-row')).toHaveCount(1);
    await page.getByLabel('Amount').fill('256.00');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByText('Payment of CHF 256.00 recorded.')).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText('Fully paid');
    await expect(page.getByTestId('order-balance')).toHaveText('CHF 0.00');
    await expect(page.getByTestId('order-payment-status')).toHaveText('Fully paid');
    await expect(page.getByTestId('payment-row')).toHaveCount(2);
    await page.screenshot({ path: `${SHOTS}/order-payments.png`, fullPage: true });

    // The invoice: issued once, shown as a page, and as a PDF with its number and total.
    await page.getByRole('tab', { name: 'Invoice' }).click();
    await page.getByRole('button', { name: 'Issue invoice' }).click();
    // It asks first; the demo organisation has its address, VAT number and rate, so nothing else is asked.
    await page.getByRole('dialog', { name: 'Issue the invoice?' }).getByRole('button', { name: 'Issue invoice' }).click();
    await expect(page.getByTestId('invoice')).toBeVisible();
    const number = (await page.getByTestId('invoice-number').textContent())!.trim();
    expect(number).not.toBe('');
    await expect(page.getByText(`Invoice ${number} issued.`)).toBeVisible();
    await expect(page.getByTestId('invoice-total')).toHaveText('CHF 356.00');
    await expect(page.getByTestId('invoice-balance')).toHaveText('CHF 0.00');
    await page.screenshot({ path: `${SHOTS}/order-invoice.png`, fullPage: true });
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: `${SHOTS}/order-invoice-print.png`, fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    const pdf = await downloaded(page, () => page.getByRole('button', { name: `Download ${number} as PDF` }).click());
    expect(pdf.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const text = await pdfText(pdf.bytes);
    expect(text).toContain(number);
    expect(text).toMatch(/356\.00/);

    // Cancelling the second line gives its seat back to the slot.
    await page.getByRole('tab', { name: 'Details' }).click();
    const secondLine = page.getByTestId('order-line').nth(1);
    await secondLine.getByRole('button', { name: 'Cancel line' }).click();
    await expect(page.getByRole('dialog', { name: 'Cancel this line?' })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel line' }).click();
    await expect(page.getByText('Line canceled: its seats are free again.')).toBeVisible();
    await expect(secondLine.getByTestId('line-status')).toHaveText('Canceled');
    await expect(page.getByTestId('order-total')).toHaveText('CHF 267.00');
    expect((await kayakSlot(page, kayak.id, 10)).remaining).toBe(secondBooked + 1);
    // The issued invoice is not changed: a credit note cancels it and a new invoice states what is still sold.
    await page.getByRole('tab', { name: 'Invoice' }).click();
    const documents = page.getByTestId('invoice-document');
    await expect(documents).toHaveCount(3);
    await expect(documents.nth(0)).toContainText(`Cancelled by CN-`);
    await expect(documents.nth(1)).toContainText(`Cancels ${number}`);
    await expect(documents.nth(1)).toContainText('-CHF 356.00');
    await expect(documents.nth(2)).toContainText('Current');
    await expect(page.getByTestId('invoice-total')).toHaveText('CHF 267.00');
    await documents.nth(1).getByRole('button', { name: /^Credit note CN-/ }).click();
    await expect(page.getByTestId('invoice')).toContainText('Credit note');
    await expect(page.getByTestId('credits')).toContainText(`Cancels invoice ${number}`);
    await expect(page.getByTestId('invoice-total')).toHaveText('-CHF 356.00');
    await page.screenshot({ path: `${SHOTS}/order-credit-note.png`, fullPage: true });
    await page.getByRole('tab', { name: 'Details' }).click();
    // Paid more than is now due: Refund due (never "Fully paid"), the balance shows what to refund, what
    // was sold stays visible, and the order can't be deleted.
    await expect(page.getByTestId('order-balance')).toHaveText('-CHF 89.00');
    await expect(page.getByTestId('payment-status')).toHaveText('Refund due');
    await expect(page.getByTestId('order-sold-total')).toHaveText('CHF 356.00');
    await expect(page.getByRole('button', { name: 'Delete order' })).toHaveCount(0);

    // The overpaid part goes back as a refund; the balance is even again.
    await page.getByRole('tab', { name: 'Payments' }).click();
    await page.getByLabel('Record a payment').getByText('Refund', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Refund' })).toBeChecked();
    // It gives money back from one payment (the last one, by default), with a reason.
    await expect(page.getByRole('combobox', { name: 'Refund of' })).toHaveValue(/Card terminal · CHF\s256\.00 \(CHF\s256\.00 left\)/);
    await page.getByLabel('Amount').fill('89.00');
    await page.getByRole('button', { name: 'Record refund' }).click();
    await expect(page.getByText('Say why the money is refunded.')).toBeVisible();
    await page.getByLabel('Reason').fill('One guest cancelled');
    await page.getByRole('combobox', { name: 'Method' }).click();
    await page.getByRole('option', { name: 'Cash' }).click();
    await page.getByRole('button', { name: 'Record refund' }).click();
    await expect(page.getByText('Refund of CHF 89.00 recorded.')).toBeVisible();
    await expect(page.getByTestId('order-balance')).toHaveText('CHF 0.00');
    await expect(page.getByTestId('order-paid')).toHaveText('CHF 267.00');
    await expect(page.getByTestId('payment-status')).toHaveText('Fully paid');
    await expect(page.getByTestId('payment-row')).toHaveCount(3);
    const refund = page.locator('[data-testid="payment-row"][data-refund-of]');
    await expect(refund).toContainText('-CHF 89.00');
    await expect(refund).toContainText('One guest cancelled');
    // Listed under the payment it gives back.
    await expect(page.getByTestId('payment-row').nth(1)).toContainText('CHF 89.00 refunded');
    await expect(page.getByTestId('payment-row').nth(2)).toHaveAttribute('data-refund-of', /.+/);
    await page.screenshot({ path: `${SHOTS}/order-refund.png`, fullPage: true });
  });

  test('cancels a whole order, which gives its seats back, then deletes it', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const kayak = await demoKayak(page);
    const { adult, swim } = kayak;
    const before = await kayakSlot(page, kayak.id, 11);
    const order = await call<{ id: string; reference: string }>(page, 'POST', 'orders/', {
      customer: { email: 'chris.cancel@example.com', first_name: 'Chris', last_name: 'Cancel' },
      lines: [{ slot: before.id, quantities: { [adult]: 2 } }],
      answers: { [swim]: 'no' },
    });
    expect((await kayakSlot(page, kayak.id, 11)).remaining).toBe(before.remaining - 2);

    // The bare editor address lands on the details.
    await page.goto(org('demo', `/orders/editor/${order.id}/`));
    await expect(page).toHaveURL(org('demo', `/orders/editor/${order.id}/details`));
    // With a confirmed line it cannot be deleted, only cancelled.
    await expect(page.getByRole('button', { name: 'Delete order' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel order ${order.reference}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await expect(page.getByText(`Order ${order.reference} canceled: its seats are free again.`)).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Canceled');
    await expect(page.getByTestId('line-status')).toHaveText('Canceled');
    expect((await kayakSlot(page, kayak.id, 11)).remaining).toBe(before.remaining);

    // Nothing confirmed and nothing paid: now it can go.
    await page.getByRole('button', { name: 'Delete order' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete order' }).click();
    await expect(page.getByText(`Order ${order.reference} deleted.`)).toBeVisible();
    await expect(page).toHaveURL(org('demo', '/orders/list'));
    await page.getByLabel('Search orders').fill(order.reference);
    await expect(page.getByText('No order matches these filters.')).toBeVisible();
  });

  test('a web order its customer cancelled under the policy keeps its fee: the totals show it, and it is settled', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    // The demo's: paid CHF 178.00, cancelled when the policy gave half back, the other half refunded.
    const found = await call<{ results: { id: string; reference: string }[] }>(page, 'GET', 'orders/?search=nina.graf%40example.com');
    const { id, reference } = found.results[0]!;
    await page.goto(org('demo', `/orders/editor/${id}/details`));
    await expect(page.getByRole('heading', { name: `Order ${reference}` })).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Canceled');
    await expect(page.getByTestId('order-payment-status')).toHaveText('Fully paid');
    const totals = page.getByLabel('Totals');
    await expect(totals.getByTestId('order-sold-total')).toHaveText('CHF 178.00');
    await expect(totals.getByTestId('order-cancelled-total')).toHaveText('-CHF 178.00');
    await expect(totals.getByText('Cancellation fee')).toBeVisible();
    await expect(totals.getByTestId('order-cancellation-fee')).toHaveText('CHF 89.00');
    await expect(totals.getByTestId('order-total')).toHaveText('CHF 89.00');
    await expect(totals.getByTestId('order-refunded')).toHaveText('CHF 89.00');
    await expect(totals.getByTestId('order-balance')).toHaveText('CHF 0.00');
    // Nothing more to refund: the rest went back, the fee is kept.
    const proposal = await call<{ amount: number; cancellation_fee: number }>(page, 'GET', `orders/${id}/refund-proposal/`);
    expect(proposal).toMatchObject({ amount: 0, cancellation_fee: 8900 });
    await page.screenshot({ path: `${SHOTS}/order-cancellation-fee.png`, fullPage: true });
  });

  test('an order for an offer confirmed by hand waits, Unconfirmed, until it is confirmed', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const kayak = await demoKayak(page);
    const { adult, swim } = kayak;
    await call(page, 'PATCH', `experiences/${kayak.id}/`, { confirmation_mode: 'manual' });
    try {
      const slot = await kayakSlot(page, kayak.id, 12);
      const order = await call<{ id: string; reference: string }>(page, 'POST', 'orders/', {
        customer: { email: 'maya.manual@example.com', first_name: 'Maya', last_name: 'Manual' },
        lines: [{ slot: slot.id, quantities: { [adult]: 1 } }],
        answers: { [swim]: 'yes' },
      });
      await page.goto(org('demo', '/orders/list?status=Unconfirmed'));
      await expect(page.getByTestId('order-row').filter({ hasText: order.reference })).toBeVisible();
      await page.goto(org('demo', `/orders/editor/${order.id}/details`));
      await expect(page.getByTestId('order-status')).toHaveText('Created');
      await page.getByRole('button', { name: 'Confirm order' }).click();
      await expect(page.getByText(`Order ${order.reference} confirmed.`)).toBeVisible();
      await expect(page.getByTestId('order-status')).toHaveText('Confirmed');
      await expect(page.getByTestId('line-status')).toHaveText('Confirmed');
      await expect(page.getByRole('button', { name: 'Confirm order' })).toHaveCount(0);
    } finally {
      await call(page, 'PATCH', `experiences/${kayak.id}/`, { confirmation_mode: 'instant' });
    }
  });

  test('filters the list by payment status, keeps the filter on reload, and exports it', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/orders/list'));
    await expect(page.getByTestId('order-row').filter({ hasText: reference })).toBeVisible();
    await page.getByRole('combobox', { name: 'Payment status' }).click();
    await page.getByRole('option', { name: 'Fully paid' }).click();
    await expect(page).toHaveURL(/[?&]payment_status=Fully(\+|%20)paid/);
    await expect(page.getByTestId('order-row').filter({ hasText: reference })).toBeVisible();
    await expect(page.getByTestId('payment-status').filter({ hasText: 'Not paid' })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Payment status' })).toHaveValue('Fully paid');
    await expect(page.getByTestId('order-row').filter({ hasText: reference })).toBeVisible();
    await expect(page.getByTestId('payment-status').filter({ hasText: 'Not paid' })).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/orders-list.png`, fullPage: true });

    const csv = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
    expect(csv.name).toMatch(/\.csv$/);
    const rows = csv.bytes.toString('utf8');
    expect(rows).toContain(reference);
    expect(rows).not.toContain('Not paid');

    // Another filter leaves it out; resetting brings it back.
    await page.getByRole('combobox', { name: 'Payment status' }).click();
    await page.getByRole('option', { name: 'Not paid' }).click();
    await expect(page.getByTestId('order-row').filter({ hasText: reference })).toHaveCount(0);
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect(page).toHaveURL(org('demo', '/orders/list'));
    await expect(page.getByTestId('order-row').filter({ hasText: reference })).toBeVisible();

    // In the dark, too.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.getByTestId('order-row').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/orders-list-dark.png`, fullPage: true });
    await page.goto(org('demo', `/orders/editor/${orderId}/details`));
    await expect(page.getByTestId('order-line')).toHaveCount(2);
    await page.screenshot({ path: `${SHOTS}/order-details-dark.png`, fullPage: true });
    await page.goto(org('demo', `/orders/editor/${orderId}/invoice`));
    await expect(page.getByTestId('invoice')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/order-invoice-dark.png`, fullPage: true });
  });

  test('an order that cannot be loaded sends the user back to the list', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/orders/editor/00000000-0000-4000-8000-000000000000/details'));
    await expect(page).toHaveURL(org('demo', '/orders/list'));
    await expect(page.locator('.Toastify__toast--error')).toBeVisible();
  });

  test('customers: search, their orders, create, edit', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/customers/list'));
    await page.getByLabel('Search customers').fill('olivia.order');
    await expect(page).toHaveURL(/[?&]search=olivia\.order/);
    await expect(page.getByTestId('customer-row')).toHaveCount(1);
    // The searched list as CSV: the one customer found, with her order.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    expect(rows[0]).toContain('first_name,last_name,email');
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^Olivia,Order,olivia\.order/)]);
    await page.getByRole('link', { name: 'Olivia Order' }).click();
    await expect(page.getByRole('heading', { name: 'Olivia Order' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Customer orders' })).toContainText(reference);
    // With an order, a customer cannot be deleted: the server says so.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete customer' }).click();
    await expect(page.getByText(/cannot be deleted/).first()).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Keep it' }).click();

    await page.goto(org('demo', '/customers/list'));
    await page.getByRole('button', { name: 'New customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'New customer' });
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('nina.new@example.com');
    await dialog.getByLabel('First name').fill('Nina');
    await dialog.getByLabel('Last name').fill('New');
    await dialog.getByLabel('Country', { exact: true }).fill('x');
    await dialog.getByRole('button', { name: 'Create customer' }).click();
    await expect(dialog.getByText('Use a two-letter country code such as CH.')).toBeVisible();
    await dialog.getByLabel('Country', { exact: true }).fill('ch');
    await dialog.getByLabel('Agrees to receive marketing e-mails').check();
    await dialog.getByRole('button', { name: 'Create customer' }).click();
    await expect(page.getByText('Customer created.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Nina New' })).toBeVisible();
    await expect(page.getByLabel('Contact')).toContainText('CH');
    await expect(page.getByLabel('Contact')).toContainText('Agreed');
    await expect(page.getByRole('table', { name: 'Customer orders' })).toContainText('No order yet.');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('dialog', { name: 'Edit customer' }).getByLabel('Phone').fill('+41 79 000 00 00');
    await page.getByRole('dialog', { name: 'Edit customer' }).getByRole('button', { name: 'Save customer' }).click();
    await expect(page.getByText('Customer updated.')).toBeVisible();
    await expect(page.getByLabel('Contact')).toContainText('+41 79 000 00 00');
    await page.screenshot({ path: `${SHOTS}/customer-detail.png`, fullPage: true });
    // Without orders, it can be deleted.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete customer' }).click();
    await expect(page.getByText('Nina New deleted.')).toBeVisible();
    await expect(page).toHaveURL(org('demo', '/customers/list'));
    await page.screenshot({ path: `${SHOTS}/customers-list.png`, fullPage: true });
  });
});
