import { expect, test } from '@playwright/test';
import { call } from './support/demo-api';
import { DEMO, mailTo, org, signIn } from './support/helpers';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

/**
 * An invitation the mail server refuses (the e2e sink refuses "+refuse" addresses twice) is tried
 * again, then shown to the Owner under Settings → Organisation → Failed e-mails; "Send again"
 * delivers it.
 */
test('an Owner sees an e-mail the mail server refused and sends it again', async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  const roles = await call<{ results: { id: string; name: string }[] }>(page, 'GET', 'roles/');
  const guide = roles.results.find((r) => r.name !== 'Owner') ?? roles.results[0]!;
  const address = `late+refuse-${Date.now()}@demo.tourdesk.test`;
  await call(page, 'POST', 'team-members/', { email: address, role: guide.id, first_name: 'Lena', last_name: 'Late' });

  await page.goto(org('demo', '/settings/organization/contact'));
  await page.getByRole('tab', { name: 'Failed e-mails' }).click();
  await expect(page).toHaveURL(org('demo', '/settings/organization/emails'));
  const row = page.getByTestId('failed-email').filter({ hasText: address });
  // Two refusals a second apart: it appears once its retries are spent.
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText('invited you');
  await expect(row).toContainText('2');
  await expect(row).toContainText(/try again later/i);
  await page.screenshot({ path: `${SHOTS}/failed-emails.png`, fullPage: true });

  await row.getByRole('button', { name: 'Send again' }).click();
  await expect(page.getByText(`The e-mail to ${address} is being sent again.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await mailTo(address, /invited you/);
});
