import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolationsInBothSchemes } from './support/a11y';
import { DEMO, org, signIn, zurichDate } from './support/helpers';

/**
 * Resales, end to end, on the demo: the supplier (demo) sees what alpine-agency sold of its kayak,
 * filters by the partner, opens a resale, makes a statement for the coming month, downloads its CSV
 * and marks it settled (the reseller collected, so the supplier receives the money and confirms it);
 * the reseller, on its own host, sees the same resales and the statement settled.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const PHONE = { width: 390, height: 844 };
const RESELLER = { email: 'owner@alpine-agency.tourdesk.test', password: 'tourdesk-demo' };

/** Full-page screenshots light and dark, and axe finds no serious violation in either. */
async function shoot(page: Page, name: string) {
  await expectNoSeriousA11yViolationsInBothSchemes(page, `resales: ${name}`, { soft: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/resales-${name}${scheme === 'dark' ? '-dark' : ''}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('supplier and reseller read the same resales and agree on a statement', async ({ page, browser }) => {
  // Both sides, a statement, downloads and a phone: a long walk (about 50 s on a quiet machine).
  test.setTimeout(120_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.getByRole('link', { name: 'Resales' }).click();
  await expect(page).toHaveURL(org('demo', '/resales/overview'));
  await expect(page.getByRole('heading', { name: 'Resales', level: 2 })).toBeVisible();
  const rows = page.getByTestId('resale-row');
  await expect(rows.first()).toBeVisible();
  const total = await rows.count();
  expect(total).toBeGreaterThanOrEqual(8);
  await expect(page.getByTestId('resale-partner').first()).toHaveText('Alpine Agency');
  await expect(page.getByTestId('total-lines')).toContainText(String(total));

  // Filter by the partner (the options come from filter-options).
  await page.getByRole('combobox', { name: 'Partner' }).click();
  await page.getByRole('option', { name: 'Alpine Agency' }).click();
  await expect(page).toHaveURL(/partner=/);
  await expect(rows).toHaveCount(total);
  await page.getByRole('combobox', { name: 'Settled' }).click();
  await page.getByRole('option', { name: 'Not settled' }).click();
  await expect(rows).toHaveCount(3);
  // The export carries the same three lines.
  const [listCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(listCsv.suggestedFilename()).toMatch(/^resales-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = readFileSync((await listCsv.path())!, 'utf8').trim().split('\r\n');
  expect(exported[0]).toMatch(/^sold_at,order_reference,/);
  expect(exported.slice(1)).toHaveLength(3);
  expect(exported.slice(1).every((r) => r.includes(',supplier,Alpine Agency,'))).toBe(true);
  await shoot(page, 'list');

  // One resale: its lines with the commission fixed at sale (15 % of the gross).
  await rows.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/resales\/overview\/[0-9a-f-]{36}$/);
  // The page's chunk loads on first visit: give a loaded machine time.
  await expect(page.getByRole('heading', { name: /^Resale / })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Sold by Alpine Agency')).toBeVisible();
  await expect(page.getByTestId('resale-line')).toHaveCount(1);
  await expect(page.getByTestId('line-commission')).toContainText('CHF');
  await shoot(page, 'detail');

  // A statement for the coming month: it takes the three lines not settled yet.
  await page.getByRole('link', { name: 'All resales' }).click();
  await page.getByRole('tab', { name: 'Settlements' }).click();
  await expect(page).toHaveURL(org('demo', '/resales/settlements'));
  await expect(page.getByTestId('settlement-row')).toHaveCount(2);
  await page.getByRole('button', { name: 'New statement' }).click();
  const dialog = page.getByRole('dialog', { name: 'New statement' });
  await dialog.getByLabel('From').fill(zurichDate(0));
  await dialog.getByLabel('To').fill(zurichDate(30));
  await dialog.getByLabel('To').press('Tab');
  await dialog.getByRole('button', { name: 'Make statement' }).click();
  const heading = page.getByRole('heading', { name: /^Statement STL-\d{4}-\d{5}$/ });
  await expect(heading).toBeVisible();
  const number = (await heading.textContent())!.replace('Statement ', '');
  // The period typed is the period taken (the dialog opens on last month).
  await expect(page.getByText(`activities from ${zurichDate(0)} to ${zurichDate(30)}`)).toBeVisible();
  await expect(page.getByTestId('statement-line')).toHaveCount(3);
  await expect(page.getByTestId('owed')).toContainText('Alpine Agency owes Alpine Trails & Tours');

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe(`statement-${number}.csv`);
  const lines = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
  expect(lines[0]).toBe('statement,order,reseller_reference,sold_at,offer,date,time,seats,status,currency,gross,commission,supplier_net,kind,reverses');
  expect(lines).toHaveLength(1 + 3 + 2);
  expect(lines[1]).toMatch(/,CHF,\d+\.\d{2},\d+\.\d{2},\d+\.\d{2},sale,$/);

  await page.getByRole('button', { name: 'Mark settled' }).click();
  const confirm = page.getByRole('dialog', { name: 'Mark the statement settled?' });
  await expect(confirm).toContainText('cannot be undone');
  await confirm.getByRole('button', { name: 'Mark settled' }).click();
  await expect(page.getByTestId('settlement-status')).toHaveText('Settled');
  await expect(page.getByTestId('owed')).toContainText('by Dana Demo');
  await expect(page.getByRole('button', { name: 'Mark settled' })).toHaveCount(0);
  await shoot(page, 'statement');

  // The reseller, on its own host: the same resales and the statement, settled.
  const other = await browser.newContext();
  const agency = await other.newPage();
  await signIn(agency, RESELLER.email, RESELLER.password, 'alpine-agency');
  await agency.getByRole('link', { name: 'Resales' }).click();
  await expect(agency).toHaveURL(org('alpine-agency', '/resales/overview'));
  await expect(agency.getByTestId('resale-row')).toHaveCount(total);
  await expect(agency.getByTestId('resale-partner').first()).toHaveText('Alpine Trails & Tours');
  await agency.getByRole('combobox', { name: 'Settled' }).click();
  await agency.getByRole('option', { name: 'Not settled' }).click();
  await expect(agency.getByTestId('resale-row')).toHaveCount(0);
  await shoot(agency, 'reseller-list');
  await agency.getByRole('tab', { name: 'Settlements' }).click();
  await expect(agency.getByRole('button', { name: 'New statement' })).toHaveCount(0);
  const row = agency.getByTestId('settlement-row').filter({ hasText: number });
  await expect(row.getByTestId('settlement-status')).toHaveText('Settled');
  await row.click();
  await expect(agency.getByRole('heading', { name: `Statement ${number}` })).toBeVisible();
  await expect(agency.getByTestId('statement-line')).toHaveCount(3);
  await shoot(agency, 'reseller-statement');

  // A phone: the list stays readable.
  await agency.setViewportSize(PHONE);
  await agency.goto(org('alpine-agency', '/resales/overview'));
  await expect(agency.getByTestId('resale-card')).toHaveCount(total);
  await expect(agency.getByTestId('resale-row').first()).toBeHidden();
  await shoot(agency, 'phone');
  await other.close();
});
