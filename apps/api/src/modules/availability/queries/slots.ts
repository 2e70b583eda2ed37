import { and, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { baseAccount, booking, cartLine, closedDate, experience, scheduleRule, slot } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { execute, rowsOf } from '../../../db/execute';

/** The slots' reads and writes: deriving them from rules, their seats, their lock, and the view slot_api. */

export type SlotRow = typeof slot.$inferSelect;
export type SlotInsert = typeof slot.$inferInsert;
export type RuleRow = typeof scheduleRule.$inferSelect;

/** The organisation's zone, currency, hold time and default cutoff. */
export async function accountSettings(tx: Db, accountId: string) {
  const [row] = await tx
    .select({ time_zone: baseAccount.time_zone, currency: baseAccount.currency, hold_minutes: baseAccount.hold_minutes, default_cutoff_minutes: baseAccount.default_cutoff_minutes })
    .from(baseAccount)
    .where(eq(baseAccount.id, accountId));
  return row!;
}

/** An experience of the organisation (undefined when there is none with this id). */
export async function findExperience(ctx: TenantCtx, experienceId: string) {
  const [exp] = await ctx.tx.select().from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, experienceId)));
  return exp;
}

/** Every schedule rule of an experience. */
export function rulesOfExperience(ctx: TenantCtx, experienceId: string) {
  return ctx.tx.select().from(scheduleRule).where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.experience_id, experienceId)));
}

/** An experience's closed dates. */
export async function closedDatesOfExperience(ctx: TenantCtx, experienceId: string) {
  return (await ctx.tx.select({ date: closedDate.date }).from(closedDate).where(and(eq(closedDate.account_id, ctx.accountId), eq(closedDate.experience_id, experienceId)))).map((c) => c.date);
}

/**
 * Inserts slots, or makes existing ones (same start) follow their rule: a capacity set by hand is
 * kept, and a slot closed only because no rule wanted it reopens.
 */
export async function upsertSlots(ctx: TenantCtx, values: SlotInsert[]) {
  await ctx.tx
    .insert(slot)
    .values(values)
    .onConflictDoUpdate({
      target: [slot.account_id, slot.experience_id, slot.starts_at],
      set: {
        rule_id: sql`excluded.rule_id`,
        ends_at: sql`excluded.ends_at`,
        // A capacity set by hand on this slot is kept; otherwise the rule's, never below what is
        // booked and held (such a slot keeps the seats it has sold).
        capacity: sql`case when ${slot.capacity_by_hand} then ${slot.capacity} else greatest(excluded.capacity, ${slot.booked} + ${slot.held}) end`,
        // Closed only because no rule wanted it (rule_id cleared below): a rule wants it again, so it reopens; closed by hand stays closed.
        closed: sql`${slot.closed} and (${slot.closed_by_hand} or ${slot.rule_id} is not null)`,
        updated_at: new Date(),
      },
    });
}

/**
 * An experience's slots that start after `from` (ids and starts; occurrences() wants no slot that
 * starts by then), locked in id order — the order checkout and every other writer lock slots in —
 * before anything updates them.
 */
export function lockSlotsFrom(ctx: TenantCtx, experienceId: string, from: Date) {
  return ctx.tx
    .select({ id: slot.id, starts_at: slot.starts_at })
    .from(slot)
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.experience_id, experienceId), gt(slot.starts_at, from)))
    .orderBy(slot.id)
    .for('no key update');
}

/** A slot's booked and held seats, and whether any booking (cancelled ones included) refers to it. */
export async function slotUsage(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx
    .select({ booked: slot.booked, held: slot.held, bookings: sql<boolean>`exists (select 1 from ${booking} b where b.slot_id = ${id}::uuid)` })
    .from(slot)
    .where(eq(slot.id, id));
  return row!;
}

/** Deletes a slot. */
export async function deleteSlot(ctx: TenantCtx, id: string) {
  await ctx.tx.delete(slot).where(eq(slot.id, id));
}

/** Detaches slots from their rule and closes them (kept for their bookings). */
export async function detachSlots(ctx: TenantCtx, ids: string[]) {
  await ctx.tx.update(slot).set({ rule_id: null, closed: true, updated_at: new Date() }).where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, ids)));
}

