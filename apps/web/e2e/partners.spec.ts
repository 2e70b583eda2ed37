import { expect, test, type Page } from '@playwright/test';
import { bare, DEMO, mailTo, org, signIn } from './support/helpers';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const PHONE = { width: 390, height: 844 };
const AGENCY = { subdomain: 'summit-desk', email: 'owner@summit-desk.test', password: 'summit-desk-1', name: 'Summit Desk' };

/** Signs an affiliate organisation up through the API and activates it from its e-mail. */
async function signUpAgency(page: Page) {
  const res = await page.request.post(bare('/api/users/register/'), {
    headers: { origin: bare() },
    data: { email: AGENCY.email, password: AGENCY.password, first_name: 'Sam', last_name: 'Summit', organisation_name: AGENCY.name, kind: 'affiliate', subdomain: AGENCY.subdomain },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { link } = await mailTo(AGENCY.email, /Activate/);
  await page.goto(link);
  await expect(page.getByText('Your account is active')).toBeVisible();
}

async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/${name}${scheme === 'dark' ? '-dark' : ''}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe.serial('partners: invite, accept, one contract, API keys, suspend', () => {
  let partnerUrl = '';

  test('the demo supplier invites a new organisation by its subdomain', async ({ page }) => {
    await signUpAgency(page);
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/sales/partners'));
    await expect(page.getByRole('heading', { name: 'Partners' })).toBeVisible();
    // The demo's own reseller is listed.
    await expect(page.getByRole('table', { name: 'Resellers' })).toContainText('Alpine Agency');
    await shots(page, 'partners-list');
    await page.getByRole('button', { name: 'Invite partner' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite partner' });
    await dialog.getByRole('textbox', { name: 'Subdomain' }).fill(AGENCY.subdomain);
    await dialog.getByLabel('Commission').fill('12.5');
    await dialog.getByRole('textbox', { name: 'Notes' }).fill('Settled monthly.');
    await shots(page, 'partners-invite');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${AGENCY.subdomain}.`)).toBeVisible();
    await expect(page.getByRole('heading', { name: AGENCY.name })).toBeVisible();
    await expect(page.getByText('Invited', { exact: true })).toBeVisible();
    partnerUrl = new URL(page.url()).pathname;
    // Share the kayak before the partner answers.
    await page.getByRole('checkbox', { name: 'Sunrise Kayak on Lake Lucerne' }).check();
    await page.getByRole('button', { name: 'Save contract' }).click();
    await expect(page.getByText('Contract saved.')).toBeVisible();
  });

  test('the invited organisation accepts in its Suppliers tab and reads the same contract', async ({ page }) => {
    await signIn(page, AGENCY.email, AGENCY.password, AGENCY.subdomain);
    await page.goto(org(AGENCY.subdomain, '/sales/partners'));
    await page.getByRole('tab', { name: 'Suppliers' }).click();
    const row = page.getByRole('row', { name: /Alpine Trails & Tours/ });
    await expect(row).toContainText('Awaits your answer');
    await row.getByRole('link').click();
    await expect(page.getByText('This organisation invited you.')).toBeVisible();
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByText('Partnership accepted.')).toBeVisible();
    await expect(page.getByText('Active', { exact: true })).toBeVisible();
    // The reseller reads the contract: commission, notes, the shared offer; nothing to save.
    await expect(page.getByLabel('Commission')).toHaveValue('12.5 %');
    await expect(page.getByLabel('Commission')).toHaveAttribute('readonly', '');
    await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('Settled monthly.');
    await expect(page.getByTestId('shared-offer')).toHaveText(['Sunrise Kayak on Lake Lucerne']);
    await expect(page.getByRole('button', { name: 'Save contract' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'API keys' })).toHaveCount(0);
    await shots(page, 'partners-reseller-contract');
  });

  test('the supplier sees the same contract, makes an API key (secret shown once), revokes it, and suspends', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', partnerUrl));
    await expect(page.getByText('Active', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Commission')).toHaveValue('12.5 %');
    await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('Settled monthly.');
    await expect(page.getByRole('checkbox', { name: 'Sunrise Kayak on Lake Lucerne' })).toBeChecked();

    await page.getByLabel('Key name').fill('Booking engine');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('api-key-secret');
    await expect(secret).toHaveText(/^td_[A-Za-z0-9_-]{43}$/);
    const value = (await secret.textContent())!;
    await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    await shots(page, 'partners-api-key-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    const keyRow = page.getByTestId('api-key-row').filter({ hasText: 'Booking engine' });
    await expect(keyRow).toContainText(value.slice(0, 10));
    // Shown once: the page no longer has it.
    await expect(page.getByText(value)).toHaveCount(0);
    await keyRow.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByText('API key revoked.')).toBeVisible();
    await expect(keyRow).toContainText('Revoked');

    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('dialog', { name: 'Suspend this partnership?' }).getByRole('button', { name: 'Suspend' }).click();
    await expect(page.getByText('Partnership suspended.')).toBeVisible();
    await expect(page.getByText('Suspended', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
    await shots(page, 'partners-supplier-detail');
    await page.setViewportSize(PHONE);
    await shots(page, 'partners-detail-phone');
    await page.goto(org('demo', '/sales/partners'));
    await expect(page.getByRole('table', { name: 'Resellers' })).toContainText(AGENCY.name);
    await shots(page, 'partners-list-phone');
  });
});

test('an invitation by e-mail: its link signs the invitee in and lands on the invitation on its own host', async ({ page }) => {
  const HOTEL = { subdomain: 'lakeside-hotel', email: 'desk@lakeside-hotel.test', password: 'lakeside-hotel-1' };
  const res = await page.request.post(bare('/api/users/register/'), {
    headers: { origin: bare() },
    data: { email: HOTEL.email, password: HOTEL.password, first_name: 'Lea', last_name: 'Lake', organisation_name: 'Lakeside Hotel', kind: 'affiliate', subdomain: HOTEL.subdomain },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { link: activation } = await mailTo(HOTEL.email, /Activate/);
  await page.goto(activation);
  await expect(page.getByText('Your account is active')).toBeVisible();

  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.goto(org('demo', '/sales/partners'));
  await page.getByRole('button', { name: 'Invite partner' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite partner' });
  await dialog.getByText('By e-mail', { exact: true }).click();
  await dialog.getByRole('textbox', { name: 'E-mail address' }).fill(HOTEL.email);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${HOTEL.email}.`, { exact: true })).toBeVisible();

  // The invitee, signed out, follows the e-mail's link: sign-in on the bare host, then its own host's invitation.
  await page.context().clearCookies();
  const { link } = await mailTo(HOTEL.email, /invited your organisation/);
  expect(link).toMatch(/\/auth\/login\?next=\/sales\/partners\/invitation\//);
  await page.goto(link);
  await page.getByLabel('E-mail').fill(HOTEL.email);
  await page.getByLabel('Password', { exact: true }).fill(HOTEL.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${org(HOTEL.subdomain, '/sales/partners/invitation/')}`));
  await expect(page.getByRole('heading', { name: 'Partnership invitation' })).toBeVisible();
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Partnership accepted.')).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
});
