import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { baseAccount, cart, cartLine, order, slot, store, waitlistEntry } from '../../db/schema';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { execute, transaction } from '../../db/execute';

/** The waiting lists' only access to the database (SQL only, no rules). */

export type EntryRow = typeof waitlistEntry.$inferSelect;

/** Runs `fn` in a savepoint of the caller's transaction: what it wrote goes if it throws, the transaction lives on. */
export function inSavepoint<T>(ctx: TenantCtx, fn: (tx: Db) => Promise<T>): Promise<T> {
  return transaction(ctx.tx, fn);
}

/** A slot's state by the one definition (the view slot_api: seats remaining, open for sale) and what an offer needs of it. */
export async function slotState(ctx: TenantCtx, slotId: string) {
  const rows = (await execute<{ id: string; remaining: number; open: boolean; experience_id: string; starts_at: string | Date; time_zone: string; experience_title: string; capacity: number }>(ctx.tx, sql`
    select s.id, s.remaining, s.open, s.experience_id, s.starts_at, s.time_zone, s.experience_title, s.capacity
    from slot_api s where s.account_id = ${ctx.accountId} and s.id = ${slotId}::uuid`));
  return rows.rows[0];
}

/** Adds an entry at the end of the slot's list (the unique index refuses a second open one per e-mail). */
export async function insertEntry(ctx: TenantCtx, v: { slot: string; store: string; email: string; name: string; seats: number; quantities: Record<string, number> | null; language: string }) {
  const [row] = await ctx.tx
    .insert(waitlistEntry)
    .values({ account_id: ctx.accountId, slot_id: v.slot, store_id: v.store, email: v.email, name: v.name, seats: v.seats, quantities: v.quantities, language: v.language })
    .returning();
  return row!;
}

/** Where an open entry stands: 1 + the open entries that joined before it. */
export async function positionOf(ctx: TenantCtx, entry: EntryRow) {
  const rows = (await execute<{ n: number }>(ctx.tx, sql`
    select count(*)::int as n from ${waitlistEntry}
    where account_id = ${ctx.accountId} and slot_id = ${entry.slot_id} and status in ('waiting', 'offered')
      and (created_at, id) < (${entry.created_at.toISOString()}::timestamptz, ${entry.id}::uuid)`));
  return Number(rows.rows[0]!.n) + 1;
}

/** A slot's list in the order of joining, with each booked entry's order reference. */
export async function entriesOf(ctx: TenantCtx, slotId: string) {
  return ctx.tx
    .select({ e: waitlistEntry, reference: order.reference })
    .from(waitlistEntry)
    .leftJoin(order, eq(order.id, waitlistEntry.order_id))
    .where(and(eq(waitlistEntry.account_id, ctx.accountId), eq(waitlistEntry.slot_id, slotId)))
    .orderBy(asc(waitlistEntry.created_at), asc(waitlistEntry.id));
}

/** The entries still waiting, in the order of joining. */
export async function waitingOf(ctx: TenantCtx, slotId: string) {
  return ctx.tx
    .select()
    .from(waitlistEntry)
    .where(and(eq(waitlistEntry.account_id, ctx.accountId), eq(waitlistEntry.slot_id, slotId), eq(waitlistEntry.status, 'waiting')))
    .orderBy(asc(waitlistEntry.created_at), asc(waitlistEntry.id));
}

/** One entry of a slot, locked (its status changes under the slot's lock, then its own). */
export async function entryForUpdate(ctx: TenantCtx, slotId: string, entryId: string) {
  const [row] = await ctx.tx
    .select()
    .from(waitlistEntry)
    .where(and(eq(waitlistEntry.account_id, ctx.accountId), eq(waitlistEntry.slot_id, slotId), eq(waitlistEntry.id, entryId)))
    .for('update');
  return row;
}

/**
 * Offered entries whose time is up: expired. Answers them. An offer whose cart still holds its line
 * beyond that time (an online payment under way extends the line's hold: payments/online.ts,
 * holdLinesUntil) is not expired until that hold ends too, so a customer paying within their time
 * keeps their seats.
 */