/**
 * Deletes a slot's expired cart lines (the trigger takes their seats out of slot.held). Call it
 * with the slot's row already locked (lockSlot): the slot first, then its lines, as every writer.
 */
export async function sweepSlot(tx: Db, slotId: string) {
  await tx.execute(sql`delete from ${cartLine} where slot_id = ${slotId}::uuid and expires_at <= now()`);
}

/** Seats remaining in a slot (tourdesk_seats_left, the one definition), counting its expired lines as free. */
export async function seatsLeft(ctx: TenantCtx, slotId: string) {
  const rows = (await execute<{ left: number }>(ctx.tx, sql`
    select tourdesk_seats_left(s.capacity, s.guide_seats, s.booked, s.held,
             (select coalesce(sum(l.seats), 0)::int from ${cartLine} l where l.slot_id = s.id and l.expires_at <= now())) as left
    from ${slot} s where s.account_id = ${ctx.accountId} and s.id = ${slotId}::uuid`));
  return Number(rows.rows[0]?.left ?? 0);
}

/** Locks one slot's row FOR NO KEY UPDATE and reads it (undefined when it is not the organisation's). */
export async function lockSlotRow(ctx: TenantCtx, slotId: string): Promise<SlotRow | undefined> {
  const query = ctx.tx.select().from(slot).where(and(eq(slot.account_id, ctx.accountId), eq(slot.id, slotId)));
  const [row] = await query.for('no key update');
  return row;
}

/** A price rate as the database hands it over with the slots. */
export interface Rate {
  pricing_category: string;
  retail_price: number;
  /** What a reseller owes by a net-rate contract that leaves the category blank (partners' `netRatesOf`); never in the Slot schema. */
  net_price: number | null;
  currency: string;
  valid_from: string | null;
  valid_to: string | null;
  weekdays: number[];
}

/** A slot's fixed part as JSON text (`api_head`, written by the trigger slot_head) and its state. */
export interface SlotTextRow {
  api_head: string;
  capacity: number;
  booked: number;
  held: number;
  remaining: number;
  closed: boolean;
  bookable: boolean;
  status: string;
  experience_id?: string;
}

/** The slots of the organisation on a local date (a condition for slotApiRows). */
export const slotsOnDate = (ctx: TenantCtx, date: string) => sql`s.account_id = ${ctx.accountId} and s.local_date = ${date}`;
/** One slot of the organisation (a condition for slotApiRows). */
export const slotWithId = (ctx: TenantCtx, id: string) => sql`s.account_id = ${ctx.accountId} and s.id = ${id}`;

/** Rows of the view slot_api (its fixed part and state) in start order; `where` uses the alias `s`. */
export async function slotApiRows(tx: Db, where: SQL) {
  return (await rowsOf<SlotTextRow & { time_zone: string; experience_id: string; experience_title: string; account_id: string }>(tx, sql`select s.api_head, s.time_zone, s.capacity, s.booked, s.held, s.remaining, s.closed, s.bookable, s.status, s.experience_id, s.experience_title, s.account_id from slot_api s where ${where} order by s.starts_at, s.id`));
}

/** The price rates of some experiences (one query). */
export async function ratesOfExperiences(tx: Db, accountId: string, experiences: string[]) {
  return (await rowsOf<Rate & { experience_id: string }>(tx, sql`
    select experience_id, pricing_category_id as pricing_category, retail_price, net_price, currency, valid_from::text as valid_from, valid_to::text as valid_to, weekdays
    from pricing_rate where account_id = ${accountId}::uuid and experience_id in ${experiences}
    order by pricing_category_id`));
}

/**
 * tourdesk_availability (one statement that enters the tenant scope itself): a first row with the
 * organisation's time zone and the experience's rates (JSON in `rates`), then the slots.
 */
export async function availabilityStatement(db: Db, accountId: string, experienceId: string, from: string, to: string) {
  return (await rowsOf<SlotTextRow & { rates: string | null }>(db, sql`select * from tourdesk_availability(${accountId}::uuid, ${experienceId}::uuid, ${from}::date, ${to}::date)`));
}
