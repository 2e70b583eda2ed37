import { expect, test, type Page } from '@playwright/test';
import { bare, DEMO, mailTo, org, PORT, signIn } from './support/helpers';

/**
 * Settings → Subscription, without the internet: Stripe is the local fake that
 * apps/web/e2e/support/server.mjs starts (its API for the server's SDK, its hosted Checkout page
 * and customer portal for the browser, its signed events to the API's webhook).
 *
 * The demo Owner sees the plan (Standard, held without a subscription) and its usage, switches to
 * yearly prices, upgrades to Pro through Stripe Checkout (a first subscription: its trial), comes
 * back to the new plan, opens Stripe's customer portal and returns, and changes back to Standard:
 * the demo keeps the plan and features the other specs need (every feature, Standard's limits and
 * fee). A new affiliate organisation, whose plan lacks offers, is sent from the offers page by
 * "Upgrade now" to this page.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const STRIPE = `http://127.0.0.1:${PORT + 4}`;
const PAGE = org('demo', '/settings/subscription/supplier-plans');

/** A screenshot of the page (the viewport only, for a dialog over it), also to SUBSCRIPTION_SHOTS when set. */
async function shoot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `${SHOTS}/subscription-${name}.png`, fullPage });
  if (process.env.SUBSCRIPTION_SHOTS) await page.screenshot({ path: `${process.env.SUBSCRIPTION_SHOTS}/subscription-${name}.png`, fullPage });
}

