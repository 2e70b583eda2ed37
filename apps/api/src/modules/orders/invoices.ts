import type { TInvoice, TInvoiceSummary, TTimeFormat } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { documentMoney, localDate, translateFor, vatRate, type CustomerTranslate } from '../../lib/customer-text';
import { AppError, notFound } from '../../lib/errors';
import { createPdf, PAPER, type PDFFont, type PDFPage } from '../../lib/pdf';
import { lockOrder, personName, recordAudit } from './order-basics';
import * as q from './queries/invoices';
import { orderExists } from './queries/orders';
import { cancellationFeeByRate, discountByRate, lineDescription } from './sale';

/**
 * Invoices and credit notes. An order's invoice is issued on request ("Issue invoice"), once the
 * seller's address, VAT number and VAT rate are known; its number is the next of the organisation's
 * gapless INV sequence for its local year (`invoice_sequence`, taken in the issuing transaction:
 * its row lock serialises issuers and a rollback gives the number back). What it shows (seller and
 * buyer with their addresses and VAT numbers, a line per pricing category and extra with its rate,
 * totals per rate) is stored with it and never changed; the PDF is drawn from that.
 *
 * An issued invoice is never changed: when what the order sells changes after it was issued (a line
 * changed or cancelled, the order cancelled), reconcileInvoice() — run by recomputeOrder() after
 * every change, under the order's lock — issues a credit note (CN sequence) that cancels it line by
 * line and, if the order still sells something, a new invoice for what it sells now — for an order
 * cancelled under its policy, the cancellation fee it keeps ("Cancellation fee", taxed at the rate
 * of the cancelled lines, cancellationFeeByRate() in sale.ts). Payments and refunds alone change no
 * document: an invoice states what was sold, not what was paid.
 *
 * VAT: prices include it. Per line, tax = round-half-up(gross × rate / (10000 + rate)) in minor
 * units (rate in basis points, fixed when the line was sold); net = gross − tax; the per-rate and
 * grand totals are sums of the line figures (vatOf() in records.ts).
 *
 * Language: a document is issued in the order's language of that moment (translateFor() in
 * lib/customer-text.ts), kept in invoice.language; its PDF, drawn anew on every download, reads
 * that, so a later change of the order's language changes no issued document. The text a document
 * stores in its data (the "Cancellation fee" line) is written in that language when it is issued.
 */

const SERIES = { invoice: 'INV', credit_note: 'CN' } as const;
/** What a document stores in its data (its language is its row's column, invoice.language). */
type Stored = Omit<TInvoice, 'language'>;
/** A document's stored data (jsonb, typed as a record by the schema): written only by this file, as a Stored. */
const storedOf = (data: Record<string, unknown>) => data as unknown as Stored;
/** A stored document as the API presents it: its data and the language it was issued in. */
const issued = (row: Pick<q.InvoiceRow, 'data' | 'language'>): TInvoice => ({ ...storedOf(row.data), language: row.language });
type Kind = keyof typeof SERIES;
/** The printed number: series, year and the gapless number, e.g. INV-2026-00042. */
export const documentNumber = (series: string, year: number, n: number) => `${series}-${year}-${String(n).padStart(5, '0')}`;

/** The organisation's local date now, and its year. */
export async function localToday(ctx: TenantCtx) {
  const day = await q.localDay(ctx);
  return { day, year: Number(day.slice(0, 4)) };
}

/** The next invoice number the organisation will give this (local) year. */
export async function nextInvoiceNumber(ctx: TenantCtx) {
  const { year } = await localToday(ctx);
  return documentNumber('INV', year, (await q.nextInvoiceNumberIn(ctx, year)) ?? 1);
}

/** The order's current invoice: its newest invoice that no credit note cancels. */
const currentInvoice = q.currentInvoiceRow;

/** Whether the order has an invoice that no credit note cancels. */
export async function isInvoiced(ctx: TenantCtx, orderId: string) {
  return Boolean(await currentInvoice(ctx, orderId));
}

/** What the seller's invoices cannot be issued without, as one error item per missing detail. */
export async function checkSellerDetails(ctx: TenantCtx) {
  const a = await q.sellerAccount(ctx);
  const missing = [
    !a.billing_address.trim() && { code: 'required', detail: 'Add your billing address: an invoice shows the seller’s address.', attr: 'billing_address' },
    !a.vat_number.trim() && { code: 'required', detail: 'Add your VAT number: an invoice shows the seller’s VAT number.', attr: 'vat_number' },
    a.vat_rate_bp <= 0 && { code: 'required', detail: 'Set your VAT rate: an invoice shows the tax of every line.', attr: 'vat_rate_bp' },
  ].filter((x): x is { code: string; detail: string; attr: string } => Boolean(x));
  if (missing.length) {
    const [first, ...rest] = missing;
    throw new AppError('required', first!.detail, first!.attr, rest);
  }
}

