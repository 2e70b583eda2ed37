import { eq } from 'drizzle-orm';
import { ZPromoCode, ZPromoPreview, ZWebOrder, type TInvoice, type TOrder } from '@tourdesk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseAccount, promoCode } from '../src/db/schema';
import { addDays, todayIn } from '../src/lib/local-time';
import { vatOf } from '../src/modules/orders/sale';
import { sellableExperience } from './catalog-fixtures';
import { createTestApp, type TestApp } from './harness';
import { Browser } from './http-client';
import { createOrganisation } from './identity-fixtures';
import { startMailSink, type MailSink } from './mail-sink';

/**
 * Promo codes (issue 32): kept per organisation, applied at the counter and in the web store by one
 * rule (applyPromo()), refused with why, fixed on the lines as sold with the VAT of the discounted
 * gross, shown as "Discount (CODE)" per VAT rate on the order, the invoice and the e-mail; the last
 * use cannot be taken twice; another organisation's code is unknown.
 */
const ZONE = 'Europe/Zurich';
let t: TestApp;
let sink: MailSink;
let owner: Browser;
let other: Browser;
let guest: Browser;
let kayak: { id: string; category: string; rule: string };
let hike: { id: string; category: string; rule: string };
let child: string;
let storeId: string;
let slots: string[];
let hikeSlot: string;
const today = () => todayIn(ZONE);
const day = () => addDays(today(), 3);
type Item = { code: string; detail: string; attr: string | null };
const err = (res: { json(): unknown }) => (res.json() as { errors: Item[] }).errors[0]!;
const person = (n: number) => ({ email: `promo${n}@example.com`, first_name: `Promo${n}`, last_name: 'Guest' });
let n = 0;
const code = (prefix = 'C') => `${prefix}${++n}X`;

async function newCode(body: Record<string, unknown>) {
  const res = await owner.post('/api/promo-codes/', body);
  expect(res.statusCode, res.body).toBe(201);
  return ZPromoCode.parse(res.json());
}
/** A counter order of `qty` adults on the kayak (and children), with a promo code. */
const counterOrder = (promo: string | undefined, customer = person(++n), lines: { slot: string; quantities: Record<string, number> }[] = [{ slot: slots[0]!, quantities: { [kayak.category]: 2 } }]) =>
  owner.post('/api/orders/', { customer, lines, ...(promo ? { promo_code: promo } : {}) });

