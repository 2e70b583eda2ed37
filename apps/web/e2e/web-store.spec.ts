import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { call, KAYAK, SWIM } from './support/demo-api';
import { DEMO, mailTo, org, signIn, zurichDate } from './support/helpers';

/**
 * The public web store (apps/store) as a customer uses it on a phone: the store page, the kayak
 * offer, a day and a time, two adults held with a countdown, details and answers, the terms, the
 * booking and its confirmation; the confirmation e-mail with the ticket code, the booking page it
 * links to, and the guest checked in with that code. axe-core finds no serious or critical
 * violation on any page, light or dark; nothing is kept in a cookie; embed.js frames the store on
 * another site.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const SLUG = 'kayak';
const PHONE = { width: 390, height: 844 };
const store = (p = '') => org('demo', `/s/${SLUG}/${p}`);

test.use({ viewport: PHONE });

/** axe-core on the page as it is now, in light and dark: no serious or critical violation. */
async function accessible(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad, `${name} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Full-page screenshots, light and dark. */
async function shoot(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `${SHOTS}/web-store-${name}.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SHOTS}/web-store-${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The demo seeds the store "kayak"; should it be missing, the owner makes it with the kayak tour. */
async function ensureStore(page: Page) {
  const res = await page.goto(store());
  if (res?.status() !== 404) return;
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  const offers = await call<{ results: { id: string; title: string }[] }>(page, 'GET', `experiences/?search=${encodeURIComponent('Sunrise Kayak')}`);
  const made = await call<{ id: string }>(page, 'POST', 'stores/', { name: 'Alpine Trails online', slug: SLUG });
  await call(page, 'POST', `stores/${made.id}/add-experience/`, { experiences: [offers.results.find((o) => o.title === KAYAK)!.id] });
  await page.context().clearCookies();
  await page.goto(store());
}

/** Chooses `date` in the offer's calendar (moving on months as needed) and the time `time`. */
async function chooseSlot(page: Page, date: string, time: string) {
  const day = page.locator(`a[data-date="${date}"]`);
  // Each month's grid has a cell per date at once; the day's link comes with the month's seats.
  for (let i = 0; i < 3 && !(await page.locator(`[data-date="${date}"]`).isVisible()); i += 1) {
    await page.getByRole('link', { name: 'Next month' }).click();
  }
  await expect(day).toBeEnabled();
  await day.click();
  await expect(day).toHaveAttribute('aria-current', 'date');
  await page.getByRole('radio', { name: new RegExp(`^${time}`) }).check();
}

/** From the offer page: holds `adults` on `date` at `time` and lands on the checkout. */
async function hold(page: Page, date: string, time: string, adults: number) {
  await chooseSlot(page, date, time);
  const more = page.getByRole('button', { name: 'More: Adult', exact: true });
  for (let i = 0; i < adults; i += 1) await more.click();
  await expect(page.getByLabel('Adult', { exact: true })).toHaveValue(String(adults));
  await page.getByRole('button', { name: 'Hold seats' }).click();
  await expect(page).toHaveURL(store('checkout'));
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
}

/** The checkout's form, filled in. */
async function fillDetails(page: Page, customer: { first_name: string; last_name: string; email: string }) {
  await page.getByLabel('First name').fill(customer.first_name);
  await page.getByLabel('Last name').fill(customer.last_name);
  await page.getByLabel('E-mail').fill(customer.email);
  await page.getByLabel('Phone (optional)').fill('+41 79 555 12 34');
  await page.getByLabel('Country (optional)').selectOption('CH');
  await page.getByRole('group', { name: SWIM }).getByLabel('Yes').check();
  await page.getByLabel(/Any dietary requirements/).fill('One vegetarian');
  await expect(page.getByRole('radio', { name: 'Reserve now, pay on site' })).toBeChecked();
  await page.getByRole('checkbox', { name: /I accept the terms/ }).check();
}

test.describe.serial('the web store, as a customer on a phone', () => {
  test('books the kayak from the store page to the confirmation e-mail, and the guest is checked in with the ticket', async ({ page }) => {
    const customer = { first_name: 'Mia', last_name: 'Paddler', email: 'mia.paddler@example.com' };
    await ensureStore(page);

    // The store page: its name, intro and offers as cards with their "from" price.
    await expect(page.getByRole('heading', { name: 'Alpine Trails online', level: 1 })).toBeVisible();
    const card = page.getByRole('link', { name: new RegExp(KAYAK) });
    await expect(card).toContainText('from CHF');
    await expect(card).toContainText('89.00');
    await accessible(page, 'store page');
    await shoot(page, 'store');

    // The offer page: what it is, then the calendar.
    await card.click();
    await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/offers/[0-9a-f-]{36}$`));
    await expect(page.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Cancellation policy' })).toBeVisible();
    await expect(page.getByText('Full refund if you cancel at least 24 hours before the start.')).toBeVisible();
    await expect(page.getByText('Lucerne boat station, pier 3')).toBeVisible();
    await expect(page.locator('.td-day--available').first()).toBeVisible();
    await accessible(page, 'offer page');

    // A day, a time, two adults (infants noted as taking no seat), an extra not wanted: CHF 178.00.
    const date = zurichDate(16);
    await chooseSlot(page, date, '07:00');
    await expect(page.getByText('Does not take a seat')).toBeVisible();
    await page.getByRole('button', { name: 'More: Adult', exact: true }).click();
    await page.getByRole('button', { name: 'More: Adult', exact: true }).click();
    await expect(page.getByTestId('offer-total')).toHaveText(/CHF\s178\.00/);
    await accessible(page, 'offer page with a time chosen');
    await shoot(page, 'offer');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/web-store-offer-desktop.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Hold seats' }).click();

    // The checkout: the held line with its countdown.
    await expect(page).toHaveURL(store('checkout'));
    const line = page.getByTestId('cart-line');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText(KAYAK);
    await expect(line).toContainText('2 × Adult');
    await expect(page.getByTestId('countdown')).toHaveText(/^\d{1,2}:\d\d$/);
    await expect(page.getByRole('link', { name: /Cart, 1 booking held/ })).toBeVisible();
    // Booking without the details marks the fields, sends nothing.
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await expect(page.getByText('Please check the marked fields.')).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
    await fillDetails(page, customer);
    await accessible(page, 'checkout page');
    await shoot(page, 'checkout');
    await page.getByRole('button', { name: 'Book', exact: true }).click();

    // The confirmation: thanks, the order, the ticket's code, the link to the booking page.
    await expect(page.getByRole('heading', { name: 'Thank you, Mia!' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/s/${SLUG}/confirmation/[A-Z0-9-]+$`));
    const reference = decodeURIComponent(page.url().split('/').pop()!);
    await expect(page.getByTestId('confirmation-text')).toContainText(reference);
    const code = (await page.getByTestId('ticket-code').first().textContent())!.trim();
    expect(code.length).toBeGreaterThanOrEqual(6);
    await expect(page.getByRole('link', { name: 'See or cancel your booking' })).toHaveAttribute('href', new RegExp(`/s/${SLUG}/booking/${reference}#.+`));
    await accessible(page, 'confirmation page');
    await shoot(page, 'confirmation');
    // The cart is empty again.
    await expect(page.getByRole('link', { name: 'Cart, empty' })).toBeVisible();

    // The confirmation e-mail carries the ticket's code and the booking page's link.
    const { mail } = await mailTo(customer.email, /Your booking/);
    expect(mail.text).toContain(code);
    // The link says the order's language (?lang=en): the store opens in it whatever the browser's.
    const manage = mail.text.match(new RegExp(`https?://\\S+/s/${SLUG}/booking/${reference}\\?lang=en#[A-Za-z0-9_-]+`))?.[0];
    expect(manage, mail.text).toBeTruthy();

    // The booking page from the e-mail: the order, tickets as PDF, what cancelling would refund.
    await page.goto(manage!);
    await expect(page.getByRole('heading', { name: `Your booking ${reference}` })).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Confirmed');
    await expect(page.getByTestId('ticket-code').first()).toHaveText(code);
    await expect(page.getByText('Paddler (mia.paddler@example.com)')).toBeVisible();
    // Reserved to pay on site: nothing was paid, so cancelling is free (the policy's refund applies to what was paid).
    await expect(page.getByTestId('cancel-reason')).toHaveText('You can cancel free of charge: nothing has been paid yet.');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download tickets (PDF)' }).click()]);
    expect(download.suggestedFilename()).toBe(`tickets-${reference}.pdf`);
    expect(readFileSync((await download.path())!).subarray(0, 4).toString('latin1')).toBe('%PDF');
    await accessible(page, 'booking page');
    await shoot(page, 'booking');

    // At the pier: the operator scans the ticket (the door's check-in, as the demo owner); booked for a
    // later day, it is admitted with the owner's override.
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    const scan = { id: randomUUID(), ticket_code: code, scanned_at: new Date().toISOString(), override: true };
    const checked = await call<{ results: { result: string; ticket: { ticket_code: string; attendance: string; order_reference: string } }[] }>(page, 'POST', 'check-in/scans/', { device_id: 'pier', slots: [], scans: [scan] });
    expect(checked.results[0]).toMatchObject({ result: 'admitted', ticket: { ticket_code: code, attendance: 'Arrived', order_reference: reference } });
  });

  test('books normally without ever seeing a challenge: the page solves it in the background and the order carries it', async ({ browser }) => {
    const context = await browser.newContext({ viewport: PHONE });
    // Every text the page ever shows, watched from before its first script: the store's words for a
    // refused challenge or too many tries never appear, nor any challenge widget.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { challengeSeen: string[] }).challengeSeen = seen;
      const look = () => {
        const text = document.body?.innerText ?? '';
        for (const words of ['We could not check this browser', 'Too many tries', 'not a script', 'check that this is a browser']) if (text.includes(words)) seen.push(words);
        if (document.querySelector('altcha-widget, [data-altcha], iframe[src*="captcha"]')) seen.push('a challenge widget');
      };
      new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const page = await context.newPage();
    // Every answer of the store's API, and the order's request as sent.
    const answers: { url: string; status: number; codes: string[] }[] = [];
    const reading: Promise<void>[] = [];
    page.on('response', (response) => {
      if (!new URL(response.url()).pathname.startsWith('/api/web-stores/')) return;
      reading.push(
        (async () => {
          const status = response.status();
          const codes = status >= 400 ? (((await response.json().catch(() => ({}))) as { errors?: { code: string }[] }).errors ?? []).map((e) => e.code) : [];
          answers.push({ url: response.url(), status, codes });
        })(),
      );
    });
    const orders: { altcha: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/web-stores\/[^/]+\/orders\/$/.test(new URL(request.url()).pathname)) orders.push({ altcha: request.headers()['x-altcha'] });
    });

    await page.goto(store());
    await page.getByRole('link', { name: new RegExp(KAYAK) }).click();
    await expect(page.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
    await hold(page, zurichDate(19), '07:00', 1);
    await fillDetails(page, { first_name: 'Lena', last_name: 'Unchallenged', email: 'lena.unchallenged@example.com' });
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Thank you, Lena!' })).toBeVisible();
    await Promise.all(reading);

    // One order, sent once, with a solved challenge (ALTCHA's challenge and its solution) on its first try.
    expect(orders).toHaveLength(1);
    const proof = JSON.parse(Buffer.from(orders[0]!.altcha ?? '', 'base64').toString('utf8') || '{}') as { challenge?: { signature?: string }; solution?: { derivedKey?: string } };
    expect(proof.challenge?.signature, 'the order carries X-Altcha').toBeTruthy();
    expect(proof.solution).toBeTruthy();
    const ordered = answers.filter((a) => /\/orders\/$/.test(new URL(a.url).pathname));
    expect(ordered.map((a) => a.status)).toEqual([201]);
    // No call was refused for want of a challenge, none throttled; the challenge itself was fetched.
    expect(answers.filter((a) => a.status === 429 || a.codes.includes('challenge_required'))).toEqual([]);
    expect(answers.filter((a) => a.status >= 400)).toEqual([]);
    expect(answers.some((a) => new URL(a.url).pathname.endsWith('/challenge/'))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { challengeSeen: string[] }).challengeSeen)).toEqual([]);
    await context.close();
  });

  test('keeps nothing in cookies: the cart lives in the page’s storage, and the customer cancels on their booking page', async ({ browser }) => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const setCookies: string[] = [];
    page.on('response', async (response) => {
      const header = await response.headerValue('set-cookie');
      if (header) setCookies.push(`${response.url()}: ${header}`);
    });

    await page.goto(store());
    await page.getByRole('link', { name: new RegExp(KAYAK) }).click();
    await expect(page.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
    await hold(page, zurichDate(17), '07:00', 1);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await context.cookies()).toEqual([]);
    // The cart is in localStorage, per store; a reload (and cleared cookies) keeps it.
    expect(await page.evaluate((slug) => Object.keys(localStorage).filter((k) => k.includes(slug)), SLUG)).toEqual([`tourdesk.cart.${SLUG}`]);
    await context.clearCookies();
    await page.reload();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await expect(page.getByTestId('countdown')).toBeVisible();

    // A line removed and held again; then booked.
    await page.getByRole('button', { name: `Remove ${KAYAK}` }).click();
    await expect(page.getByText('Your cart is empty.')).toBeVisible();
    await page.getByRole('link', { name: 'Browse experiences' }).click();
    await page.getByRole('link', { name: new RegExp(KAYAK) }).click();
    await hold(page, zurichDate(17), '07:00', 1);
    await fillDetails(page, { first_name: 'Noah', last_name: 'Nocookie', email: 'noah.nocookie@example.com' });
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Thank you, Noah!' })).toBeVisible();

    // The booking page (same tab, the secret in the fragment): cancel, confirmed in a second step.
    await page.getByRole('link', { name: 'See or cancel your booking' }).click();
    await expect(page.getByRole('heading', { name: /^Your booking / })).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Confirmed');
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const confirm = page.getByRole('group', { name: /^Cancel booking .+\?/ });
    // Paid on site, so far nothing: nothing to refund (a paid order shows what comes back).
    await expect(confirm).toContainText('Nothing has been paid yet, so there is nothing to refund.');
    await page.getByRole('button', { name: 'Keep my booking' }).click();
    await expect(confirm).toHaveCount(0);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect(page.getByText('Your booking is cancelled.')).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Cancelled');
    await expect(page.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);

    expect(setCookies).toEqual([]);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  test('embed.js frames the store on the operator’s site, resized to its content, and opens an offer from a "Book now" button', async ({ page, browser }) => {
    // The operator's own site: another origin (a real server, so the browser sees it in the same
    // network as the store, as it would be on the internet), whose page styles every button loudly.
    const hostPage = (script: string) =>
      `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Lake adventures</title><style>button{background:red!important;font-size:40px!important} *{font-family:serif}</style></head><body><h1>Lake adventures</h1>${script}<p>Footer of the operator</p></body></html>`;
    let pages: Record<string, string> = {};
    const server = createServer((req, res) => {
      res.writeHead(pages[req.url ?? ''] ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pages[req.url ?? ''] ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const operator = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // The operator lets their site frame the store.
      await signIn(page, DEMO.email, DEMO.password, 'demo');
      const stores = await call<{ results: { id: string; slug: string; embed_origins: string[] }[] }>(page, 'GET', `stores/?search=${SLUG}`);
      const shop = stores.results.find((s) => s.slug === SLUG)!;
      await call(page, 'PATCH', `stores/${shop.id}/`, { embed_origins: [...new Set([...shop.embed_origins, operator])] });
      const offers = await call<{ results: { id: string; title: string }[] }>(page, 'GET', `experiences/?search=${encodeURIComponent('Sunrise Kayak')}`);
      const kayak = offers.results.find((o) => o.title === KAYAK)!.id;
      const script = (attrs: string) => `<script src="${org('demo', '/embed.js')}" data-store="${SLUG}" ${attrs} async></script>`;
      pages = { '/inline': hostPage(script('')), '/button': hostPage(script(`data-offer="${kayak}" data-mode="button"`)) };

      const context = await browser.newContext({ viewport: PHONE });
      const site = await context.newPage();

      // Inline: a frame of the store right after the script, as tall as its content, without the store's header.
      await site.goto(`${operator}/inline`);
      const frame = site.frameLocator('iframe[title="Book online"]');
      await expect(frame.getByRole('heading', { name: 'Alpine Trails online', level: 1 })).toBeVisible();
      await expect(frame.locator('.td-header')).toHaveCount(0);
      const iframe = site.locator('iframe[title="Book online"]');
      await expect.poll(async () => {
        const outer = await iframe.evaluate((f) => f.getBoundingClientRect().height);
        const inner = await frame.locator('.td-store').evaluate((el) => el.getBoundingClientRect().height);
        return Math.abs(outer - inner);
      }).toBeLessThanOrEqual(1);
      await site.screenshot({ path: `${SHOTS}/web-store-embed-inline.png`, fullPage: true });
      // Inside the frame, the store's links keep it framed.
      await frame.getByRole('link', { name: new RegExp(KAYAK) }).click();
      await expect(frame.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
      await expect(frame.getByRole('link', { name: /All experiences/ })).toHaveAttribute('href', `/s/${SLUG}/?embed=1`);

      // Button: a "Book now" button the page's CSS cannot restyle, opening the offer full screen.
      await site.goto(`${operator}/button`);
      const book = site.getByRole('button', { name: 'Book now' });
      await expect(book).toBeVisible();
      expect(await book.evaluate((b) => getComputedStyle(b).backgroundColor)).not.toBe('rgb(255, 0, 0)');
      expect(await book.evaluate((b) => getComputedStyle(b).fontSize)).toBe('16px');
      await book.click();
      const dialog = site.getByRole('dialog', { name: 'Book now' });
      await expect(dialog).toBeVisible();
      const overlay = site.frameLocator('dialog iframe');
      await expect(overlay.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
      await site.screenshot({ path: `${SHOTS}/web-store-embed-overlay.png` });
      // Escape closes it, even with the focus inside the frame; the focus returns to the button.
      await overlay.getByRole('link', { name: 'Next month' }).focus();
      await site.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(book).toBeFocused();
      // The close button too.
      await book.click();
      await expect(dialog).toBeVisible();
      await site.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      expect(await context.cookies()).toEqual([]);
      await context.close();
    } finally {
      server.close();
    }
  });

  test('the server draws every page with React: useful before the script runs, hydrated without a warning, then changed in place', async ({ browser }) => {
    // Without JavaScript: the store, an offer with its prices and the month's days as links, and a
    // day's times drawn by the server from ?date=.
    const still = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const plain = await still.newPage();
    await plain.goto(store());
    await expect(plain.getByRole('heading', { name: 'Alpine Trails online', level: 1 })).toBeVisible();
    await expect(plain.getByRole('link', { name: new RegExp(KAYAK) })).toContainText('from CHF');
    expect(await plain.locator('script[type="application/ld+json"]').textContent()).toContain('"ItemList"');
    await plain.getByRole('link', { name: new RegExp(KAYAK) }).click();
    await expect(plain.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
    await expect(plain).toHaveTitle(`${KAYAK} | Alpine Trails online`);
    expect(await plain.locator('link[rel="canonical"]').getAttribute('href')).toMatch(new RegExp(`/s/${SLUG}/offers/[0-9a-f-]{36}$`));
    expect(await plain.locator('script[type="application/ld+json"]').textContent()).toContain('"lowPrice":"89.00"');
    const date = zurichDate(16);
    const day = plain.locator(`a[data-date="${date}"]`);
    if (!(await plain.locator(`[data-date="${date}"]`).isVisible())) await plain.getByRole('link', { name: 'Next month' }).click();
    await day.click();
    await expect(plain).toHaveURL(new RegExp(`\\?date=${date}$`));
    await expect(plain.locator(`a[data-date="${date}"]`)).toHaveAttribute('aria-current', 'date');
    await expect(plain.getByRole('radio', { name: /^07:00/ })).toBeVisible();
    await still.close();

    // With JavaScript: no console error or warning on any page (a hydration mismatch is one), and
    // the first drawing is the server's (nothing asked again for it).
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const said: string[] = [];
    page.on('console', (m) => {
      if ((m.type() === 'error' || m.type() === 'warning') && !/status of 404/.test(m.text())) said.push(`${page.url()}: ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => said.push(`${page.url()}: ${e.message}`));
    const asked: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/web-stores\/[^/]+\/(experiences|$)/.test(new URL(r.url()).pathname)) asked.push(new URL(r.url()).pathname);
    });
    const hydrated = async () => {
      await page.waitForLoadState('networkidle');
      // Hydrated: React has attached its handlers to the drawn elements.
      await expect.poll(() => page.evaluate(() => Object.keys(document.querySelector('.td-store') ?? {}).some((k) => k.startsWith('__react')))).toBe(true);
    };
    await page.goto(store());
    await hydrated();
    const offer = await page.getByRole('link', { name: new RegExp(KAYAK) }).getAttribute('href');
    for (const path of ['', `${offer!.split('/').pop()}`, `${offer!.split('/').pop()}?date=${date}`, 'checkout', 'booking/TD-NONE#secret', 'no-such-page'].map((p, i) => (i === 1 || i === 2 ? `offers/${p}` : p))) {
      await page.goto(store(path));
      await hydrated();
    }
    expect(said).toEqual([]);
    expect(asked).toEqual([]);

    // Store pages change in place: the offer from the store page, a day of its calendar.
    await page.goto(store());
    await hydrated();
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByRole('link', { name: new RegExp(KAYAK) }).click();
    await expect(page.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(`${KAYAK} | Alpine Trails online`);
    const inPage = page.locator(`a[data-date="${date}"]`);
    if (!(await page.locator(`[data-date="${date}"]`).isVisible())) await page.getByRole('link', { name: 'Next month' }).click();
    await inPage.click();
    await expect(page).toHaveURL(new RegExp(`\\?date=${date}$`));
    await expect(page.getByRole('radio', { name: /^07:00/ })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

    // A page whose code cannot be fetched (the network, a new version deployed) says so, the store stays.
    await page.goto(store());
    await hydrated();
    await page.route(/\/s-assets\/assets\/CheckoutPage-[^/]+\.js$/, (route) => route.abort());
    await page.getByRole('link', { name: /^Cart/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This page could not be loaded.' })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Cart/ })).toBeVisible();
    await page.unroute(/\/s-assets\/assets\/CheckoutPage-[^/]+\.js$/);
    said.length = 0;

    // The check can fail: a page whose drawing differs from what the browser draws is reported.
    const drawn = await page.evaluate(async (url) => (await fetch(url)).text(), store());
    expect(drawn).toContain('>Alpine Trails online</h1>');
    await page.route(store(), (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: drawn.replace('>Alpine Trails online</h1>', '>Another name</h1>') }));
    await page.goto(store());
    await page.waitForLoadState('networkidle');
    await expect.poll(() => said.length).toBeGreaterThan(0);
    await context.close();
  });
});
