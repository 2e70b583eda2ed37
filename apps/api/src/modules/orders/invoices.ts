import { and, eq, sql } from 'drizzle-orm';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { TInvoice } from '@tourdesk/contracts';
import { baseAccount, booking, customer, experience, inventoryItem, invoice, order, pricingCategory, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { invoiceNumber, lockOrder, personName, recordAudit, vatOf } from './records';

/**
 * Invoices: issued once per order with the next number of the organisation's sequence (taken
 * under the organisation row's lock, in the same transaction, so numbers have no gaps), showing
 * the seller's legal and billing details, the customer, one line per booking, VAT per rate and
 * totals. What it showed is kept with it; the PDF is drawn from that.
 *
 * VAT: prices include it. Per line, tax = round-half-up(gross × rate / (10000 + rate)) in minor
 * units (rate in basis points: the experience's, else the organisation's); net = gross − tax;
 * the per-rate and grand totals are sums of the line figures (vatOf() in records.ts, the same
 * rule as the order's tax_total).
 */

export async function issueInvoice(ctx: TenantCtx, orderId: string): Promise<TInvoice> {
  const o = await lockOrder(ctx, orderId);
  const [existing] = await ctx.tx.select().from(invoice).where(and(eq(invoice.account_id, ctx.accountId), eq(invoice.order_id, orderId)));
  if (existing) return existing.data as unknown as TInvoice;
  if (o.total === 0) throw new AppError('invalid', 'This order has nothing to invoice: every line is cancelled.');
  const [acc] = await ctx.tx
    .update(baseAccount)
    .set({ next_invoice_number: sql`${baseAccount.next_invoice_number} + 1` })
    .where(eq(baseAccount.id, ctx.accountId))
    .returning({ number: sql<number>`${baseAccount.next_invoice_number} - 1` });
  const number = Number(acc!.number);
  const issuedAt = new Date();
  const data = await composeInvoice(ctx, orderId, number, issuedAt);
  const [row] = await ctx.tx.insert(invoice).values({ account_id: ctx.accountId, order_id: orderId, number, issued_at: issuedAt, data: {} }).returning({ id: invoice.id });
  const stored = { ...data, id: row!.id };
  await ctx.tx.update(invoice).set({ data: stored }).where(eq(invoice.id, row!.id));
  await recordAudit(ctx, { order: orderId, subject: 'invoice', subjectId: row!.id, action: 'issued', changes: { number: stored.number, total: stored.total } });
  return stored;
}

export async function getInvoice(ctx: TenantCtx, orderId: string): Promise<TInvoice> {
  const [row] = await ctx.tx.select().from(invoice).where(and(eq(invoice.account_id, ctx.accountId), eq(invoice.order_id, orderId)));
  if (!row) throw notFound('This order has no invoice yet.');
  return row.data as unknown as TInvoice;
}

async function composeInvoice(ctx: TenantCtx, orderId: string, number: number, issuedAt: Date): Promise<TInvoice> {
  const [head] = await ctx.tx
    .select({ o: order, c: customer, a: baseAccount })
    .from(order)
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .innerJoin(baseAccount, eq(baseAccount.id, order.account_id))
    .where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  const lines = await ctx.tx
    .select({ b: booking, title: experience.title, rate: experience.vat_rate_bp, starts_at: slot.starts_at })
    .from(booking)
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), sql`${booking.status} <> 'Canceled'`))
    .orderBy(slot.starts_at, booking.id);
  // Names of the categories and extras in the lines: two queries for the whole invoice.
  const categories = new Map((await ctx.tx.select({ id: pricingCategory.id, label: pricingCategory.label }).from(pricingCategory).where(eq(pricingCategory.account_id, ctx.accountId))).map((c) => [c.id, c.label]));
  const items = new Map((await ctx.tx.select({ id: inventoryItem.id, name: inventoryItem.name }).from(inventoryItem).where(eq(inventoryItem.account_id, ctx.accountId))).map((i) => [i.id, i.name]));
  const { o, c, a } = head!;
  const when = new Intl.DateTimeFormat('en-GB', { timeZone: a.time_zone, day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const invoiceLines = lines.map(({ b, title, rate, starts_at }) => {
    const parts = [
      ...Object.entries(b.quantities).filter(([, n]) => n > 0).map(([id, n]) => `${n} × ${categories.get(id) ?? 'Participant'}`),
      ...Object.entries(b.extras).filter(([, n]) => n > 0).map(([id, n]) => `${n} × ${items.get(id) ?? 'Extra'}`),
    ];
    return { description: `${title}, ${when.format(starts_at)} (${parts.join(', ')})`, quantity: 1, unit_price: b.total, total: b.total, vat_rate_bp: rate ?? a.vat_rate_bp };
  });
  const byRate = new Map<number, { vat_rate_bp: number; net: number; tax: number; gross: number }>();
  for (const l of invoiceLines) {
    const tax = vatOf(l.total, l.vat_rate_bp);
    const t = byRate.get(l.vat_rate_bp) ?? { vat_rate_bp: l.vat_rate_bp, net: 0, tax: 0, gross: 0 };
    t.gross += l.total;
    t.tax += tax;
    t.net += l.total - tax;
    byRate.set(l.vat_rate_bp, t);
  }
  const taxes = [...byRate.values()].sort((x, y) => x.vat_rate_bp - y.vat_rate_bp);
  const total = taxes.reduce((s, t) => s + t.gross, 0);
  const taxTotal = taxes.reduce((s, t) => s + t.tax, 0);
  return {
    id: '',
    order: orderId,
    number: invoiceNumber(number),
    issued_at: issuedAt.toISOString(),
    currency: o.currency,
    seller: { name: a.name, legal_name: a.legal_name || a.name, address: a.billing_address, vat_number: a.vat_number, email: a.billing_email },
    customer: { name: personName(c.first_name, c.last_name, c.email), email: c.email, country: c.country },
    lines: invoiceLines,
    taxes,
    net_total: total - taxTotal,
    tax_total: taxTotal,
    total,
    paid: o.paid,
    balance: total - o.paid,
  };
}

/** Amounts as "CHF 1,234.50", with the currency's own number of decimals. */
export function formatMoney(minor: number, currency: string) {
  const f = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'code' });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(minor / 10 ** digits).replace(/\u00a0/g, ' ');
}

