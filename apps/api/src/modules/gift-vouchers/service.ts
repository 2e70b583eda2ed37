import { randomInt, randomUUID } from 'node:crypto';
import { isLanguage, type Language } from '@tourdesk/contracts/i18n';
import { normalizeVoucherCode, type TGiftVoucher, type TGiftVoucherDetail, type TVoucherPreview } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { documentMoney, localDate, mailMoney, translateFor } from '../../lib/customer-text';
import { QUEUES, type Jobs } from '../../lib/jobs';
import { addDays, addMonths, localToUtc, todayIn, utcToLocal } from '../../lib/local-time';
import type { Mail } from '../../lib/mailer';
import { createPdf, drawQr, grey, PAPER } from '../../lib/pdf';
import { inTenant } from '../../lib/tenancy';
import { lockOrder, messageMoney } from '../orders/order-basics';
import { recordPayment, type PaymentSettlement } from '../orders/service';
import * as q from './queries';

/**
 * Gift vouchers (issue 32): multi-purpose vouchers — a liability of the organisation, no VAT when
 * sold; spent as a means of payment on orders (payment method `voucher`), whose lines keep their
 * price and VAT. The balance moves only here, under the voucher's row lock, and each move is an
 * entry of its ledger.
 */

/** Codes: 16 characters of an alphabet without look-alikes (0/O, 1/I/L): 80 bits, shown in groups of four. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export function newVoucherCode() {
  let code = '';
  for (let i = 0; i < 16; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}
export const formatVoucherCode = (code: string) => code.replace(/(.{4})(?=.)/g, '$1-');
/**
 * A voucher's code where it is read by others than those who manage vouchers (a payment's
 * reference, the accounting journal): its last four characters only — the code spends the balance.
 */
export const maskedVoucherCode = (code: string) => `…${code.slice(-4)}`;

/** The local date a voucher is valid until (its expiry is the start of the next local day). */
export const validUntil = (expiresAt: Date, zone: string) => utcToLocal(new Date(expiresAt.getTime() - 1000), zone).date;
const expiryOf = (validUntilDate: string, zone: string) => localToUtc(addDays(validUntilDate, 1), '00:00', zone);

function statusOf(v: q.VoucherRow, now = Date.now()): TGiftVoucher['status'] {
  if (v.status === 'cancelled') return 'cancelled';
  if (v.balance === 0) return 'used';
  return v.expires_at.getTime() <= now ? 'expired' : 'active';
}

export function presentVoucher(v: q.VoucherRow): TGiftVoucher {
  return {
    id: v.id,
    code: formatVoucherCode(v.code),
    currency: v.currency,
    value: v.value,
    balance: v.balance,
    status: statusOf(v),
    expires_at: v.expires_at.toISOString(),
    source: v.source as TGiftVoucher['source'],
    buyer_name: v.buyer_name,
    buyer_email: v.buyer_email,
    recipient_name: v.recipient_name,
    recipient_email: v.recipient_email,
    message: v.message,
    deliver_on: v.deliver_on,
    delivered_at: v.delivered_at?.toISOString() ?? null,
    created_at: v.created_at.toISOString(),
  };
}

/** How many of the organisation's vouchers match the list's filter. */
export const voucherCount = q.voucherCount;

/** One page of the list (newest first), as the API shows it. */
export async function voucherPage(ctx: TenantCtx, f: Parameters<typeof q.voucherPage>[1], limit: number, offset: number): Promise<TGiftVoucher[]> {
  return (await q.voucherPage(ctx, f, limit, offset)).map(presentVoucher);
}

export interface VoucherMailJob {
  account: string;
  voucher: string;
  kind: 'voucher' | 'receipt';
  /** For the job list: whom it is for. */
  subject: string;
}

