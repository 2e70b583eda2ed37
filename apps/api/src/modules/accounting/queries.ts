import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { baseAccount, booking, customer, experience, giftVoucher, giftVoucherEntry, invoice, onlineCheckout, order, orderPayment, settlement } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { execute } from '../../db/execute';

/**
 * The accounting export's only database access. Every row is chosen in the caller's tenant
 * (`inTenant`) and by its own `account_id` (an order a partner resold is readable through
 * `reseller_read`, but it is the supplier's sale, not the reseller's); a statement is read by either
 * side (`partner_isolation`). Period bounds: the organisation's local dates `from`..`to` (both
 * included) as instants, `[from 00:00, to + 1 day 00:00)` in its zone, so a timestamp index serves
 * them; documents by their stored local date (`issued_on`).
 */

export interface Period {
  from: string;
  to: string;
}

/** One journal row as the database gives it: amounts in minor units, signed. */
export interface JournalRow {
  date: string;
  category: string;
  document: string;
  order_ref: string;
  counterparty: string;
  description: string;
  offer: string;
  method: string;
  quantity: number | null;
  vat_rate_bp: number | null;
  currency: string;
  net: number | null;
  vat: number | null;
  gross: number;
  /** The other organisation of a statement (its name is read on the server's connection). */
  partner: string | null;
}

/** The organisation's period as instants (its zone's midnights), and the zone. */
const bounds = (ctx: TenantCtx, p: Period) => sql`
  per as (
    select a.time_zone as tz,
           (${p.from}::date)::timestamp at time zone a.time_zone as lo,
           (${p.to}::date + 1)::timestamp at time zone a.time_zone as hi
    from ${baseAccount} a where a.id = ${ctx.accountId}
  )`;

/** Who an order is for: the company, else the person as given with the order, else the e-mail. */
const partyOf = sql`coalesce(nullif(c.company, ''), nullif(trim(concat_ws(' ', coalesce(o.customer_first_name, c.first_name), coalesce(o.customer_last_name, c.last_name))), ''), coalesce(o.customer_email, c.email), '')`;

/** The order's current invoice number (its newest invoice no credit note cancels), or ''. */
const currentInvoiceOf = sql`coalesce((
    select ci.data->>'number' from ${invoice} ci
    where ci.account_id = o.account_id and ci.order_id = o.id and ci.kind = 'invoice'
      and not exists (select 1 from ${invoice} cn where cn.credits_invoice_id = ci.id)
    order by ci.issued_at desc limit 1), '')`;

/**
 * The period's journal in one statement, ordered by date, then category, document and position:
 * - the lines of the invoices and credit notes issued in the period, as stored in the document
 *   (`feeTexts`: what a "Cancellation fee" line says in each language), the offer found through the
 *   order's line whose stored description the document line carries;
 * - the lines of orders placed in the period that have no invoice or credit note, as they stand
 *   (fixed at sale): a row per line not cancelled, a row per VAT rate for the fee kept of cancelled
 *   lines (its VAT as `recomputeOrder()` counts it: round-half-up per rate);
 * - payments and refunds recorded in the period (a failed refund counts nowhere, as in `orders.paid`);
 * - the platform's fee of online payments recorded in the period;
 * - settlement statements made in the period, the commission with the caller's sign.
 */