export async function expireLapsed(ctx: TenantCtx, slotId: string) {
  const stillHeld = sql`exists (select 1 from ${cartLine} cl where cl.account_id = ${waitlistEntry.account_id} and cl.cart_id = ${waitlistEntry.cart_id} and cl.slot_id = ${waitlistEntry.slot_id} and cl.expires_at > now())`;
  return ctx.tx
    .update(waitlistEntry)
    .set({ status: 'expired', updated_at: new Date() })
    .where(and(eq(waitlistEntry.account_id, ctx.accountId), eq(waitlistEntry.slot_id, slotId), eq(waitlistEntry.status, 'offered'), sql`${waitlistEntry.offered_until} <= now()`, sql`not ${stillHeld}`))
    .returning({ id: waitlistEntry.id, cart_id: waitlistEntry.cart_id });
}

/** Marks an entry tried now (the job takes the slots whose work waited longest first). */
export async function touchEntry(ctx: TenantCtx, entryId: string) {
  await ctx.tx.update(waitlistEntry).set({ updated_at: new Date() }).where(and(eq(waitlistEntry.account_id, ctx.accountId), eq(waitlistEntry.id, entryId)));
}

/** Deletes the cart lines of some carts in a slot (call with the slot locked; the trigger gives their seats back). */
export async function deleteLinesOf(ctx: TenantCtx, slotId: string, cartIds: string[]) {
  if (cartIds.length === 0) return;
  await ctx.tx.delete(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.slot_id, slotId), inArray(cartLine.cart_id, cartIds)));
}

/** The store an entry was joined in, how long its offers hold, and its organisation's host and languages. */
export async function storeOf(ctx: TenantCtx, storeId: string) {
  const [row] = await ctx.tx
    .select({ id: store.id, slug: store.slug, active: store.active, hold_minutes: store.waitlist_hold_minutes, subdomain: baseAccount.subdomain, languages: baseAccount.languages })
    .from(store)
    .innerJoin(baseAccount, eq(baseAccount.id, store.account_id))
    .where(and(eq(store.account_id, ctx.accountId), eq(store.id, storeId)));
  return row;
}

/** The hold minutes of a slot's first open entry's store (what the departure's page says), else null. */
export async function holdMinutesOfList(ctx: TenantCtx, slotId: string) {
  const rows = (await execute<{ m: number }>(ctx.tx, sql`
    select st.waitlist_hold_minutes as m from ${waitlistEntry} e join ${store} st on st.id = e.store_id
    where e.account_id = ${ctx.accountId} and e.slot_id = ${slotId}::uuid order by e.created_at, e.id limit 1`));
  return rows.rows[0]?.m ?? null;
}

/**
 * A line's price for `seats` seats of the slot's offer: the seat-taking category with the highest
 * price that day (the full ticket), through tourdesk_price (every rule a hold checks). Undefined
 * when the offer has no such category priced that day.
 */
export async function priceForSeats(ctx: TenantCtx, slotId: string, seats: number) {
  const cats = (await execute<{ id: string }>(ctx.tx, sql`
    select c.id from ${slot} s
    join pricing_rate r on r.account_id = s.account_id and r.experience_id = s.experience_id
      and (r.valid_from is null or r.valid_from <= s.local_date) and (r.valid_to is null or r.valid_to >= s.local_date)
      and (cardinality(r.weekdays) = 0 or extract(isodow from s.local_date)::int = any (r.weekdays))
    join pricing_category c on c.account_id = s.account_id and c.id = r.pricing_category_id and c.occupies_seat
    where s.account_id = ${ctx.accountId} and s.id = ${slotId}::uuid
    order by r.retail_price desc, c.created_at, c.id limit 1`));
  const category = cats.rows[0]?.id;
  if (!category) return undefined;
  return priceFor(ctx, slotId, { [category]: seats });
}

/** Quantities by pricing category priced by tourdesk_price (the one price rule; it refuses a category the offer does not sell). */
export async function priceFor(ctx: TenantCtx, slotId: string, quantities: Record<string, number>) {
  const rows = (await execute<{ seats: number; total: number; currency: string; items: unknown }>(ctx.tx, sql`select seats, total, currency, items from tourdesk_price(${ctx.accountId}::uuid, ${slotId}::uuid, ${JSON.stringify(quantities)}::jsonb, '{}'::jsonb)`));
  const p = rows.rows[0]!;
  return { quantities, seats: Number(p.seats), total: Number(p.total), currency: p.currency, items: p.items };
}