/** Queues the voucher's e-mail for its delivery date (the organisation's local midnight; at once when it is today or past). */
async function queueDelivery(ctx: TenantCtx, jobs: Jobs, v: q.VoucherRow, zone: string) {
  const at = localToUtc(v.deliver_on, '00:00', zone);
  const later = at.getTime() > Date.now();
  await jobs.sendIn(ctx.tx, QUEUES.voucherMail, { account: ctx.accountId, voucher: v.id, kind: 'voucher', subject: 'Gift voucher' } satisfies VoucherMailJob, later ? { startAfter: at } : {});
  if (!later) jobs.wake(QUEUES.voucherMail);
}

export interface IssueInput {
  value: number;
  source: 'store' | 'staff';
  storeId?: string | null;
  checkoutId?: string | null;
  buyerName?: string;
  buyerEmail?: string;
  recipientName?: string;
  recipientEmail?: string;
  message?: string;
  language?: string;
  /** The organisation's local date it is e-mailed on; absent: today. */
  deliverOn?: string;
  reason?: string;
  /** Queue its e-mail (to the recipient, else the buyer) for deliverOn, and, bought, the buyer's receipt now. */
  send: boolean;
}

/**
 * Issues a voucher: a fresh code (unique per organisation whatever its case; drawn again on the
 * rare clash), its value as balance, valid for the organisation's months (to the end of that local
 * day), its ledger's first entry and an audit event.
 */
export async function issueVoucher(ctx: TenantCtx, jobs: Jobs | undefined, input: IssueInput) {
  const s = await q.voucherSettings(ctx);
  const today = todayIn(s.zone);
  const deliverOn = input.deliverOn && input.deliverOn > today ? input.deliverOn : today;
  const language = input.language && isLanguage(input.language) ? input.language : ((s.languages[0] ?? 'en') as Language);
  let row: q.VoucherRow | undefined;
  for (let attempt = 0; !row && attempt < 5; attempt++) {
    row = await q.insertVoucher(ctx, {
      code: newVoucherCode(),
      currency: ctx.currency,
      value: input.value,
      balance: input.value,
      expires_at: expiryOf(addMonths(today, s.months), s.zone),
      source: input.source,
      store_id: input.storeId ?? null,
      checkout_id: input.checkoutId ?? null,
      issued_by: input.source === 'staff' ? (ctx.userId ?? null) : null,
      buyer_name: input.buyerName ?? '',
      buyer_email: input.buyerEmail ?? '',
      recipient_name: input.recipientName ?? '',
      recipient_email: input.recipientEmail ?? '',
      message: input.message ?? '',
      language,
      deliver_on: deliverOn,
    });
    // A checkout issues one voucher (gift_voucher_checkout_key): a second try finds it.
    if (!row && input.checkoutId) throw new AppError('conflict', 'This purchase has issued its voucher already.');
  }
  if (!row) throw new AppError('conflict', 'No free voucher code was found: try again.');
  await q.insertEntry(ctx, { voucher_id: row.id, kind: 'issue', amount: row.value, balance_after: row.value, expires_at: row.expires_at, reason: input.reason ?? '', actor_id: ctx.userId ?? null });
  await q.insertVoucherAudit(ctx, row.id, 'voucher issued', { value: row.value, currency: row.currency, source: row.source, ...(input.reason ? { reason: input.reason } : {}) });
  if (input.send && jobs && (row.recipient_email || row.buyer_email)) {
    await queueDelivery(ctx, jobs, row, s.zone);
    if (input.source === 'store' && row.buyer_email) {
      await jobs.sendIn(ctx.tx, QUEUES.voucherMail, { account: ctx.accountId, voucher: row.id, kind: 'receipt', subject: 'Gift voucher receipt' } satisfies VoucherMailJob);
      jobs.wake(QUEUES.voucherMail);
    }
  }
  return row;
}

