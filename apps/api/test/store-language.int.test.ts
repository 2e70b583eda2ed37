import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebCart, ZWebOrder } from '@tourdesk/contracts';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * The web store's languages (issue 30): the address carries the language (the organisation's first
 * unprefixed, each other under /{lang}/, an unsold one a 404), a first visit goes to its browser's
 * language and a choice is kept in a cookie; hreflang alternates on every page and in the sitemap;
 * the guest cart keeps its customer's language through a switch, and the web order takes it.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let tour: { id: string; category: string };
const ZONE = 'Europe/Zurich';
const ORIGIN = 'http://polystore.localhost:3000';
const api = '/api/web-stores/poly';
const day = () => addDays(todayIn(ZONE), 6);
/** A new visitor (its own cookies), with its browser's language. */
const visitor = () => new Browser(t.app, 'polystore.localhost');

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'polystore', currency: 'CHF', time_zone: ZONE });
  // English first (the unprefixed address), then German and French; not Italian or Spanish.
  expect((await owner.patch('/api/product-configuration/', { languages: ['en', 'de', 'fr'] })).statusCode).toBe(200);
  tour = await sellableExperience(owner, 'Lake tour');
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active', translations: { de: { title: 'Seerundfahrt' } } })).statusCode).toBe(200);
  const store = (await owner.post('/api/stores/', { name: 'Poly shop', slug: 'poly' })).json().id;
  await owner.post(`/api/stores/${store}/add-experience/`, { experiences: [tour.id] });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('the web store’s addresses per language', () => {
  it('sends a first visit to its browser’s language (302, Vary), serves the default unprefixed, and refuses a language the organisation does not sell', async () => {
    const german = await visitor().get('/s/poly/offers/' + tour.id + '?date=' + day(), { 'accept-language': 'de-CH,de;q=0.9,en;q=0.5' });
    expect(german.statusCode).toBe(302);
    expect(german.headers.location).toBe(`/s/poly/de/offers/${tour.id}?date=${day()}`);
    expect(String(german.headers.vary)).toContain('Accept-Language');
    // Negotiated, not chosen: nothing is remembered.
    expect(german.headers['set-cookie']).toBeUndefined();

    const english = await visitor().get('/s/poly/', { 'accept-language': 'en-US,en;q=0.9' });
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain('<html lang="en">');
    expect(String(english.headers.vary)).toContain('Accept-Language');
    // A language the store does not sell falls back to its first.
    expect((await visitor().get('/s/poly/', { 'accept-language': 'it' })).statusCode).toBe(200);

    expect((await visitor().get('/s/poly/it/')).statusCode).toBe(404);
    expect((await visitor().get(`/s/poly/es/offers/${tour.id}`)).statusCode).toBe(404);
    // The default language has one address, the unprefixed one.
    const prefixedDefault = await visitor().get(`/s/poly/en/offers/${tour.id}`);
    expect(prefixedDefault.statusCode).toBe(302);
    expect(prefixedDefault.headers.location).toBe(`/s/poly/offers/${tour.id}`);
    // The pseudo-locale is a translator's aid, off unless the server is started with it.
    expect((await visitor().get('/s/poly/en-XA/')).statusCode).toBe(404);
  });

  it('draws a language’s page in it: <html lang>, its catalog, localized content, links within it, hreflang alternates and x-default', async () => {
    const page = await visitor().get(`/s/poly/de/offers/${tour.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-language']).toBe('de');
    const html = page.body;
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Seerundfahrt');
    expect(html).toContain('Alle Erlebnisse');
    expect(html).toContain('Stornierungsbedingungen');
    expect(html).not.toContain('All experiences');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/s/poly/de/offers/${tour.id}"/>`);
    for (const [lang, href] of [
      ['en', `${ORIGIN}/s/poly/offers/${tour.id}`],
      ['de', `${ORIGIN}/s/poly/de/offers/${tour.id}`],
      ['fr', `${ORIGIN}/s/poly/fr/offers/${tour.id}`],
      ['x-default', `${ORIGIN}/s/poly/offers/${tour.id}`],
    ]) {
      expect(html).toContain(`<link rel="alternate" hrefLang="${lang}" href="${href}"/>`);
    }
    expect(html).not.toContain('hrefLang="it"');
    // The switch: a real link per language, the current one marked.
    expect(html).toMatch(/<a href="\/s\/poly\/offers\/[^"]+\?lang=en" hrefLang="en" lang="en">English<\/a>/);
    expect(html).toMatch(/<a href="\/s\/poly\/fr\/offers\/[^"]+" hrefLang="fr" lang="fr">Français<\/a>/);
    expect(html).toMatch(/<a href="\/s\/poly\/de\/offers\/[^"]+" hrefLang="de" lang="de" aria-current="true">Deutsch<\/a>/);
    // The store's links stay in German; the JSON-LD names the German page.
    expect(html).toContain('href="/s/poly/de/checkout"');
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!);
    expect(ld).toMatchObject({ '@type': 'Product', name: 'Seerundfahrt', url: `${ORIGIN}/s/poly/de/offers/${tour.id}` });
    // The page's catalog, parsed, for the browser (which has no parser): German only.
    const messages = JSON.parse(/<script type="application\/json" id="td-messages">(.*?)<\/script>/.exec(html)![1]!);
    expect(messages.backToStore).toEqual([{ type: 0, value: 'Alle Erlebnisse' }]);
    // The customer's own pages too (noindex); never a page that does not exist.
    const checkout = (await visitor().get('/s/poly/fr/checkout')).body;
    expect(checkout).toContain(`<link rel="alternate" hrefLang="de" href="${ORIGIN}/s/poly/de/checkout"/>`);
    expect(checkout).toContain('<meta name="robots" content="noindex"/>');
    expect((await visitor().get('/s/poly/fr/nowhere')).body).not.toContain('rel="alternate"');
    const preload = JSON.parse(/<script type="application\/json" id="td-preload">(.*?)<\/script>/.exec(html)![1]!);
    expect(preload).toMatchObject({ language: 'de', base: '/s/poly/de/', languages: ['en', 'de', 'fr'] });
  });

  it('remembers a choice in a cookie, so the browser’s language no longer sends the customer away from it', async () => {
    const browser = visitor();
    // A visit to a language's address is a choice.
    const french = await browser.get('/s/poly/fr/', { 'accept-language': 'de' });
    expect(french.statusCode).toBe(200);
    expect(String(french.headers['set-cookie'])).toMatch(/^td_lang=fr; Path=\/s\/poly\/; Max-Age=\d+; SameSite=Lax/);
    expect(browser.cookie('td_lang')).toBe('fr');
    const back = await browser.get('/s/poly/checkout', { 'accept-language': 'de' });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/s/poly/fr/checkout');
    // The switch's link to the default language (?lang=en) keeps English, and then English stays.
    const english = await browser.get(`/s/poly/offers/${tour.id}?lang=en&date=${day()}`, { 'accept-language': 'de' });
    expect(english.statusCode).toBe(302);
    expect(english.headers.location).toBe(`/s/poly/offers/${tour.id}?date=${day()}`);
    expect(browser.cookie('td_lang')).toBe('en');
    const stays = await browser.get(`/s/poly/offers/${tour.id}`, { 'accept-language': 'de' });
    expect(stays.statusCode).toBe(200);
    expect(stays.body).toContain('<html lang="en">');
    // In a frame (embed.js asks for its site's language) the language is the site's, never remembered.
    const framed = visitor();
    const embedded = await framed.get('/s/poly/?embed=1&lang=de');
    expect(embedded.headers.location).toBe('/s/poly/de/?embed=1');
    expect((await framed.get('/s/poly/de/?embed=1')).statusCode).toBe(200);
    expect(framed.cookie('td_lang')).toBeUndefined();
    // A language asked for that the store does not sell is its default.
    const unsold = await visitor().get('/s/poly/?lang=it');
    expect(unsold.headers.location).toBe('/s/poly/');
  });

  it('shows the times by the organisation’s 12/24-hour setting, in every language', async () => {
    const times = async (path: string) => [...(await visitor().get(path)).body.matchAll(/<span class="td-time-at">([^<]*)<\/span>/g)].map((m) => m[1]);
    const page = `/s/poly/de/offers/${tour.id}?date=${day()}`;
    expect(await times(page)).toEqual(['10:00']);
    expect((await owner.patch('/api/product-configuration/', { time_format: '12h' })).statusCode).toBe(200);
    try {
      expect(await times(page)).toEqual(['10:00 AM']);
      expect(await times(`/s/poly/offers/${tour.id}?date=${day()}`)).toEqual(['10:00 am']);
    } finally {
      await owner.patch('/api/product-configuration/', { time_format: '24h' });
    }
  });

  it('lists every page in every language in the sitemap, each with its alternates', async () => {
    const res = await visitor().get('/s/poly/sitemap.xml');
    expect(res.statusCode).toBe(200);
    const xml = res.body;
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    for (const loc of [`${ORIGIN}/s/poly/`, `${ORIGIN}/s/poly/de/`, `${ORIGIN}/s/poly/fr/`, `${ORIGIN}/s/poly/offers/${tour.id}`, `${ORIGIN}/s/poly/de/offers/${tour.id}`, `${ORIGIN}/s/poly/fr/offers/${tour.id}`]) {
      expect(xml).toContain(`<loc>${loc}</loc>`);
    }
    expect(xml.match(/<url>/g)).toHaveLength(6);
    expect(xml.match(/hreflang="x-default" href="http:\/\/polystore\.localhost:3000\/s\/poly\/offers\//g)).toHaveLength(3);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="fr" href="${ORIGIN}/s/poly/fr/offers/${tour.id}"/>`);
  });
});

describe('the customer’s language on the cart and the order', () => {
  it('makes a cart in the language asked for, else Accept-Language among the store’s, else its default', async () => {
    const guest = visitor();
    const cartLanguage = async (body: unknown, headers: Record<string, string> = {}) => {
      const res = await guest.request('POST', `${api}/carts/`, body, headers);
      expect(res.statusCode, res.body).toBe(201);
      const made = res.json();
      return ZWebCart.parse((await guest.get(`${api}/carts/${made.id}/`, { 'x-cart-token': made.token })).json()).language;
    };
    expect(await cartLanguage({ language: 'de' }, { 'accept-language': 'fr' })).toBe('de');
    expect(await cartLanguage({}, { 'accept-language': 'fr-CH, en;q=0.5' })).toBe('fr');
    expect(await cartLanguage(undefined, { 'accept-language': 'es' })).toBe('en');
    // A language the store does not sell is not the cart's.
    expect(await cartLanguage({ language: 'it' }, { 'accept-language': 'de' })).toBe('de');
    expect((await guest.request('POST', `${api}/carts/`, { language: 'xx' })).statusCode).toBe(400);
  });

  it('keeps the cart through a switch of language (same id, same lines) and books the order in the cart’s language', async () => {
    const guest = visitor();
    const { id, token } = (await guest.request('POST', `${api}/carts/`, { language: 'de' })).json();
    const slot = (await guest.get(`${api}/experiences/${tour.id}/day/?date=${day()}`)).json().slots[0].id;
    const held = ZWebCart.parse((await guest.post(`${api}/carts/${id}/lines/`, { slot, quantities: { [tour.category]: 2 } }, { 'x-cart-token': token })).json());
    expect(held.language).toBe('de');

    const patch = (body: unknown, cartToken = token) => guest.request('PATCH', `${api}/carts/${id}/`, body, { 'x-cart-token': cartToken });
    expect((await patch({ language: 'fr' }, 'not-the-secret')).statusCode).toBe(404);
    expect((await patch({ language: 'it' })).statusCode).toBe(400);
    const switched = await patch({ language: 'fr' });
    expect(switched.statusCode, switched.body).toBe(200);
    const cart = ZWebCart.parse(switched.json());
    expect(cart).toMatchObject({ id, language: 'fr', total: held.total });
    expect(cart.lines.map((l) => l.id)).toEqual(held.lines.map((l) => l.id));

    const placed = await guest.post(
      `${api}/orders/`,
      { cart: id, lines: cart.lines.map((l) => l.id), customer: { email: 'lea@example.com', first_name: 'Léa', last_name: 'Martin' }, accept_terms: true, payment_option: 'pay_on_site' },
      { 'x-cart-token': token },
    );
    expect(placed.statusCode, placed.body).toBe(201);
    const order = ZWebOrder.parse(placed.json());
    const rows = (await t.database.db.execute(sql`select language from orders where reference = ${order.reference}`)) as unknown as { rows: { language: string }[] };
    expect(rows.rows).toEqual([{ language: 'fr' }]);
    // The customer's link opens their booking in their language (the store goes to its address, the secret stays in the fragment).
    expect(order.manage_url).toMatch(/^http:\/\/polystore\.localhost:3000\/s\/poly\/booking\/[A-Z0-9-]+\?lang=fr#[A-Za-z0-9_-]{20,}$/);
    const link = new URL(order.manage_url);
    const opened = await visitor().get(link.pathname + link.search);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(`/s/poly/fr/booking/${order.reference}`);
  });
});
