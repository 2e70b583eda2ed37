import { expect, test, type Page } from '@playwright/test';
import ICAL from 'ical.js';
import { expectNoSeriousA11yViolationsInBothSchemes } from './support/a11y';
import { KAYAK } from './support/demo-api';
import { DEMO, org, signIn } from './support/helpers';

/**
 * "A feed URL opens as a valid calendar" (issue 31): the demo owner's Profile shows their calendar
 * feed's private address; fetched as a calendar app does (no cookie), it is a calendar that ical.js
 * parses, with the demo's booked departures; "Reset link" makes a new address, and the old one
 * answers 404.
 */
async function fetchFeed(page: Page, url: string) {
  // The page fetches (Node cannot resolve *.localhost; Chromium can), without the session's cookies.
  return page.evaluate(async (u) => {
    const r = await fetch(u, { credentials: 'omit' });
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  }, url);
}

test('the Profile’s calendar feed opens as a valid calendar of the demo’s departures, and a reset link stops the old one', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: org('demo') });
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  await page.goto(org('demo', '/profile'));
  const card = page.locator('[aria-label="Calendar feed"]');
  await expect(card.getByText('Feed address')).toBeVisible();
  const shown = page.getByTestId('calendar-feed-url');
  const url = (await shown.textContent())!.trim();
  expect(url).toMatch(new RegExp(`^${org('demo', '/api/calendar-feeds/')}[0-9a-f-]{36}\\.[0-9a-f]{16}\\.[\\w-]{43}/departures\\.ics$`));
  await card.getByRole('button', { name: 'Copy the feed address' }).click();
  await expect(card.getByRole('button', { name: 'Copy the feed address' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expectNoSeriousA11yViolationsInBothSchemes(page, 'the profile with its calendar feed');
  // Apple's subscription link is the same address as webcal://.
  await expect(card.getByRole('link', { name: 'Apple Calendar (webcal)' })).toHaveAttribute('href', url.replace(/^http:/, 'webcal:'));

  const feed = await fetchFeed(page, url);
  expect(feed.status).toBe(200);
  expect(feed.type).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(feed.text));
  const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  expect(events.length).toBeGreaterThan(0);
  const kayak = events.filter((e) => e.summary === KAYAK);
  expect(kayak.length).toBeGreaterThan(0);
  for (const e of kayak) {
    expect(e.uid).toMatch(/^departure-[0-9a-f-]{36}@/);
    expect(e.startDate.isDate).toBe(false);
    expect(e.endDate.compare(e.startDate)).toBe(1);
    expect(e.description).toMatch(/^Seats booked: \d+ of \d+\nManifest: /);
    expect(e.component.getFirstPropertyValue('url')).toBe(org('demo', `/bookings/manifests/${e.uid.slice('departure-'.length, 'departure-'.length + 36)}`));
  }

  await card.getByRole('button', { name: 'Reset link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset the calendar link?' });
  await dialog.getByRole('button', { name: 'Reset link' }).click();
  await expect(page.getByText('New calendar link made. The old one no longer works.')).toBeVisible();
  await expect(shown).not.toHaveText(url);
  const renewed = (await shown.textContent())!.trim();
  expect((await fetchFeed(page, url)).status).toBe(404);
  const again = await fetchFeed(page, renewed);
  expect(again.status).toBe(200);
  expect(new ICAL.Component(ICAL.parse(again.text)).getAllSubcomponents('vevent').length).toBe(events.length);

  // An Owner turns a member's feed off from Team (here their own): the address answers 404.
  await page.goto(org('demo', '/settings/team/members'));
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: `Actions for ${DEMO.email}` }).click();
  await page.getByRole('menuitem', { name: 'Turn off calendar feed' }).click();
  await expect(page.getByText(`Calendar feed of ${DEMO.email} turned off.`)).toBeVisible();
  expect((await fetchFeed(page, renewed)).status).toBe(404);
  // The profile offers to make one again.
  await page.goto(org('demo', '/profile'));
  await expect(card.getByText('You have no calendar feed yet.')).toBeVisible();
  await card.getByRole('button', { name: 'Create calendar feed' }).click();
  await expect(shown).toBeVisible();
  expect((await fetchFeed(page, (await shown.textContent())!.trim())).status).toBe(200);
});