/** A usable voucher by its code, or the refusal that says why (attr `voucher_code`). */
function usable(v: q.VoucherRow | undefined, code: string, currency: string) {
  const shown = formatVoucherCode(normalizeVoucherCode(code));
  if (!v) throw new AppError('voucher_unknown', `There is no gift voucher ${shown}: check the code.`, 'voucher_code');
  if (v.status === 'cancelled') throw new AppError('voucher_cancelled', `The gift voucher ${shown} was cancelled.`, 'voucher_code');
  if (v.expires_at.getTime() <= Date.now()) throw new AppError('voucher_expired', `The gift voucher ${shown} has expired.`, 'voucher_code');
  if (v.currency !== currency) throw new AppError('voucher_currency', `The gift voucher ${shown} is in ${v.currency}.`, 'voucher_code');
  if (v.balance <= 0) throw new AppError('voucher_used_up', `The gift voucher ${shown} has been used up.`, 'voucher_code');
  return v;
}

/** What a voucher would pay of `due` (minor units): its balance and expiry; nothing is taken. */
export async function voucherPreview(ctx: TenantCtx, code: string, due: number): Promise<TVoucherPreview> {
  const v = usable(await q.voucherByCode(ctx, normalizeVoucherCode(code), false), code, ctx.currency);
  return { code: formatVoucherCode(v.code), balance: v.balance, currency: v.currency, expires_at: v.expires_at.toISOString(), due: Math.max(due, 0), covers: Math.max(0, Math.min(v.balance, due)) };
}

/**
 * Pays part or all of an order with a voucher: the order's lock first (as every payment takes it),
 * then the voucher's row lock, so two redemptions of the voucher's last balance are checked one
 * after the other and the second finds it spent. The amount is min(balance, due) unless given (never
 * more than either). Records the payment (method `voucher`, its ledger entry's id as its provider
 * reference, unique as every provider reference is) and the ledger's redemption entry. Answers the payment.
 */
export async function redeemVoucher(ctx: TenantCtx, input: { orderId: string; code: string; amount?: number }) {
  if (!input.code.trim()) throw new AppError('required', 'Enter the gift voucher’s code.', 'voucher_code');
  const o = await lockOrder(ctx, input.orderId, { keepSalePending: true });
  if (o.status === 'Canceled') throw new AppError('invalid', 'This order is cancelled: it takes refunds only.', 'voucher_code');
  const due = o.total - o.paid;
  if (due <= 0) throw new AppError('invalid', 'This order is fully paid: nothing is left to pay.', 'voucher_code');
  const v = usable(await q.voucherByCode(ctx, normalizeVoucherCode(input.code), true), input.code, o.currency);
  const amount = input.amount ?? Math.min(v.balance, due);
  if (amount > v.balance) throw new AppError('invalid', `The gift voucher holds ${messageMoney(v.balance, v.currency)} only.`, 'voucher_amount');
  if (amount > due) throw new AppError('invalid', `That is more than is left to pay (${messageMoney(due, o.currency)}).`, 'voucher_amount');
  const entryId = randomUUID();
  const payment = await recordPayment(ctx, input.orderId, { amount, currency: o.currency, method: 'voucher', reference: `Gift voucher ${maskedVoucherCode(v.code)}`, provider_ref: entryId });
  const balance = v.balance - amount;
  await q.updateVoucher(ctx, v.id, { balance });
  await q.insertEntry(ctx, { id: entryId, voucher_id: v.id, kind: 'redemption', amount: -amount, balance_after: balance, order_id: input.orderId, payment_id: payment.id, actor_id: ctx.userId ?? null });
  return payment;
}

/**
 * A refund of a voucher payment goes back on the voucher (its ledger's `refund`), never as cash:
 * the settlement recordPayment() calls under the order's lock.
 */
const closed = (v: q.VoucherRow) => v.status === 'cancelled' || v.expires_at.getTime() <= Date.now();

/**
 * Whether a voucher payment's refund goes another way (cash, bank transfer): its voucher is
 * cancelled or expired, so money put back on it could never be spent.
 */