beforeAll(async () => {
  sink = await startMailSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url } });
  owner = await createOrganisation(t.app, sink, { subdomain: 'promo', currency: 'CHF', time_zone: ZONE });
  other = await createOrganisation(t.app, sink, { subdomain: 'elsewhere', currency: 'CHF', time_zone: ZONE });
  const me = (await owner.get('/api/users/me/')).json();
  await t.database.db.update(baseAccount).set({ time_zone: ZONE }).where(eq(baseAccount.id, me.base_account.id));
  expect((await owner.patch('/api/account/', { legal_name: 'Promo Tours AG', billing_address: 'See 1\nZürich', vat_number: 'CHE-1', vat_rate_bp: 810 })).statusCode).toBe(200);
  kayak = await sellableExperience(owner, 'Promo kayak');
  hike = await sellableExperience(owner, 'Promo hike');
  child = (await owner.post('/api/pricing-categories/', { type: 'Child', label: 'Child' })).json().id;
  await owner.post('/api/pricing-rates/', { experience: kayak.id, pricing_category: child, retail_price: 2500 });
  // The hike sells at a reduced rate of its own: a discount over both is split per rate.
  for (const e of [kayak, hike]) {
    expect((await owner.patch(`/api/experiences/${e.id}/`, { status: 'Active', ...(e === hike ? { vat_rate_bp: 260 } : {}) })).statusCode).toBe(200);
    await owner.delete(`/api/schedule-rules/${e.rule}/`);
    await owner.post('/api/schedule-rules/', { experience: e.id, valid_from: today(), start_times: ['10:00', '15:00'], capacity: 200 });
  }
  slots = (await owner.get(`/api/bookings/check-availability/?experience=${kayak.id}&date=${day()}`)).json().map((s: { id: string }) => s.id);
  hikeSlot = (await owner.get(`/api/bookings/check-availability/?experience=${hike.id}&date=${day()}`)).json()[0].id;
  storeId = (await owner.post('/api/stores/', { name: 'Promo shop', slug: 'promo' })).json().id;
  await owner.post(`/api/stores/${storeId}/add-experience/`, { experiences: [kayak.id, hike.id] });
  guest = new Browser(t.app, 'promo.localhost');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('keeping promo codes', () => {
  it('checks what a code is: its kind’s figure, its spelling, its windows, its references; unique whatever the case', async () => {
    const bad = [
      [{ code: 'NOPCT', kind: 'percent' }, 'percent_bp'],
      [{ code: 'NOAMT', kind: 'amount' }, 'amount'],
      [{ code: 'has space', kind: 'percent', percent_bp: 1000 }, 'code'],
      [{ code: 'BACKWARDS', kind: 'percent', percent_bp: 1000, valid_from: addDays(today(), 5), valid_until: today() }, 'valid_until'],
      [{ code: 'DEPBACK', kind: 'percent', percent_bp: 1000, departure_from: addDays(today(), 5), departure_until: today() }, 'departure_until'],
      [{ code: 'THEIRS', kind: 'percent', percent_bp: 1000, experiences: [kayak.id] }, 'experiences.0'],
    ] as const;
    for (const [body, attr] of bad) {
      const res = await (attr === 'experiences.0' ? other : owner).post('/api/promo-codes/', body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(400);
      expect(err(res).attr).toBe(attr);
    }
    await newCode({ code: 'Summer', kind: 'percent', percent_bp: 1000 });
    const dup = await owner.post('/api/promo-codes/', { code: 'SUMMER', kind: 'amount', amount: 500 });
    expect(dup.statusCode).toBe(400);
    expect(err(dup).attr).toBe('code');
    // Another organisation may have the same code: codes are per organisation.
    expect((await other.post('/api/promo-codes/', { code: 'SUMMER', kind: 'amount', amount: 500 })).statusCode).toBe(201);
  });

  it('lists codes paginated with uses and revenue, exports them as CSV, and deactivates one', async () => {
    const c = await newCode({ code: code('LIST'), kind: 'amount', amount: 1000 });
    const o = (await counterOrder(c.code)).json() as TOrder;
    expect(o.total).toBe(9800 - 1000);
    const page = (await owner.get('/api/promo-codes/?page_size=5&search=LIST')).json();
    expect(page.count).toBe(1);
    expect(page.results[0]).toMatchObject({ code: c.code, uses: 1, revenue: 8800, currency: 'CHF' });
    const csv = await owner.get('/api/promo-codes/export.csv?search=LIST');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n')[0]).toContain('code,description,kind');
    expect(csv.body).toContain(`${c.code},,amount,,CHF,10.00`);
    expect(csv.body).toContain('88.00');
    expect((await owner.patch(`/api/promo-codes/${c.id}/`, { active: false })).json().active).toBe(false);
    expect(err(await counterOrder(c.code)).code).toBe('promo_expired');
    // A used code is not deleted (its orders keep naming it): it is deactivated.
    expect((await owner.delete(`/api/promo-codes/${c.id}/`)).statusCode).toBe(409);
  });

  it('answers another organisation’s codes with 404, and applies none of them: unknown', async () => {
    const theirs = (await other.post('/api/promo-codes/', { code: 'OTHERS10', kind: 'percent', percent_bp: 1000 })).json();
    expect((await owner.get(`/api/promo-codes/${theirs.id}/`)).statusCode).toBe(404);
    const res = await counterOrder('OTHERS10');
    expect(res.statusCode).toBe(400);
    expect(err(res)).toMatchObject({ code: 'promo_unknown', attr: 'promo_code' });
  });
});

describe('applying a code', () => {
  it('takes a percentage off at the counter, case-insensitive, with the VAT of the discounted gross and its own row', async () => {
    await newCode({ code: 'TENOFF', kind: 'percent', percent_bp: 1000 });
    const res = await counterOrder('tenoff');
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json() as TOrder;
    // 2 × 49.00 = 98.00, 10 % off: 88.20; VAT 8.1 % of 88.20 by the one rounding rule.
    expect(o.total).toBe(8820);
    expect(o.tax_total).toBe(vatOf(8820, 810));
    expect(o.bookings[0]).toMatchObject({ total: 8820, discount: 980, tax: vatOf(8820, 810), net: 8820 - vatOf(8820, 810) });
    expect(o.discount).toEqual({ code: 'TENOFF', amount: 980, taxes: [{ vat_rate_bp: 810, gross: 980, tax: vatOf(9800, 810) - vatOf(8820, 810), net: 980 - (vatOf(9800, 810) - vatOf(8820, 810)) }] });
    const audit = (await owner.get(`/api/orders/${o.id}/audit/`)).json();
    expect(JSON.stringify(audit)).toContain('promo code applied');
  });

  it('splits a fixed amount over two VAT rates; the invoice shows "Discount (CODE)" per rate and adds up to the order', async () => {
    await newCode({ code: 'FIX15', kind: 'amount', amount: 1500 });
    const res = await counterOrder('FIX15', person(++n), [
      { slot: slots[0]!, quantities: { [kayak.category]: 1 } },
      { slot: hikeSlot, quantities: { [hike.category]: 1 } },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json() as TOrder;
    expect(o.total).toBe(9800 - 1500);
    // Pro rata by gross: 49.00 and 49.00 share 15.00 as 7.50 each.
    expect(o.bookings.map((b) => b.discount).sort()).toEqual([750, 750]);
    expect(o.discount!.taxes.map((x) => x.vat_rate_bp)).toEqual([260, 810]);
    expect(o.discount!.taxes.reduce((s, x) => s + x.gross, 0)).toBe(1500);
    expect(o.tax_total).toBe(vatOf(4150, 260) + vatOf(4150, 810));
    const inv = (await owner.post(`/api/orders/${o.id}/invoice/`)).json() as TInvoice;
    const discounts = inv.lines.filter((l) => l.description === 'Discount (FIX15)');
    expect(discounts.map((l) => [l.vat_rate_bp, l.total])).toEqual([
      [260, -750],
      [810, -750],
    ]);
    expect(inv.total).toBe(o.total);
    expect(inv.tax_total).toBe(o.tax_total);
    expect(inv.lines.reduce((s, l) => s + l.total, 0)).toBe(o.total);
    expect(inv.lines.reduce((s, l) => s + l.tax, 0)).toBe(o.tax_total);
    for (const rate of inv.taxes) {
      const lines = inv.lines.filter((l) => l.vat_rate_bp === rate.vat_rate_bp);
      expect(rate.gross).toBe(lines.reduce((s, l) => s + l.total, 0));
      expect(rate.tax).toBe(lines.reduce((s, l) => s + l.tax, 0));
    }
    const pdf = await owner.get(`/api/orders/${o.id}/invoice.pdf`);
    expect(pdf.statusCode).toBe(200);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(pdf.rawPayload) }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain('Discount (FIX15)');
  });

  it('invoices a sale a 100 % code made free: its lines and the discount that takes them to 0', async () => {
    await newCode({ code: 'FREE100', kind: 'percent', percent_bp: 10000 });
    const o = (await counterOrder('FREE100')).json() as TOrder;
    expect(o.total).toBe(0);
    expect(o.payment_status).toBe('Fully paid');
    const res = await owner.post(`/api/orders/${o.id}/invoice/`);
    expect(res.statusCode, res.body).toBe(200);
    const inv = res.json() as TInvoice;
    expect(inv.total).toBe(0);
    expect(inv.lines.map((l) => l.total)).toEqual([9800, -9800]);
    // Cancelled, it credits that invoice; a new one is refused: nothing is sold any more.
    expect((await owner.post(`/api/orders/${o.id}/cancel/`, {})).statusCode).toBeLessThan(300);
    expect((await owner.post(`/api/orders/${o.id}/invoice/`)).statusCode).toBe(400);
  });

  it('takes a category code off that category’s items only, and never more than they cost', async () => {
    await newCode({ code: 'KIDS', kind: 'amount', amount: 99999, categories: [child] });
    const o = (await counterOrder('KIDS', person(++n), [{ slot: slots[0]!, quantities: { [kayak.category]: 1, [child]: 2 } }])).json() as TOrder;
    expect(o.discount!.amount).toBe(5000);
    expect(o.total).toBe(4900);
  });

  it('refuses with why: each reason on promo_code, in the preview and the checkout, and nothing is booked', async () => {
    const yesterday = addDays(today(), -1);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ valid_until: yesterday }, 'promo_expired', 'has expired'],
      [{ valid_from: addDays(today(), 1) }, 'promo_not_yet_valid', 'is valid from'],
      [{ experiences: [hike.id] }, 'promo_not_for_offer', 'not valid for this offer'],
      [{ departure_until: addDays(today(), 1) }, 'promo_departure', 'only for departures'],
      [{ min_order: 20000 }, 'promo_minimum', 'CHF 200.00 or more'],
      [{ store: storeId }, 'promo_not_for_store', 'not valid here'],
    ];
    for (const [rule, why, says] of cases) {
      const c = await newCode({ code: code('NO'), kind: 'percent', percent_bp: 500, ...rule });
      await owner.post('/api/cart/lines/', { slot: slots[0], quantities: { [kayak.category]: 2 } });
      const preview = await owner.post('/api/cart/promo-code/', { code: c.code });
      expect(preview.statusCode, `${why}: ${preview.body}`).toBe(400);
      expect(err(preview)).toMatchObject({ code: why, attr: 'promo_code' });
      expect(err(preview).detail).toContain(says);
      const checkout = await owner.post('/api/cart/checkout/', { customer: person(++n), promo_code: c.code });
      expect(err(checkout).code).toBe(why);
      // The hold stays in the cart: the customer removes the code and books.
      expect((await owner.post('/api/cart/checkout/', { customer: person(++n) })).statusCode).toBe(201);
      expect((await t.database.db.select({ uses: promoCode.uses }).from(promoCode).where(eq(promoCode.id, c.id)))[0]!.uses).toBe(0);
    }
    expect(err(await owner.post('/api/cart/promo-code/', { code: 'NOPE' })).code).toBe('invalid'); // empty cart first
    await owner.post('/api/cart/lines/', { slot: slots[0], quantities: { [kayak.category]: 1 } });
    const unknown = await owner.post('/api/cart/promo-code/', { code: 'NOPE' });
    expect(err(unknown)).toMatchObject({ code: 'promo_unknown', attr: 'promo_code' });
    expect(err(unknown).detail).toContain('There is no promo code “NOPE”');
    const ok = ZPromoPreview.parse((await owner.post('/api/cart/promo-code/', { code: 'tenoff' })).json());
    expect(ok).toMatchObject({ subtotal: 4900, total: 4410, discount: { code: 'TENOFF', amount: 490 } });
    await owner.post('/api/cart/checkout/', { customer: person(++n) });
  });

  it('counts uses: used up after its limit, and per customer by e-mail whatever its case', async () => {
    const once = await newCode({ code: code('ONCE'), kind: 'percent', percent_bp: 500, max_uses: 1 });
    expect((await counterOrder(once.code)).statusCode).toBe(201);
    const up = await counterOrder(once.code);
    expect(up.statusCode).toBe(409);
    expect(err(up)).toMatchObject({ code: 'promo_used_up', attr: 'promo_code' });
    const each = await newCode({ code: code('EACH'), kind: 'percent', percent_bp: 500, max_uses_per_customer: 1 });
    const who = person(++n);
    expect((await counterOrder(each.code, who)).statusCode).toBe(201);
    const again = await counterOrder(each.code, { ...who, email: who.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(err(again)).toMatchObject({ code: 'promo_used_by_customer', attr: 'promo_code' });
    expect((await counterOrder(each.code, person(++n))).statusCode).toBe(201);
  });

  it('lets two checkouts race for the last use: exactly one passes, the other is told it is used up', async () => {
    for (let round = 0; round < 3; round++) {
      const last = await newCode({ code: code('LAST'), kind: 'amount', amount: 100, max_uses: 1 });
      // Two slots, two customers: nothing but the code is shared, so only its protection decides.
      const results = await Promise.all([0, 1].map((i) => counterOrder(last.code, person(++n), [{ slot: slots[i]!, quantities: { [kayak.category]: 1 } }])));
      expect(results.map((r) => r.statusCode).sort(), results.map((r) => r.body).join('\n')).toEqual([201, 409]);
      expect(err(results.find((r) => r.statusCode === 409)!).code).toBe('promo_used_up');
      const row = (await t.database.db.select({ uses: promoCode.uses }).from(promoCode).where(eq(promoCode.id, last.id)))[0]!;
      expect(row.uses).toBe(1);
    }
  });
});

describe('the web store’s cart', () => {
  it('previews a code on the cart, orders with it, and shows the discount on the order and in the confirmation e-mail', async () => {
    await newCode({ code: 'SHOP5', kind: 'amount', amount: 500, store: storeId });
    const { id: cart, token } = (await guest.post('/api/web-stores/promo/carts/')).json();
    const h = { 'x-cart-token': token };
    const slot = (await guest.get(`/api/web-stores/promo/experiences/${kayak.id}/day/?date=${day()}`)).json().slots[0].id;
    expect((await guest.post(`/api/web-stores/promo/carts/${cart}/lines/`, { slot, quantities: { [kayak.category]: 2 } }, h)).statusCode).toBe(201);
    expect((await guest.post(`/api/web-stores/promo/carts/${cart}/promo-code/`, { code: 'shop5' }, { 'x-cart-token': 'stolen' })).statusCode).toBe(404);
    const unknown = await guest.post(`/api/web-stores/promo/carts/${cart}/promo-code/`, { code: 'OTHERS10' }, h);
    expect(err(unknown).code).toBe('promo_unknown');
    const preview = ZPromoPreview.parse((await guest.post(`/api/web-stores/promo/carts/${cart}/promo-code/`, { code: 'shop5' }, h)).json());
    expect(preview).toMatchObject({ subtotal: 9800, total: 9300, discount: { code: 'SHOP5', amount: 500 } });
    const placed = await guest.post('/api/web-stores/promo/orders/', { cart, customer: { email: 'shopper@example.com', first_name: 'Sho', last_name: 'Pper' }, accept_terms: true, payment_option: 'pay_on_site', promo_code: 'shop5' }, h);
    expect(placed.statusCode, placed.body).toBe(201);
    const o = ZWebOrder.parse(placed.json());
    expect(o.total).toBe(9300);
    expect(o.discount).toMatchObject({ code: 'SHOP5', amount: 500, taxes: [{ vat_rate_bp: 810, gross: 500 }] });
    const mail = await sink.latest('shopper@example.com');
    expect(mail.text).toContain('Discount (SHOP5): −CHF');
    expect(mail.text).toMatch(/of which VAT 8\.1\s?%: −CHF/);
  });

  it('tells an anonymous preview nothing of who used a code: its uses per customer are checked when the order is placed', async () => {
    await newCode({ code: 'ONCE5', kind: 'amount', amount: 500, store: storeId, max_uses_per_customer: 1 });
    const order = async (email: string) => {
      const { id: cart, token } = (await guest.post('/api/web-stores/promo/carts/')).json();
      const h = { 'x-cart-token': token };
      const slot = (await guest.get(`/api/web-stores/promo/experiences/${kayak.id}/day/?date=${day()}`)).json().slots[0].id;
      expect((await guest.post(`/api/web-stores/promo/carts/${cart}/lines/`, { slot, quantities: { [kayak.category]: 1 } }, h)).statusCode).toBe(201);
      const preview = await guest.post(`/api/web-stores/promo/carts/${cart}/promo-code/`, { code: 'once5', email }, h);
      const placed = await guest.post('/api/web-stores/promo/orders/', { cart, customer: { email, first_name: 'Uma', last_name: 'Once' }, accept_terms: true, payment_option: 'pay_on_site', promo_code: 'once5' }, h);
      return { preview, placed };
    };
    const first = await order('uma@example.com');
    expect(first.placed.statusCode, first.placed.body).toBe(201);
    const second = await order('uma@example.com');
    expect(second.preview.statusCode, second.preview.body).toBe(200);
    expect(second.placed.statusCode).toBe(409);
    expect(err(second.placed)).toMatchObject({ code: 'promo_used_by_customer', attr: 'promo_code' });
  });
});