/** The PDF's fonts are the standard 14 (WinAnsi): characters outside it are replaced. */
const winAnsi = (text: string) => text.replace(/×/g, 'x').replace(/[^\x20-\x7e\u00a0-\u00ff€–—‘’“”•]/g, '?');

/** The invoice as an A4 PDF. */
export async function invoicePdf(inv: TInvoice): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Invoice ${inv.number}`);
  doc.setAuthor(inv.seller.legal_name);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage([595.28, 841.89]);
  const left = 50;
  const right = 545;
  let y = 790;
  const text = (p: PDFPage, s: string, x: number, size = 10, f: PDFFont = font, align: 'left' | 'right' = 'left') => {
    const safe = winAnsi(s);
    p.drawText(safe, { x: align === 'right' ? x - f.widthOfTextAtSize(safe, size) : x, y, size, font: f, color: rgb(0.1, 0.1, 0.12) });
  };
  const wrap = (s: string, width: number, size = 10) => {
    const words = winAnsi(s).split(' ');
    const out: string[] = [];
    let current = '';
    for (const w of words) {
      const next = current ? `${current} ${w}` : w;
      if (font.widthOfTextAtSize(next, size) > width && current) {
        out.push(current);
        current = w;
      } else current = next;
    }
    if (current) out.push(current);
    return out;
  };

  text(page, inv.seller.legal_name, left, 16, bold);
  text(page, `Invoice ${inv.number}`, right, 16, bold, 'right');
  y -= 18;
  for (const l of [...inv.seller.address.split('\n'), inv.seller.email, inv.seller.vat_number ? `VAT ${inv.seller.vat_number}` : ''].filter(Boolean)) {
    text(page, l, left, 9);
    y -= 12;
  }
  y -= 8;
  text(page, `Issued ${inv.issued_at.slice(0, 10)}`, right, 10, font, 'right');
  y -= 24;
  text(page, 'Bill to', left, 9, bold);
  y -= 13;
  for (const l of [inv.customer.name, inv.customer.email, inv.customer.country ?? ''].filter(Boolean)) {
    text(page, l, left, 10);
    y -= 13;
  }
  y -= 18;
  text(page, 'Description', left, 9, bold);
  text(page, 'VAT', 430, 9, bold, 'right');
  text(page, 'Amount', right, 9, bold, 'right');
  y -= 6;
  page.drawLine({ start: { x: left, y }, end: { x: right, y }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
  y -= 14;
  for (const line of inv.lines) {
    const rows = wrap(line.description, 340);
    if (y - rows.length * 13 < 120) {
      page = doc.addPage([595.28, 841.89]);
      y = 790;
    }
    text(page, `${(line.vat_rate_bp / 100).toFixed(2)}%`, 430, 10, font, 'right');
    text(page, formatMoney(line.total, inv.currency), right, 10, font, 'right');
    for (const r of rows) {
      text(page, r, left, 10);
      y -= 13;
    }
    y -= 4;
  }
  page.drawLine({ start: { x: left, y: y + 6 }, end: { x: right, y: y + 6 }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
  y -= 10;
  const row = (label: string, value: string, f: PDFFont = font) => {
    text(page, label, 400, 10, f, 'right');
    text(page, value, right, 10, f, 'right');
    y -= 14;
  };
  row('Net', formatMoney(inv.net_total, inv.currency));
  for (const t of inv.taxes) row(`VAT ${(t.vat_rate_bp / 100).toFixed(2)}% on ${formatMoney(t.net, inv.currency)}`, formatMoney(t.tax, inv.currency));
  row('Total', formatMoney(inv.total, inv.currency), bold);
  row('Paid', formatMoney(inv.paid, inv.currency));
  row('Balance due', formatMoney(inv.balance, inv.currency), bold);
  return doc.save();
}