export async function refundsElsewhere(ctx: TenantCtx, paymentId: string) {
  const id = await q.voucherOfPayment(ctx, paymentId);
  const v = id ? await q.voucherById(ctx, id, false) : undefined;
  return Boolean(v && closed(v));
}

export function voucherRefunds(ctx: TenantCtx): PaymentSettlement {
  return {
    async settle(paid, amount) {
      if (paid.method !== 'voucher') throw new AppError('invalid', 'Only a gift voucher payment is refunded to a gift voucher: choose how you give this money back.', 'method');
      const id = await q.voucherOfPayment(ctx, paid.id);
      const v = id ? await q.voucherById(ctx, id, true) : undefined;
      if (!v) throw new AppError('invalid', 'The gift voucher of this payment is gone.', 'refund_of');
      // Money put back on a voucher that can no longer be spent would be lost to the customer.
      if (closed(v)) throw new AppError('invalid', `This gift voucher is ${v.status === 'cancelled' ? 'cancelled' : 'expired'}: give this money back another way (cash, bank transfer).`, 'method');
      const balance = v.balance + amount;
      if (balance > v.value) throw new AppError('invalid', 'A gift voucher cannot hold more than its value.', 'amount');
      await q.updateVoucher(ctx, v.id, { balance });
      const entry = await q.insertEntry(ctx, { voucher_id: v.id, kind: 'refund', amount, balance_after: balance, payment_id: paid.id, actor_id: ctx.userId ?? null });
      return { ref: entry.id, status: 'succeeded' };
    },
  };
}

async function entryOrder(ctx: TenantCtx, voucherId: string) {
  return q.voucherById(ctx, voucherId, true);
}

/** Cancels a voucher: what was left is taken off (the ledger's `cancel`), with the reason in the ledger and the audit trail. */
export async function cancelVoucher(ctx: TenantCtx, id: string, reason: string) {
  const v = await entryOrder(ctx, id);
  if (!v) throw notFound('No gift voucher with this id.');
  if (v.status === 'cancelled') throw new AppError('conflict', 'This gift voucher is cancelled already.');
  await q.updateVoucher(ctx, id, { status: 'cancelled', balance: 0 });
  await q.insertEntry(ctx, { voucher_id: id, kind: 'cancel', amount: -v.balance, balance_after: 0, reason, actor_id: ctx.userId ?? null });
  await q.insertVoucherAudit(ctx, id, 'voucher cancelled', { reason, balance: v.balance });
  return voucherDetail(ctx, id);
}

/** Moves a voucher's expiry (later or earlier, never before today), with the reason in the ledger and the audit trail. */
export async function extendVoucher(ctx: TenantCtx, id: string, input: { expires_on: string; reason: string }) {
  const v = await entryOrder(ctx, id);
  if (!v) throw notFound('No gift voucher with this id.');
  if (v.status === 'cancelled') throw new AppError('conflict', 'This gift voucher is cancelled.');
  const s = await q.voucherSettings(ctx);
  if (input.expires_on < todayIn(s.zone)) throw new AppError('invalid', 'Choose today or a later day.', 'expires_on');
  const expires = expiryOf(input.expires_on, s.zone);
  await q.updateVoucher(ctx, id, { expires_at: expires });
  await q.insertEntry(ctx, { voucher_id: id, kind: 'extend', amount: 0, balance_after: v.balance, expires_at: expires, reason: input.reason, actor_id: ctx.userId ?? null });
  await q.insertVoucherAudit(ctx, id, 'voucher extended', { reason: input.reason, from: v.expires_at.toISOString(), to: expires.toISOString() });
  return voucherDetail(ctx, id);
}

