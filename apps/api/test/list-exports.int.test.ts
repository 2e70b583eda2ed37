import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Lists export CSV (`{list}export.csv`): the same filters and order as the list, a column per field
 * people use, amounts in the currency's major unit, only the organisation's rows, the list's access.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'exports', currency: 'CHF' });
  other = await createOrganisation(t.app, sink, { subdomain: 'otherexports', currency: 'CHF' });
  const shop = (await owner.post('/api/stores/', { name: 'Lake shop', slug: 'lake' })).json().id;
  await owner.post('/api/stores/', { name: 'Town shop, old', slug: 'town', active: false });
  await owner.post('/api/qr-codes/', { name: 'Harbour poster', campaign: 'Summer', store: shop });
  await owner.post('/api/qr-codes/', { name: 'Hotel "Bellevue" desk', campaign: 'Hotels', store: shop });
  await other.post('/api/stores/', { name: 'Not theirs', slug: 'theirs' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const lines = (body: string) => body.trimEnd().split('\r\n');

describe('list exports', () => {
  it('exports the QR codes with their figures, as the list filters them', async () => {
    const res = await owner.get('/api/qr-codes/export.csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="qr-codes-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = lines(res.body);
    expect(rows[0]).toBe('name,campaign,ownership,leads_to,address,scans,last_scanned_at,orders,currency,revenue,created_at');
    expect(rows).toHaveLength(3);
    // A quote in a name is escaped as spreadsheets read it; amounts are plain numbers.
    expect(rows.find((r) => r.startsWith('"Hotel ""Bellevue"" desk"'))).toMatch(/,Hotels,Internal,Lake shop,http:\/\/exports\.localhost:3000\/q\/[a-z2-7]{8},0,,0,CHF,0\.00,/);
    expect(lines((await owner.get('/api/qr-codes/export.csv?search=harbour')).body)).toHaveLength(2);
  });

  it('exports the stores, filtered, and only the organisation’s own', async () => {
    const all = lines((await owner.get('/api/stores/export.csv')).body);
    expect(all[0]).toBe('name,address,active,currency,offers,payment_options,contact_email,created_at');
    expect(all.slice(1).map((r) => r.split(',')[0])).toEqual(['"Town shop', 'Lake shop']);
    expect(all.join('\n')).not.toContain('Not theirs');
    const active = lines((await owner.get('/api/stores/export.csv?active=true')).body);
    expect(active).toHaveLength(2);
    expect(active[1]).toMatch(/^Lake shop,http:\/\/exports\.localhost:3000\/s\/lake\/,yes,CHF,0,pay_on_site,,/);
    expect((await owner.get('/api/stores/export.csv?active=maybe')).statusCode).toBe(400);
  });

  it('exports the customers and the bookings, as their lists search and filter them', async () => {
    const exp = await sellableExperience(owner, 'Export walk');
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
    const slot = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn('UTC'), 2)}`)).json()[0].id;
    const sold = await owner.post('/api/orders/', { customer: { email: 'erik@example.com', first_name: 'Erik', last_name: 'Export', phone: '+41 79 123 45 67' }, lines: [{ slot, quantities: { [exp.category]: 2 } }] });
    expect(sold.statusCode, sold.body).toBe(201);
    const customers = lines((await owner.get('/api/customers/export.csv?search=erik')).body);
    expect(customers[0]).toBe('first_name,last_name,email,phone,country,company,marketing_consent,orders,currency,total_spent,created_at');
    // A phone number starting with + is kept from being read as a formula.
    expect(customers[1]).toMatch(/^Erik,Export,erik@example\.com,'\+41 79 123 45 67,,,no,1,CHF,0\.00,/); // nothing paid yet
    const bookings = lines((await owner.get('/api/bookings/export.csv?status=Confirmed')).body);
    expect(bookings[0]).toBe('starts_at,offer,order,ticket,guest,email,seats,items,status,attendance,currency,total');
    expect(bookings[1]).toContain(`,Export walk,${sold.json().reference},`);
    expect(bookings[1]).toMatch(/,Erik Export,erik@example\.com,2,2 Adult Export walk,Confirmed,Open,CHF,98\.00$/);
    expect(lines((await owner.get('/api/bookings/export.csv?status=Canceled')).body)).toHaveLength(1);
    expect(lines((await other.get('/api/bookings/export.csv')).body)).toHaveLength(1);
  });

  it('exports the catalogue, filtered as the list, with each offer’s “from” price', async () => {
    const draft = await owner.post('/api/experiences/', { title: 'Export draft', type: 'Rental', short_description: 'Not yet.' });
    expect(draft.statusCode, draft.body).toBe(201);
    const all = lines((await owner.get('/api/experiences/export.csv')).body);
    expect(all[0]).toBe('title,status,type,currency,from_price,duration_minutes,short_description,created_at,updated_at,id');
    expect(all.slice(1).map((r) => r.split(',').slice(0, 2).join(','))).toEqual(['Export draft,Draft', 'Export walk,Active']);
    const active = lines((await owner.get('/api/experiences/export.csv?status=Active')).body);
    expect(active).toHaveLength(2);
    expect(active[1]).toMatch(/^Export walk,Active,Ticket & Passes,CHF,49\.00,/);
    expect(lines((await other.get('/api/experiences/export.csv')).body)).toHaveLength(1);
    expect((await owner.get('/api/experiences/export.csv?status=Sold')).statusCode).toBe(400);
  });

  it('exports the pricing categories', async () => {
    const rows = lines((await owner.get('/api/pricing-categories/export.csv?type=Adult')).body);
    expect(rows[0]).toBe('label,type,min_age,max_age,occupies_seat,created_at');
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^Adult Export walk,Adult,,,yes,/)]);
    expect(lines((await other.get('/api/pricing-categories/export.csv')).body)).toHaveLength(1);
  });

  it('exports the inventory, filtered as the list', async () => {
    const cat = (await owner.post('/api/inventory-item-categories/', { name: 'Food' })).json().id;
    expect((await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Picnic lunch', price: 1850, tags: ['food', 'lunch'], category: cat, stock: 12 })).statusCode).toBe(201);
    expect((await owner.post('/api/inventory-items/', { type: 'Equipment', name: 'Wetsuit', price: 1000 })).statusCode).toBe(201);
    const all = lines((await owner.get('/api/inventory-items/export.csv')).body);
    expect(all[0]).toBe('name,type,category,tags,currency,price,stock,description,created_at');
    expect(all.slice(1).map((r) => r.split(',')[0])).toEqual(['Picnic lunch', 'Wetsuit']);
    expect(all[1]).toMatch(/^Picnic lunch,Extras,Food,food; lunch,CHF,18\.50,12,,/);
    expect(lines((await owner.get('/api/inventory-items/export.csv?type=Equipment')).body).slice(1)).toEqual([expect.stringMatching(/^Wetsuit,Equipment,,,CHF,10\.00,,,/)]);
    expect(lines((await other.get('/api/inventory-items/export.csv')).body)).toHaveLength(1);
    const categories = lines((await owner.get('/api/inventory-item-categories/export.csv')).body);
    expect(categories).toEqual(['name,items,created_at', expect.stringMatching(/^Food,1,/)]);
  });

  it('keeps the list’s access', async () => {
    const viewOnly = (await owner.post('/api/roles/', { name: 'Guide', permission_sets: ['view_experiences'] })).json().id;
    const { member } = await inviteMember(t.app, sink, owner, 'exports', 'guide@exports.test', viewOnly);
    // The roles: what each may do and who holds it.
    const roles = lines((await owner.get('/api/roles/export.csv')).body);
    expect(roles[0]).toBe('name,owner,permission_sets,members,created_at');
    expect(roles.slice(1)).toEqual(expect.arrayContaining([expect.stringMatching(/^Owner,yes,/), expect.stringMatching(/^Guide,no,View experiences,1,/)]));
    expect(lines((await other.get('/api/roles/export.csv')).body).join('\n')).not.toContain('Guide');
    expect((await member.get('/api/roles/export.csv')).statusCode).toBe(403);
    // The team, as the list filters it (the owner's view).
    const team = lines((await owner.get('/api/team-members/export.csv')).body);
    expect(team[0]).toBe('first_name,last_name,email,role,status,last_login,created_at');
    expect(team.slice(1).some((r) => r.includes(',guide@exports.test,Guide,active,'))).toBe(true);
    expect(lines((await owner.get(`/api/team-members/export.csv?role=${viewOnly}`)).body)).toHaveLength(2);
    expect(lines((await other.get('/api/team-members/export.csv')).body).join('\n')).not.toContain('@exports.test');
    expect((await member.get('/api/team-members/export.csv')).statusCode).toBe(403);
    expect((await member.get('/api/inventory-items/export.csv')).statusCode).toBe(403);
    expect((await member.get('/api/qr-codes/export.csv')).statusCode).toBe(403);
    expect((await member.get('/api/stores/export.csv')).statusCode).toBe(403);
    expect((await member.get('/api/customers/export.csv')).statusCode).toBe(403);
    expect((await member.get('/api/bookings/export.csv')).statusCode).toBe(403);
    // The guide may view the catalogue, so its export too.
    expect((await member.get('/api/experiences/export.csv')).statusCode).toBe(200);
  });
});
