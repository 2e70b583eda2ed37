import { expect, test, type Page } from '@playwright/test';
import { bare, DEMO, mailTo, org, signIn } from './support/helpers';

const OWNER = { email: 'olivia@lakeside.test', password: 'lakeside-owner-1' };
const MEMBER = { email: 'vic@lakeside.test', password: 'lakeside-viewer-1' };

/** A request the app made after the access token (4 s) expired, answered after a silent refresh. */
async function waitPastAccessTokenLifetime(page: Page) {
  await page.waitForTimeout(4_500);
}

test.describe.serial('an organisation from sign-up to a restricted team member', () => {
  test('signs up on the bare host, activates from the e-mail and lands on its own subdomain', async ({ page }) => {
    await page.goto(bare('/auth/register'));
    await page.getByText('An operator (supplier)').click();
    await page.getByLabel('Organisation name').fill('Lakeside Kayaks');
    await page.getByLabel('Organisation name').blur();
    await expect(page.getByLabel('Subdomain')).toHaveValue('lakeside-kayaks');
    await page.getByLabel('Subdomain').fill('lakeside');
    await expect(page.getByText('lakeside.localhost is available')).toBeVisible();
    await page.getByLabel('Subdomain').fill('demo');
    await expect(page.getByText('This subdomain is taken.')).toBeVisible();
    await page.getByLabel('Subdomain').fill('lakeside');
    // Currency and time zone: proposed from the browser's language and zone, chosen from lists.
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue(browserZone);
    await expect(page.getByRole('combobox', { name: 'Currency' })).toHaveValue(/^[A-Z]{3} — /);
    await page.getByRole('combobox', { name: 'Currency' }).fill('Swiss');
    await page.getByRole('option', { name: 'CHF — Swiss Franc' }).click();
    await page.getByRole('combobox', { name: 'Time zone' }).fill('Zurich');
    await page.getByRole('option', { name: 'Europe/Zurich' }).click();
    await page.getByLabel('First name').fill('Olivia');
    await page.getByLabel('Last name').fill('Owner');
    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Account created! Check your e-mail to activate it.').first()).toBeVisible();

    const { link } = await mailTo(OWNER.email, /Activate/);
    await page.goto(link);
    await expect(page.getByText('Your account is active')).toBeVisible();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, OWNER.email, OWNER.password, 'lakeside');
    await expect(page.getByText('Lakeside Kayaks')).toBeVisible();
    await page.goto(org('lakeside', '/settings/organization/contact'));
    const contact = page.getByRole('form', { name: 'Contact info' });
    await expect(contact.getByRole('combobox', { name: 'Currency' })).toHaveValue('CHF — Swiss Franc');
    await expect(contact.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Zurich');
  });

  test('creates a role holding only "View experiences" and invites a member with it', async ({ page }) => {
    await signIn(page, OWNER.email, OWNER.password, 'lakeside');
    await page.goto(org('lakeside', '/settings/team/roles'));
    await page.getByRole('button', { name: 'New role' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Viewer');
    await dialog.getByLabel('View experiences').check();
    await dialog.getByRole('button', { name: 'Create role' }).click();
    const row = page.getByRole('row', { name: /Viewer/ });
    await expect(row).toContainText('View experiences');
    await page.screenshot({ path: 'test-results/screenshots/roles.png', fullPage: true });

    await page.goto(org('lakeside', '/settings/team/members'));
    await page.getByRole('button', { name: 'Invite member' }).click();
    const invite = page.getByRole('dialog');
    await invite.getByLabel('E-mail').fill(MEMBER.email);
    await invite.getByLabel('First name').fill('Vic');
    await invite.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Viewer' }).click();
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByRole('row', { name: new RegExp(MEMBER.email) })).toContainText('invited');
    await page.screenshot({ path: 'test-results/screenshots/members.png', fullPage: true });
  });

  test('the member accepts, signs in, is refused the roles page, and stays signed in through refreshes', async ({ page }) => {
    const { link } = await mailTo(MEMBER.email, /invited you/);
    expect(new URL(link).hostname).toBe('lakeside.localhost');
    await page.goto(link);
    await page.getByLabel('New password').fill(MEMBER.password);
    await page.getByLabel('Repeat the password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(page).toHaveURL(org('lakeside', '/auth/login'));
    await page.getByLabel('E-mail').fill(MEMBER.email);
    await page.getByLabel('Password', { exact: true }).fill(MEMBER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(org('lakeside', '/dashboard'));

    await page.goto(org('lakeside', '/settings/team/roles'));
    await expect(page.getByText('You have no permissions to access this page!')).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/no-permission.png', fullPage: true });
    await page.getByRole('button', { name: 'Go to dashboard' }).click();
    await expect(page).toHaveURL(org('lakeside', '/dashboard'));

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page.getByText('Viewer at Lakeside Kayaks')).toBeVisible();

    // The access token expires; the next call is refreshed silently and goes through.
    await waitPastAccessTokenLifetime(page);
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/jwt/refresh/') && r.status() === 200);
    await page.getByLabel('Last name').fill('Viewer');
    await page.getByRole('button', { name: 'Save' }).click();
    await refreshed;
    await expect(page.getByText('Profile updated.')).toBeVisible();
    // A full reload after expiry also starts from a refreshed session.
    await waitPastAccessTokenLifetime(page);
    await page.reload();
    await expect(page.getByText('Viewer at Lakeside Kayaks')).toBeVisible();
  });

  test('once its refresh token is revoked, a session ends with "Refresh token expired. Log in again!"', async ({ browser }) => {
    const first = await browser.newPage();
    await signIn(first, MEMBER.email, MEMBER.password, 'lakeside');
    await first.goto(org('lakeside', '/profile'));
    await expect(first.getByText('Viewer at Lakeside Kayaks')).toBeVisible();
    // The same member on another computer signs out every other session.
    const second = await (await browser.newContext()).newPage();
    await signIn(second, MEMBER.email, MEMBER.password, 'lakeside');
    await second.goto(org('lakeside', '/profile'));
    await second.getByRole('button', { name: 'Sign out of all other sessions' }).click();
    await expect(second.getByText(/Signed out of \d+ other session/)).toBeVisible();

    await waitPastAccessTokenLifetime(first);
    await first.getByLabel('First name').fill('Victor');
    await first.getByRole('button', { name: 'Save' }).click();
    await expect(first.getByText('Refresh token expired. Log in again!')).toBeVisible();
    await expect(first).toHaveURL(/\/auth\/login/);
  });

  test('a signed-in user who opens another organisation’s subdomain is sent to their own', async ({ page }) => {
    await signIn(page, OWNER.email, OWNER.password, 'lakeside');
    await page.goto(org('demo', '/dashboard'));
    await expect(page).toHaveURL(org('lakeside', '/dashboard'));
    await expect(page.getByText('Lakeside Kayaks')).toBeVisible();
  });

  test('an unauthenticated visitor of a subdomain goes to its sign-in page', async ({ page }) => {
    await page.goto(org('lakeside', '/settings/team/members'));
    await expect(page).toHaveURL(/lakeside\.localhost:\d+\/auth\/login/);
    await expect(page.getByText('to lakeside.localhost')).toBeVisible();
  });

  test('forgot password: the e-mailed link sets a new password', async ({ page }) => {
    await page.goto(bare('/auth/forgot-password'));
    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Reset link sent! Check your e-mail.').first()).toBeVisible();
    const { link } = await mailTo(OWNER.email, /Reset your/);
    await page.goto(link);
    await page.getByLabel('New password').fill('lakeside-owner-2');
    await page.getByLabel('Repeat the password').fill('lakeside-owner-2');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByText('Password reset! Sign in with your new password.')).toBeVisible();
    await signIn(page, OWNER.email, 'lakeside-owner-2', 'lakeside');
  });

  test('a new sign-in e-mail waits for the link sent to it, then replaces the old one', async ({ page }) => {
    const renamed = 'victor@lakeside.test';
    await signIn(page, MEMBER.email, MEMBER.password, 'lakeside');
    await page.goto(org('lakeside', '/profile'));
    const card = page.getByRole('form', { name: 'Sign-in e-mail' });
    await card.getByLabel('New e-mail').fill(renamed);
    await card.getByLabel('Current password').fill(MEMBER.password);
    await card.getByRole('button', { name: 'Change e-mail' }).click();
    await expect(page.getByText(`We sent a link to ${renamed} to confirm it.`).first()).toBeVisible();
    await expect(card.getByText(`Waiting for confirmation: ${renamed}`)).toBeVisible();
    await expect(card.getByText(`Now: ${MEMBER.email}`)).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/profile-email-pending.png', fullPage: true });

    const { link } = await mailTo(renamed, /Confirm your new/);
    const other = await (await page.context().browser()!.newContext()).newPage();
    await other.goto(link);
    await expect(other.getByText('Your new e-mail address is confirmed')).toBeVisible();
    await signIn(other, renamed, MEMBER.password, 'lakeside');
  });
});

test('signs in with the OpenID Connect provider', async ({ page }) => {
  await page.goto(bare('/auth/login'));
  await page.getByRole('button', { name: 'Sign in with Test SSO' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/interaction\//);
  await page.locator('input[name="login"]').fill(DEMO.email);
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
  const consent = page.locator('button[type="submit"]', { hasText: /continue/i });
  if (await consent.isVisible().catch(() => false)) await consent.click();
  await expect(page).toHaveURL(org('demo', '/dashboard'));
  await expect(page.getByText('Alpine Trails & Tours')).toBeVisible();
});

test('a wrong password is refused with the server’s message', async ({ page }) => {
  await page.goto(bare('/auth/login'));
  await page.getByLabel('E-mail').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'No active account found with the given credentials.' })).toBeVisible();
});