export async function voucherDetail(ctx: TenantCtx, id: string): Promise<TGiftVoucherDetail> {
  const v = await q.voucherById(ctx, id);
  if (!v) throw notFound('No gift voucher with this id.');
  const ledger = await q.ledgerOf(ctx, id);
  return {
    ...presentVoucher(v),
    ledger: ledger.map(({ e, reference, first, last, email }) => ({
      id: e.id,
      kind: e.kind as TGiftVoucherDetail['ledger'][number]['kind'],
      amount: e.amount,
      balance_after: e.balance_after,
      order: e.order_id,
      order_reference: reference,
      expires_at: e.expires_at?.toISOString() ?? null,
      reason: e.reason,
      actor: e.actor_id ? [first, last].filter(Boolean).join(' ') || email || null : null,
      created_at: e.created_at.toISOString(),
    })),
  };
}

/** The voucher as a one-page PDF (A5, the shared kit): organisation, value, code with its QR code, expiry, message. */
export async function voucherPdf(v: q.VoucherRow, organisation: string, zone: string) {
  const t = translateFor(v.language);
  const pdf = await createPdf(PAPER.A5, { title: `${t('pdf.voucher.title')} ${formatVoucherCode(v.code)}`, author: organisation });
  const page = pdf.addPage();
  const { left, right, top } = PAPER.A5;
  const centre = (left + right) / 2;
  pdf.text(page, organisation, centre, top, { size: 14, font: pdf.bold, align: 'center' });
  pdf.text(page, t('pdf.voucher.title'), centre, top - 40, { size: 24, font: pdf.bold, align: 'center' });
  pdf.text(page, `${t('pdf.voucher.value')}: ${documentMoney(t, v.value, v.currency)}`, centre, top - 80, { size: 16, align: 'center' });
  if (v.recipient_name) pdf.text(page, `${t('pdf.voucher.for')}: ${v.recipient_name}`, centre, top - 105, { size: 12, align: 'center' });
  drawQr(page, formatVoucherCode(v.code), centre - 70, top - 270, 140);
  pdf.text(page, `${t('pdf.voucher.code')}: ${formatVoucherCode(v.code)}`, centre, top - 295, { size: 14, font: pdf.bold, align: 'center' });
  pdf.text(page, `${t('pdf.voucher.expires')}: ${localDate(t, validUntil(v.expires_at, zone))}`, centre, top - 318, { size: 11, align: 'center' });
  let y = top - 350;
  for (const line of v.message ? pdf.wrap(v.message, right - left, 11) : []) {
    pdf.text(page, line, centre, y, { size: 11, align: 'center', color: grey(0.3) });
    y -= 15;
  }
  for (const line of pdf.wrap(t('pdf.voucher.howTo'), right - left, 9)) {
    pdf.text(page, line, centre, 60, { size: 9, align: 'center', color: grey(0.4) });
  }
  return pdf.save();
}

/**
 * Composes and sends a voucher's e-mail when its job runs: the voucher (with its PDF) to the
 * recipient, else the buyer — not when it was cancelled meanwhile; marked delivered — or the buyer's
 * receipt. Throws when the mail server refuses (the job retries).
 */
