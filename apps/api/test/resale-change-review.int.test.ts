import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booking } from '../src/db/schema';
import { createTestApp, type TestApp } from './harness';
import { startMailSink, type MailSink } from './mail-sink';
import { resaleWorld } from './resale-fixtures';

/**
 * Review: a resold line's commission is fixed at sale. Changing the line's quantities in the
 * supplier's back office priced it anew and kept the commission of what was sold, so a line cut
 * from 10 seats to 1 owed the partner more than its gross (a negative supplier net on the
 * statement, which the table's check then refused with an obscure 400), and one cut from 10 to 8
 * paid 15 % of 10 seats on 8. A resold line is not changed: it is cancelled and sold again, as OCTO's own rule is
 * for a confirmed booking.
 */
let t: TestApp;
let sink: MailSink;
let w: Awaited<ReturnType<typeof resaleWorld>>;

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  w = await resaleWorld(t, sink, 'chg');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('a resold line keeps what was sold', () => {
  it('refuses to change its quantities (409) and leaves its gross and commission as sold; an own line still changes', async () => {
    const p = await w.contract({ commission_bp: 1500 });
    const sold = await w.resell(p, 4, 10, 'R-CHG');
    const [before] = await t.database.db.select({ total: booking.total, commission: booking.commission }).from(booking).where(eq(booking.id, sold.booking));
    for (const qty of [8, 1, 12]) {
      const res = await w.supplier.patch(`/api/orders/${sold.id}/lines/${sold.booking}/`, { quantities: { [w.exp.category]: qty } });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().errors[0]).toMatchObject({ code: 'conflict', attr: 'quantities' });
    }
    const [after] = await t.database.db.select({ total: booking.total, commission: booking.commission }).from(booking).where(eq(booking.id, sold.booking));
    expect(after).toEqual(before);
    expect(after!.commission).toBeLessThanOrEqual(after!.total);
    // The supplier's own order (no partner) is changed as before.
    const own = await w.supplier.post('/api/orders/', { customer: { email: 'own@example.com', first_name: 'Own' }, lines: [{ slot: await w.slotOn(4), quantities: { [w.exp.category]: 3 } }] });
    expect(own.statusCode, own.body).toBe(201);
    const changed = await w.supplier.patch(`/api/orders/${own.json().id}/lines/${own.json().bookings[0].id}/`, { quantities: { [w.exp.category]: 1 } });
    expect(changed.statusCode, changed.body).toBe(200);
  });
});
