import { createHash, randomBytes } from 'node:crypto';
import type { TWaitlist, TWaitlistJoined } from '@tourdesk/contracts';
import { isLanguage, localize, type Language } from '@tourdesk/contracts/i18n';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, fromDatabase, notFound } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import { QUEUES, type Jobs } from '../../lib/jobs';
import type { Mail } from '../../lib/mailer';
import { inTenant } from '../../lib/tenancy';
import { localWhen, translateFor } from '../../lib/customer-text';
import { lockSlot, sweepSlot } from '../availability/slots';
import * as q from './queries';

/**
 * A departure's waiting list (issue 32). Customers join a sold-out departure in the web store;
 * when seats free up, `offerFreedSeats()` — under the slot's lock, the same lock every writer of
 * the slot takes — offers them to the entries in the order they joined, each whose seats fit the
 * seats remaining (tourdesk_seats_left through slot_api, the one definition): a guest cart of the
 * entry's store holding its seats (a cart line, the one pool of seats: no other channel can take
 * them) for the store's `waitlist_hold_minutes`, and an e-mail (the job waitlist-mail, composed
 * when sent, its link's secret sealed) with the link that opens that cart in the store. A hold that
 * runs out unused marks the entry expired and offers the next; booking the cart marks it booked.
 */

const DEFAULT_HOLD_MINUTES = 720;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The e-mail job of an offer: ids, and the cart's secret sealed (lib/sealed.ts). */
export interface WaitlistMailJob {
  account: string;
  entry: string;
  token_sealed: string;
  to: string;
  subject: string;
}

/** A customer joins a departure's list (web store: the store's books, ctx). Refused while the seats asked for are free, and twice for one e-mail. */
export async function joinWaitlist(ctx: TenantCtx & { store: { id: string } }, input: { slot: string; email: string; name: string; seats: number; quantities?: Record<string, number> }, language: Language): Promise<TWaitlistJoined> {
  const state = await q.slotState(ctx, input.slot);
  if (!state) throw notFound('No such time slot.');
  if (!state.open) throw new AppError('invalid', 'This time is not on sale.', 'slot');
  // Who they are, by category: priced now by the one rule (an unknown category is refused), the seats what they take.
  const wanted = Object.fromEntries(Object.entries(input.quantities ?? {}).filter(([, n]) => n > 0));
  const quantities = Object.keys(wanted).length ? wanted : null;
  let seats = input.seats;
  if (quantities) {
    const priced = await q.priceFor(ctx, input.slot, quantities).catch((thrown: unknown) => {
      throw fromDatabase(thrown) ?? thrown;
    });
    if (priced.seats < 1) throw new AppError('invalid', 'Ask for at least one seat.', 'quantities');
    if (priced.seats > 30) throw new AppError('invalid', 'Ask for at most 30 seats; for a larger group, ask the operator.', 'quantities');
    seats = priced.seats;
  }
  if (state.remaining >= seats) throw new AppError('conflict', 'These seats are free: book them now.', 'seats');
  let entry: q.EntryRow;
  try {
    entry = await q.insertEntry(ctx, { slot: input.slot, store: ctx.store.id, email: input.email, name: input.name, seats, quantities, language });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', 'You are already on the waiting list of this time with this e-mail address.', 'email');
    throw error;
  }
  return { id: entry.id, position: await q.positionOf(ctx, entry), seats: entry.seats };
}

/** The list of a departure as staff see it. */
export async function waitlistOf(ctx: TenantCtx, slotId: string): Promise<TWaitlist> {
  const state = await q.slotState(ctx, slotId);
  if (!state) throw notFound('No such time slot.');
  const rows = await q.entriesOf(ctx, slotId);
  let position = 0;
  return {
    slot: slotId,
    seats_left: Number(state.remaining),
    hold_minutes: (await q.holdMinutesOfList(ctx, slotId)) ?? DEFAULT_HOLD_MINUTES,
    results: rows.map(({ e, reference }) => ({
      id: e.id,
      position: e.status === 'waiting' || e.status === 'offered' ? ++position : 0,
      email: e.email,
      name: e.name,
      seats: e.seats,
      language: e.language,
      status: e.status as TWaitlist['results'][number]['status'],
      offered_at: e.offered_at?.toISOString() ?? null,
      offered_until: e.offered_until?.toISOString() ?? null,
      order: e.order_id,
      order_reference: reference,
      created_at: e.created_at.toISOString(),
    })),
  };
}

