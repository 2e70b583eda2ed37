import { createServer, type Server } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booking, experience } from '../src/db/schema';
import { inTenant } from '../src/lib/tenancy';
import { picture, sellableExperience, uploadImage } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
let oembed: Server;
let oembedUrl: string;

beforeAll(async () => {
  sink = await startMailSink();
  // A stand-in for a video platform's oEmbed endpoint.
  oembed = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x').searchParams.get('url') ?? '';
    if (url.includes('missing')) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ title: 'Lake in 4K', thumbnail_url: 'https://img.example/thumb.jpg', provider_name: 'YouTube' }));
  });
  await new Promise<void>((r) => oembed.listen(0, '127.0.0.1', r));
  oembedUrl = `http://127.0.0.1:${(oembed.address() as { port: number }).port}/oembed?url={url}`;
  t = await createTestApp({ env: { SMTP_URL: sink.url, OEMBED_ENDPOINT: oembedUrl } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'lake' });
  other = await createOrganisation(t.app, sink, { subdomain: 'river' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
  oembed?.close();
});

const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors;

describe('pricing categories and rates', () => {
  let exp: string;
  let adult: string;
  let child: string;
  beforeAll(async () => {
    exp = (await owner.post('/api/experiences/', { title: 'Canyon walk', type: 'Ticket & Passes' })).json().id;
    adult = (await owner.post('/api/pricing-categories/', { type: 'Adult', label: 'Adult', min_age: 16 })).json().id;
    child = (await owner.post('/api/pricing-categories/', { type: 'Child', label: 'Child', min_age: 4, max_age: 15 })).json().id;
  });

  it('refuses an unknown category type, a duplicate label and an upside-down age range', async () => {
    expect(err(await owner.post('/api/pricing-categories/', { type: 'Alien', label: 'x' }))[0]!.attr).toBe('type');
    expect(err(await owner.post('/api/pricing-categories/', { type: 'Adult', label: 'adult' }))[0]).toMatchObject({ attr: 'label' });
    expect(err(await owner.post('/api/pricing-categories/', { type: 'Child', label: 'Odd', min_age: 10, max_age: 3 }))[0]!.attr).toBe('max_age');
    expect(err(await owner.patch(`/api/pricing-categories/${child}/`, { min_age: 30 }))[0]!.attr).toBe('max_age');
  });

  it.each([
    [{ retail_price: -100 }, 'retail_price'],
    [{ retail_price: 12.5 }, 'retail_price'],
    [{ retail_price: '12' }, 'retail_price'],
    [{ retail_price: 1000, net_price: 2000 }, 'net_price'],
    [{ retail_price: 1000, currency: 'USD' }, 'currency'],
    [{ retail_price: 1000, valid_from: '2027-05-01', valid_to: '2027-04-01' }, 'valid_to'],
  ])('refuses the price %j (field %s)', async (body, attr) => {
    const res = await owner.post('/api/pricing-rates/', { experience: exp, pricing_category: adult, ...body });
    expect(res.statusCode).toBe(400);
    expect(err(res)[0]!.attr).toBe(attr);
  });

  it('refuses another organisation’s pricing category', async () => {
    const theirs = (await other.post('/api/pricing-categories/', { type: 'Adult', label: 'Adult' })).json().id;
    const res = await owner.post('/api/pricing-rates/', { experience: exp, pricing_category: theirs, retail_price: 100 });
    expect(res.statusCode).toBe(400);
    expect(err(res)[0]!.attr).toBe('pricing_category');
  });

  it('takes seasonal prices, and refuses two prices of one category on the same day', async () => {
    const base = await owner.post('/api/pricing-rates/', { experience: exp, pricing_category: adult, retail_price: 5000, net_price: 4000 });
    expect(base.statusCode, base.body).toBe(201);
    expect(base.json()).toMatchObject({ retail_price: 5000, net_price: 4000, currency: 'EUR', weekdays: [] });
    const clash = await owner.post('/api/pricing-rates/', { experience: exp, pricing_category: adult, retail_price: 6000, valid_from: '2027-07-01', valid_to: '2027-08-31' });
    expect(clash.statusCode).toBe(400);
    expect(err(clash)[0]!.detail).toMatch(/overlaps another price/);
    // Narrow the base price to weekdays, then a weekend summer price fits.
    expect((await owner.patch(`/api/pricing-rates/${base.json().id}/`, { weekdays: [1, 2, 3, 4, 5] })).statusCode).toBe(200);
    const weekend = await owner.post('/api/pricing-rates/', { experience: exp, pricing_category: adult, retail_price: 6500, weekdays: [6, 7] });
    expect(weekend.statusCode, weekend.body).toBe(201);
    const summerWeekend = await owner.post('/api/pricing-rates/', { experience: exp, pricing_category: adult, retail_price: 7000, weekdays: [7], valid_from: '2027-07-01' });
    expect(summerWeekend.statusCode).toBe(400);
    // Another category is another price list.
    expect((await owner.post('/api/pricing-rates/', { experience: exp, pricing_category: child, retail_price: 2500 })).statusCode).toBe(201);
    const list = (await owner.get(`/api/pricing-rates/?experience=${exp}`)).json();
    expect(list.count).toBe(3);
    // A category in use cannot be deleted.
    expect((await owner.delete(`/api/pricing-categories/${child}/`)).statusCode).toBe(409);
  });
});

