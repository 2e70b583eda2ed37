import { devices, expect, test } from '@playwright/test';
import { DEMO, org, signIn } from './support/helpers';

/**
 * Help videos: the owner keeps the check-in page's videos (titles from the video platform's oEmbed
 * answer, a local stand-in here), and a guide on a phone watches them without being able to change them.
 */
test('the owner keeps the check-in page’s help videos; a guide on a phone watches them', async ({ page, browser }) => {
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  // The dashboard has the demo's welcome video.
  await expect(page.getByRole('button', { name: 'Help videos (1)' })).toBeVisible();
  await page.goto(org('demo', '/check-in'));
  await page.getByRole('button', { name: 'Help videos (2)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Help videos: Check-in' });
  const list = dialog.getByRole('list', { name: 'Help videos' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('link', { name: /^Checking in guests at the meeting point/ })).toHaveAttribute('href', 'https://videos.alpine-trails.example/check-in-at-the-meeting-point');

  // A video by its address: the platform's title comes back with it.
  await dialog.getByLabel('Add a video').fill('https://www.youtube.com/watch?v=door42');
  await dialog.getByRole('button', { name: 'Add video' }).click();
  await expect(page.getByText('Help video added: Video door42')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('listitem').last()).toContainText('YouTube · https://www.youtube.com/watch?v=door42');
  // Not an address: the server's message on the field, nothing added.
  await dialog.getByLabel('Add a video').fill('door routine');
  await dialog.getByRole('button', { name: 'Add video' }).click();
  await expect(dialog.getByText('Enter the full address of the video (https://…).')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await dialog.getByRole('button', { name: 'Remove No signal at the meeting point: scanning offline' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Help videos (2)' })).toBeVisible();

  // The guide, on a phone: the same videos, nothing to add or remove.
  const phone = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const g = await phone.newPage();
    await signIn(g, 'guide@demo.tourdesk.test', DEMO.password, 'demo');
    await g.goto(org('demo', '/check-in'));
    await g.getByRole('button', { name: 'Help videos (2)' }).click();
    const seen = g.getByRole('dialog', { name: 'Help videos: Check-in' });
    await expect(seen.getByRole('link', { name: /^Video door42/ })).toBeVisible();
    await expect(seen.getByLabel('Add a video')).toHaveCount(0);
    await expect(seen.getByRole('button', { name: /^Remove / })).toHaveCount(0);
    await g.screenshot({ path: 'test-results/screenshots/help-videos-phone.png' });
    // A page without help videos shows the guide no button for them.
    await g.goto(org('demo', '/products/experiences/overview'));
    await expect(g.getByRole('heading', { name: 'Offers' })).toBeVisible();
    await expect(g.getByRole('button', { name: /^Help videos/ })).toHaveCount(0);
  } finally {
    await phone.close();
  }
});