/**
 * Issues the order's invoice (or answers the current one if it has one). Called by invoiceOrder()
 * (records.ts), which first gives lines sold before the VAT rate was set the rate of today.
 */
export async function issueInvoice(ctx: TenantCtx, orderId: string): Promise<TInvoice> {
  const o = await lockOrder(ctx, orderId);
  const existing = await currentInvoice(ctx, orderId);
  if (existing) return issued(existing);
  const t = translateFor(o.language);
  // Nothing sold (every line cancelled) is nothing to invoice; a sale whose total is 0 (a 100 %
  // promo code) is still a sale, and its invoice shows the lines and the discount that took it to 0.
  const body = await composeInvoice(ctx, orderId, t);
  if (!body.lines.some((l) => l.total > 0)) throw new AppError('invalid', 'This order has nothing to invoice: every line is cancelled.');
  await checkSellerDetails(ctx);
  return storeDocument(ctx, orderId, 'invoice', body, null, t);
}

/** Writes an invoice or a credit note with the next number of its series, in the language `t` speaks, and its audit entry. */
async function storeDocument(ctx: TenantCtx, orderId: string, kind: Kind, body: Composed, credits: q.InvoiceRow | null, t: CustomerTranslate): Promise<TInvoice> {
  const { day, year } = await localToday(ctx);
  const series = SERIES[kind];
  const n = await q.takeNumber(ctx, series, year);
  const issuedAt = new Date();
  const id = await q.insertInvoice(ctx, { order_id: orderId, kind, series, year, number: n, issued_at: issuedAt, issued_on: day, credits_invoice_id: credits?.id ?? null, language: t.language, data: {} });
  const stored: Stored = {
    id,
    order: orderId,
    kind,
    number: documentNumber(series, year, n),
    issued_on: day,
    issued_at: issuedAt.toISOString(),
    credits: credits ? { id: credits.id, number: storedOf(credits.data).number, issued_on: credits.issued_on } : null,
    ...body,
  };
  await q.setInvoiceData(ctx, id, stored);
  await recordAudit(ctx, { order: orderId, subject: 'invoice', subjectId: id, action: kind === 'invoice' ? 'issued' : 'credit note issued', changes: { number: stored.number, total: stored.total, ...(credits ? { credits: stored.credits!.number } : {}) } });
  return { ...stored, language: t.language };
}

/**
 * After a change to an invoiced order (under its lock): if what the order sells now differs from its
 * current invoice, a credit note cancels that invoice and, when the order still sells something, a
 * new invoice states what it sells now. Nothing happens for an order without an invoice, nor when
 * only payments changed.
 */
export async function reconcileInvoice(ctx: TenantCtx, orderId: string) {
  const current = await currentInvoice(ctx, orderId);
  if (!current) return;
  const before = storedOf(current.data);
  const t = translateFor((await lockOrder(ctx, orderId)).language);
  const now = await composeInvoice(ctx, orderId, t);
  // The sale's stored figures, compared field by field (a stored invoice comes back from jsonb with
  // its keys in another order). Not the descriptions: a renamed offer or another time zone is no
  // change of what was sold, and lines sold before their description was kept read today's title.
  const sold = (x: Pick<TInvoice, 'lines' | 'total'>) => JSON.stringify([x.total, x.lines.map((l) => [l.quantity, l.unit_price, l.vat_rate_bp, l.net, l.tax, l.total])]);
  if (sold(now) === sold(before)) return;
  await storeDocument(ctx, orderId, 'credit_note', negate(before, now), current, t);
  if (now.lines.length > 0) await storeDocument(ctx, orderId, 'invoice', now, null, t);
}

/** A credit note's body: the cancelled invoice's lines and totals, negated; today's parties and payments. */
function negate(issued: Stored, now: Composed): Composed {
  const neg = (n: number) => (n === 0 ? 0 : -n);
  return {
    ...now,
    seller: issued.seller,
    customer: issued.customer,
    lines: issued.lines.map((l) => ({ ...l, unit_price: neg(l.unit_price), net: neg(l.net), tax: neg(l.tax), total: neg(l.total) })),
    taxes: issued.taxes.map((t) => ({ ...t, net: neg(t.net), tax: neg(t.tax), gross: neg(t.gross) })),
    net_total: neg(issued.net_total),
    tax_total: neg(issued.tax_total),
    total: neg(issued.total),
    balance: now.balance,
  };
}

/** The order's current invoice. */
export async function getInvoice(ctx: TenantCtx, orderId: string): Promise<TInvoice> {
  return (await currentInvoiceToPrint(ctx, orderId)).invoice;
}

/** An issued document and the language it was issued in (what its PDF is drawn in). */
export interface IssuedDocument {
  invoice: TInvoice;
  language: string;
}