describe('experiences', () => {
  it('creates a Draft, edits every step, and stores descriptions sanitised', async () => {
    const created = await owner.post('/api/experiences/', { title: 'Glacier hike', type: 'Ticket & Passes', languages: ['en', 'de'], duration_minutes: 240 });
    expect(created.statusCode, created.body).toBe(201);
    const exp = created.json();
    expect(exp).toMatchObject({ status: 'Draft', title: 'Glacier hike', languages: ['en', 'de'], duration_minutes: 240 });
    expect(exp.missing_for_activation).toEqual(['a description', 'a price', 'an image', 'future availability (a schedule)']);

    const patched = await owner.patch(`/api/experiences/${exp.id}/`, {
      short_description: 'On the ice.',
      long_description: '<p>Ice <strong>and</strong> views.</p><script>alert(1)</script><img src=x onerror="steal()"><a href="javascript:evil()">x</a>',
      highlights: ['Crampons included'],
      min_participants: 2,
      max_participants: 12,
      booking_cutoff_minutes: 120,
      confirmation_mode: 'manual',
      meeting_instructions: 'Meet at the cable car.',
      voucher_text: 'Bring this voucher.',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const body = patched.json();
    expect(body.long_description).toContain('<strong>and</strong>');
    expect(body.long_description).not.toMatch(/script|onerror|javascript:|<img/);
    expect(body).toMatchObject({ min_participants: 2, max_participants: 12, confirmation_mode: 'manual', voucher_text: 'Bring this voucher.' });
    // Fields a PATCH leaves out keep their values.
    expect(body).toMatchObject({ languages: ['en', 'de'], duration_minutes: 240, title: 'Glacier hike' });
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { highlights: ['Views'] })).json()).toMatchObject({ short_description: 'On the ice.', voucher_text: 'Bring this voucher.' });
    expect(err(await owner.patch(`/api/experiences/${exp.id}/`, { max_participants: 1 }))[0]!.attr).toBe('max_participants');
    expect(err(await owner.patch(`/api/experiences/${exp.id}/`, { type: 'Boat' }))[0]!.attr).toBe('type');
  });

  it('links meeting points, questions, a policy and extras of its own organisation only', async () => {
    const exp = (await owner.post('/api/experiences/', { title: 'Boat trip', type: 'Transfer' })).json().id;
    const mp = (await owner.post('/api/meeting-points/', { name: 'Harbour', latitude: 46.2, longitude: 6.1 })).json().id;
    const q = (await owner.post('/api/booking-questions/', { question: 'Shoe size?', answer_type: 'number', required: true })).json().id;
    const policy = (await owner.post('/api/cancellation-policies/', { name: 'Flexible', rules: [{ hours_before: 24, refund_percent: 100 }] })).json().id;
    const extra = (await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Lunch box', price: 1500, tags: ['Food'] })).json();
    expect(extra).toMatchObject({ currency: 'EUR', tags: ['food'] });
    const ok = await owner.patch(`/api/experiences/${exp}/`, { meeting_points: [mp], booking_questions: [q], cancellation_policy: policy, extras: [extra.id] });
    expect(ok.statusCode, ok.body).toBe(200);
    const foreign = (await other.post('/api/meeting-points/', { name: 'Theirs' })).json().id;
    const bad = await owner.patch(`/api/experiences/${exp}/`, { meeting_points: [mp, foreign] });
    expect(bad.statusCode).toBe(400);
    expect(err(bad)[0]!.attr).toBe('meeting_points');
    // Deleting a meeting point takes it off the experience.
    expect((await owner.delete(`/api/meeting-points/${mp}/`)).statusCode).toBe(204);
    expect((await owner.get(`/api/experiences/${exp}/`)).json().meeting_points).toEqual([]);
  });

  it('refuses to activate until it has a description, a price and an image, listing each missing thing', async () => {
    const exp = (await owner.post('/api/experiences/', { title: 'Empty one', type: 'Rental' })).json().id;
    const res = await owner.patch(`/api/experiences/${exp}/`, { status: 'Active' });
    expect(res.statusCode).toBe(400);
    expect(err(res).map((e) => e.detail)).toEqual([
      'To sell this experience, add a description.',
      'To sell this experience, add a price.',
      'To sell this experience, add an image.',
      'To sell this experience, add future availability (a schedule).',
    ]);
    expect((await owner.get(`/api/experiences/${exp}/`)).json().status).toBe('Draft');
  });

  it('goes Draft → Active → Inactive → Active, never Draft → Inactive', async () => {
    const { id } = await sellableExperience(owner, 'Lake cruise');
    const draft = (await owner.post('/api/experiences/', { title: 'Never sold', type: 'Rental' })).json().id;
    expect(err(await owner.patch(`/api/experiences/${draft}/`, { status: 'Inactive' }))[0]!.detail).toMatch(/cannot go from Draft to Inactive/);
    for (const status of ['Active', 'Inactive', 'Active']) {
      const res = await owner.patch(`/api/experiences/${id}/`, { status });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe(status);
    }
  });

  it('uploads images checked by their bytes, with thumbnails served for a year', async () => {
    const exp = (await owner.post('/api/experiences/', { title: 'Photo walk', type: 'Ticket & Passes' })).json().id;
    const { res } = await uploadImage(owner, exp, await picture(1200, 800, 'jpeg'), 'lake.jpg');
    expect(res.statusCode, res.body).toBe(200);
    const img = res.json();
    expect(img).toMatchObject({ status: 'ready', content_type: 'image/jpeg', width: 1200, height: 800, upload_url: null });
    const file = await owner.get(img.thumbnail_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A second upload to the same image is refused.
    expect((await owner.request('PATCH', `/api/images/${img.id}/upload/`, await picture(), { 'content-type': 'application/octet-stream' })).statusCode).toBe(409);
  });

  it.each([
    ['a text file named .png', async () => Buffer.from('this is not a picture at all'), 400, /not an image/],
    ['a GIF', () => picture(400, 400, 'gif'), 400, /gif files are not accepted/],
    ['a tiny picture', () => picture(50, 50), 400, /too small/],
    ['a 50 MB file', async () => Buffer.alloc(50 * 1024 * 1024, 1), 413, /too large/],
  ])('refuses %s', async (_name, make, status, message) => {
    const exp = (await owner.post('/api/experiences/', { title: 'Refusals', type: 'Ticket & Passes' })).json().id;
    const { id, res } = await uploadImage(owner, exp, await make());
    expect(res.statusCode).toBe(status);
    expect(err(res)[0]!.detail).toMatch(message);
    expect((await owner.get(`/api/images/${id}/`)).json().status).toBe('pending');
  });

  it('reorders images only with the exact list of its images', async () => {
    const exp = (await owner.post('/api/experiences/', { title: 'Gallery', type: 'Ticket & Passes' })).json().id;
    const a = (await uploadImage(owner, exp, await picture(400, 300))).id;
    const b = (await uploadImage(owner, exp, await picture(500, 300))).id;
    const c = (await uploadImage(owner, exp, await picture(600, 300))).id;
    for (const bad of [[a, b], [a, b, c, c], [a, b, '00000000-0000-4000-8000-000000000000']]) {
      const res = await owner.patch(`/api/experiences/${exp}/reorder-images/`, { images: bad });
      expect(res.statusCode).toBe(400);
      expect(err(res)[0]!.attr).toBe('images');
    }
    const res = await owner.patch(`/api/experiences/${exp}/reorder-images/`, { images: [c, a, b] });
    expect(res.statusCode).toBe(200);
    expect(res.json().images.map((i: { id: string }) => i.id)).toEqual([c, a, b]);
    // Deleting one closes the gap.
    expect((await owner.delete(`/api/images/${a}/`)).statusCode).toBe(204);
    expect((await owner.get(`/api/experiences/${exp}/`)).json().images.map((i: { id: string; position: number }) => [i.id, i.position])).toEqual([
      [c, 0],
      [b, 1],
    ]);
  });

  it('adds videos with the platform’s title and thumbnail, and still saves them when it cannot be reached', async () => {
    const exp = (await owner.post('/api/experiences/', { title: 'Films', type: 'Ticket & Passes' })).json().id;
    const v = await owner.post('/api/videos/', { url: 'https://www.youtube.com/watch?v=abc', experience: exp });
    expect(v.statusCode).toBe(201);
    expect(v.json()).toMatchObject({ title: 'Lake in 4K', thumbnail_url: 'https://img.example/thumb.jpg', provider: 'YouTube', notice: null });
    const missing = await owner.post('/api/videos/', { url: 'https://www.youtube.com/watch?v=missing', experience: exp });
    expect(missing.json().notice).toMatch(/does not know this video/);

    const offline = await createTestApp({ env: { SMTP_URL: sink.url, OEMBED_ENDPOINT: 'http://127.0.0.1:9/oembed?url={url}' } });
    try {
      const b = await createOrganisation(offline.app, sink, { subdomain: 'offline' });
      const e = (await b.post('/api/experiences/', { title: 'Offline', type: 'Rental' })).json().id;
      const saved = await b.post('/api/videos/', { url: 'https://vimeo.com/123', experience: e, title: 'My own title' });
      expect(saved.statusCode).toBe(201);
      expect(saved.json()).toMatchObject({ title: 'My own title', thumbnail_url: null });
      expect(saved.json().notice).toMatch(/could not be reached/);
    } finally {
      await offline.close();
    }
    expect(err(await owner.post('/api/videos/', { url: 'not a url' }))[0]!.attr).toBe('url');
  });

  it('duplicates as a Draft with prices, images (own files) and videos', async () => {
    const { id } = await sellableExperience(owner, 'Original tour');
    await owner.post('/api/videos/', { url: 'https://www.youtube.com/watch?v=abc', experience: id });
    await owner.patch(`/api/experiences/${id}/`, { status: 'Active', highlights: ['Views'] });
    const original = (await owner.get(`/api/experiences/${id}/`)).json();
    const copy = await owner.post(`/api/experiences/${id}/duplicate/`);
    expect(copy.statusCode, copy.body).toBe(201);
    const c = copy.json();
    expect(c).toMatchObject({ status: 'Draft', title: 'Original tour (copy)', highlights: ['Views'] });
    expect(c.prices).toHaveLength(1);
    expect(c.images).toHaveLength(1);
    expect(c.videos).toHaveLength(1);
    expect(c.images[0].url).not.toBe(original.images[0].url);
    // An offer with bookings cannot be deleted.
    const slots = (await owner.get(`/api/bookings/check-availability/?experience=${id}&date=${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}`)).json();
    const rateCategory = original.prices[0].pricing_category;
    await owner.post('/api/cart/lines/', { slot: slots[0].id, quantities: { [rateCategory]: 1 } });
    const booked = (await owner.post('/api/cart/checkout/', { customer: { email: 'x@example.com', first_name: 'X' } })).json();
    const refused = await owner.delete(`/api/experiences/${id}/`);
    expect(refused.statusCode).toBe(409);
    expect(err(refused)[0]!.detail).toBe('This offer has 1 booking: it cannot be deleted. Deactivate it instead.');
    await t.database.db.delete(booking).where(eq(booking.order_id, booked.id));
    // Deleting the original leaves the copy's picture in place.
    expect((await owner.delete(`/api/experiences/${id}/`)).statusCode).toBe(204);
    expect((await owner.get(c.images[0].url)).statusCode).toBe(200);
    expect((await owner.get(original.images[0].url)).statusCode).toBe(404);
  });

  it('lists with status and type filters, search, ordering and SQL pagination', async () => {
    const b = await createOrganisation(t.app, sink, { subdomain: 'listing' });
    for (const [title, type] of [['Alpha ride', 'Rental'], ['Beta bus', 'Transfer'], ['Gamma pass', 'Ticket & Passes'], ['Delta bike', 'Rental']] as const) {
      await b.post('/api/experiences/', { title, type, short_description: `${title} by the lake` });
    }
    const all = (await b.get('/api/experiences/?ordering=title&page_size=5')).json();
    expect(all.results.map((e: { title: string }) => e.title)).toEqual(['Alpha ride', 'Beta bus', 'Delta bike', 'Gamma pass']);
    expect(all.results[0]).toMatchObject({ status: 'Draft', cover_url: null, from_price: null, currency: 'EUR' });
    // An offer with a picture and a price shows both in the list (its cover's thumbnail, its lowest price).
    const sold = await sellableExperience(b, 'Epsilon cruise');
    const listed = (await b.get('/api/experiences/?search=Epsilon')).json().results[0];
    expect(listed).toMatchObject({ id: sold.id, from_price: 4900 });
    expect(listed.cover_url).toMatch(/^\/api\/media\//);
    expect((await b.get(listed.cover_url)).statusCode).toBe(200);
    expect((await b.get('/api/experiences/?type=Rental')).json().count).toBe(2);
    expect((await b.get('/api/experiences/?search=bus')).json().results[0].title).toBe('Beta bus');
    expect((await b.get('/api/experiences/?status=Active')).json().count).toBe(0);
    expect((await b.get('/api/experiences/?ordering=-title&page_size=5&page=1')).json().results[0].title).toBe('Gamma pass');
    expect(err(await b.get('/api/experiences/?status=Live'))[0]!.attr).toBe('status');
    expect(err(await b.get('/api/experiences/?ordering=price'))[0]!.attr).toBe('ordering');
    const paged = (await b.get('/api/experiences/?page_size=5&page=1&ordering=title')).json();
    expect(paged.total_pages).toBe(1);
  });

  it('is refused to a role without the permission set, and read-only for "View experiences"', async () => {
    const viewer = (await owner.post('/api/roles/', { name: 'Catalogue viewer', permission_sets: ['view_experiences'] })).json().id;
    const { member } = await inviteMember(t.app, sink, owner, 'lake', 'viewer@lake.test', viewer);
    expect((await member.get('/api/experiences/')).statusCode).toBe(200);
    expect((await member.post('/api/experiences/', { title: 'Sneaky', type: 'Rental' })).statusCode).toBe(403);
    expect((await member.post('/api/pricing-categories/', { type: 'Adult', label: 'x' })).statusCode).toBe(403);
    expect((await member.get('/api/inventory-items/')).statusCode).toBe(403);
    const none = (await owner.post('/api/roles/', { name: 'Nothing', permission_sets: [] })).json().id;
    const { member: nobody } = await inviteMember(t.app, sink, owner, 'lake', 'nobody@lake.test', none);
    expect((await nobody.get('/api/experiences/')).statusCode).toBe(403);
  });
});

describe('inventory', () => {
  it('keeps items with categories and tags, filters them, and refuses bad input', async () => {
    const cat = (await owner.post('/api/inventory-item-categories/', { name: 'Water sports' })).json();
    const item = await owner.post('/api/inventory-items/', { type: 'Equipment', name: 'Wetsuit', price: 1000, stock: 12, category: cat.id, tags: ['Neoprene', 'neoprene', 'Size M'] });
    expect(item.statusCode, item.body).toBe(201);
    expect(item.json()).toMatchObject({ category: { id: cat.id, name: 'Water sports' }, tags: ['neoprene', 'size m'], stock: 12 });
    expect((await owner.get(`/api/inventory-items/?tag=neoprene`)).json().count).toBe(1);
    // A partial update changes only what it names.
    const renamed = await owner.patch(`/api/inventory-items/${item.json().id}/`, { name: 'Wetsuit 5mm' });
    expect(renamed.json()).toMatchObject({ name: 'Wetsuit 5mm', category: { id: cat.id }, tags: ['neoprene', 'size m'], stock: 12 });
    expect((await owner.get(`/api/inventory-items/?type=Package`)).json().count).toBe(0);
    expect((await owner.get('/api/inventory-item-categories/')).json().results.find((c: { id: string }) => c.id === cat.id).item_count).toBe(1);
    expect(err(await owner.post('/api/inventory-items/', { type: 'Equipment', name: 'Board', price: 100, stock: -1 }))[0]!.attr).toBe('stock');
    expect(err(await owner.post('/api/inventory-items/', { type: 'Gadget', name: 'Board', price: 100 }))[0]!.attr).toBe('type');
    const theirCat = (await other.post('/api/inventory-item-categories/', { name: 'Theirs' })).json().id;
    expect(err(await owner.post('/api/inventory-items/', { type: 'Extras', name: 'x', price: 1, category: theirCat }))[0]!.attr).toBe('category');
  });
});

describe('the catalogue query at 10,000 experiences', () => {
  it('pages with an index, not a scan of every organisation’s experiences', async () => {
    const me = (await other.get('/api/users/me/')).json();
    const db = t.database.db;
    // 10,000 experiences for this organisation and 10,000 for each of three others.
    await db.execute(sql`insert into base_account (name, subdomain, kind) select 'Bulk ' || g, 'bulk-' || g, 'supplier' from generate_series(1, 3) g`);
    await db.execute(sql`
      insert into experience (account_id, title, type, status, updated_at)
      select a.id, 'Bulk tour ' || g, 'Rental', case when g % 3 = 0 then 'Active' else 'Draft' end, now() - make_interval(mins => g)
      from generate_series(1, 10000) g
      cross join (select id from base_account where subdomain like 'bulk-%' or id = ${me.base_account.id}::uuid) a`);
    await db.execute(sql`analyze experience`);
    const explain = (filter: ReturnType<typeof sql>) =>
      inTenant(db, me.base_account.id, async (tx) => {
        const rows = (await tx.execute(sql`explain select id from ${experience}
          where account_id = ${me.base_account.id}::uuid ${filter}
          order by updated_at desc, id desc limit 25 offset 25`)) as unknown as { rows: Record<string, string>[] };
        return rows.rows.map((r) => Object.values(r)[0]).join('\n');
      });
    const byStatus = await explain(sql`and status = 'Active'`);
    expect(byStatus, byStatus).toMatch(/Index (Only )?Scan using experience_account_status_idx/);
    const all = await explain(sql``);
    expect(all, all).toMatch(/Index (Only )?Scan using experience_account_updated_idx/);
    for (const plan of [byStatus, all]) expect(plan).not.toMatch(/Seq Scan|Sort/);
    const page = (await other.get('/api/experiences/?status=Active&page=2')).json();
    expect(page.count).toBe(3333);
    expect(page.results).toHaveLength(25);
  });
});
