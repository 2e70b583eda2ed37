import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZOfferChannels, ZStore } from '@tourdesk/contracts';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/** Stores in the back office: settings, offers in their order, the global catalog, analytics. */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let offers: { id: string }[];

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'lakeside', currency: 'CHF' });
  offers = [await sellableExperience(owner, 'Canoe'), await sellableExperience(owner, 'Bike'), await sellableExperience(owner, 'Hike')];
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const errorOf = (res: { json(): unknown }) => (res.json() as { errors: { code: string; attr: string | null; detail: string }[] }).errors[0]!;

describe('stores', () => {
  it('creates a store in the organisation’s currency at its own address, and refuses a taken or bad address', async () => {
    const res = await owner.post('/api/stores/', { name: 'Lakeside shop', slug: 'shop' });
    expect(res.statusCode, res.body).toBe(201);
    const s = ZStore.parse(res.json());
    expect(s).toMatchObject({ name: 'Lakeside shop', slug: 'shop', currency: 'CHF', active: true, payment_options: ['pay_on_site'], experience_count: 0 });
    expect(s.url).toBe('http://lakeside.localhost:3000/s/shop/');
    const taken = await owner.post('/api/stores/', { name: 'Again', slug: 'shop' });
    expect(taken.statusCode).toBe(400);
    expect(errorOf(taken)).toMatchObject({ attr: 'slug' });
    const elsewhere = await owner.post('/api/stores/', { name: 'Euro shop', slug: 'euro', currency: 'EUR' });
    expect(elsewhere.statusCode).toBe(400);
    expect(errorOf(elsewhere).attr).toBe('currency');
    const bad = await owner.post('/api/stores/', { name: 'Bad', slug: 'Not A Slug' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).attr).toBe('slug');
    const noMail = await owner.patch(`/api/stores/${s.id}/`, { notify_new_bookings: true });
    expect(noMail.statusCode).toBe(400);
    expect(errorOf(noMail).attr).toBe('notify_email');
    const frame = await owner.patch(`/api/stores/${s.id}/`, { embed_origins: ['https://www.Lakeside-Hotel.example'], intro: 'Paddle with us.' });
    expect(frame.json()).toMatchObject({ embed_origins: ['https://www.lakeside-hotel.example'], intro: 'Paddle with us.' });
    expect((await owner.patch(`/api/stores/${s.id}/`, { embed_origins: ['javascript:alert(1)'] })).statusCode).toBe(400);
  });

  it('lists stores with search and the active filter, paged', async () => {
    await owner.post('/api/stores/', { name: 'Winter desk', slug: 'winter', active: false });
    const all = (await owner.get('/api/stores/')).json();
    expect(all.count).toBe(2);
    expect((await owner.get('/api/stores/?search=winter')).json().results.map((r: { slug: string }) => r.slug)).toEqual(['winter']);
    expect((await owner.get('/api/stores/?active=false')).json().results.map((r: { slug: string }) => r.slug)).toEqual(['winter']);
    expect((await owner.get('/api/stores/?page_size=5&page=2')).statusCode).toBe(404);
  });

  it('adds offers from the global catalog, keeps their order, reorders and removes them', async () => {
    const s = (await owner.get('/api/stores/?search=shop')).json().results[0];
    expect((await owner.get(`/api/stores/${s.id}/eligible-experiences/`)).json().count).toBe(3);
    expect((await owner.post(`/api/stores/${s.id}/add-experience/`, { experiences: [offers[1]!.id, offers[0]!.id] })).statusCode).toBe(204);
    expect((await owner.post(`/api/stores/${s.id}/add-experience/`, { experiences: [offers[2]!.id, offers[0]!.id] })).statusCode).toBe(204);
    const order = async () => (await owner.get(`/api/stores/${s.id}/experiences/`)).json().results.map((r: { experience: string }) => r.experience);
    expect(await order()).toEqual([offers[1]!.id, offers[0]!.id, offers[2]!.id]);
    expect((await owner.get(`/api/stores/${s.id}/eligible-experiences/`)).json().count).toBe(0);
    expect((await owner.post(`/api/stores/${s.id}/reorder-experiences/`, { experiences: [offers[2]!.id, offers[1]!.id, offers[0]!.id] })).statusCode).toBe(204);
    expect(await order()).toEqual([offers[2]!.id, offers[1]!.id, offers[0]!.id]);
    // A new order must name every offer of the store once.
    expect((await owner.post(`/api/stores/${s.id}/reorder-experiences/`, { experiences: [offers[2]!.id] })).statusCode).toBe(400);
    expect((await owner.post(`/api/stores/${s.id}/remove-experience/`, { experience: offers[1]!.id })).statusCode).toBe(204);
    expect(await order()).toEqual([offers[2]!.id, offers[0]!.id]);
    expect((await owner.post(`/api/stores/${s.id}/remove-experience/`, { experience: offers[1]!.id })).statusCode).toBe(404);
    expect((await owner.get(`/api/stores/${s.id}/`)).json().experience_count).toBe(2);
    const foreign = await owner.post(`/api/stores/${s.id}/add-experience/`, { experiences: ['00000000-0000-4000-8000-000000000000'] });
    expect(foreign.statusCode).toBe(400);
  });

  it('says where an offer is sold: each store, whether it shows the offer, and the partners sharing it', async () => {
    const channels = async (id: string) => {
      const res = await owner.get(`/api/experiences/${id}/channels/`);
      expect(res.statusCode, res.body).toBe(200);
      return ZOfferChannels.parse(res.json());
    };
    // Active stores first: the shop shows Canoe and Hike (the test above), the winter desk nothing.
    const canoe = await channels(offers[0]!.id);
    expect(canoe.stores.map((s) => [s.slug, s.active, s.sells])).toEqual([['shop', true, true], ['winter', false, false]]);
    expect(canoe.stores[0]!.url).toBe('http://lakeside.localhost:3000/s/shop/');
    expect(canoe.partners).toBe(0);
    expect((await channels(offers[1]!.id)).stores.map((s) => s.sells)).toEqual([false, false]);
    // Not an offer of this organisation: 404, as for the offer itself.
    expect((await owner.get('/api/experiences/00000000-0000-4000-8000-000000000000/channels/')).statusCode).toBe(404);
  });

  it('reports analytics per day of a range, and refuses a backwards range', async () => {
    const s = (await owner.get('/api/stores/?search=shop')).json().results[0];
    const res = await owner.get(`/api/stores/${s.id}/analytics/?from=2026-01-01&to=2026-01-07`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().days).toHaveLength(7);
    expect(res.json().totals).toMatchObject({ visits: 0, orders: 0, revenue: 0, conversion: 0 });
    expect((await owner.get(`/api/stores/${s.id}/analytics/?from=2026-01-07&to=2026-01-01`)).statusCode).toBe(400);
  });

  it('deletes a store without orders', async () => {
    const s = (await owner.get('/api/stores/?search=winter')).json().results[0];
    expect((await owner.delete(`/api/stores/${s.id}/`)).statusCode).toBe(204);
    expect((await owner.get(`/api/stores/${s.id}/`)).statusCode).toBe(404);
  });
});