/** The order's current invoice with its language, to draw its PDF. */
export async function currentInvoiceToPrint(ctx: TenantCtx, orderId: string): Promise<IssuedDocument> {
  const row = await currentInvoice(ctx, orderId);
  if (!row) {
    await assertOrder(ctx, orderId);
    throw notFound('This order has no invoice yet.');
  }
  return { invoice: issued(row), language: row.language };
}

/** 404 unless the order is the organisation's. */
export async function assertOrder(ctx: TenantCtx, orderId: string) {
  if (!(await orderExists(ctx, orderId))) throw notFound('No order with this id.');
}

/** One invoice or credit note of the order. */
export async function getDocument(ctx: TenantCtx, orderId: string, id: string): Promise<TInvoice> {
  return (await documentToPrint(ctx, orderId, id)).invoice;
}

/** One invoice or credit note of the order with its language, to draw its PDF. */
export async function documentToPrint(ctx: TenantCtx, orderId: string, id: string): Promise<IssuedDocument> {
  const row = await q.invoiceOfOrder(ctx, orderId, id);
  if (!row) throw notFound('No invoice or credit note with this id in this order.');
  return { invoice: issued(row), language: row.language };
}

/** Every invoice and credit note of the order, oldest first (one query). */
export async function listDocuments(ctx: TenantCtx, orderId: string): Promise<TInvoiceSummary[]> {
  const rows = await q.invoicesOfOrder(ctx, orderId);
  return rows.map(({ i, credited_by }) => {
    const d = storedOf(i.data);
    return { id: i.id, kind: i.kind as TInvoice['kind'], number: d.number, issued_on: i.issued_on, issued_at: i.issued_at.toISOString(), total: d.total, currency: d.currency, credits: d.credits?.number ?? null, credited_by };
  });
}

type Composed = Omit<Stored, 'id' | 'order' | 'kind' | 'number' | 'issued_on' | 'issued_at' | 'credits'>;

/**
 * What an invoice of the order would show now: the parties, a line per category and extra sold,
 * a "Cancellation fee" line per VAT rate for the fee a cancelled order keeps, totals per rate.
 */
async function composeInvoice(ctx: TenantCtx, orderId: string, t: CustomerTranslate): Promise<Composed> {
  const { o, c, a } = await q.orderWithBuyerAndSeller(ctx, orderId);
  // A cancelled order keeps its cancellation fee: one line per VAT rate of the lines it was kept for.
  const feeLines = (await cancellationFeeByRate(ctx, orderId)).map((f) => ({ description: t('invoice.cancellationFee'), quantity: 1, unit_price: f.gross, vat_rate_bp: f.vat_rate_bp, net: f.net, tax: f.tax, total: f.gross }));
  // A promo code's discount: one "Discount (CODE)" line per VAT rate, negative, with the VAT it takes off (discountByRate()).
  const sold = await q.soldLinesOfOrder(ctx, orderId);
  const discountLines = o.promo_code
    ? discountByRate(sold).map((d) => ({ description: t('invoice.discount', { code: o.promo_code! }), quantity: 1, unit_price: -d.gross, vat_rate_bp: d.vat_rate_bp, net: -d.net, tax: -d.tax, total: -d.gross }))
    : [];
  const invoiceLines = [...saleLines(sold, a.time_zone, a.time_format === '12h' ? '12h' : '24h'), ...discountLines, ...feeLines];
  const byRate = new Map<number, { vat_rate_bp: number; net: number; tax: number; gross: number }>();
  for (const l of invoiceLines) {
    const t = byRate.get(l.vat_rate_bp) ?? { vat_rate_bp: l.vat_rate_bp, net: 0, tax: 0, gross: 0 };
    t.gross += l.total;
    t.tax += l.tax;
    t.net += l.net;
    byRate.set(l.vat_rate_bp, t);
  }
  const taxes = [...byRate.values()].sort((x, y) => x.vat_rate_bp - y.vat_rate_bp);
  const total = taxes.reduce((s, t) => s + t.gross, 0);
  const taxTotal = taxes.reduce((s, t) => s + t.tax, 0);
  return {
    currency: o.currency,
    order_reference: o.reference,
    seller: { name: a.name, legal_name: a.legal_name || a.name, address: a.billing_address, vat_number: a.vat_number, email: a.billing_email },
    customer: { name: c.company || personName(c.first_name, c.last_name, c.email), address: [c.company ? personName(c.first_name, c.last_name, null) : '', c.address].filter(Boolean).join('\n'), vat_number: c.vat_number, email: c.email, country: c.country },
    lines: invoiceLines,
    taxes,
    net_total: total - taxTotal,
    tax_total: taxTotal,
    total,
    paid: o.paid,
    balance: total - o.paid,
  };
}