/** A guest cart of the store for an offered entry (its secret's hash; no client address: it counts toward no address's cap). */
export async function insertOfferCart(ctx: TenantCtx, storeId: string, tokenHash: string, language: string) {
  const [row] = await ctx.tx.insert(cart).values({ account_id: ctx.accountId, store_id: storeId, token_hash: tokenHash, language }).returning({ id: cart.id });
  return row!.id;
}

/**
 * The hold itself: one cart line inserted by itself, which joins the slot's `held` only if its seats
 * fit (the trigger cart_line_held; else TD409), until `minutes` from now (cut at the slot's cut-off
 * by tourdesk_hold_until_cutoff). Answers its expiry.
 */
export async function insertOfferLine(
  ctx: TenantCtx,
  v: { cart: string; slot: string; quantities: Record<string, number>; seats: number; total: number; currency: string; items: unknown; minutes: number },
) {
  const rows = (await execute<{ expires_at: string | Date }>(ctx.tx, sql`
    insert into ${cartLine} (account_id, cart_id, slot_id, quantities, extras, seats, total, currency, items, expires_at)
    values (${ctx.accountId}::uuid, ${v.cart}::uuid, ${v.slot}::uuid, ${JSON.stringify(v.quantities)}::jsonb, '{}'::jsonb, ${v.seats}, ${v.total}, ${v.currency},
            ${JSON.stringify(v.items)}::jsonb, now() + make_interval(mins => ${v.minutes}))
    returning expires_at`));
  return new Date(rows.rows[0]!.expires_at);
}

export async function markOffered(ctx: TenantCtx, entryId: string, cartId: string, until: Date) {
  await ctx.tx
    .update(waitlistEntry)
    .set({ status: 'offered', cart_id: cartId, offered_at: new Date(), offered_until: until, updated_at: new Date() })
    .where(and(eq(waitlistEntry.account_id, ctx.accountId), eq(waitlistEntry.id, entryId)));
}

export async function setStatus(ctx: TenantCtx, entryId: string, status: EntryRow['status']) {
  await ctx.tx.update(waitlistEntry).set({ status, updated_at: new Date() }).where(and(eq(waitlistEntry.account_id, ctx.accountId), eq(waitlistEntry.id, entryId)));
}

/**
 * Slots of every organisation whose list has work (the job waitlist-offers, on the server's
 * connection): an offer whose time ran out, or a waiting entry whose seats remain free in an open slot.
 */
export async function slotsWithWork(db: Db, max: number) {
  const rows = (await execute<{ account_id: string; slot_id: string }>(db, sql`
    select e.account_id, e.slot_id from ${waitlistEntry} e
    where (e.status = 'offered' and e.offered_until <= now())
       or (e.status = 'waiting' and exists (select 1 from slot_api s where s.id = e.slot_id and s.open and s.remaining >= e.seats)
           and exists (select 1 from ${store} st where st.id = e.store_id and st.active))
    group by e.account_id, e.slot_id
    order by min(e.updated_at)
    limit ${max}`));
  return rows.rows;
}

/** The organisation's currency (a TenantCtx for the job). */
export async function currencyOf(db: Db, accountId: string) {
  const [row] = await db.select({ currency: baseAccount.currency }).from(baseAccount).where(eq(baseAccount.id, accountId));
  return row?.currency ?? 'EUR';
}

/** What the offer's e-mail says: the entry, its departure and offer, its store and organisation. */
export async function mailFacts(ctx: TenantCtx, entryId: string) {
  const rows = (await execute<{
      email: string; name: string; seats: number; language: string; status: string; cart_id: string | null; offered_until: string | Date | null;
      slug: string; subdomain: string; languages: string[]; organisation: string; time_format: string; starts_at: string | Date; title: string;
      translations: Record<string, { title?: string }>; time_zone: string;
    }>(ctx.tx, sql`
    select e.email, e.name, e.seats, e.language, e.status, e.cart_id, e.offered_until, st.slug, a.subdomain, a.languages, a.name as organisation, a.time_format,
           s.starts_at, x.title, x.translations, a.time_zone
    from ${waitlistEntry} e
    join ${store} st on st.id = e.store_id
    join ${baseAccount} a on a.id = e.account_id
    join ${slot} s on s.id = e.slot_id
    join experience x on x.id = s.experience_id
    where e.account_id = ${ctx.accountId} and e.id = ${entryId}::uuid`));
  return rows.rows[0];
}