export async function journalRows(ctx: TenantCtx, p: Period, feeTexts: string[]): Promise<JournalRow[]> {
  const fees = sql`array[${sql.join(
    feeTexts.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
  const result = (await execute<JournalRow>(ctx.tx, sql`
    with ${bounds(ctx, p)},
    docs as (
      select i.issued_on::text as date,
             case when i.kind = 'credit_note' then 'credit_note' when l.line->>'description' = any(${fees}) then 'cancellation_fee' else 'sale' end as category,
             i.data->>'number' as document,
             coalesce(i.data->>'order_reference', '') as order_ref,
             coalesce(i.data->'customer'->>'name', '') as counterparty,
             coalesce(l.line->>'description', '') as description,
             coalesce((
               select e.title from ${booking} b
               join ${experience} e on e.id = b.experience_id
               cross join lateral jsonb_array_elements(b.items) it
               where b.account_id = i.account_id and b.order_id = i.order_id
                 and (l.line->>'description' = (it->>'sold_as') || ': ' || coalesce(it->>'sold_label', it->>'label')
                      or (it->>'sold_as' is null and starts_with(l.line->>'description', e.title || ', ')))
               limit 1), '') as offer,
             '' as method,
             (l.line->>'quantity')::int as quantity,
             (l.line->>'vat_rate_bp')::int as vat_rate_bp,
             i.data->>'currency' as currency,
             (l.line->>'net')::int as net,
             (l.line->>'tax')::int as vat,
             (l.line->>'total')::int as gross,
             null::uuid as partner,
             i.series || lpad(i.year::text, 4, '0') || lpad(i.number::text, 9, '0') as sort_key,
             l.ord::int as pos
      from ${invoice} i
      cross join lateral jsonb_array_elements(i.data->'lines') with ordinality as l(line, ord)
      where i.account_id = ${ctx.accountId} and i.issued_on between ${p.from}::date and ${p.to}::date
    ),
    uninvoiced as (
      select o.*, (o.created_at at time zone per.tz)::date::text as day, ${partyOf} as party
      from ${order} o
      cross join per
      join ${customer} c on c.id = o.customer_id
      where o.account_id = ${ctx.accountId} and o.created_at >= per.lo and o.created_at < per.hi
        and not exists (select 1 from ${invoice} i where i.account_id = o.account_id and i.order_id = o.id)
    ),
    open_lines as (
      select o.day as date, 'sale' as category, '' as document, o.reference as order_ref, o.party as counterparty,
             coalesce(b.items->0->>'sold_as', e.title) as description, e.title as offer, '' as method,
             b.seats as quantity, b.tax_rate_bp as vat_rate_bp, b.currency, b.net, b.tax as vat, b.total as gross,
             null::uuid as partner, o.reference as sort_key,
             (row_number() over (partition by o.id order by b.created_at, b.id))::int as pos
      from uninvoiced o
      join ${booking} b on b.account_id = o.account_id and b.order_id = o.id and b.status <> 'Canceled'
      join ${experience} e on e.id = b.experience_id
    ),
    open_fees as (
      select o.day as date, 'cancellation_fee' as category, '' as document, o.reference as order_ref, o.party as counterparty,
             'Cancellation fee' as description, '' as offer, '' as method, 1 as quantity, f.rate as vat_rate_bp, o.currency,
             f.gross - f.vat as net, f.vat, f.gross, null::uuid as partner, o.reference as sort_key, 1000 + f.rate as pos
      from uninvoiced o
      cross join lateral (
        select b.tax_rate_bp as rate, sum(b.cancellation_fee)::int as gross,
               case when b.tax_rate_bp = 0 then 0
                    else floor((2 * sum(b.cancellation_fee)::bigint * b.tax_rate_bp + (10000 + b.tax_rate_bp)) / (2 * (10000 + b.tax_rate_bp)))::int end as vat
        from ${booking} b
        where b.account_id = o.account_id and b.order_id = o.id and b.status = 'Canceled' and b.cancellation_fee > 0
        group by b.tax_rate_bp
      ) f
    ),
    money as (
      select (pm.created_at at time zone per.tz)::date::text as date,
             case when pm.amount > 0 then 'payment' else 'refund' end as category,
             ${currentInvoiceOf} as document, o.reference as order_ref, ${partyOf} as counterparty,
             concat_ws(' · ', nullif(pm.reference, ''), nullif(pm.reason, ''), case when pm.status = 'pending' then 'pending at the provider' end) as description,
             '' as offer, pm.method, null::int as quantity, null::int as vat_rate_bp, pm.currency,
             null::int as net, null::int as vat, pm.amount as gross, null::uuid as partner,
             to_char(pm.created_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') as sort_key, 0 as pos
      from ${orderPayment} pm
      cross join per
      join ${order} o on o.account_id = pm.account_id and o.id = pm.order_id
      join ${customer} c on c.id = o.customer_id
      where pm.account_id = ${ctx.accountId} and pm.created_at >= per.lo and pm.created_at < per.hi and pm.status <> 'failed'
    ),
    platform_fees as (
      select (pm.created_at at time zone per.tz)::date::text as date, 'payment_fee' as category,
             ${currentInvoiceOf} as document, o.reference as order_ref, 'Tourdesk' as counterparty,
             concat_ws(' · ', 'Platform fee on an online payment', nullif(pm.reference, '')) as description,
             '' as offer, 'online' as method, null::int as quantity, null::int as vat_rate_bp, oc.currency,
             null::int as net, null::int as vat, -oc.application_fee as gross, null::uuid as partner,
             to_char(pm.created_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') as sort_key, 1 as pos
      from ${onlineCheckout} oc
      cross join per
      join ${orderPayment} pm on pm.account_id = oc.account_id and pm.provider_ref = oc.payment_intent and pm.amount > 0
      join ${order} o on o.account_id = pm.account_id and o.id = pm.order_id
      where oc.account_id = ${ctx.accountId} and oc.status = 'paid' and oc.application_fee > 0
        and pm.created_at >= per.lo and pm.created_at < per.hi
    ),
    statements as (
      select (s.created_at at time zone per.tz)::date::text as date, 'partner_commission' as category, s.number as document,
             '' as order_ref, '' as counterparty,
             'Commission, statement for ' || s.period_from::text || ' to ' || s.period_to::text as description,
             '' as offer, '' as method, s.bookings as quantity, null::int as vat_rate_bp, s.currency,
             null::int as net, null::int as vat,
             case when s.supplier_account_id = ${ctx.accountId} then -s.commission else s.commission end as gross,
             case when s.supplier_account_id = ${ctx.accountId} then s.reseller_account_id else s.supplier_account_id end as partner,
             s.number as sort_key, 0 as pos
      from ${settlement} s
      cross join per
      where (s.supplier_account_id = ${ctx.accountId} or s.reseller_account_id = ${ctx.accountId})
        and s.created_at >= per.lo and s.created_at < per.hi
    ),
    vouchers as (
      -- Gift vouchers (multi-purpose): a sale is money received for a liability, no VAT, no revenue;
      -- one issued by staff is a liability given; a cancellation releases what was left. Their
      -- redemptions are payments (method voucher) of the orders whose lines carry the VAT.
      select (ge.created_at at time zone per.tz)::date::text as date,
             case when ge.kind = 'cancel' then 'voucher_cancelled' when gv.source = 'store' then 'voucher_sale' else 'voucher_issued' end as category,
             '' as document, '' as order_ref,
             case when gv.source = 'store' then gv.buyer_name else gv.recipient_name end as counterparty,
             concat_ws(' · ', 'Gift voucher ' || '…' || right(gv.code, 4), case when ge.kind = 'cancel' then 'cancelled' else 'liability, no VAT' end, nullif(ge.reason, '')) as description,
             '' as offer, case when ge.kind = 'issue' and gv.source = 'store' then 'online' else '' end as method,
             1 as quantity, 0 as vat_rate_bp, gv.currency, ge.amount as net, 0 as vat, ge.amount as gross,
             null::uuid as partner, to_char(ge.created_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') as sort_key, 0 as pos
      from ${giftVoucherEntry} ge
      cross join per
      join ${giftVoucher} gv on gv.account_id = ge.account_id and gv.id = ge.voucher_id
      where ge.account_id = ${ctx.accountId} and ge.kind in ('issue', 'cancel') and ge.amount <> 0
        and ge.created_at >= per.lo and ge.created_at < per.hi
    ),
    voucher_fees as (
      select (oc.updated_at at time zone per.tz)::date::text as date, 'payment_fee' as category,
             '' as document, '' as order_ref, 'Tourdesk' as counterparty,
             'Platform fee on an online payment · Gift voucher ' || '…' || right(gv.code, 4) as description,
             '' as offer, 'online' as method, null::int as quantity, null::int as vat_rate_bp, oc.currency,
             null::int as net, null::int as vat, -oc.application_fee as gross, null::uuid as partner,
             to_char(oc.updated_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS') as sort_key, 1 as pos
      from ${onlineCheckout} oc
      cross join per
      join ${giftVoucher} gv on gv.account_id = oc.account_id and gv.checkout_id = oc.id
      where oc.account_id = ${ctx.accountId} and oc.status = 'paid' and oc.application_fee > 0
        and gv.created_at >= per.lo and gv.created_at < per.hi
    ),
    journal as (
      select * from docs union all select * from open_lines union all select * from open_fees
      union all select * from money union all select * from platform_fees union all select * from statements
      union all select * from vouchers union all select * from voucher_fees
    )
    select date, category, document, order_ref, counterparty, description, offer, method, quantity, vat_rate_bp, currency, net, vat, gross, partner
    from journal
    order by date,
             array_position(array['sale', 'cancellation_fee', 'credit_note', 'voucher_sale', 'voucher_issued', 'voucher_cancelled', 'payment', 'refund', 'payment_fee', 'partner_commission'], category),
             sort_key, pos`));
  return result.rows;
}

/** The names of other organisations (a statement's partner), read on the server's connection by id. */
export async function accountNames(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db.select({ id: baseAccount.id, name: baseAccount.name }).from(baseAccount).where(inArray(baseAccount.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** How many invoices and credit notes the period holds. */
export async function documentCounts(ctx: TenantCtx, p: Period) {
  const result = (await execute<{ invoices: number; credit_notes: number }>(ctx.tx, sql`
    select count(*) filter (where kind = 'invoice')::int as invoices, count(*) filter (where kind = 'credit_note')::int as credit_notes
    from ${invoice} where account_id = ${ctx.accountId} and issued_on between ${p.from}::date and ${p.to}::date`));
  return result.rows[0]!;
}

/** Where a page of documents starts: after this one (their order: date, series, year, number). */
export interface DocumentKey {
  issued_on: string;
  series: string;
  year: number;
  number: number;
}

/** A page of the period's invoices and credit notes (stored data and language), in their order. */
export async function documentPage(ctx: TenantCtx, p: Period, after: DocumentKey | null, limit: number) {
  const result = (await execute<DocumentKey & { language: string; data: Record<string, unknown> }>(ctx.tx, sql`
    select issued_on::text as issued_on, series, year, number, language, data
    from ${invoice}
    where account_id = ${ctx.accountId} and issued_on between ${p.from}::date and ${p.to}::date
      ${after ? sql`and (issued_on, series, year, number) > (${after.issued_on}::date, ${after.series}, ${after.year}::int, ${after.number}::int)` : sql``}
    order by issued_on, series, year, number
    limit ${limit}`));
  return result.rows;
}
