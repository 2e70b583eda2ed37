import { expect, test, type Page } from '@playwright/test';
import { call, demoKayak, KAYAK, SWIM } from './support/demo-api';
import { bare, DEMO, mailTo, org, signIn, zurichDate } from './support/helpers';

/**
 * The whole reseller journey, as the people involved do it: the demo supplier invites a travel
 * agency, which accepts; the agency puts the supplier's kayak in a store of its own from the Global
 * catalog; a customer books it there on a phone; the supplier sees the resale, the kayak's seats
 * drop by what was sold, and the statement for the agency shows its commission.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const AGENCY = { subdomain: 'harbour-travel', email: 'owner@harbour-travel.test', password: 'harbour-travel-1', name: 'Harbour Travel' };
const DAY = zurichDate(24);
const TIME = '09:30';

async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/reseller-journey-${name}${scheme === 'dark' ? '-dark' : ''}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The kayak's seats left at TIME on DAY, as the supplier's capacity counts them. */
async function seatsLeft(page: Page) {
  const kayak = await demoKayak(page);
  const slots = await call<{ local_time: string; remaining: number }[]>(page, 'GET', `bookings/check-availability/?experience=${kayak.id}&date=${DAY}`);
  return slots.find((s) => s.local_time === TIME)!.remaining;
}

