import { missingAnswers } from '@tourdesk/contracts';
import { localize, type Language } from '@tourdesk/contracts/i18n';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { lockOrder, recordAudit } from './order-basics';
import { bookingQuestionsOfOrder, setBookingAnswers, type AskedQuestion } from './queries/bookings';
import { validateAnswers } from './records';

/**
 * An order's booking questions after the sale: what its open bookings still owe (missingAnswers(),
 * the one rule) and answering them later — by the customer on their booking page, or by a partner
 * through OCTO after the confirm. A partner's booking confirmed without the questions capability is
 * booked with its required answers missing (octo/service.ts) and its customer is asked by e-mail.
 */

/** A question an order owes, in a language: its text and choices as the customer reads them. */
export interface OwedQuestion {
  id: string;
  question: string;
  answer_type: AskedQuestion['answer_type'];
  /** The choices as stored (what an answer must be), and as shown in the language. */
  choices: string[];
  labels: string[];
}

/** The required questions the order's open bookings have not answered, each once, in `language` (else the main one). */
export async function questionsOwed(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, orderId: string, language?: Language, main?: Language): Promise<OwedQuestion[]> {
  const owed = new Map<string, OwedQuestion>();
  for (const b of await bookingQuestionsOfOrder(ctx, orderId)) {
    for (const q of missingAnswers(b.questions, b.answers)) {
      if (owed.has(q.id)) continue;
      const shown = language && main ? localize(q, language, main) : q;
      owed.set(q.id, { id: q.id, question: shown.question, answer_type: q.answer_type, choices: q.choices, labels: shown.choices?.length === q.choices.length ? shown.choices : q.choices });
    }
  }
  return [...owed.values()];
}

/**
 * Answers some of the order's booking questions: each answer goes to every open booking whose offer
 * asks it (merged with what it had), checked by the same rule as at checkout (a number for a
 * number, one of the choices …); a question none of them asks is refused. Blank answers are
 * ignored (an answer is never taken back this way). Audited as `answered`.
 */
export async function answerQuestions(ctx: TenantCtx, orderId: string, answers: Record<string, string>, by: Record<string, unknown> = {}) {
  await lockOrder(ctx, orderId);
  const given = Object.fromEntries(Object.entries(answers).filter(([, v]) => v.trim()).map(([k, v]) => [k, v.trim()]));
  const bookings = await bookingQuestionsOfOrder(ctx, orderId);
  const asked = new Set(bookings.flatMap((b) => b.questions.map((q) => q.id)));
  const stray = Object.keys(given).find((id) => !asked.has(id));
  if (stray) throw new AppError('invalid', 'This question is not asked for this booking.', `answers.${stray}`);
  if (Object.keys(given).length === 0) return;
  for (const b of bookings) {
    const own = Object.fromEntries(Object.entries(given).filter(([id]) => b.questions.some((q) => q.id === id)));
    if (Object.keys(own).length === 0) continue;
    const merged = { ...b.answers, ...own };
    validateAnswers(b.questions, merged, { allowMissing: true });
    await setBookingAnswers(ctx, b.id, merged);
  }
  await recordAudit(ctx, { order: orderId, subject: 'order', subjectId: orderId, action: 'answered', changes: { questions: Object.keys(given), ...by } });
}
