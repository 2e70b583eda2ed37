import { and, count, eq, sql } from 'drizzle-orm';
import { baseAccount, booking, experience, paymentAccount, pricingRate, scheduleRule, store, users } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { slotsWhere } from '../availability/slots';
import { execute } from '../../db/execute';

/** The organisation's zone, currency and whether its checklist was put away. */
export async function organisation(ctx: TenantCtx) {
  const [row] = await ctx.tx
    .select({ zone: baseAccount.time_zone, currency: baseAccount.currency, dismissed: baseAccount.onboarding_dismissed_at })
    .from(baseAccount)
    .where(eq(baseAccount.id, ctx.accountId));
  return row!;
}

/** Slots of the given local days (from the view slot_api: the one definition of seats left and open), with their offer's title. */
export function slotsOn(ctx: TenantCtx, from: string, to: string, onlyFilling = false) {
  return slotsWhere(
    ctx.tx,
    sql`s.account_id = ${ctx.accountId} and s.local_date between ${from}::date and ${to}::date ${onlyFilling ? sql`and not s.closed and s.status in ('limited', 'sold_out')` : sql`and (s.booked > 0 or not s.closed)`}`,
    true,
  );
}

/** Seats checked in per slot, one aggregate for the given slots. */
export async function arrivedBySlot(ctx: TenantCtx, slotIds: string[]) {
  if (slotIds.length === 0) return new Map<string, number>();
  const rows = (await execute<{ slot_id: string; n: number }>(ctx.tx, sql`
    select slot_id, sum(seats)::int as n from ${booking}
    where account_id = ${ctx.accountId} and slot_id = any(${sql.param(slotIds)}::uuid[]) and status <> 'Canceled' and attendance = 'Arrived'
    group by slot_id`));
  return new Map(rows.rows.map((r) => [r.slot_id, r.n]));
}

/** Orders sold per local day from `from` (not cancelled): their count and totals as sold. */
export async function salesByDay(ctx: TenantCtx, zone: string, from: string) {
  const rows = (await execute<{ day: string; orders: number; revenue: string | number }>(ctx.tx, sql`
    select to_char((created_at at time zone ${zone})::date, 'YYYY-MM-DD') as day, count(*)::int as orders, coalesce(sum(total), 0)::bigint as revenue
    from orders
    where account_id = ${ctx.accountId} and status <> 'Canceled' and created_at >= (${from}::date::timestamp at time zone ${zone})
    group by 1`));
  return new Map(rows.rows.map((r) => [r.day, { orders: r.orders, revenue: Number(r.revenue) }]));
}

/** Orders that still owe money, and those owed a refund (their stored payment status: the one rule, paymentStatus()). */
export async function moneyDue(ctx: TenantCtx) {
  const [row] = (
    (await execute<{ unpaid_orders: number; unpaid_amount: string | number; refunds_due: number; refunds_amount: string | number }>(ctx.tx, sql`
      select count(*) filter (where payment_status in ('Not paid', 'Partially paid') and status <> 'Canceled')::int as unpaid_orders,
             coalesce(sum(total - paid) filter (where payment_status in ('Not paid', 'Partially paid') and status <> 'Canceled'), 0)::bigint as unpaid_amount,
             count(*) filter (where payment_status = 'Refund due')::int as refunds_due,
             coalesce(sum(paid - total) filter (where payment_status = 'Refund due'), 0)::bigint as refunds_amount
      from orders where account_id = ${ctx.accountId} and payment_status in ('Not paid', 'Partially paid', 'Refund due')`))
  ).rows;
  return { unpaid_orders: row!.unpaid_orders, unpaid_amount: Number(row!.unpaid_amount), refunds_due: row!.refunds_due, refunds_amount: Number(row!.refunds_amount) };
}

/** Orders owing a balance by a due date (a deposit paid online; orders_balance_due_idx): count, sum and the next `limit` by due date. */
export async function balancesDue(ctx: TenantCtx, limit: number) {
  const owing = sql`account_id = ${ctx.accountId} and balance_due_on is not null and status <> 'Canceled' and total > paid`;
  const [sum] = (
    (await execute<{ orders: number; amount: string | number }>(ctx.tx, sql`select count(*)::int as orders, coalesce(sum(total - paid), 0)::bigint as amount from orders where ${owing}`))
  ).rows;
  const next = (
    (await execute<{ order: string; reference: string; customer: string; balance: number; due_on: string; payment_status: string }>(ctx.tx, sql`
      select id as "order", reference, trim(coalesce(customer_first_name, '') || ' ' || coalesce(customer_last_name, '')) as customer, (total - paid)::int as balance,
        to_char(balance_due_on, 'YYYY-MM-DD') as due_on, payment_status
      from orders where ${owing} order by balance_due_on, id limit ${limit}`))
  ).rows;
  return { orders: sum!.orders, amount: Number(sum!.amount), next };
}

/** What the organisation has set up, for its checklist: one statement of existence checks. */
export async function setUp(ctx: TenantCtx) {
  const has = (table: typeof experience | typeof scheduleRule | typeof pricingRate | typeof store) => sql`exists (select 1 from ${table} where account_id = ${ctx.accountId})`;
  const [row] = (
    (await execute<{ offer: boolean; schedule: boolean; prices: boolean; store: boolean; payments: boolean }>(ctx.tx, sql`
      select ${has(experience)} as offer, ${has(scheduleRule)} as schedule, ${has(pricingRate)} as prices, ${has(store)} as store,
        coalesce((select charges_enabled from ${paymentAccount} where account_id = ${ctx.accountId}), false) as payments`))
  ).rows;
  const [team] = await ctx.tx.select({ n: count() }).from(users).where(eq(users.account_id, ctx.accountId));
  return { ...row!, team: Number(team?.n ?? 0) > 1 };
}

export async function setDismissed(ctx: TenantCtx, dismissed: boolean) {
  await ctx.tx.update(baseAccount).set({ onboarding_dismissed_at: dismissed ? new Date() : null }).where(and(eq(baseAccount.id, ctx.accountId)));
}
