import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { DEMO, org, signIn, zurichDate } from './support/helpers';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

/** Reads a file the browser downloaded after `click`. */
async function downloaded(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

/**
 * The demo's owner opens Accounting from the menu, picks the last month, sees what it holds and
 * downloads the journal (its sales, credit note, cancellation fee, payments and refunds, amounts
 * with a decimal point) and the ZIP of the invoices and credit notes (one PDF per document). A
 * period that ends before it starts is refused beside the field; a guide has no Accounting entry.
 */
test('the demo owner downloads the last month’s journal and documents', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.getByLabel('Main navigation').getByRole('link', { name: 'Accounting' }).click();
  await expect(page).toHaveURL(org('demo', '/accounting/export'));
  await expect(page.getByRole('heading', { name: 'Accounting export', level: 2 })).toBeVisible();

  const fromField = page.getByRole('textbox', { name: 'From', exact: true });
  const toField = page.getByRole('textbox', { name: 'To', exact: true });
  const from = zurichDate(-30);
  const to = zurichDate(0);
  await fromField.fill(from);
  await fromField.press('Tab');
  await toField.fill(to);
  await toField.press('Tab');
  const summary = page.getByRole('status', { name: 'What the period holds' });
  await expect(summary).toContainText(/\d+ journal rows · 3 invoices and 1 credit note/);
  await page.screenshot({ path: `${SHOTS}/accounting-export.png`, fullPage: true });

  const journal = await downloaded(page, () => page.getByRole('button', { name: 'Download journal (CSV)' }).click());
  expect(journal.name).toBe(`journal-${from}-${to}.csv`);
  const lines = journal.bytes.toString('utf8').trim().split('\r\n');
  expect(lines[0]).toBe('date,category,document,order,counterparty,description,offer,method,quantity,vat_rate_percent,currency,net,vat,gross,net_minor,vat_minor,gross_minor');
  const categories = new Set(lines.slice(1).map((l) => l.split(',')[1]));
  for (const c of ['sale', 'credit_note', 'cancellation_fee', 'payment', 'refund', 'partner_commission']) expect(categories).toContain(c);
  expect(lines.some((l) => /^\d{4}-\d{2}-\d{2},credit_note,CN-\d{4}-\d{5},.*,Keller Reisen GmbH,.*,CHF,-\d+\.\d{2},-\d+\.\d{2},-\d+\.\d{2},-\d+,-\d+,-\d+$/.test(l))).toBe(true);
  expect(lines.some((l) => /,refund,.*,Emma Schmid,.*,card terminal,,,CHF,,,-178\.00,,,-17800$/.test(l))).toBe(true);
  await expect(page.getByText(`Saved journal-${from}-${to}.csv.`)).toBeVisible();

  const zip = await downloaded(page, () => page.getByRole('button', { name: 'Download invoices and credit notes (ZIP)' }).click());
  expect(zip.name).toBe(`documents-${from}-${to}.zip`);
  const files = unzipSync(new Uint8Array(zip.bytes));
  const names = Object.keys(files).sort();
  expect(names).toHaveLength(4);
  expect(names.filter((n) => /^CN-\d{4}-\d{5}\.pdf$/.test(n))).toHaveLength(1);
  expect(names.filter((n) => /^INV-\d{4}-\d{5}\.pdf$/.test(n))).toHaveLength(3);
  for (const n of names) expect(Buffer.from(files[n]!.slice(0, 5)).toString()).toBe('%PDF-');

  // A period that ends before it starts: the API's reason beside the field, no download.
  await toField.fill(zurichDate(-31));
  await toField.press('Tab');
  await expect(page.getByText('The period cannot end before it starts.')).toBeVisible();
  await expect(page.locator('.Toastify__toast--error')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download journal (CSV)' })).toBeDisabled();

  // A guide (no Manage orders) has no Accounting entry.
  await page.context().clearCookies();
  await signIn(page, 'guide@demo.tourdesk.test', DEMO.password, 'demo');
  await expect(page.getByLabel('Main navigation').getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByLabel('Main navigation').getByRole('link', { name: 'Accounting' })).toHaveCount(0);
});
