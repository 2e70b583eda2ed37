import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZManifest, ZManifestDay, type TManifest } from '@tourdesk/contracts';
import { customer, order } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation, inviteMember } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Manifests and staff's tickets: a departure's manifest shows each booking's category split,
 * extras, answers, phone, what is left to pay and check-in, with totals per departure and per
 * category; its CSV and PDF say the same; a day lists every departure. Staff print the customer's
 * tickets (the same PDF the confirmation e-mail carries) and send them again through the job.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
let tour: { id: string; category: string };
let child: string;
let lunch: string;
let question: string;
let slotId: string;
const ZONE = 'Europe/Zurich';
const day = () => addDays(todayIn(ZONE), 3);
const orders: Record<'alpha' | 'beta' | 'gamma' | 'delta', { id: string; reference: string; bookings: { id: string; ticket_code: string }[]; customer: { id: string } }> = {} as never;

async function pdfPages(res: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer; body: string }) {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return pdfPagesOf(res.rawPayload);
}
async function pdfPagesOf(bytes: Buffer) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) pages.push((await (await doc.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' '));
  return pages;
}

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'manifest', currency: 'CHF', time_zone: ZONE });
  other = await createOrganisation(t.app, sink, { subdomain: 'elsewhere', currency: 'CHF', time_zone: ZONE });
  tour = await sellableExperience(owner, 'Harbour walk');
  child = (await owner.post('/api/pricing-categories/', { type: 'Child', label: 'Child' })).json().id;
  await owner.post('/api/pricing-rates/', { experience: tour.id, pricing_category: child, retail_price: 2500 });
  lunch = (await owner.post('/api/inventory-items/', { type: 'Extras', name: 'Lunch', price: 900 })).json().id;
  question = (await owner.post('/api/booking-questions/', { question: 'Allergies?', answer_type: 'text' })).json().id;
  expect((await owner.patch(`/api/experiences/${tour.id}/`, { extras: [lunch], booking_questions: [question], status: 'Active' })).statusCode).toBe(200);
  slotId = (await owner.get(`/api/bookings/check-availability/?experience=${tour.id}&date=${day()}`)).json()[0].id;

  const sell = async (who: string, first: string, last: string, lines: { quantities: Record<string, number>; extras?: Record<string, number> }[], more: Record<string, unknown> = {}) => {
    const res = await owner.post('/api/orders/', { customer: { email: `${who}@example.com`, first_name: first, last_name: last, phone: `+41 79 000 00 ${who.length}` }, lines: lines.map((l) => ({ slot: slotId, ...l })), ...more });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  orders.beta = await sell('beta', 'Bruno', 'Beta', [{ quantities: { [tour.category]: 1 } }]);
  orders.alpha = await sell('alpha', 'Anna', 'Alpha', [{ quantities: { [tour.category]: 2, [child]: 1 }, extras: { [lunch]: 2 } }], { answers: { [question]: 'Nuts' }, notes: 'Window seat' });
  orders.gamma = await sell('gamma', 'Carla', 'Gamma', [{ quantities: { [tour.category]: 1 } }]);
  orders.delta = await sell('delta', 'Dora', 'Delta', [{ quantities: { [tour.category]: 1 } }, { quantities: { [tour.category]: 1 } }]);
  // Alpha paid part, Beta all and arrived; Gamma's booking is cancelled.
  expect((await owner.post(`/api/orders/${orders.alpha.id}/payments/`, { amount: 5000, currency: 'CHF', method: 'cash' })).statusCode).toBe(201);
  expect((await owner.post(`/api/orders/${orders.beta.id}/payments/`, { amount: 4900, currency: 'CHF', method: 'cash' })).statusCode).toBe(201);
  expect((await owner.patch(`/api/bookings/${orders.beta.bookings[0]!.id}/attendance/`, { attendance: 'Arrived' })).statusCode).toBe(200);
  expect((await owner.post(`/api/bookings/${orders.gamma.bookings[0]!.id}/cancel/`)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('a departure’s manifest', () => {
  let m: TManifest;
  it('lists each booking with its category split, extras, answers, phone, balance and check-in', async () => {
    const res = await owner.get(`/api/manifests/${slotId}/`);
    expect(res.statusCode, res.body).toBe(200);
    m = ZManifest.parse(res.json());
    expect(m).toMatchObject({ slot: slotId, experience_title: 'Harbour walk', local_date: day(), local_time: '10:00', time_zone: ZONE, capacity: 8, currency: 'CHF' });
    // By guest name; the cancelled booking is not on it; Delta's two bookings both are.
    expect(m.bookings.map((b) => b.customer.last_name)).toEqual(['Alpha', 'Beta', 'Delta', 'Delta']);
    const [alpha, beta, delta1, delta2] = m.bookings;
    expect(alpha).toMatchObject({
      order_reference: orders.alpha.reference,
      ticket_code: orders.alpha.bookings[0]!.ticket_code,
      seats: 3,
      categories: [
        { id: tour.category, label: 'Adult Harbour walk', quantity: 2 },
        { id: child, label: 'Child', quantity: 1 },
      ],
      extras: [{ id: lunch, label: 'Lunch', quantity: 2 }],
      answers: [{ question: 'Allergies?', answer: 'Nuts' }],
      customer: { first_name: 'Anna', phone: '+41 79 000 00 5', email: 'alpha@example.com' },
      // 2 × 49.00 + 25.00 + 2 × 9.00 = 141.00, 50.00 paid.
      balance_due: 9100,
      attendance: 'Open',
      notes: 'Window seat',
    });
    expect(beta).toMatchObject({ attendance: 'Arrived', balance_due: 0 });
    expect(beta!.checked_in_at).not.toBeNull();
    // An order's balance is counted once, on its first booking of the departure.
    expect([delta1!.balance_due, delta2!.balance_due]).toEqual([9800, 0]);
  });

  it('adds up per departure and per category', () => {
    expect(m.totals).toEqual({
      bookings: 4,
      seats: 6,
      arrived: 1,
      no_show: 0,
      categories: [
        { id: tour.category, label: 'Adult Harbour walk', quantity: 5 },
        { id: child, label: 'Child', quantity: 1 },
      ],
      extras: [{ id: lunch, label: 'Lunch', quantity: 2 }],
      balance_due: 18900,
    });
  });

  it('exports the same as CSV, a line per booking and the total', async () => {
    const res = await owner.get(`/api/manifests/${slotId}/export.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="manifest-${day()}-1000.csv"`);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,time,offer,order,ticket,status,check_in,guest,phone,email,seats,categories,extras,answers,currency,balance_due,notes,guides');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toBe(
      `${day()},10:00,Harbour walk,${orders.alpha.reference},${orders.alpha.bookings[0]!.ticket_code},Confirmed,Open,Anna Alpha,'+41 79 000 00 5,alpha@example.com,3,"2 Adult Harbour walk, 1 Child",2 Lunch,Allergies?: Nuts,CHF,91.00,Window seat,`,
    );
    expect(lines[2]).toContain(',Bruno Beta,');
    expect(lines[2]).toMatch(/,Confirmed,Arrived \d\d:\d\d,Bruno Beta,/);
    expect(lines[5]).toBe(`${day()},10:00,Harbour walk,TOTAL,,4 bookings,1 arrived,,,,6,"5 Adult Harbour walk, 1 Child",2 Lunch,,CHF,189.00,,`);
  });

  it('prints as a PDF: the departure, each guest with phone and split, and the totals', async () => {
    const pages = await pdfPages(await owner.get(`/api/manifests/${slotId}/manifest.pdf`));
    expect(pages).toHaveLength(1);
    const text = pages[0]!;
    for (const s of ['Harbour walk', '10:00', '6 of 8 seats', 'Anna Alpha', '+41 79 000 00 5', '2 Adult Harbour walk, 1 Child', '2 Lunch', 'Allergies?: Nuts', 'Note: Window seat', 'CHF 91.00', 'Arrived', 'Total: 6 seats in 4 bookings', 'To pay on site: CHF 189.00', 'By category: 5 Adult Harbour walk, 1 Child']) {
      expect(text).toContain(s);
    }
    expect(text).not.toContain('Carla');
  });

  it('writes its times in the organisation’s 12-hour setting in the CSV and the PDF', async () => {
    expect((await owner.patch('/api/product-configuration/', { time_format: '12h' })).statusCode).toBe(200);
    try {
      const lines = (await owner.get(`/api/manifests/${slotId}/export.csv`)).body.trimEnd().split('\r\n');
      expect(lines[2]).toMatch(/,Confirmed,Arrived \d{1,2}:\d\d [ap]m,Bruno Beta,/);
      const text = (await pdfPages(await owner.get(`/api/manifests/${slotId}/manifest.pdf`)))[0]!;
      expect(text).toMatch(/, 10:00 am–\d{1,2}:\d\d [ap]m \(Europe\/Zurich\)/);
      expect(text).toMatch(/Printed \d{1,2} \w{3} \d{4}, \d{1,2}:\d\d [ap]m/);
      expect(text).toMatch(/Arrived \d{1,2}:\d\d [ap]m/);
    } finally {
      await owner.patch('/api/product-configuration/', { time_format: '24h' });
    }
  });

  it('lists every departure of a day with the day’s totals, as JSON, CSV and PDF', async () => {
    const res = await owner.get(`/api/manifests/?date=${day()}`);
    expect(res.statusCode, res.body).toBe(200);
    const d = ZManifestDay.parse(res.json());
    expect(d).toMatchObject({ date: day(), time_zone: ZONE });
    expect(d.departures.map((x) => x.slot)).toEqual([slotId]);
    expect(d.totals).toEqual(m.totals);
    const csv = await owner.get(`/api/manifests/export.csv?date=${day()}`);
    expect(csv.body.trimEnd().split('\r\n')).toHaveLength(6);
    expect((await pdfPages(await owner.get(`/api/manifests/manifests.pdf?date=${day()}`)))[0]).toContain('Anna Alpha');
    // A day without departures is an empty manifest, not an error.
    const empty = ZManifestDay.parse((await owner.get('/api/manifests/?date=2001-01-01')).json());
    expect(empty.departures).toEqual([]);
    expect(empty.totals.seats).toBe(0);
  });

  it('refuses bad input in the envelope, and another organisation finds nothing', async () => {
    const bad = await owner.get('/api/manifests/?date=2026-13-45');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().type).toBe('validation_error');
    expect((await owner.get('/api/manifests/')).statusCode).toBe(400);
    expect((await owner.get('/api/manifests/not-an-id/')).statusCode).toBe(400);
    for (const path of [`/api/manifests/${slotId}/`, `/api/manifests/${slotId}/export.csv`, `/api/manifests/${slotId}/manifest.pdf`, `/api/orders/${orders.alpha.id}/tickets.pdf`, `/api/orders/${orders.alpha.id}/confirmation.pdf`, `/api/bookings/${orders.alpha.bookings[0]!.id}/tickets.pdf`]) {
      const res = await other.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().type).toBe('client_error');
    }
    expect((await other.post(`/api/orders/${orders.alpha.id}/send-tickets/`)).statusCode).toBe(404);
    // The other organisation's day shows none of this one's departures.
    expect((await other.get(`/api/manifests/?date=${day()}`)).json().departures).toEqual([]);
  });

  it('is open to every role that may check in; phones and e-mails need Manage customers, balances Manage orders', async () => {
    const withOrders = (await owner.post('/api/roles/', { name: 'Guides with orders', permission_sets: ['manage_orders', 'view_experiences'] })).json().id;
    const viewOnly = (await owner.post('/api/roles/', { name: 'Guides', permission_sets: ['view_experiences'] })).json().id;
    const nothing = (await owner.post('/api/roles/', { name: 'Nothing', permission_sets: [] })).json().id;
    const { member: office } = await inviteMember(t.app, sink, owner, 'manifest', 'office@manifest.test', withOrders);
    const { member: guide } = await inviteMember(t.app, sink, owner, 'manifest', 'guide@manifest.test', viewOnly);
    const { member: none } = await inviteMember(t.app, sink, owner, 'manifest', 'none@manifest.test', nothing);

    // The guide: names, splits, extras, answers and notes; no phone, no e-mail, no balance anywhere.
    const seen = ZManifest.parse((await guide.get(`/api/manifests/${slotId}/`)).json());
    const anna = seen.bookings.find((b) => b.customer.first_name === 'Anna')!;
    expect(anna).toMatchObject({ customer: { email: null, phone: null }, balance_due: null, seats: 3, notes: 'Window seat', answers: [{ question: 'Allergies?', answer: 'Nuts' }] });
    expect(seen.totals.balance_due).toBeNull();
    const csv = (await guide.get(`/api/manifests/${slotId}/export.csv`)).body.trimEnd().split('\r\n');
    expect(csv[0]).toBe('date,time,offer,order,ticket,status,check_in,guest,seats,categories,extras,answers,notes,guides');
    expect(csv.join('\n')).not.toMatch(/\+41|@example\.com|91\.00/);
    const pdf = (await pdfPages(await guide.get(`/api/manifests/${slotId}/manifest.pdf`)))[0]!;
    expect(pdf).toContain('Anna Alpha');
    expect(pdf).not.toMatch(/\+41|To pay|CHF 91/);
    expect(JSON.stringify((await guide.get(`/api/manifests/?date=${day()}`)).json())).not.toMatch(/\+41|@example\.com/);

    // Manage orders without Manage customers: balances, still no contacts.
    const fromOffice = ZManifest.parse((await office.get(`/api/manifests/${slotId}/`)).json());
    expect(fromOffice.bookings.find((b) => b.customer.first_name === 'Anna')).toMatchObject({ customer: { email: null, phone: null }, balance_due: 9100 });
    expect((await office.get(`/api/manifests/${slotId}/export.csv`)).body.split('\r\n')[0]).toBe('date,time,offer,order,ticket,status,check_in,guest,seats,categories,extras,answers,currency,balance_due,notes,guides');

    // A role that may not check in reads no manifest; tickets stay for Manage orders.
    expect((await none.get(`/api/manifests/${slotId}/`)).statusCode).toBe(403);
    expect((await guide.get(`/api/orders/${orders.alpha.id}/tickets.pdf`)).statusCode).toBe(403);
    expect((await office.get(`/api/orders/${orders.alpha.id}/tickets.pdf`)).statusCode).toBe(200);
  });
});

