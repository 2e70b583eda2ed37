import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../src/lib/local-time';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * A counter sale with "E-mail the confirmation" ticked sends the customer the confirmation with
 * their tickets and calendar file, as a web order's does, queued with the sale: once, even when the
 * submission is retried; unticked, nothing is sent.
 */
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let exp: { id: string; category: string };
const ZONE = 'Europe/Zurich';
let n = 0;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'till', currency: 'CHF', time_zone: ZONE });
  exp = await sellableExperience(owner, 'Lake cruise');
  expect((await owner.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** A line of two adults held in the owner's cart, on a day of its own. */
async function heldLine() {
  n += 1;
  const slot = (await owner.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${addDays(todayIn(ZONE), 2 + n)}`)).json()[0].id as string;
  const res = await owner.post('/api/cart/lines/', { slot, quantities: { [exp.category]: 2 } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
const customer = (who: string) => ({ email: `${who}@example.com`, first_name: 'Till', last_name: who });
const audit = async (order: string) => ((await owner.get(`/api/orders/${order}/audit/`)).json() as { action: string; changes: Record<string, unknown> }[]).map((e) => e.action);

describe('a counter sale’s confirmation e-mail', () => {
  it('ticked: the customer gets the confirmation with their tickets and calendar file, and the audit trail says so', async () => {
    const res = await owner.post('/api/cart/checkout/', { customer: customer('ticked'), lines: [await heldLine()], send_confirmation: true });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json() as { id: string; reference: string; bookings: { ticket_code: string }[] };
    const mail = await sink.latest('ticked@example.com', /Your booking/);
    expect(mail.subject).toBe(`Your booking ${order.reference} with till tours`);
    expect(mail.text).toContain(order.bookings[0]!.ticket_code);
    expect(mail.text).not.toContain('again');
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([`booking-${order.reference}.ics`, `tickets-${order.reference}.pdf`]);
    expect(await audit(order.id)).toContain('confirmation e-mailed');
  });

  it('unticked (or left out, as API callers do): nothing is sent', async () => {
    const res = await owner.post('/api/cart/checkout/', { customer: customer('unticked'), lines: [await heldLine()], send_confirmation: false });
    expect(res.statusCode, res.body).toBe(201);
    const left = await owner.post('/api/cart/checkout/', { customer: customer('leftout'), lines: [await heldLine()] });
    expect(left.statusCode, left.body).toBe(201);
    // A later sale's e-mail has arrived, so these two would have by now.
    await owner.post('/api/cart/checkout/', { customer: customer('marker'), lines: [await heldLine()], send_confirmation: true });
    await sink.latest('marker@example.com', /Your booking/);
    expect(sink.countTo('unticked@example.com')).toBe(0);
    expect(sink.countTo('leftout@example.com')).toBe(0);
    expect(await audit(res.json().id)).not.toContain('confirmation e-mailed');
  });

  it('a retried submission (same Idempotency-Key) sends it once', async () => {
    const body = { customer: customer('retried'), lines: [await heldLine()], send_confirmation: true };
    const send = () => owner.request('POST', '/api/cart/checkout/', body, { 'idempotency-key': 'counter-confirmation-1' });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    await sink.latest('retried@example.com', /Your booking/);
    await owner.post('/api/cart/checkout/', { customer: customer('marker2'), lines: [await heldLine()], send_confirmation: true });
    await sink.latest('marker2@example.com', /Your booking/);
    expect(sink.countTo('retried@example.com')).toBe(1);
  });
});