/** Holds `entry`'s seats for it in a new guest cart of its store and queues its e-mail. Call under the slot's lock. */
async function offer(ctx: TenantCtx & { jobs: Jobs }, slotId: string, entry: q.EntryRow) {
  const st = await q.storeOf(ctx, entry.store_id);
  // A store switched off cannot take the booking (its pages answer 404): its entries wait until it is on again.
  if (!st?.active) return false;
  // Priced as the customer asked (their categories), else the full ticket; today's prices.
  const price = entry.quantities ? await q.priceFor(ctx, slotId, entry.quantities) : await q.priceForSeats(ctx, slotId, entry.seats);
  if (!price || price.seats !== entry.seats) return false;
  const token = randomBytes(24).toString('base64url');
  const cartId = await q.insertOfferCart(ctx, entry.store_id, sha256(token), entry.language);
  const until = await q.insertOfferLine(ctx, { cart: cartId, slot: slotId, quantities: price.quantities, seats: price.seats, total: price.total, currency: price.currency, items: price.items, minutes: st.hold_minutes });
  await q.markOffered(ctx, entry.id, cartId, until);
  const job: WaitlistMailJob = { account: ctx.accountId, entry: entry.id, token_sealed: ctx.jobs.seal(token), to: entry.email, subject: 'Waiting list: seats for you' };
  await ctx.jobs.sendIn(ctx.tx, QUEUES.waitlistMail, job);
  return true;
}

/**
 * Seats came free in a slot (a cancellation, a capacity raised, a hold run out): under the slot's
 * lock, offers that ran out are expired (their lines given back), the slot's expired lines swept,
 * and the seats remaining offered to the waiting entries in the order they joined, each whose seats
 * fit what is left. Without a job queue at hand (ctx.jobs) nothing is offered here: the job
 * waitlist-offers does it within a minute. Answers the entries offered.
 */
export async function offerFreedSeats(ctx: TenantCtx, slotId: string): Promise<string[]> {
  if (!ctx.jobs) return [];
  const withJobs = { ...ctx, jobs: ctx.jobs };
  // The lock makes two frees at once offer one after the other: each sees the other's holds.
  await lockSlot(ctx, slotId);
  const lapsed = await q.expireLapsed(ctx, slotId);
  await q.deleteLinesOf(ctx, slotId, lapsed.flatMap((l) => (l.cart_id ? [l.cart_id] : [])));
  await sweepSlot(ctx.tx, slotId);
  const state = await q.slotState(ctx, slotId);
  if (!state?.open) return [];
  let free = Number(state.remaining);
  const offered: string[] = [];
  for (const entry of await q.waitingOf(ctx, slotId)) {
    if (free <= 0) break;
    if (entry.seats > free) continue;
    // In a savepoint: an entry the offer's rules refuse (fewer than its minimum participants, no
    // price that day) stays waiting, and the cancellation or change that freed the seats still commits.
    const made = await q.inSavepoint(ctx, (tx) => offer({ ...withJobs, tx }, slotId, entry)).catch((error: unknown) => {
      if (fromDatabase(error)?.status === 400) return false;
      throw error;
    });
    if (made) {
      free -= entry.seats;
      offered.push(entry.id);
    } else {
      // Tried and not offerable now: it goes behind the other slots' work of the job (slotsWithWork).
      await q.touchEntry(ctx, entry.id);
    }
  }
  return offered;
}

