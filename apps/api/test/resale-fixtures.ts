import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { booking, partnership, partnershipExperience } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { markResale } from '../src/modules/partners/resale';
import { inTenant } from '../src/lib/tenancy';
import { sellableExperience } from './catalog-fixtures';
import type { TestApp } from './harness';
import type { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import type { MailSink } from './mail-sink';

export const ZONE = 'Europe/Zurich';
export const day = (n: number) => addDays(todayIn(ZONE), n);

/**
 * A supplier with a sellable offer, a reseller (an affiliate) and an unrelated third organisation.
 * Partnerships are written as the channels that make them would (the partners engineer's pages are
 * not what is tested here), on the server's connection; resales are real orders of the order
 * service (seats taken, prices fixed), then named as resold with the commission of commissionOf().
 */
export async function resaleWorld(t: TestApp, sink: MailSink, prefix: string) {
  const supplier = await createOrganisation(t.app, sink, { subdomain: `${prefix}-sup`, currency: 'CHF', time_zone: ZONE });
  const reseller = await createOrganisation(t.app, sink, { subdomain: `${prefix}-res`, kind: 'affiliate', currency: 'CHF', time_zone: ZONE });
  const third = await createOrganisation(t.app, sink, { subdomain: `${prefix}-oth`, currency: 'CHF', time_zone: ZONE });
  const idOf = async (b: Browser) => (await b.get('/api/users/me/')).json().base_account.id as string;
  const ids = { supplier: await idOf(supplier), reseller: await idOf(reseller), third: await idOf(third) };
  const exp = await sellableExperience(supplier, `${prefix} kayak`);
  expect((await supplier.patch(`/api/experiences/${exp.id}/`, { status: 'Active' })).statusCode).toBe(200);
  await supplier.delete(`/api/schedule-rules/${exp.rule}/`);
  const rule = await supplier.post('/api/schedule-rules/', { experience: exp.id, valid_from: todayIn(ZONE), start_times: ['10:00'], capacity: 200 });
  expect(rule.statusCode, rule.body).toBe(201);

  async function contract(terms: { pricing?: 'commission' | 'net'; commission_bp?: number; payment_collector?: 'reseller' | 'supplier'; net_rates?: Record<string, number>; reseller?: string }) {
    const [p] = await t.database.db
      .insert(partnership)
      .values({
        supplier_account_id: ids.supplier,
        reseller_account_id: terms.reseller ?? ids.reseller,
        invited_by_account_id: ids.supplier,
        status: 'Active',
        pricing: terms.pricing ?? 'commission',
        commission_bp: terms.commission_bp ?? 1500,
        payment_collector: terms.payment_collector ?? 'reseller',
        currency: 'CHF',
      })
      .returning();
    await t.database.db.insert(partnershipExperience).values({ partnership_id: p!.id, account_id: ids.supplier, experience_id: exp.id, net_rates: terms.net_rates ?? {} });
    return p!;
  }

  const slots = new Map<number, string>();
  async function slotOn(n: number) {
    if (!slots.has(n)) {
      const res = await supplier.get(`/api/bookings/check-availability/?experience=${exp.id}&date=${day(n)}`);
      expect(res.statusCode, res.body).toBe(200);
      slots.set(n, res.json()[0].id as string);
    }
    return slots.get(n)!;
  }

  /** An order of `qty` adults on the slot `dayOffset` days ahead, sold by the partner of `p`. */
  async function resell(p: typeof partnership.$inferSelect, dayOffset: number, qty = 2, reference = 'R-1') {
    const res = await supplier.post('/api/orders/', { customer: { email: `guest${Math.random().toString(36).slice(2, 8)}@example.com`, first_name: 'Gina', last_name: 'Guest' }, lines: [{ slot: await slotOn(dayOffset), quantities: { [exp.category]: qty } }] });
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json() as { id: string; reference: string; total: number };
    const [shared] = await t.database.db.select().from(partnershipExperience).where(and(eq(partnershipExperience.partnership_id, p.id), eq(partnershipExperience.experience_id, exp.id)));
    await inTenant(t.database.db, p.supplier_account_id!, (tx) => markResale({ tx, accountId: p.supplier_account_id!, currency: p.currency }, o.id, p, { [exp.id]: shared!.net_rates }, reference));
    const lines = await t.database.db.select({ id: booking.id }).from(booking).where(eq(booking.order_id, o.id));
    return { ...o, booking: lines[0]!.id };
  }

  return { supplier, reseller, third, ids, exp, contract, resell, slotOn };
}
