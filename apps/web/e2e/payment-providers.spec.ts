import { expect, test } from '@playwright/test';
import { DEMO, org, PORT, signIn } from './support/helpers';

/**
 * Settings → Payment providers, without the internet: Stripe is the local fake that
 * apps/web/e2e/support/server.mjs starts (its API for the server's SDK, its hosted onboarding
 * for the browser). The demo owner connects the organisation's Stripe account, leaves Stripe's
 * onboarding unfinished and sees what Stripe still needs, comes back through an expired link
 * (a new one is made at once), finishes, and disconnects again (the demo as it was).
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const STRIPE = `http://127.0.0.1:${PORT + 4}`;
const PAGE = org('demo', '/settings/payment-providers');

test('an Owner connects Stripe through its onboarding, sees what it still needs, finishes and disconnects', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  const card = page.getByRole('region', { name: 'Stripe' });
  const status = card.getByRole('group', { name: 'Account status' });

  // Settings → Payment providers: not connected yet, what connecting means.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByText('Settings', { exact: true }).click();
  await page.getByRole('link', { name: 'Payment providers' }).click();
  await expect(page).toHaveURL(PAGE);
  await expect(page.getByRole('heading', { name: 'Payment providers', level: 2 })).toBeVisible();
  await expect(card.getByText(/The money goes to your own Stripe account/)).toBeVisible();
  await expect(card.getByText(/The platform’s fee is [\d.]+ %|The platform takes no fee/)).toBeVisible();

  // Stripe's onboarding (the fake's page), left without finishing.
  await card.getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(page).toHaveURL(new RegExp(`^${STRIPE}/connect/onboarding/acct_`));
  await expect(page.getByRole('heading', { name: /^Set up payments/ })).toBeVisible();
  await page.getByRole('link', { name: 'Return without completing' }).click();

  // Back: said once, the address tidied, and the account as Stripe has it now.
  await expect(page.getByText(/Back from Stripe/)).toHaveCount(1);
  await expect(page).toHaveURL(PAGE);
  await expect(card.getByTestId('stripe-account')).toHaveText(/^acct_/);
  await expect(status.getByText('Details not submitted')).toBeVisible();
  await expect(status.getByText('Charges not enabled')).toBeVisible();
  await expect(status.getByText('Payouts not enabled')).toBeVisible();
  const needs = card.getByRole('list', { name: 'Stripe still needs' });
  await expect(needs).toContainText('A bank account for payouts');
  await expect(needs).toContainText('The representative’s name');
  await expect(needs).toContainText('Acceptance of Stripe’s terms of service');
  await expect(needs.getByRole('listitem')).toHaveCount(5); // seven keys: first and last name, and the terms' date and IP, are one item each
  await page.screenshot({ path: `${SHOTS}/payment-providers-unfinished.png`, fullPage: true });

  // Stripe's link expired (its refresh address): a new one is made, straight back to Stripe.
  await page.goto(`${PAGE}?stripe=refresh`);
  await expect(page).toHaveURL(new RegExp(`^${STRIPE}/connect/onboarding/acct_`));
  await page.getByRole('button', { name: 'Complete onboarding' }).click();

  // Finished: the account takes payments and pays out; nothing left to do at Stripe.
  await expect(page).toHaveURL(PAGE);
  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
  await expect(status.getByText('Details submitted')).toBeVisible();
  await expect(status.getByText('Charges enabled')).toBeVisible();
  await expect(status.getByText('Payouts enabled')).toBeVisible();
  await expect(card.getByRole('list', { name: 'Stripe still needs' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Continue onboarding' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Refresh' }).click();
  await expect(status.getByText('Payouts enabled')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/payment-providers-connected-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Disconnect, after asking: connecting is offered again.
  await card.getByRole('button', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disconnect Stripe?' });
  await expect(dialog).toContainText('stop offering online payment');
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Stripe disconnected/)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Connect Stripe' })).toBeVisible();
});
