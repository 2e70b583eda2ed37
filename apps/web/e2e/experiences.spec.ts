import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { DEMO, org, signIn } from './support/helpers';

const TITLE = 'Lake Geneva Kayak Tour';

/** Two real pictures on disk, large enough that a slowed-down upload shows its progress. */
async function pictures() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tourdesk-pics-'));
  const files: string[] = [];
  for (const [name, colour] of [['lake-morning.png', { r: 40, g: 120, b: 200 }], ['kayaks-beach.png', { r: 220, g: 150, b: 60 }]] as const) {
    const noise = Buffer.alloc(1200 * 900 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (Math.random() * 255) | 0;
    const png = await sharp(noise, { raw: { width: 1200, height: 900, channels: 3 } })
      .composite([{ input: { create: { width: 600, height: 450, channels: 3, background: colour } }, gravity: 'center' }])
      .png()
      .toBuffer();
    writeFileSync(path.join(dir, name), png);
    files.push(path.join(dir, name));
  }
  return files;
}

async function slowUploads(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1_500_000 });
  return () => cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

test.describe.serial('an offer from creation to sale', () => {
  test('creates pricing categories, then an offer, and walks every step of the editor', async ({ page }) => {
    // Every step of the editor and four of its dialogs, one after another: about a minute on two busy cores.
    test.setTimeout(150_000);
    await signIn(page, DEMO.email, DEMO.password, 'demo');

    // Pricing categories first (the demo may already have some).
    await page.goto(org('demo', '/products/experiences/pricing-categories'));
    for (const [type, label] of [['Adult', 'Adult (E2E)'], ['Child', 'Child (E2E)']] as const) {
      await page.getByRole('button', { name: 'New category' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: type, exact: true }).click();
      await dialog.getByLabel('Label').fill(label);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('row', { name: new RegExp(label.replace(/[()]/g, '\\$&')) })).toBeVisible();
    }

    // Create.
    await page.goto(org('demo', '/products/experiences/overview'));
    await page.getByRole('button', { name: 'New offer' }).click();
    await page.getByRole('dialog').getByLabel('Title').fill(TITLE);
    await page.getByRole('dialog').getByRole('button', { name: 'Create offer' }).click();
    await expect(page.getByText('Offer created!')).toBeVisible();
    await expect(page).toHaveURL(/\/products\/experiences\/editor\/[0-9a-f-]+\/basic-info$/);

    // Basic info: continuing needs a valid form (typed once the step shows the offer it edits).
    await expect(page.getByLabel('Title')).toHaveValue(TITLE);
    await page.getByLabel('Title').fill('No');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('A title has at least 3 characters.')).toBeVisible();
    await expect(page).toHaveURL(/basic-info$/);
    await page.getByLabel('Title').fill(TITLE);
    await page.getByLabel('Short description').fill('Paddle along the Swiss shore at sunrise.');
    await page.getByLabel('Duration (minutes)').fill('150');
    // A meeting point made right here, without leaving the editor, is chosen at once.
    await page.getByRole('button', { name: 'New meeting point' }).click();
    const pointDialog = page.getByRole('dialog', { name: 'New meeting point' });
    await pointDialog.getByLabel('Name').fill('Boat house (E2E)');
    // The address field suggests places (the embedded towns and cities): choosing one places it.
    await pointDialog.getByRole('combobox', { name: 'Address' }).fill('Genev');
    await page.getByRole('option', { name: 'Genève (GE), Switzerland' }).click();
    await expect(pointDialog.getByTestId('meeting-point-position')).toHaveText(/^46\.\d+, 6\.\d+$/);
    await pointDialog.getByRole('button', { name: 'Create meeting point' }).click();
    await expect(pointDialog).toBeHidden();
    await expect(page.locator('.mantine-Pill-label', { hasText: 'Boat house (E2E)' })).toBeVisible();
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('Offer updated!').first()).toBeVisible();
    await expect(page).toHaveURL(/\/description$/);

    // Description: rich text and lists; leaving with unsaved changes asks first.
    // The heading button makes the line a heading (pressed while the cursor is in it); Enter goes on
    // with a paragraph; bold is typed with its keyboard shortcut.
    await page.getByRole('textbox', { name: 'Long description' }).click();
    const headingButton = page.getByRole('button', { name: 'Heading', exact: true });
    await headingButton.click();
    await expect(headingButton).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.type('On the water');
    await page.keyboard.press('Enter');
    await expect(headingButton).toHaveAttribute('aria-pressed', 'false');
    await page.keyboard.type('Two and a half hours on the lake, guided by locals. ');
    await page.keyboard.press('ControlOrMeta+b');
    await page.keyboard.type('Coffee included.');
    await expect(page.getByRole('button', { name: 'Bold', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('ControlOrMeta+b');
    await page.keyboard.type(' Map: ');
    // A link at the cursor: its address asked in a small form, its text the address.
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByLabel('Link address').fill('ftp://files.example');
    await page.keyboard.press('Enter');
    await expect(page.getByText('A link starts with https://, http:// or mailto:.')).toBeVisible();
    await page.getByLabel('Link address').fill('https://maps.example/kayak');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('textbox', { name: 'Long description' }).getByRole('link', { name: 'maps.example/kayak' })).toBeVisible();
    // Pasted from an e-mail: its <div> lines stay lines, its script never arrives.
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Long description' }).evaluate((box) => {
      const data = new DataTransfer();
      data.setData('text/html', '<div>Meet at the pier.</div><div>Bring a towel.<script>window.pasted = 1</script></div>');
      data.setData('text/plain', 'Meet at the pier.\nBring a towel.');
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(page.getByRole('textbox', { name: 'Long description' }).locator('p', { hasText: /^Bring a towel\.$/ })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Long description' }).locator('script')).toHaveCount(0);
    await page.getByLabel('Highlights').fill('Sunrise on the water\nSwim stop');
    await page.getByRole('tab', { name: 'Pricing' }).click();
    await expect(page.getByText('This step has changes that are not saved.')).toBeVisible();
    await page.getByRole('button', { name: 'Stay' }).click();
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page).toHaveURL(/\/schedule$/);

    // Schedule: a daily 09:00 start with 10 seats; the next slots appear at once.
    await page.getByRole('combobox', { name: 'Start times (local)' }).fill('09:00');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Add schedule' }).click();
    await expect(page.getByText('Schedule added: its time slots are ready.')).toBeVisible();
    await expect(page.getByTestId('schedule-rule')).toContainText('09:00 · 10 seats');
    await expect(page.getByLabel('Next time slots').getByText('10/10').first()).toBeVisible();
    await page.getByLabel('What happens').fill('Safety briefing on the beach');
    await page.getByRole('button', { name: 'Add stop' }).click();
    await expect(page.getByTestId('agenda-item')).toContainText('+0:00 Safety briefing on the beach');
    await page.getByRole('tab', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/pricing$/);

    // Pricing: Adult and Child, saved when the field is left.
    await page.getByLabel('Adult (E2E) retail price').fill('49.90');
    await page.getByLabel('Adult (E2E) retail price').blur();
    await expect(page.getByText(/Adult \(E2E\): CHF\s?49\.90/)).toBeVisible();
    await page.getByLabel('Child (E2E) retail price').fill('25');
    await page.getByLabel('Child (E2E) retail price').blur();
    await expect(page.getByText(/Child \(E2E\): CHF\s?25\.00/)).toBeVisible();
    await page.getByLabel('Adult (E2E) retail price').fill('12.345');
    await page.getByLabel('Adult (E2E) retail price').blur();
    await expect(page.getByText('Enter an amount such as 49.90.')).toBeVisible();
    await page.getByLabel('Adult (E2E) retail price').fill('49.90');

    // Media: two images with progress bars, then a new order, then a video.
    await page.getByRole('tab', { name: 'Media' }).click();
    const files = await pictures();
    const restore = await slowUploads(page);
    await page.locator('[data-testid="image-dropzone"] input[type="file"]').setInputFiles(files);
    const bars = page.getByTestId('upload-progress');
    await expect(bars).toHaveCount(2);
    await expect(bars.first()).toContainText(/(^|\D)([1-9]\d?)%/); // part-way: the bar moves
    await page.screenshot({ path: 'test-results/screenshots/upload-progress.png', fullPage: true });
    await expect(page.getByText('Files uploaded!')).toBeVisible({ timeout: 30_000 });
    await restore();
    const tiles = page.getByTestId('media-image');
    await expect(tiles).toHaveCount(2);
    const first = await tiles.nth(0).getAttribute('data-name');
    const second = await tiles.nth(1).getAttribute('data-name');
    // Drag the second picture by its handle onto the first.
    const handle = await page.getByRole('button', { name: `Move ${second}` }).boundingBox();
    const target = await tiles.nth(0).boundingBox();
    await page.mouse.move(handle!.x + handle!.width / 2, handle!.y + handle!.height / 2);
    await page.mouse.down();
    await page.mouse.move(target!.x + target!.width / 2, target!.y + target!.height / 2, { steps: 25 });
    await page.mouse.move(target!.x + target!.width / 3, target!.y + target!.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(page.getByText('New order saved.')).toBeVisible();
    await expect(tiles.nth(0)).toHaveAttribute('data-name', second!);
    await expect(tiles.nth(1)).toHaveAttribute('data-name', first!);
    await page.getByLabel('Video URL').fill('https://www.youtube.com/watch?v=lake42');
    await page.getByRole('button', { name: 'Add video' }).click();
    await expect(page.getByTestId('media-video')).toContainText('Video lake42');
    await page.screenshot({ path: 'test-results/screenshots/media-step.png', fullPage: true });

    // Preview, then activate.
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByLabel('Preview');
    await expect(preview.getByRole('heading', { name: TITLE })).toBeVisible();
    await expect(preview.getByRole('heading', { name: 'On the water' })).toBeVisible();
    await expect(preview.getByText(/^Two and a half hours on the lake, guided by locals\./)).toBeVisible();
    await expect(preview.locator('b, strong').filter({ hasText: 'Coffee included.' })).toBeVisible();
    await expect(preview.getByRole('link', { name: 'maps.example/kayak' })).toHaveAttribute('href', 'https://maps.example/kayak');
    await expect(preview.getByText('Bring a towel.', { exact: true })).toBeVisible();
    await expect(preview.getByText('Sunrise on the water')).toBeVisible();
    await expect(preview.getByText(/CHF\s?25\.00/).first()).toBeVisible();
    // Where to meet, and the times customers can book with the seats left.
    await expect(preview.getByTestId('preview-meeting')).toContainText('Boat house (E2E)');
    await expect(preview.getByTestId('preview-times')).toContainText(/left/);
    await page.screenshot({ path: 'test-results/screenshots/preview.png', fullPage: true });
    await page.getByRole('button', { name: 'Activate' }).click();
    await expect(page.getByTestId('experience-status')).toHaveText('Active');
    // On sale: the offer says where it is sold, and goes into the demo's web store from here.
    const channels = page.getByRole('region', { name: 'Where it is sold' });
    await expect(channels).toContainText('At the counter');
    await expect(channels).toContainText('Not in this store');
    await channels.getByRole('button', { name: 'Add to Alpine Trails online' }).click();
    await expect(page.getByText('Added to Alpine Trails online.')).toBeVisible();
    await expect(channels).toContainText('In this store');
    await expect(channels.getByRole('link', { name: /Open Alpine Trails online/ })).toHaveAttribute('href', /\/s\/kayak\/$/);
    await channels.screenshot({ path: 'test-results/screenshots/offer-channels.png' });

    // Duplicate: a Draft copy opens.
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await expect(page.getByText('Offer copied!')).toBeVisible();
    await expect(page.getByRole('heading', { name: `${TITLE} (copy)` })).toBeVisible();
    await expect(page.getByTestId('experience-status')).toHaveText('Draft');

    // The copy's settings: a cancellation policy and a booking question made without leaving the editor.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'New cancellation policy' }).click();
    const policy = page.getByRole('dialog', { name: 'New cancellation policy' });
    await policy.getByLabel('Name').fill('Free until 48 hours before (E2E)');
    await policy.getByLabel('Rule 1: hours before').fill('48');
    await policy.getByRole('button', { name: 'Create policy' }).click();
    await expect(policy).toBeHidden();
    await expect(page.getByRole('combobox', { name: 'Cancellation policy' })).toHaveValue('Free until 48 hours before (E2E)');
    await page.getByRole('button', { name: 'New booking question' }).click();
    const question = page.getByRole('dialog', { name: 'New booking question' });
    await question.getByLabel('Question').fill('Shoe size? (E2E)');
    await question.getByLabel('Required').check();
    await question.getByRole('button', { name: 'Create question' }).click();
    await expect(question).toBeHidden();
    await expect(page.locator('.mantine-Pill-label', { hasText: 'Shoe size? (E2E)' })).toBeVisible();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Offer updated!').first()).toBeVisible();
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Cancellation policy' })).toHaveValue('Free until 48 hours before (E2E)');
  });

  test('filters the catalogue by status and search, and keeps the filters across a reload', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    await page.goto(org('demo', '/products/experiences/overview'));
    await page.getByRole('combobox', { name: 'Status filter' }).click();
    await page.getByRole('option', { name: 'Active', exact: true }).click();
    // The filter is applied (in the address) before the search is typed, as a user sees it happen.
    await expect(page).toHaveURL(/status=Active/);
    await page.getByLabel('Search offers').fill('geneva');
    await expect(page).toHaveURL(/search=geneva/);
    expect(page.url()).toContain('status=Active');
    const table = page.getByRole('table', { name: 'Offers' });
    await expect(table.getByRole('row')).toHaveCount(2); // the header and the one active Geneva tour
    await expect(table).toContainText(TITLE);
    await expect(table).not.toContainText(`${TITLE} (copy)`);
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Status filter' })).toHaveValue('Active');
    await expect(page.getByLabel('Search offers')).toHaveValue('geneva');
    await expect(page.getByRole('table', { name: 'Offers' }).getByRole('row')).toHaveCount(2);
    // The export holds what the list shows: the one active Geneva tour.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^offers-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    expect(rows.slice(1)).toEqual([expect.stringMatching(new RegExp(`^${TITLE},Active,`))]);
    await page.screenshot({ path: 'test-results/screenshots/catalogue.png', fullPage: true });
  });
});