describe('staff’s tickets and confirmations', () => {
  it('prints an order’s tickets: a page and QR code per booking with its ticket code', async () => {
    const pages = await pdfPages(await owner.get(`/api/orders/${orders.delta.id}/tickets.pdf`));
    expect(pages).toHaveLength(2);
    // A page per booking, each with its own code (the bookings of one slot come in any order).
    const codes = orders.delta.bookings.map((b) => b.ticket_code);
    expect(pages.map((p) => codes.filter((c) => p.includes(c)))).toEqual(expect.arrayContaining([[codes[0]], [codes[1]]]));
    const one = await pdfPages(await owner.get(`/api/bookings/${orders.delta.bookings[1]!.id}/tickets.pdf`));
    expect(one).toHaveLength(1);
    expect(one[0]).toContain(orders.delta.bookings[1]!.ticket_code);
    const cancelled = await owner.get(`/api/bookings/${orders.gamma.bookings[0]!.id}/tickets.pdf`);
    expect(cancelled.statusCode).toBe(409);
  });

  it('downloads the order confirmation: items, prices, paid and left to pay', async () => {
    const [text] = await pdfPages(await owner.get(`/api/orders/${orders.alpha.id}/confirmation.pdf`));
    for (const s of ['Order confirmation', orders.alpha.reference, 'Anna Alpha', 'Harbour walk', '2 x Adult Harbour walk', 'CHF 98.00', '1 x Child', '2 x Lunch', 'CHF 141.00', 'CHF 50.00', 'To pay on site', 'CHF 91.00', orders.alpha.bookings[0]!.ticket_code]) {
      expect(text).toContain(s);
    }
  });

  it('e-mails the tickets and the confirmation again through the order e-mail job, in the audit trail', async () => {
    const before = sink.countTo('alpha@example.com');
    const res = await owner.post(`/api/orders/${orders.alpha.id}/send-tickets/`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ to: 'alpha@example.com', detail: 'The tickets and the order confirmation are on their way to alpha@example.com.' });
    const mail = await sink.latest('alpha@example.com', /Your booking/);
    expect(sink.countTo('alpha@example.com')).toBe(before + 1);
    expect(mail.subject).toBe(`Your booking ${orders.alpha.reference} with manifest tours`);
    expect(mail.text).toContain(orders.alpha.bookings[0]!.ticket_code);
    expect(mail.text).toContain('again');
    // A back-office order has no booking page: no link is promised.
    expect(mail.text).not.toContain('http');
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([`booking-${orders.alpha.reference}.ics`, `confirmation-${orders.alpha.reference}.pdf`, `tickets-${orders.alpha.reference}.pdf`]);
    // The same tickets as staff print.
    const mailed = await pdfPagesOf(mail.attachments.find((a) => a.filename.startsWith('tickets-'))!.content);
    const printed = await pdfPages(await owner.get(`/api/orders/${orders.alpha.id}/tickets.pdf`));
    expect(mailed).toEqual(printed);
    const audit = (await owner.get(`/api/orders/${orders.alpha.id}/audit/`)).json() as { action: string; changes: Record<string, unknown>; actor: { name: string } | null }[];
    const sent = audit.find((e) => e.action === 'tickets e-mailed');
    expect(sent).toMatchObject({ changes: { to: 'alpha@example.com', tickets: 1 }, actor: { name: 'Olga Owner' } });
  });

  it('answers a clear 400 for an order whose customer has no e-mail address, and sends nothing', async () => {
    // An order from before orders kept the details given with them (none of its own), its customer without an address.
    await t.database.asOwner((db) => db.update(customer).set({ email: '' }).where(eq(customer.id, orders.beta.customer.id)));
    await t.database.asOwner((db) => db.update(order).set({ customer_email: null }).where(eq(order.id, orders.beta.id)));
    const res = await owner.post(`/api/orders/${orders.beta.id}/send-tickets/`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ attr: 'customer.email', detail: expect.stringContaining('no e-mail address') });
    const audit = (await owner.get(`/api/orders/${orders.beta.id}/audit/`)).json() as { action: string }[];
    expect(audit.some((e) => e.action === 'tickets e-mailed')).toBe(false);
  });

  it('refuses to send the tickets of an order whose bookings are all cancelled', async () => {
    const res = await owner.post(`/api/orders/${orders.gamma.id}/send-tickets/`);
    expect(res.statusCode).toBe(409);
  });
});