/** Staff offer seats to one entry by hand (any waiting or expired entry, out of turn), when its seats are free. */
export async function offerByHand(ctx: TenantCtx, slotId: string, entryId: string) {
  if (!ctx.jobs) throw new AppError('service_unavailable', 'The job queue is not running: try again in a moment.');
  await lockSlot(ctx, slotId);
  await sweepSlot(ctx.tx, slotId);
  const entry = await q.entryForUpdate(ctx, slotId, entryId);
  if (!entry) throw notFound('No such entry on this waiting list.');
  if (entry.status !== 'waiting' && entry.status !== 'expired') throw new AppError('conflict', `This entry is ${entry.status}: only a waiting or expired entry can be offered seats.`);
  const state = await q.slotState(ctx, slotId);
  if (!state?.open) throw new AppError('invalid', 'This time is not on sale.', 'slot');
  if (Number(state.remaining) < entry.seats) throw new AppError('sold_out', `Only ${state.remaining} seat${Number(state.remaining) === 1 ? ' is' : 's are'} free: this entry asks for ${entry.seats}.`, 'seats');
  if (!(await offer({ ...ctx, jobs: ctx.jobs }, slotId, entry))) throw new AppError('invalid', 'This offer has no price for a seat on this date.', 'slot');
  return waitlistOf(ctx, slotId);
}

/** Staff remove an entry: an offer's held seats go back and are offered to the next. */
export async function removeEntry(ctx: TenantCtx, slotId: string, entryId: string) {
  await lockSlot(ctx, slotId);
  const entry = await q.entryForUpdate(ctx, slotId, entryId);
  if (!entry) throw notFound('No such entry on this waiting list.');
  if (entry.status === 'booked') throw new AppError('conflict', 'This entry has booked: cancel its order instead.');
  if (entry.status !== 'removed') {
    await q.setStatus(ctx, entry.id, 'removed');
    if (entry.status === 'offered' && entry.cart_id) {
      await q.deleteLinesOf(ctx, slotId, [entry.cart_id]);
      await offerFreedSeats(ctx, slotId);
    }
  }
  return waitlistOf(ctx, slotId);
}

/** The job waitlist-offers (every minute): every slot whose list has work, one organisation's transaction each. */
export async function offerDueSeats(db: Db, jobs: Jobs, max = 200) {
  let offered = 0;
  for (const { account_id, slot_id } of await q.slotsWithWork(db, max)) {
    const currency = await q.currencyOf(db, account_id);
    offered += (await inTenant(db, account_id, (tx) => offerFreedSeats({ tx, accountId: account_id, currency, jobs }, slot_id))).length;
  }
  return offered;
}

export const openWaitlistMail = (jobs: Pick<Jobs, 'open'>, job: WaitlistMailJob) => ({ ...job, token: jobs.open(job.token_sealed) });

/**
 * The job waitlist-mail: the offer's e-mail in the entry's language, composed when sent: the
 * departure, the seats, until when they are held, and the link that opens the cart in the store
 * (`/s/{slug}/{lang}/checkout#waitlist=<cart>.<secret>`). Nothing is sent once the entry is no
 * longer offered (removed meanwhile).
 */
export async function sendWaitlistMail(db: Db, config: Config, send: (mail: Mail, id: string) => Promise<void>, job: WaitlistMailJob & { token: string }, jobId: string) {
  const facts = await inTenant(db, job.account, (tx) => q.mailFacts({ tx, accountId: job.account, currency: '' }, job.entry));
  if (!facts || facts.status !== 'offered' || !facts.cart_id || !facts.offered_until) return { sent: false };
  const t = translateFor(facts.language);
  const main = (isLanguage(facts.languages[0]) ? facts.languages[0] : 'en') as Language;
  const language = (isLanguage(facts.language) ? facts.language : main) as Language;
  const prefix = language === main ? '' : `${language}/`;
  const link = `${tenantOrigin(config, facts.subdomain)}/s/${facts.slug}/${prefix}checkout#waitlist=${facts.cart_id}.${job.token}`;
  const title = localize({ title: facts.title, translations: facts.translations }, language, main).title;
  const format = facts.time_format === '12h' ? '12h' : '24h';
  const when = localWhen(t, new Date(facts.starts_at).toISOString(), facts.time_zone, format);
  const until = localWhen(t, new Date(facts.offered_until).toISOString(), facts.time_zone, format);
  const text = [
    t('mail.greeting', { name: facts.name }),
    '',
    t('mail.waitlist.offer', { seats: facts.seats, title, when }),
    t('mail.waitlist.heldUntil', { until }),
    '',
    t('mail.waitlist.book', { link }),
    '',
    t('mail.waitlist.signature', { organisation: facts.organisation }),
  ].join('\n');
  await send({ to: facts.email, subject: t('mail.waitlist.subject', { title }), text }, jobId);
  return { sent: true };
}