export async function sendVoucherMail(db: Db, _config: Config, send: (mail: Mail, id: string) => Promise<void>, job: VoucherMailJob, jobId: string) {
  const found = await inTenant(db, job.account, (tx) => q.voucherForMail(tx, job.account, job.voucher));
  if (!found) return { sent: false };
  const { v, organisation, zone } = found;
  const t = translateFor(v.language);
  const amount = mailMoney(t, v.value, v.currency);
  if (job.kind === 'receipt') {
    if (!v.buyer_email) return { sent: false };
    const to = v.recipient_email || v.buyer_email;
    await send({ to: v.buyer_email, subject: t('mail.voucherReceipt.subject', { organisation }), text: `${t('mail.greeting', { name: v.buyer_name })}\n\n${t('mail.voucherReceipt.body', { amount, organisation, to, date: localDate(t, v.deliver_on) })}\n` }, jobId);
    return { sent: true };
  }
  const to = v.recipient_email || v.buyer_email;
  // Cancelled before its day, or delivered already (a retry after the send): nothing (again).
  if (!to || v.status === 'cancelled' || v.delivered_at) return { sent: false };
  const name = v.recipient_email ? v.recipient_name : v.buyer_name;
  const gift = Boolean(v.recipient_email && v.buyer_name);
  const text = [
    t('mail.greeting', { name }),
    '',
    gift ? t('mail.voucher.introFrom', { from: v.buyer_name, amount, organisation }) : t('mail.voucher.intro', { amount, organisation }),
    '',
    t('mail.voucher.code', { code: formatVoucherCode(v.code) }),
    t('mail.voucher.expires', { date: localDate(t, validUntil(v.expires_at, zone)) }),
    ...(v.message ? ['', t('mail.voucher.message', { message: v.message })] : []),
    '',
    t('mail.voucher.attached'),
  ].join('\n');
  const pdf = await voucherPdf(v, organisation, zone);
  await send({ to, subject: t('mail.voucher.subject', { organisation }), text, attachments: [{ filename: `gift-voucher-${formatVoucherCode(v.code)}.pdf`, content: Buffer.from(pdf), contentType: 'application/pdf' }] }, jobId);
  await inTenant(db, job.account, (tx) => q.updateVoucher({ tx, accountId: job.account, currency: v.currency }, v.id, { delivered_at: new Date() }));
  return { sent: true };
}

/** The organisation's voucher settings (validity, zone, languages, name). */
export const organisationVoucherSettings = (ctx: TenantCtx) => q.voucherSettings(ctx);

/** What a voucher purchase's checkout row keeps until it is paid (online_checkout.voucher). */
export interface VoucherPurchasePayload {
  value: number;
  buyer_name: string;
  buyer_email: string;
  recipient_name: string;
  recipient_email: string;
  message: string;
  deliver_on: string;
  language: string;
}

/**
 * A paid voucher purchase (finishPaidSession() of payments, under the checkout's lock): the voucher
 * is issued, its e-mail queued for its delivery date and the buyer's receipt now.
 */
export async function issuePurchasedVoucher(ctx: TenantCtx, row: { id: string; store_id: string | null; voucher: Record<string, unknown> | null; amount: number }) {
  // The checkout's voucher (jsonb, a record to the schema) is the payload payments/vouchers.ts stored.
  const p = row.voucher as unknown as VoucherPurchasePayload;
  return issueVoucher(ctx, ctx.jobs, {
    value: row.amount,
    source: 'store',
    storeId: row.store_id,
    checkoutId: row.id,
    buyerName: p.buyer_name,
    buyerEmail: p.buyer_email,
    recipientName: p.recipient_name,
    recipientEmail: p.recipient_email,
    message: p.message,
    language: p.language,
    deliverOn: p.deliver_on,
    send: true,
  });
}

/** What a store's voucher page offers: its amounts or range, in the organisation's currency, and how long a voucher is valid. */
export async function storeVoucherOffer(ctx: TenantCtx, storeId: string) {
  const st = await q.storeVoucherSettings(ctx, storeId);
  if (!st?.sells) throw notFound('This store does not sell gift vouchers.');
  const s = await q.voucherSettings(ctx);
  return { currency: ctx.currency, amounts: st.amounts, min: st.min, max: st.max, validity_months: s.months, online: st.payment_options.includes('online') };
}

/** The amount a customer chose must be one the store sells: one of its amounts, or within its own range. */
export async function checkPurchaseAmount(ctx: TenantCtx, storeId: string, amount: number) {
  const offer = await storeVoucherOffer(ctx, storeId);
  const ownRange = offer.max > 0 && amount >= offer.min && amount <= offer.max;
  if (!offer.amounts.includes(amount) && !ownRange) throw new AppError('invalid', offer.max > 0 ? `Choose one of the amounts, or an amount from ${messageMoney(offer.min, ctx.currency)} to ${messageMoney(offer.max, ctx.currency)}.` : 'Choose one of the amounts.', 'amount');
  return offer;
}
