import { and, eq, inArray, sql } from 'drizzle-orm';
import { bookingQuestion, experience, slot } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';

/** What orders read of the offers they sell: their booking questions, titles and confirmation mode. */

/** The booking questions of the experiences of these slots, each once (one query). */
export function questionsOfSlots(ctx: TenantCtx, slotIds: string[]) {
  return ctx.tx
    .selectDistinct({ q: bookingQuestion })
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .innerJoin(bookingQuestion, sql`${bookingQuestion.id} = any(${experience.booking_question_ids})`)
    .where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, slotIds)));
}

/** These booking questions' text and answer type, by id (one query). */
export function questionsByIds(ctx: TenantCtx, ids: string[]) {
  return ctx.tx.select({ id: bookingQuestion.id, question: bookingQuestion.question, answer_type: bookingQuestion.answer_type }).from(bookingQuestion).where(and(eq(bookingQuestion.account_id, ctx.accountId), inArray(bookingQuestion.id, ids)));
}

/** Which of these experiences are confirmed by hand (confirmation_mode 'manual'). */
export function manualExperiences(ctx: TenantCtx, ids: string[]) {
  return ctx.tx
    .select({ id: experience.id })
    .from(experience)
    .where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, ids), eq(experience.confirmation_mode, 'manual')));
}

/** These experiences' titles. */
export function experienceTitles(ctx: TenantCtx, ids: string[]) {
  return ctx.tx.select({ id: experience.id, title: experience.title, translations: experience.translations }).from(experience).where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, ids)));
}
