import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCounterOffer, ZResaleDetail, type TSlot } from '@tourdesk/contracts';
import { auditEvent, booking, partnership } from '../src/db/schema';
import { createTestApp, type TestApp } from './harness';
import { startMailSink, type MailSink } from './mail-sink';
import { day, resaleWorld } from './resale-fixtures';

/**
 * A reseller sells its supplier's shared offer at its own counter (the back office's checkout):
 * the offers its Active contracts share, their departures from the supplier's seats on the days the
 * contract is valid, and a sale booked at once in the supplier's books, named as the reseller's
 * resale with the contract's commission; the reseller reads it as its resale, never as an order.
 */
let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;
let contract: typeof partnership.$inferSelect;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'ctr');
  contract = await w.contract({ commission_bp: 1200, payment_collector: 'reseller' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const seatsLeft = async (n: number) => (await w.supplier.get(`/api/bookings/check-availability/?experience=${w.exp.id}&date=${day(n)}`)).json()[0].remaining as number;
const sale = (slot: string, adults: number, extra: Record<string, unknown> = {}) => ({
  experience: w.exp.id,
  slot,
  quantities: { [w.exp.category]: adults },
  customer: { email: 'cora@example.com', first_name: 'Cora', last_name: 'Counter', phone: '+41 79 555 00 00' },
  reference: 'Room 12',
  ...extra,
});

describe('selling a partner’s offer at the counter', () => {
  it('lists the offers the reseller’s Active contracts share, with what the booking asks', async () => {
    const list = await w.reseller.get('/api/resales/counter/offers/');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ count: 1, results: [{ id: w.exp.id, title: 'ctr kayak', partnership_id: contract.id, currency: 'CHF', supplier: { id: w.ids.supplier } }] });
    const offer = ZCounterOffer.parse((await w.reseller.get(`/api/resales/counter/offers/${w.exp.id}/`)).json());
    expect(offer).toMatchObject({ time_zone: 'Europe/Zurich', pricing: 'commission', commission_bp: 1200 });
    expect(offer.categories.map((c) => c.id)).toContain(w.exp.category);
    // Nobody else sees it: not the third organisation, not the supplier as a reseller of itself.
    expect((await w.third.get('/api/resales/counter/offers/')).json().count).toBe(0);
    expect((await w.third.get(`/api/resales/counter/offers/${w.exp.id}/`)).statusCode).toBe(404);
    expect((await w.supplier.get(`/api/resales/counter/offers/${w.exp.id}/`)).statusCode).toBe(404);
    // The supplier's offer editor counts the partner whose live contract shares it.
    expect((await w.supplier.get(`/api/experiences/${w.exp.id}/channels/`)).json()).toMatchObject({ partners: 1 });
  });

  it('shows its departures from the supplier’s seats', async () => {
    const res = await w.reseller.get(`/api/resales/counter/offers/${w.exp.id}/slots/?from=${day(30)}&to=${day(31)}`);
    expect(res.statusCode, res.body).toBe(200);
    const slots = res.json() as TSlot[];
    expect(slots.map((s) => s.local_date)).toEqual([day(30), day(31)]);
    expect(slots[0]!.remaining).toBe(await seatsLeft(30));
    expect((await w.reseller.get(`/api/resales/counter/offers/${w.exp.id}/slots/?from=${day(31)}&to=${day(30)}`)).statusCode).toBe(400);
  });

  it('books at once in the supplier’s books: the seats drop, the order is the reseller’s resale with its commission', async () => {
    const slot = await w.slotOn(32);
    const before = await seatsLeft(32);
    const res = await w.reseller.post('/api/resales/counter/', sale(slot, 3));
    expect(res.statusCode, res.body).toBe(201);
    const resale = ZResaleDetail.parse(res.json());
    expect(resale).toMatchObject({ side: 'reseller', reseller_reference: 'Room 12', supplier: { id: w.ids.supplier }, reseller: { id: w.ids.reseller }, customer: { name: 'Cora Counter', email: null, phone: null } });
    expect(resale.lines).toHaveLength(1);
    expect(resale.commission).toBe(Math.floor((resale.gross * 1200) / 10_000));
    expect(await seatsLeft(32)).toBe(before - 3);

    // The supplier's order: its customer, its seats, the partnership and the commission on the line, and who sold it.
    const [line] = await t.database.db.select().from(booking).where(eq(booking.order_id, resale.id));
    expect(line).toMatchObject({ partnership_id: contract.id, reseller_account_id: w.ids.reseller, commission: resale.commission, seats: 3 });
    const order = (await w.supplier.get(`/api/orders/${resale.id}/`)).json();
    expect(order).toMatchObject({ reference: resale.reference, status: 'Confirmed' });
    const trail = await t.database.db.select().from(auditEvent).where(eq(auditEvent.order_id, resale.id));
    expect(trail.find((e) => e.action === 'resold')?.changes).toMatchObject({ counter: true, sold_by: expect.stringContaining('@'), reseller_reference: 'Room 12' });
    // The reseller reads it as its resale; the order itself is not its own.
    expect((await w.reseller.get(`/api/resales/${resale.id}/`)).statusCode).toBe(200);
    expect((await w.reseller.get(`/api/orders/${resale.id}/`)).statusCode).not.toBe(200);
  });

  it('with "E-mail the confirmation" ticked, the customer gets it with their tickets, from the supplier', async () => {
    const res = await w.reseller.post('/api/resales/counter/', sale(await w.slotOn(36), 1, { customer: { email: 'cora.mail@example.com', first_name: 'Cora', last_name: 'Mail' }, send_confirmation: true }));
    expect(res.statusCode, res.body).toBe(201);
    const resale = ZResaleDetail.parse(res.json());
    const mail = await sink.latest('cora.mail@example.com', /Your booking/);
    expect(mail.subject).toBe(`Your booking ${resale.reference} with ctr-sup tours`);
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([`booking-${resale.reference}.ics`, `tickets-${resale.reference}.pdf`]);
    const trail = await t.database.db.select().from(auditEvent).where(eq(auditEvent.order_id, resale.id));
    expect(trail.map((e) => e.action)).toContain('confirmation e-mailed');
  });

  it('refuses what the supplier’s counter refuses, in the form’s fields, and sells nothing', async () => {
    const slot = await w.slotOn(33);
    const before = await seatsLeft(33);
    const tooMany = await w.reseller.post('/api/resales/counter/', sale(slot, before + 1));
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().errors[0]).toMatchObject({ code: 'sold_out', attr: 'quantities' });
    const none = await w.reseller.post('/api/resales/counter/', sale(slot, 0));
    expect(none.statusCode).toBe(400);
    const other = await w.reseller.post('/api/resales/counter/', sale(await w.slotOn(34), 1, { experience: '00000000-0000-4000-8000-000000000000' }));
    expect(other.statusCode).toBe(404);
    const badSlot = await w.reseller.post('/api/resales/counter/', sale('00000000-0000-4000-8000-000000000000', 1));
    expect(badSlot.json().errors[0]).toMatchObject({ attr: 'slot' });
    expect((await w.reseller.post('/api/resales/counter/', { ...sale(slot, 1), customer: { email: 'nope' } })).statusCode).toBe(400);
    expect(await seatsLeft(33)).toBe(before);
  });

  it('sells nothing under a suspended contract or outside its validity', async () => {
    const slot = await w.slotOn(35);
    await t.database.db.update(partnership).set({ valid_to: day(34) }).where(eq(partnership.id, contract.id));
    expect((await w.reseller.get(`/api/resales/counter/offers/${w.exp.id}/slots/?from=${day(34)}&to=${day(35)}`)).json().map((s: TSlot) => s.local_date)).toEqual([day(34)]);
    const late = await w.reseller.post('/api/resales/counter/', sale(slot, 1));
    expect(late.statusCode).toBe(409);
    expect(late.json().errors[0].detail).toBe(`The contract ended on ${day(34)}.`);
    await t.database.db.update(partnership).set({ valid_to: null, status: 'Suspended' }).where(eq(partnership.id, contract.id));
    expect((await w.reseller.get('/api/resales/counter/offers/')).json().count).toBe(0);
    expect((await w.reseller.post('/api/resales/counter/', sale(slot, 1))).statusCode).toBe(404);
    await t.database.db.update(partnership).set({ status: 'Active' }).where(eq(partnership.id, contract.id));
  });
});
