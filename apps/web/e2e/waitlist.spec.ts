import { devices, expect, test } from '@playwright/test';
import { call } from './support/demo-api';
import { DEMO, mailTo, org, signIn, zurichDate } from './support/helpers';

/**
 * A departure's waiting list (issue 32), end to end: a customer on a phone finds a full departure in
 * the store and joins its list; staff cancel the booking that filled it in the back office; the
 * seat is held for the customer, the departure's page shows the offer, and the e-mail's link opens
 * the store's checkout with the seat in the cart; the customer books it and the list says booked.
 * Its own offer, store and departure (made through the API here), so no other spec's figures move.
 */
const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 7'];

test('a customer joins a full departure’s waiting list on a phone and books the seat a cancellation frees', async ({ browser }) => {
  const stamp = Date.now();
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, DEMO.email, DEMO.password, 'demo');

  // One offer with one seat a day, sold in a store of its own.
  const title = `Waiting-list glacier walk ${stamp}`;
  const offer = await call<{ id: string }>(staff, 'POST', 'experiences/', { title, type: 'Ticket & Passes', short_description: 'One seat a day.', long_description: '<p>A walk on the ice.</p>' });
  const categories = await call<{ results: { id: string; label: string }[] }>(staff, 'GET', 'pricing-categories/?page_size=50');
  const adult = categories.results.find((c) => c.label === 'Adult')!.id;
  await call(staff, 'POST', 'pricing-rates/', { experience: offer.id, pricing_category: adult, retail_price: 6500 });
  await call(staff, 'POST', 'schedule-rules/', { experience: offer.id, valid_from: zurichDate(0), start_times: ['10:00'], capacity: 1 });
  // An offer on sale has an image: a picture drawn by the page, uploaded as the editor does.
  const image = await call<{ upload_url: string }>(staff, 'POST', 'images/', { original_name: 'glacier.png', experience: offer.id });
  const uploaded = await staff.evaluate(async (url) => {
    const canvas = document.createElement('canvas');
    canvas.width = 800;
    canvas.height = 500;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#7fb3d5';
    g.fillRect(0, 0, 800, 500);
    g.fillStyle = '#ffffff';
    g.fillRect(100, 250, 600, 200);
    const png = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    await fetch('/api/jwt/refresh/', { method: 'POST', credentials: 'include' });
    return (await fetch(url, { method: 'PATCH', credentials: 'include', headers: { 'content-type': 'application/octet-stream' }, body: png })).status;
  }, image.upload_url);
  expect(uploaded).toBe(200);
  await call(staff, 'PATCH', `experiences/${offer.id}/`, { status: 'Active' });
  const slug = `wait-${stamp}`;
  const shop = await call<{ id: string }>(staff, 'POST', 'stores/', { name: 'Glacier walks', slug });
  const added = await staff.evaluate(
    async ({ store, offer }) =>
      (await fetch(`/api/stores/${store}/add-experience/`, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ experiences: [offer] }) })).status,
    { store: shop.id, offer: offer.id },
  );
  expect(added).toBeLessThan(300);
  const date = zurichDate(4);
  const [slot] = await call<{ id: string; local_time: string }[]>(staff, 'GET', `bookings/check-availability/?experience=${offer.id}&from=${date}&to=${date}`);
  // The one seat sold at the counter.
  const sold = await call<{ id: string; reference: string }>(staff, 'POST', 'orders/', { customer: { email: `walker.${stamp}@example.com`, first_name: 'Walt', last_name: 'Walker' }, lines: [{ slot: slot!.id, quantities: { [adult]: 1 } }] });

  // The customer, on a phone: the time is sold out; the store offers its waiting list.
  const phone = await browser.newContext({ ...pixel });
  const page = await phone.newPage();
  const email = `wanda.${stamp}@example.com`;
  const store = (p = '') => org('demo', `/s/${slug}/${p}`);
  await page.goto(store(`offers/${offer.id}?date=${date}`));
  await expect(page.getByRole('radio', { name: /^10:00/ })).toBeDisabled();
  const form = page.getByTestId('waitlist-form');
  await expect(form.getByRole('heading', { name: 'Sold out? Join the waiting list' })).toBeVisible();
  await form.getByLabel('Your name').fill('Wanda Waits');
  await form.getByLabel('E-mail').fill(email);
  await form.getByRole('button', { name: 'Join the waiting list' }).click();
  await expect(page.getByTestId('waitlist-joined')).toHaveText('You are on the waiting list (number 1). We will e-mail you when seats free up.');

  // Staff see the entry on the departure's page.
  await staff.goto(org('demo', `/bookings/manifests/${slot!.id}`));
  const list = staff.getByTestId('waitlist');
  await expect(list.getByRole('heading', { name: 'Waiting list' })).toBeVisible();
  const entry = list.getByTestId('waitlist-entry');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('Wanda Waits');
  await expect(entry).toContainText('Waiting');

  // Staff cancel the counter booking in the back office: the seat goes to Wanda, held for her.
  await staff.goto(org('demo', `/orders/editor/${sold.id}/details`));
  await staff.getByRole('button', { name: 'Cancel order' }).click();
  await staff.getByRole('dialog', { name: `Cancel order ${sold.reference}?` }).getByRole('button', { name: 'Cancel order' }).click();
  await expect(staff.getByText(`Order ${sold.reference} canceled: its seats are free again.`)).toBeVisible();
  await staff.goto(org('demo', `/bookings/manifests/${slot!.id}`));
  await expect(staff.getByTestId('waitlist-entry')).toContainText(/Offered until/);
  await expect(staff.getByTestId('waitlist')).toContainText('No seats free');

  // Her e-mail has the link; it opens the store's checkout with the seat in her cart.
  const { link, mail } = await mailTo(email, /^Seats for you: Waiting-list glacier walk/);
  expect(mail.text).toContain('1 seat of');
  expect(link).toContain(`/s/${slug}/checkout#waitlist=`);
  await page.goto(link);
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-line')).toContainText(title);
  // The secret left the address.
  await expect(page).toHaveURL(store('checkout'));
  await page.getByLabel('First name').fill('Wanda');
  await page.getByLabel('Last name').fill('Waits');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('checkbox', { name: /I accept the terms/ }).check();
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Thank you, Wanda!' })).toBeVisible();
  const reference = decodeURIComponent(page.url().split('/').pop()!);

  // The list says she booked, with her order.
  await staff.reload();
  await expect(staff.getByTestId('waitlist-entry')).toContainText(`Booked (${reference})`);
  await staffContext.close();
  await phone.close();
});
