import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZOctoProduct } from '@tourdesk/contracts';
import { addDays, todayIn } from '../src/lib/local-time';
import { picture, sellableExperience, uploadImage } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';
import { makePartnership, partnerClient } from './octo-fixtures';

/**
 * Offer content per language (issue 30): the organisation chooses the languages it sells in (the
 * first the main one), an offer and what it refers to keep their texts per language (unknown
 * languages refused, rich text sanitized in every language), and the web store and OCTO serve the
 * language asked for (Accept-Language among the organisation's), field by field falling back to
 * the main language, saying which in Content-Language. An OCTO booking keeps its customer's language.
 */
const ZONE = 'Europe/Zurich';
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let guest: Browser;
let tour: Awaited<ReturnType<typeof sellableExperience>>;
let octo: ReturnType<typeof partnerClient>;
let content: ReturnType<typeof partnerClient>;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'polyglot', currency: 'CHF', time_zone: ZONE });
  await createOrganisation(t.app, sink, { subdomain: 'polyagency', kind: 'affiliate', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Lake tour');
  await owner.patch(`/api/experiences/${tour.id}/`, { highlights: ['Sunset', 'Swans'], inclusions: ['Paddle'], what_to_bring: ['Sun cream'] });
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { status: 'Active' })).statusCode).toBe(200);
  const store = await owner.post('/api/stores/', { name: 'Poly shop', slug: 'poly' });
  expect(store.statusCode, store.body).toBe(201);
  await owner.post(`/api/stores/${store.json().id}/add-experience/`, { experiences: [tour.id] });
  guest = new Browser(t.app, 'polyglot.localhost');
  const partner = await makePartnership(t.database, { supplier: 'polyglot', reseller: 'polyagency', offers: [tour.id], currency: 'CHF' });
  partnerKey = partner.key;
  octo = partnerClient(t.app, partner.key);
  content = partnerClient(t.app, partner.key, 'octo/pricing, octo/content');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('the languages the organisation sells in', () => {
  it('starts with English; takes an ordered list of known languages, the first the main one; refuses unknown languages, repeats and an empty list', async () => {
    expect((await owner.get('/api/product-configuration/')).json().languages).toEqual(['en']);
    const unknown = await owner.patch('/api/product-configuration/', { languages: ['en', 'xx'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({ attr: 'languages.1', detail: expect.stringContaining('Unknown language "xx"') });
    const empty = await owner.patch('/api/product-configuration/', { languages: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0]).toMatchObject({ attr: 'languages', detail: 'Sell in at least one language.' });
    expect((await owner.patch('/api/product-configuration/', { languages: ['en', 'de', 'en'] })).statusCode).toBe(400);
    const set = await owner.patch('/api/product-configuration/', { languages: ['en', 'de', 'fr'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().languages).toEqual(['en', 'de', 'fr']);
    // The session carries them: the offer editor shows a switch per language.
    expect((await owner.get('/api/users/me/')).json().base_account.languages).toEqual(['en', 'de', 'fr']);
  });
});

describe('texts per language', () => {
  it('keeps an offer’s translations, sanitizes every language’s long description, and refuses an unknown language in the envelope', async () => {
    const bad = await owner.patch(`/api/experiences/${tour.id}/`, { translations: { xx: { title: 'Nope' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'validation_error', errors: [{ attr: 'translations', detail: expect.stringContaining('Unknown language "xx"') }] });
    const field = await owner.patch(`/api/experiences/${tour.id}/`, { translations: { de: { colour: 'blau' } } });
    expect(field.statusCode).toBe(400);

    const res = await owner.patch(`/api/experiences/${tour.id}/`, {
      translations: {
        de: { title: 'Seerundfahrt', short_description: 'Paddeln in den Sonnenuntergang.', long_description: '<p>Zwei Stunden</p><script>alert(1)</script><img src=x onerror=alert(1)>', highlights: ['Sonnenuntergang', 'Schwäne'] },
        fr: { title: 'Tour du lac', long_description: '<p onclick="x()">Deux heures</p>' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().translations;
    expect(saved.de).toMatchObject({ title: 'Seerundfahrt', highlights: ['Sonnenuntergang', 'Schwäne'], long_description: '<p>Zwei Stunden</p>' });
    expect(saved.fr.long_description).toBe('<p>Deux heures</p>');
    // A language given replaces its texts; the others stay; blank fields are not kept.
    const fr = await owner.patch(`/api/experiences/${tour.id}/`, { translations: { fr: { title: 'Tour du lac', short_description: 'Pagayer au coucher du soleil.', highlights: [], voucher_text: '  ' } } });
    expect(fr.json().translations.fr).toEqual({ title: 'Tour du lac', short_description: 'Pagayer au coucher du soleil.' });
    expect(fr.json().translations.de.title).toBe('Seerundfahrt');
  });

  it('keeps translations of categories, extras, booking questions (their options as many as the question’s) and cancellation policies', async () => {
    const cat = await owner.patch(`/api/pricing-categories/${tour.category}/`, { translations: { de: { label: 'Erwachsene' }, fr: { label: 'Adulte' } } });
    expect(cat.statusCode, cat.body).toBe(200);
    expect(cat.json().translations).toEqual({ de: { label: 'Erwachsene' }, fr: { label: 'Adulte' } });
    expect((await owner.patch(`/api/pricing-categories/${tour.category}/`, { translations: { zz: { label: 'x' } } })).statusCode).toBe(400);

    const extra = await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Photo', description: 'A picture of you', price: 500, translations: { de: { name: 'Foto', description: 'Ein Bild von dir' } } });
    expect(extra.statusCode, extra.body).toBe(201);
    const question = await owner.post('/api/booking-questions/', { question: 'Diet?', answer_type: 'choice', choices: ['Vegan', 'None'], translations: { de: { question: 'Ernährung?', choices: ['Vegan', 'Keine'] } } });
    expect(question.statusCode, question.body).toBe(201);
    const short = await owner.patch(`/api/booking-questions/${question.json().id}/`, { translations: { fr: { choices: ['Végan'] } } });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors[0]).toMatchObject({ attr: 'translations.fr.choices' });
    const policy = await owner.post('/api/cancellation-policies/', { name: 'Flexible', description: 'Free until a day before.', rules: [{ hours_before: 24, refund_percent: 100 }], translations: { fr: { name: 'Flexible', description: 'Gratuit jusqu’à la veille.' } } });
    expect(policy.statusCode, policy.body).toBe(201);
    const linked = await owner.patch(`/api/experiences/${tour.id}/`, { extras: [extra.json().id], booking_questions: [question.json().id], cancellation_policy: policy.json().id });
    expect(linked.statusCode, linked.body).toBe(200);
  });
});

describe('the web store in the customer’s language', () => {
  it('answers German for Accept-Language de, field by field from the main language, with Content-Language; a language not sold in answers the main one', async () => {
    const list = await guest.get('/api/web-stores/poly/experiences/', { 'accept-language': 'de-CH, de;q=0.9, en;q=0.5' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers['content-language']).toBe('de');
    expect(String(list.headers.vary)).toContain('Accept-Language');
    expect(list.json().results[0]).toMatchObject({ title: 'Seerundfahrt', short_description: 'Paddeln in den Sonnenuntergang.' });

    const page = await guest.get(`/api/web-stores/poly/experiences/${tour.id}/`, { 'accept-language': 'de' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-language']).toBe('de');
    const o = page.json();
    expect(o).toMatchObject({ title: 'Seerundfahrt', long_description: '<p>Zwei Stunden</p>', highlights: ['Sonnenuntergang', 'Schwäne'] });
    // Not translated: the main language's text, field by field.
    expect(o.inclusions).toEqual(['Paddle']);
    expect(o.what_to_bring).toEqual(['Sun cream']);
    expect(o.categories.find((c: { id: string }) => c.id === tour.category).label).toBe('Erwachsene');
    expect(o.extras[0]).toMatchObject({ name: 'Foto', description: 'Ein Bild von dir' });
    // Answers are stored as the main language's options; the page shows them in German.
    expect(o.questions[0]).toMatchObject({ question: 'Ernährung?', options: ['Vegan', 'None'], option_labels: ['Vegan', 'Keine'] });
    expect(o.cancellation_policy).toMatchObject({ name: 'Flexible', description: 'Free until a day before.' });

    const italian = await guest.get(`/api/web-stores/poly/experiences/${tour.id}/`, { 'accept-language': 'it' });
    expect(italian.headers['content-language']).toBe('en');
    expect(italian.json().title).toBe('Lake tour');
    expect((await guest.get(`/api/web-stores/poly/experiences/${tour.id}/`)).json().title).toBe('Lake tour');
  });

  it('names the store and says its intro in the customer’s language, field by field from the main language', async () => {
    const id = (await owner.get('/api/stores/')).json().results.find((s: { slug: string }) => s.slug === 'poly').id as string;
    const saved = await owner.patch(`/api/stores/${id}/`, { intro: 'Boat tours on the lake.', translations: { de: { intro: 'Bootstouren auf dem See.' }, fr: { name: 'Boutique Poly', intro: '' } } });
    expect(saved.statusCode, saved.body).toBe(200);
    // A blank text is no translation: French keeps only its name.
    expect(saved.json().translations).toEqual({ de: { intro: 'Bootstouren auf dem See.' }, fr: { name: 'Boutique Poly' } });
    const de = await guest.get('/api/web-stores/poly/', { 'accept-language': 'de' });
    expect(de.headers['content-language']).toBe('de');
    expect(de.json()).toMatchObject({ name: 'Poly shop', intro: 'Bootstouren auf dem See.' });
    expect((await guest.get('/api/web-stores/poly/', { 'accept-language': 'fr' })).json()).toMatchObject({ name: 'Boutique Poly', intro: 'Boat tours on the lake.' });
    expect((await guest.get('/api/web-stores/poly/')).json()).toMatchObject({ name: 'Poly shop', intro: 'Boat tours on the lake.' });
    // The store's page, drawn on the server, says it too.
    const page = await guest.get('/s/poly/de/');
    expect(page.body).toContain('Bootstouren auf dem See.');
    const unknown = await owner.patch(`/api/stores/${id}/`, { translations: { xx: { intro: 'No' } } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].detail).toMatch(/Unknown language "xx"/);
  });

  it('no longer serves a language taken out of the organisation’s, yet keeps its texts', async () => {
    expect((await owner.patch('/api/product-configuration/', { languages: ['en', 'fr'] })).statusCode).toBe(200);
    const page = await guest.get(`/api/web-stores/poly/experiences/${tour.id}/`, { 'accept-language': 'de' });
    expect(page.headers['content-language']).toBe('en');
    expect(page.json().title).toBe('Lake tour');
    expect((await owner.get(`/api/experiences/${tour.id}/`)).json().translations.de.title).toBe('Seerundfahrt');
    expect((await owner.patch('/api/product-configuration/', { languages: ['en', 'de', 'fr'] })).statusCode).toBe(200);
  });
});

describe('OCTO in the reseller’s language', () => {
  it('answers products in French with Content-Language fr; the content capability adds the texts, features and the supplier’s languages', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/octo/v1/products', headers: { authorization: (await octoAuth()).authorization, 'accept-language': 'fr-FR, fr;q=0.9' } });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-language']).toBe('fr');
    expect(plain.json()[0]).not.toHaveProperty('title');

    const res = await t.app.inject({ method: 'GET', url: `/octo/v1/products/${tour.id}`, headers: { ...(await octoAuth('octo/pricing, octo/content')), 'accept-language': 'fr' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-language']).toBe('fr');
    const product = ZOctoProduct.parse(res.json()) as Record<string, unknown> & { options: { units: Record<string, unknown>[] }[] };
    // The French long description was taken out (its texts replaced): the main language's.
    expect(product).toMatchObject({ locale: 'fr', title: 'Tour du lac', shortDescription: 'Pagayer au coucher du soleil.', description: '<p>Two hours on the lake.</p>', availableLanguages: ['en', 'de', 'fr'] });
    const features = product.features as { type: string; shortDescription: string }[];
    // Highlights have no French text: the main language's, field by field.
    expect(features).toEqual(expect.arrayContaining([
      { type: 'HIGHLIGHT', shortDescription: 'Sunset' },
      { type: 'INCLUSION', shortDescription: 'Paddle' },
      { type: 'CANCELLATION_TERM', shortDescription: 'Gratuit jusqu’à la veille.' },
    ]));
    // A unit's title is the customer's language; its internalName stays the supplier's own.
    expect(product.options[0]!.units[0]).toMatchObject({ id: tour.category, title: 'Adulte', internalName: 'Adult Lake tour' });

    // No Accept-Language: the supplier's main language.
    const main = await content.get(`/octo/v1/products/${tour.id}`);
    expect(main.headers['content-language']).toBe('en');
    expect(main.json().title).toBe('Lake tour');
  });

  it('carries the offer’s pictures (absolute, the first its cover) and its meeting points with coordinates as OCTO’s media and locations', async () => {
    const first = await uploadImage(owner, tour.id, await picture(1200, 800, 'jpeg'), 'lake.jpg');
    expect(first.res.statusCode, first.res.body).toBe(200);
    const second = await uploadImage(owner, tour.id, await picture(1200, 800, 'png'), 'shore.png');
    expect(second.res.statusCode, second.res.body).toBe(200);
    const pier = (await owner.post('/api/meeting-points/', { name: 'Pier 3', address: 'Bahnhofplatz 1, Luzern', latitude: 47.05, longitude: 8.31, instructions: 'At the blue flag.' })).json().id;
    const nowhere = (await owner.post('/api/meeting-points/', { name: 'Somewhere' })).json().id;
    expect((await owner.patch(`/api/experiences/${tour.id}/`, { meeting_points: [pier, nowhere] })).statusCode).toBe(200);
    const product = (await content.get(`/octo/v1/products/${tour.id}`)).json();
    // In the offer's order (pictures uploaded earlier come first): the first is the cover, the rest the gallery.
    const media = product.media.map((m: { src: string }) => ({ ...m, src: new URL(m.src).pathname }));
    expect(media.slice(-2)).toEqual([
      { src: first.res.json().url, type: 'image/jpeg', rel: media.length === 2 ? 'COVER' : 'GALLERY', title: null, caption: null, copyright: null },
      { src: second.res.json().url, type: 'image/png', rel: 'GALLERY', title: null, caption: null, copyright: null },
    ]);
    expect(media.map((m: { rel: string }) => m.rel)).toEqual(media.map((_: unknown, i: number) => (i === 0 ? 'COVER' : 'GALLERY')));
    expect(new URL(product.media[0].src).hostname).toBe('polyglot.localhost');
    // The point without coordinates cannot be a place: only the pier.
    expect(product.locations).toEqual([
      expect.objectContaining({ title: 'Pier 3', shortDescription: 'At the blue flag.', types: ['START'], place: expect.objectContaining({ latitude: 47.05, longitude: 8.31, postalAddress: expect.objectContaining({ streetAddress: 'Bahnhofplatz 1, Luzern' }) }) }),
    ]);
    // The picture is served where it says, to anyone (a reseller's site shows it).
    expect((await t.app.inject({ method: 'GET', url: new URL(product.media[0].src).pathname })).statusCode).toBe(200);
    expect((await octo.get(`/octo/v1/products/${tour.id}`)).json()).not.toHaveProperty('media');
  });

  it('keeps a booking’s negotiated language on its order', async () => {
    const day = addDays(todayIn(ZONE), 5);
    const slots = await octo.post('/octo/v1/availability', { productId: tour.id, optionId: 'DEFAULT', localDateStart: day, localDateEnd: day });
    expect(slots.statusCode, slots.body).toBe(200);
    const uuid = randomUUID();
    const headers = { ...(await octoAuth()), 'accept-language': 'fr' };
    const held = await t.app.inject({ method: 'POST', url: '/octo/v1/bookings', headers, payload: { uuid, productId: tour.id, optionId: 'DEFAULT', availabilityId: slots.json()[0].id, unitItems: [{ unitId: tour.category }] } });
    expect(held.statusCode, held.body).toBe(200);
    const confirmed = await t.app.inject({ method: 'POST', url: `/octo/v1/bookings/${uuid}/confirm`, headers, payload: { contact: { fullName: 'Amélie Poulain', emailAddress: 'amelie@example.com' } } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const rows = (await t.database.asOwner((tx) => tx.execute(sql`select o.language from orders o join octo_booking b on b.order_id = o.id where b.uuid = ${uuid}`))) as unknown as { rows: { language: string }[] };
    expect(rows.rows[0]!.language).toBe('fr');
  });
});

let partnerKey: string;
async function octoAuth(capabilities = 'octo/pricing') {
  return { authorization: `Bearer ${partnerKey}`, 'octo-capabilities': capabilities };
}