test.describe.serial('a reseller’s journey: invited, selling the supplier’s offer in its own store, settled', () => {
  let seatsBefore = 0;
  let reference = '';

  test('the supplier invites the agency, shares the kayak at 10 % commission, and the agency accepts', async ({ page }) => {
    const res = await page.request.post(bare('/api/users/register/'), {
      headers: { origin: bare() },
      data: { email: AGENCY.email, password: AGENCY.password, first_name: 'Hana', last_name: 'Harbour', organisation_name: AGENCY.name, kind: 'affiliate', subdomain: AGENCY.subdomain, currency: 'CHF', time_zone: 'Europe/Zurich' },
    });
    expect(res.status(), await res.text()).toBe(201);
    const { link } = await mailTo(AGENCY.email, /Activate/);
    await page.goto(link);
    await expect(page.getByText('Your account is active')).toBeVisible();

    await signIn(page, DEMO.email, DEMO.password, 'demo');
    seatsBefore = await seatsLeft(page);
    await page.goto(org('demo', '/sales/partners'));
    await page.getByRole('button', { name: 'Invite partner' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite partner' });
    await dialog.getByRole('textbox', { name: 'Subdomain' }).fill(AGENCY.subdomain);
    await dialog.getByLabel('Commission').fill('10');
    // The customer pays on site, to the supplier: the supplier collects.
    await dialog.getByRole('combobox', { name: 'Payment' }).click();
    await page.getByRole('option', { name: 'The supplier collects' }).click();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${AGENCY.subdomain}.`)).toBeVisible();
    await page.getByRole('checkbox', { name: KAYAK }).check();
    await page.getByRole('button', { name: 'Save contract' }).click();
    await expect(page.getByText('Contract saved.')).toBeVisible();

    await page.context().clearCookies();
    await signIn(page, AGENCY.email, AGENCY.password, AGENCY.subdomain);
    await page.goto(org(AGENCY.subdomain, '/sales/partners'));
    await page.getByRole('tab', { name: 'Suppliers' }).click();
    await page.getByRole('row', { name: /Alpine Trails & Tours/ }).getByRole('link').click();
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByText('Partnership accepted.')).toBeVisible();
    await expect(page.getByTestId('shared-offer')).toHaveText([KAYAK]);
  });

  test('the agency adds the kayak to a store of its own, and a customer books it there on a phone', async ({ page, browser }) => {
    await signIn(page, AGENCY.email, AGENCY.password, AGENCY.subdomain);
    await page.goto(org(AGENCY.subdomain, '/sales/stores'));
    await page.getByRole('button', { name: 'Create store' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create store' });
    await dialog.getByLabel('Name').fill('Harbour shop');
    await expect(dialog.getByLabel('Address')).toHaveValue('harbour-shop');
    await dialog.getByRole('button', { name: 'Create store' }).click();
    await expect(page.getByText('Store created', { exact: true })).toBeVisible();

    // The Global catalog offers the supplier's shared kayak, marked as the partner's.
    await page.getByRole('tab', { name: 'Global catalog' }).click();
    const offer = page.getByTestId('eligible-offer').filter({ hasText: KAYAK });
    await expect(offer).toContainText('Partner: Alpine Trails & Tours');
    await shots(page, 'global-catalog');
    await offer.getByRole('button', { name: `Add ${KAYAK}` }).click();
    await expect(page.getByText('1 offer added to the store.')).toBeVisible();
    await page.getByRole('tab', { name: 'Products' }).click();
    await expect(page.getByTestId('store-offer')).toHaveCount(1);
    await expect(page.getByTestId('store-offer')).toContainText('Resold for Alpine Trails & Tours');

    // A customer, on the agency's host and a phone.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const customer = await phone.newPage();
    await customer.goto(org(AGENCY.subdomain, '/s/harbour-shop/'));
    await expect(customer.getByRole('heading', { name: 'Harbour shop', level: 1 })).toBeVisible();
    await customer.getByRole('link', { name: new RegExp(KAYAK) }).click();
    await expect(customer.getByRole('heading', { name: KAYAK, level: 1 })).toBeVisible();
    await expect(customer.getByText('Operated by Alpine Trails & Tours')).toBeVisible();
    const day = customer.locator(`a[data-date="${DAY}"]`);
    for (let i = 0; i < 3 && !(await customer.locator(`[data-date="${DAY}"]`).isVisible()); i += 1) await customer.getByRole('link', { name: 'Next month' }).click();
    await day.click();
    await customer.getByRole('radio', { name: new RegExp(`^${TIME}`) }).check();
    const more = customer.getByRole('button', { name: 'More: Adult', exact: true });
    await more.click();
    await more.click();
    await expect(customer.getByTestId('offer-total')).toHaveText(/CHF\s178\.00/);
    await customer.getByRole('button', { name: 'Hold seats' }).click();
    await expect(customer.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
    await expect(customer.getByTestId('cart-line')).toContainText('2 × Adult');
    await expect(customer.getByText('You book this with Alpine Trails & Tours, who runs it; you pay on site.')).toBeVisible();
    await customer.getByLabel('First name').fill('Nora');
    await customer.getByLabel('Last name').fill('Harbourside');
    await customer.getByLabel('E-mail').fill('nora.harbourside@example.com');
    await customer.getByRole('group', { name: SWIM }).getByLabel('Yes').check();
    await customer.getByRole('checkbox', { name: /I accept the terms/ }).check();
    await shots(customer, 'checkout');
    await customer.getByRole('button', { name: 'Book', exact: true }).click();
    await expect(customer.getByRole('heading', { name: 'Thank you, Nora!' })).toBeVisible();
    reference = decodeURIComponent(customer.url().split('/').pop()!);
    await expect(customer.getByRole('link', { name: 'See or cancel your booking' })).toHaveAttribute('href', new RegExp(`/s/harbour-shop/booking/${reference}#.+`));
    const { mail } = await mailTo('nora.harbourside@example.com', /Your booking/);
    expect(mail.text).toContain(reference);
    await phone.close();
  });

  test('the supplier sees the resale and the seats drop; the statement shows the agency’s commission', async ({ page }) => {
    await signIn(page, DEMO.email, DEMO.password, 'demo');
    expect(await seatsLeft(page)).toBe(seatsBefore - 2);
    await page.goto(org('demo', '/resales/overview'));
    await page.getByRole('combobox', { name: 'Partner' }).click();
    await page.getByRole('option', { name: AGENCY.name }).click();
    const row = page.getByTestId('resale-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(reference);
    await expect(row).toContainText('Harbour shop');
    await shots(page, 'supplier-resales');

    await page.getByRole('tab', { name: 'Settlements' }).click();
    await page.getByRole('button', { name: 'New statement' }).click();
    const dialog = page.getByRole('dialog', { name: 'New statement' });
    await dialog.getByRole('combobox', { name: /^Partner/ }).click();
    await page.getByRole('option', { name: AGENCY.name }).click();
    await dialog.getByLabel('From').fill(zurichDate(0));
    await dialog.getByLabel('To').fill(zurichDate(30));
    await dialog.getByLabel('To').press('Tab');
    await dialog.getByRole('button', { name: 'Make statement' }).click();
    await expect(page.getByRole('heading', { name: /^Statement STL-\d{4}-\d{5}$/ })).toBeVisible();
    await expect(page.getByTestId('statement-line')).toHaveCount(1);
    await expect(page.getByTestId('statement-line')).toContainText(reference);
    // 10 % of CHF 178.00; the supplier collected on site, so it owes the agency its commission.
    await expect(page.getByTestId('statement-line')).toContainText(/CHF\s17\.80/);
    await expect(page.getByTestId('statement-line')).toContainText(/CHF\s160\.20/);
    await expect(page.getByTestId('owed')).toContainText('Alpine Trails & Tours owes Harbour Travel');
    await shots(page, 'statement');
  });
});

test('the demo agency sells the supplier’s kayak at its own counter: booked from the supplier’s seats, "Resale completed!"', async ({ page }) => {
  const day = zurichDate(26);
  await signIn(page, DEMO.email, DEMO.password, 'demo');
  const kayak = await demoKayak(page);
  const left = async () => (await call<{ local_time: string; remaining: number }[]>(page, 'GET', `bookings/check-availability/?experience=${kayak.id}&date=${day}`)).find((s) => s.local_time === TIME)!.remaining;
  const before = await left();

  const agency = await page.context().browser()!.newPage();
  await signIn(agency, 'owner@alpine-agency.tourdesk.test', DEMO.password, 'alpine-agency');
  await agency.goto(org('alpine-agency', '/bookings/checkout-editor'));
  await agency.getByRole('combobox', { name: 'Offer' }).click();
  await agency.getByRole('option', { name: `${KAYAK} · Alpine Trails & Tours` }).click();
  await expect(agency.getByText('Operated by Alpine Trails & Tours')).toBeVisible();
  if (day.slice(0, 7) !== zurichDate(0).slice(0, 7)) await agency.getByRole('button', { name: 'Next month' }).click();
  await agency.getByRole('button', { name: day, exact: true }).click();
  await agency.getByLabel('Times').getByRole('button', { name: new RegExp(`^${TIME}`) }).click();
  const form = agency.getByLabel('Partner sale');
  await form.getByLabel('Adult quantity').fill('2');
  await form.getByLabel('Customer e-mail').fill('walk.in.agency@example.com');
  await form.getByLabel('First name').fill('Petra');
  await form.getByLabel('Last name').fill('Passant');
  await form.getByLabel('Your reference').fill('Desk 3');
  await form.getByRole('radiogroup', { name: SWIM }).getByRole('radio', { name: 'Yes', exact: true }).check();
  await agency.screenshot({ path: `${SHOTS}/reseller-counter.png`, fullPage: true });
  await form.getByRole('button', { name: 'Book with Alpine Trails & Tours' }).click();
  await expect(agency.getByText('Resale completed!').first()).toBeVisible();
  await expect(agency.getByTestId('resale-completed')).toContainText('Petra Passant booked with Alpine Trails & Tours');
  await agency.getByTestId('resale-completed').getByRole('link', { name: 'Open the resale' }).click();
  await expect(agency).toHaveURL(/\/resales\/overview\/[0-9a-f-]+$/);
  await expect(agency.getByText('Desk 3')).toBeVisible();
  await agency.close();

  // The supplier's seats dropped by two: one pool for every channel.
  expect(await left()).toBe(before - 2);
});
