import { expect, type Page } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { zurichDate } from './helpers';

/**
 * The demo organisation's API as the signed-in user, for specs that prepare data without the UI.
 * Calls are made by the page itself (Node cannot resolve *.localhost; Chromium can). The access
 * token lives 4 seconds in these tests, so the session is refreshed first, with the same cookies
 * the app uses.
 */
export async function call<T>(page: Page, method: 'GET' | 'POST' | 'PATCH', path: string, data?: unknown): Promise<T> {
  const res = await page.evaluate(
    async ({ method, path, data }) => {
      await fetch('/api/jwt/refresh/', { method: 'POST', credentials: 'include' });
      const r = await fetch(`/api/${path}`, {
        method,
        credentials: 'include',
        headers: data === undefined ? {} : { 'content-type': 'application/json' },
        body: data === undefined ? undefined : JSON.stringify(data),
      });
      return { ok: r.ok, status: r.status, text: await r.text() };
    },
    { method, path, data },
  );
  expect(res.ok, `${method} ${path}: ${res.status} ${res.text}`).toBeTruthy();
  return JSON.parse(res.text) as T;
}

export const KAYAK = 'Sunrise Kayak on Lake Lucerne';
export const SWIM = 'Can everyone in the group swim?';

/** The demo kayak tour with the ids an order needs: its Adult category and its required swim question. */
export async function demoKayak(page: Page) {
  const offers = await call<{ results: { id: string; title: string }[] }>(page, 'GET', `experiences/?search=${encodeURIComponent('Sunrise Kayak')}`);
  const categories = await call<{ results: { id: string; label: string }[] }>(page, 'GET', 'pricing-categories/?page_size=50');
  const questions = await call<{ results: { id: string; question: string }[] }>(page, 'GET', 'booking-questions/?page_size=50');
  return {
    id: offers.results.find((o) => o.title === KAYAK)!.id,
    adult: categories.results.find((c) => c.label === 'Adult')!.id,
    swim: questions.results.find((q) => q.question === SWIM)!.id,
  };
}

export interface Slot {
  id: string;
  local_date: string;
  local_time: string;
  remaining: number;
}

/** The kayak's 09:30 slot `days` ahead. */
export async function kayakSlot(page: Page, experience: string, days: number): Promise<Slot> {
  const date = zurichDate(days);
  const slots = await call<Slot[]>(page, 'GET', `bookings/check-availability/?experience=${experience}&from=${date}&to=${date}`);
  const slot = slots.find((s) => s.local_time === '09:30');
  expect(slot, `a 09:30 slot on ${date}`).toBeTruthy();
  return slot!;
}

/**
 * What the store's checkout page sends as X-Altcha with a pay-on-site order (apps/store/src/lib/
 * challenge.ts): the store's proof-of-work challenge, fetched by the page and solved here, for specs
 * that place web-store orders through the store's API.
 */
export async function solvedChallenge(page: Page, slug: string) {
  const challenge = await page.evaluate(async (slug) => (await fetch(`/api/web-stores/${slug}/challenge/`)).json(), slug);
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/**
 * An offer of the demo's own, on sale (Active: an offer on sale has an image, drawn by the page and
 * uploaded as the editor does): the demo's Adult category at 65.00, one departure a day at `time`
 * with `capacity` seats on the days given. For specs whose figures no other spec may move.
 */
export async function ownOffer(page: Page, title: string, p: { time: string; capacity: number; from: string; to: string }) {
  const offer = await call<{ id: string }>(page, 'POST', 'experiences/', { title, type: 'Ticket & Passes', short_description: 'A tour of its own.', long_description: '<p>A tour made by a test.</p>' });
  const categories = await call<{ results: { id: string; label: string }[] }>(page, 'GET', 'pricing-categories/?page_size=50');
  const adult = categories.results.find((c) => c.label === 'Adult')!.id;
  await call(page, 'POST', 'pricing-rates/', { experience: offer.id, pricing_category: adult, retail_price: 6500 });
  await call(page, 'POST', 'schedule-rules/', { experience: offer.id, valid_from: p.from, valid_to: p.to, start_times: [p.time], capacity: p.capacity });
  const image = await call<{ upload_url: string }>(page, 'POST', 'images/', { original_name: 'tour.png', experience: offer.id });
  const uploaded = await page.evaluate(async (url) => {
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
  await call(page, 'PATCH', `experiences/${offer.id}/`, { status: 'Active' });
  return { id: offer.id, adult };
}
