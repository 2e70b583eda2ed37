import { and, eq, inArray, sql } from 'drizzle-orm';
import { bookingQuestion, experience, slot } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';

/** What orders read of the offers they sell: their booking questions, titles and confirmation mode. */

/** A booking question as an offer asks it, with its translations (localize() picks a language). */
export interface AskedQuestion {
  id: string;
  question: string;
  answer_type: 'text' | 'number' | 'yes_no' | 'choice';
  choices: string[];
  required: boolean;
  translations: Record<string, { question?: string; choices?: string[] }>;
}

/**
 * The booking questions of the offer in `x` (an `experience` row's alias in the caller's SQL), in
 * the offer's order, as a JSON array of AskedQuestion: the one read of an offer's questions that the
 * orders' answers and OCTO's questions capability share.
 */
export const askedQuestionsOf = (x: string) =>
  sql.raw(`coalesce((select json_agg(json_build_object('id', bq.id, 'question', bq.question, 'answer_type', bq.answer_type, 'choices', bq.choices,
                                                       'required', bq.required, 'translations', bq.translations) order by k.ord)
                     from unnest(${x}.booking_question_ids) with ordinality k(id, ord)
                     join booking_question bq on bq.account_id = ${x}.account_id and bq.id = k.id), '[]')`);

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
