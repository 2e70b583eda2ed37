import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProductConfiguration, TICKET_FIELDS } from '@tourdesk/contracts';
import { baseAccount, booking } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Product configuration: how times read (the session's base account says it), new offers' default
 * cancellation policy, the booking cut-off and hold, VAT per offer type (an order's lines are taxed
 * at the offer's own rate, else its type's, else the organisation's), and what tickets show.
 */
const ZONE = 'Europe/Zurich';
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
const err = (res: { json(): unknown }) => (res.json() as { errors: { code: string; detail: string; attr: string | null }[] }).errors[0]!;

async function pdfText(res: { statusCode: number; rawPayload: Buffer; body: string }) {
  expect(res.statusCode, res.body).toBe(200);
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(res.rawPayload) }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) pages.push((await (await doc.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' '));
  return pages.join('\n');
}

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'config', currency: 'CHF', time_zone: ZONE });
  other = await createOrganisation(t.app, sink, { subdomain: 'otherconfig', currency: 'CHF', time_zone: ZONE });
  const me = (await owner.get('/api/users/me/')).json();
  await t.database.db.update(baseAccount).set({ vat_rate_bp: 810 }).where(eq(baseAccount.id, me.base_account.id));
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('product configuration', () => {
  it('starts from the defaults and refuses bad values on their fields', async () => {
    const res = await owner.get('/api/product-configuration/');
    expect(res.statusCode, res.body).toBe(200);
    expect(ZProductConfiguration.parse(res.json())).toEqual({
      time_zone: ZONE,
      currency: 'CHF',
      time_format: '24h',
      default_capacity: 10,
      booking_cutoff_minutes: 0,
      hold_minutes: 15,
      voucher_validity_months: 36,
      default_cancellation_policy: null,
      vat_rates_by_type: {},
      vat_rate_bp: 810,
      ticket_fields: [...TICKET_FIELDS],
      languages: ['en'],
    });
    expect(err(await owner.patch('/api/product-configuration/', { hold_minutes: 5 })).attr).toBe('hold_minutes');
    expect(err(await owner.patch('/api/product-configuration/', { voucher_validity_months: 0 })).attr).toBe('voucher_validity_months');
    expect(err(await owner.patch('/api/product-configuration/', { voucher_validity_months: 121 })).attr).toBe('voucher_validity_months');
    expect(err(await owner.patch('/api/product-configuration/', { default_capacity: 0 })).attr).toBe('default_capacity');
    expect(err(await owner.patch('/api/product-configuration/', { time_format: '13h' })).attr).toBe('time_format');
    expect((await owner.patch('/api/product-configuration/', { vat_rates_by_type: { Boat: 700 } })).statusCode).toBe(400);
    expect(err(await owner.patch('/api/product-configuration/', { vat_rates_by_type: { Rental: 10001 } })).attr).toMatch(/^vat_rates_by_type/);
    expect(err(await owner.patch('/api/product-configuration/', { ticket_fields: ['qr'] })).attr).toMatch(/^ticket_fields/);
    // Another organisation's policy is no default of this one's.
    const theirs = (await other.post('/api/cancellation-policies/', { name: 'Theirs', rules: [{ hours_before: 24, refund_percent: 100 }] })).json().id;
    expect(err(await owner.patch('/api/product-configuration/', { default_cancellation_policy: theirs })).attr).toBe('default_cancellation_policy');
  });

  it('is for those who manage the account', async () => {
    const viewOnly = (await owner.post('/api/roles/', { name: 'Guide', permission_sets: ['view_experiences'] })).json().id;
    const { member } = await inviteMember(t.app, sink, owner, 'config', 'guide@config.test', viewOnly);
    expect((await member.get('/api/product-configuration/')).statusCode).toBe(403);
    expect((await member.patch('/api/product-configuration/', { time_format: '12h' })).statusCode).toBe(403);
  });

  it('gives new offers the default cancellation policy', async () => {
    const policy = (await owner.post('/api/cancellation-policies/', { name: 'Free until a day before', rules: [{ hours_before: 24, refund_percent: 100 }] })).json().id;
    const saved = await owner.patch('/api/product-configuration/', { default_cancellation_policy: policy, default_capacity: 14, booking_cutoff_minutes: 60, hold_minutes: 20, voucher_validity_months: 24 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ default_cancellation_policy: policy, default_capacity: 14, booking_cutoff_minutes: 60, hold_minutes: 20, voucher_validity_months: 24 });
    expect((await owner.get('/api/bookings/config/')).json()).toMatchObject({ hold_minutes: 20, default_cutoff_minutes: 60 });
    const made = (await owner.post('/api/experiences/', { title: 'Glacier walk', type: 'Ticket & Passes' })).json();
    expect(made.cancellation_policy).toBe(policy);
    // One that names its own (or none) keeps it.
    expect((await owner.post('/api/experiences/', { title: 'Cave walk', type: 'Ticket & Passes', cancellation_policy: null })).json().cancellation_policy).toBeNull();
  });

  it('taxes a line at the offer’s own rate, else its type’s, else the organisation’s', async () => {
    expect((await owner.patch('/api/product-configuration/', { vat_rates_by_type: { Rental: 770, Transfer: 260 } })).json().vat_rates_by_type).toEqual({ Rental: 770, Transfer: 260 });
    expect((await owner.patch('/api/product-configuration/', { vat_rates_by_type: { Transfer: null } })).json().vat_rates_by_type).toEqual({ Rental: 770 });
    const rental = await sellableExperience(owner, 'Bike rental');
    const ticket = await sellableExperience(owner, 'Museum ticket');
    const own = await sellableExperience(owner, 'Boat rental');
    expect((await owner.patch(`/api/experiences/${rental.id}/`, { type: 'Rental', status: 'Active' })).statusCode).toBe(200);
    expect((await owner.patch(`/api/experiences/${ticket.id}/`, { status: 'Active' })).statusCode).toBe(200);
    expect((await owner.patch(`/api/experiences/${own.id}/`, { type: 'Rental', vat_rate_bp: 250, status: 'Active' })).statusCode).toBe(200);
    const day = addDays(todayIn(ZONE), 2);
    const rateOf = async (exp: { id: string; category: string }) => {
      const slot = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${day}`)).json()[0].id;
      const o = await owner.post('/api/orders/', { customer: { email: `${exp.id.slice(0, 6)}@example.com`, first_name: 'Vera' }, lines: [{ slot, quantities: { [exp.category]: 1 } }] });
      expect(o.statusCode, o.body).toBe(201);
      const [line] = await t.database.db.select({ rate: booking.tax_rate_bp }).from(booking).where(eq(booking.order_id, o.json().id));
      return line!.rate;
    };
    expect(await rateOf(rental)).toBe(770);
    expect(await rateOf(ticket)).toBe(810);
    expect(await rateOf(own)).toBe(250);
  });

  it('prints tickets with the fields chosen and times as the organisation reads them', async () => {
    const exp = await sellableExperience(owner, 'Harbour walk');
    expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
    const slot = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(ZONE), 3)}`)).json()[0].id;
    const o = (await owner.post('/api/orders/', { customer: { email: 'tina@example.com', first_name: 'Tina', last_name: 'Ticket' }, lines: [{ slot, quantities: { [exp.category]: 2 } }] })).json();
    const full = await pdfText(await owner.get(`/api/orders/${o.id}/tickets.pdf`));
    for (const s of ['Tina Ticket', `Order ${o.reference}`, 'To pay on site', '2 × Adult Harbour walk', '10:00']) expect(full).toContain(s);
    const saved = await owner.patch('/api/product-configuration/', { ticket_fields: ['items'], time_format: '12h' });
    expect(saved.json()).toMatchObject({ ticket_fields: ['items'], time_format: '12h' });
    expect((await owner.get('/api/users/me/')).json().base_account.time_format).toBe('12h');
    const short = await pdfText(await owner.get(`/api/orders/${o.id}/tickets.pdf`));
    expect(short).toContain('2 × Adult Harbour walk');
    expect(short).toMatch(/10:00\s*am/i);
    for (const s of ['Tina Ticket', `Order ${o.reference}`, 'To pay on site']) expect(short).not.toContain(s);
  });
});