/**
 * The lines sold in the order that are not cancelled: a line per pricing category and extra of
 * each booking, in the order of their start, with the prices and VAT fixed when they were sold.
 */
function saleLines(lines: Awaited<ReturnType<typeof q.soldLinesOfOrder>>, zone: string, format: TTimeFormat): TInvoice['lines'] {
  return lines.flatMap(({ items, title, starts_at }) =>
    items.map((i) => ({
      description: `${i.sold_as ?? lineDescription(title, starts_at, zone, format)}: ${i.sold_label ?? i.label}`,
      quantity: i.quantity,
      unit_price: i.unit_price,
      vat_rate_bp: i.tax_rate_bp,
      net: i.net,
      tax: i.tax,
      total: i.total,
    })),
  );
}

/** The invoice or credit note as an A4 PDF, in the language it was issued in. */
export async function invoicePdf({ invoice: inv, language }: IssuedDocument): Promise<Uint8Array> {
  const t = translateFor(language);
  const title = t('invoice.title', { kind: inv.kind, number: inv.number });
  const pdf = await createPdf(PAPER.A4, { title, author: inv.seller.legal_name });
  const { regular: font, bold } = pdf;
  const { left, right, top } = pdf.paper;
  let page = pdf.addPage();
  let y = top;
  const text = (p: PDFPage, s: string, x: number, size = 10, f: PDFFont = font, align: 'left' | 'right' = 'left') => pdf.text(p, s, x, y, { size, font: f, align });
  const money = (n: number) => documentMoney(t, n, inv.currency);
  const rate = (bp: number) => vatRate(t, bp);

  text(page, inv.seller.legal_name, left, 16, bold);
  text(page, title, right, 16, bold, 'right');
  y -= 18;
  const sellerLines = [...inv.seller.address.split('\n'), inv.seller.email, inv.seller.vat_number ? t('invoice.vatNumber', { number: inv.seller.vat_number }) : ''].filter(Boolean);
  const dates = [
    t('invoice.date', { date: localDate(t, inv.issued_on) }),
    t('invoice.order', { reference: inv.order_reference }),
    ...(inv.credits ? [t('invoice.cancels', { number: inv.credits.number }), t('invoice.cancelsOf', { date: localDate(t, inv.credits.issued_on) })] : []),
  ];
  for (let i = 0; i < Math.max(sellerLines.length, dates.length); i++) {
    if (sellerLines[i]) text(page, sellerLines[i]!, left, 9);
    if (dates[i]) text(page, dates[i]!, right, 10, font, 'right');
    y -= 12;
  }
  y -= 20;
  text(page, t('invoice.billTo'), left, 9, bold);
  y -= 13;
  const c = inv.customer;
  for (const l of [c.name, ...c.address.split('\n'), c.country ?? '', c.vat_number ? t('invoice.vatNumber', { number: c.vat_number }) : '', c.email].filter(Boolean)) {
    text(page, l, left, 10);
    y -= 13;
  }
  y -= 18;
  const cols = { qty: 330, unit: 400, vat: 445, total: right };
  const header = () => {
    text(page, t('invoice.description'), left, 9, bold);
    text(page, t('invoice.quantity'), cols.qty, 9, bold, 'right');
    text(page, t('invoice.unitPrice'), cols.unit, 9, bold, 'right');
    text(page, t('invoice.vat'), cols.vat, 9, bold, 'right');
    text(page, t('invoice.amount'), cols.total, 9, bold, 'right');
    y -= 6;
    pdf.rule(page, y);
    y -= 14;
  };
  header();
  for (const line of inv.lines) {
    const rows = pdf.wrap(line.description, 260);
    if (y - rows.length * 13 < 140) {
      page = pdf.addPage();
      y = top;
      header();
    }
    text(page, String(line.quantity), cols.qty, 10, font, 'right');
    text(page, money(line.unit_price), cols.unit, 10, font, 'right');
    text(page, rate(line.vat_rate_bp), cols.vat, 10, font, 'right');
    text(page, money(line.total), cols.total, 10, font, 'right');
    for (const r of rows) {
      text(page, r, left, 10);
      y -= 13;
    }
    y -= 4;
  }
  pdf.rule(page, y + 6);
  y -= 10;
  const row = (label: string, value: string, f: PDFFont = font) => {
    text(page, label, 430, 10, f, 'right');
    text(page, value, right, 10, f, 'right');
    y -= 14;
  };
  row(t('invoice.net'), money(inv.net_total));
  for (const x of inv.taxes) row(t('invoice.vatOn', { rate: rate(x.vat_rate_bp), net: money(x.net) }), money(x.tax));
  row(t('invoice.total'), money(inv.total), bold);
  if (inv.kind === 'invoice') {
    row(t('invoice.paid'), money(inv.paid));
    row(t('invoice.balanceDue'), money(inv.balance), bold);
  }
  return pdf.save();
}