test('the demo Owner upgrades to Pro by the year through Stripe Checkout, opens billing, and goes back to Standard', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  const current = page.getByRole('region', { name: 'Current plan' });
  const card = (name: string) => page.getByRole('region', { name, exact: true });

  // Settings → Subscription: the plan now, and what the organisation uses of its limits.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByText('Settings', { exact: true }).click();
  await page.getByRole('link', { name: 'Subscription' }).click();
  await expect(page).toHaveURL(PAGE);
  await expect(page.getByRole('heading', { name: 'Subscription', level: 2 })).toBeVisible();
  await expect(current.getByTestId('current-plan-name')).toHaveText('Standard');
  await expect(current.getByTestId('usage-offers')).toContainText(/^\d+ of 50 offers/);
  await expect(current.getByTestId('usage-stores')).toContainText(/\d+ of 5 stores/);
  await expect(current.getByTestId('usage-team_members')).toContainText(/\d+ of 25 team members/);
  await expect(page.getByRole('tab', { name: 'Supplier plans', selected: true })).toBeVisible();
  await expect(card('Standard').getByText('Current plan', { exact: true })).toBeVisible();
  await expect(card('Starter').getByRole('listitem').filter({ hasText: 'Up to 3 offers' })).toBeVisible();
  await expect(card('Standard').getByText('1.5 % fee on online payments')).toBeVisible();
  await expect(card('Pro').getByText('Unlimited offers')).toBeVisible();
  await expect(card('Pro').getByText('Sales analytics')).toBeVisible();
  await expect(card('Pro').getByTestId('plan-price')).toContainText('€149.00');
  await shoot(page, 'standard');

  // Yearly: the yearly prices and their saving; Pro by the year through Stripe Checkout.
  await page.getByText(/^Yearly · save/).click();
  await expect(card('Pro').getByTestId('plan-price')).toContainText('€1,490.00');
  await expect(card('Pro').getByText('Save €298.00 (17 %) against monthly')).toBeVisible();
  await card('Pro').getByRole('button', { name: 'Upgrade to Pro' }).click();
  await expect(page).toHaveURL(new RegExp(`^${STRIPE}/pay/cs_`));
  await expect(page.getByTestId('amount')).toContainText('€1,490.00 per year');
  await expect(page.getByText('14 days free')).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay' }).click();

  // Back: the new plan once Stripe's event has made it current, said once; the address tidied.
  await expect(page).toHaveURL(PAGE);
  await expect(page.getByText(/^Your plan is now Pro, free until /)).toHaveCount(1);
  await expect(current.getByTestId('current-plan-name')).toHaveText('Pro');
  await expect(current.getByTestId('current-plan-status')).toHaveText('Trial');
  await expect(current.getByText('Billed yearly')).toBeVisible();
  await expect(current.getByText(/^Free trial: 14 days left, until /)).toBeVisible();
  await expect(current.getByText('Then €1,490.00 a year, charged to your card.')).toBeVisible();
  await expect(current.getByTestId('usage-offers')).toContainText('No limit on your plan');
  await expect(card('Pro').getByRole('button', { name: 'Current plan' })).toBeDisabled();
  await shoot(page, 'pro');

  // Manage billing: Stripe's customer portal shows the subscription; back without changing it.
  await current.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page).toHaveURL(new RegExp(`^${STRIPE}/portal/`));
  await expect(page.getByRole('heading', { name: 'Manage your plan' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Tourdesk Pro' })).toContainText('€1,490.00 per year');
  await page.getByRole('link', { name: 'Return' }).click();
  await expect(page).toHaveURL(PAGE);
  await expect(current.getByTestId('current-plan-name')).toHaveText('Pro');

  // Back to Standard (the demo as the other specs know it): a change of the running subscription, asked first.
  await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
  await card('Standard').getByRole('button', { name: 'Downgrade to Standard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change to Standard?' });
  await expect(dialog).toContainText('Your subscription changes now to Standard at €490.00 a year. Your free trial goes on until');
  await expect(dialog.getByRole('list', { name: 'Features you lose' })).toHaveCount(0); // Standard has every feature Pro has
  await shoot(page, 'confirm', false);
  await dialog.getByRole('button', { name: 'Change to Standard' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Your plan is now Standard, free until /)).toHaveCount(1); // still the trial Stripe gave
  await expect(current.getByTestId('current-plan-name')).toHaveText('Standard');
  await expect(card('Standard').getByRole('button', { name: 'Current plan' })).toBeDisabled();

  // Light, dark and a phone.
  await page.reload();
  await expect(current.getByTestId('current-plan-name')).toHaveText('Standard');
  await shoot(page, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(current.getByTestId('current-plan-name')).toHaveText('Standard');
  await shoot(page, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(current.getByTestId('current-plan-name')).toHaveText('Standard');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no sideways scrolling on a phone').toBeLessThanOrEqual(0);
  await shoot(page, 'phone');
});

test('a new affiliate, whose plan has no offers, is sent by "Upgrade now" to the plans', async ({ page }) => {
  test.setTimeout(90_000);
  const owner = { email: 'ada@harbour-resellers.test', password: 'harbour-owner-1' };
  await page.goto(bare('/auth/register'));
  await page.getByText('A reseller (affiliate)').click();
  await page.getByLabel('Organisation name').fill('Harbour Resellers');
  await page.getByLabel('Organisation name').blur();
  await expect(page.getByLabel('Subdomain')).toHaveValue('harbour-resellers');
  await page.getByLabel('Subdomain').fill('harbour');
  await expect(page.getByText('harbour.localhost is available')).toBeVisible();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Owner');
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Account created! Check your e-mail to activate it.').first()).toBeVisible();
  const { link } = await mailTo(owner.email, /Activate/);
  await page.goto(link);
  await expect(page.getByText('Your account is active')).toBeVisible();
  await signIn(page, owner.email, owner.password, 'harbour');

  // Offers are not in an affiliate's plan: the guard says so and leads to the plans.
  await page.goto(org('harbour', '/products/experiences/overview'));
  await expect(page.getByText('Your current subscription plan does not grant access to this feature!')).toBeVisible();
  await page.getByRole('button', { name: 'Upgrade now' }).click();
  await expect(page).toHaveURL(org('harbour', '/settings/subscription/supplier-plans'));
  const current = page.getByRole('region', { name: 'Current plan' });
  await expect(current.getByTestId('current-plan-name')).toHaveText('Affiliate');
  await expect(current.getByTestId('current-plan-status')).toHaveText('Free');

  // Supplier plans are for reference; the affiliate's own are one click away.
  await expect(page.getByTestId('other-kind')).toContainText('Your organisation is an affiliate');
  await expect(page.getByRole('region', { name: 'Pro', exact: true }).getByRole('button')).toHaveCount(0);
  await page.getByRole('link', { name: 'See the affiliate plans' }).click();
  await expect(page).toHaveURL(org('harbour', '/settings/subscription/affiliate-plans'));
  await expect(page.getByRole('tab', { name: 'Affiliate plans', selected: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Affiliate', exact: true }).getByRole('button', { name: 'Current plan' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Affiliate Plus' }).getByRole('button', { name: 'Upgrade to Affiliate Plus' })).toBeEnabled();
  await expect(page.getByRole('region', { name: 'Affiliate Plus' }).getByText('Sales analytics')).toBeVisible();
  await shoot(page, 'affiliate');
});
