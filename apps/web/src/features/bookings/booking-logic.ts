import { fieldErrors, type ApiError } from '../../shared/api/errors';
import { displayAnswer as readAnswer, type TBookingQuestion, type TCart, type THeldLine } from '@tourdesk/contracts';
import dayjs from 'dayjs';

/**
 * The pure rules of the bookings pages: the live total of a line before it is held, the cart
 * with a new held line, the checks on an answer before checkout, seat colours and the days of a week.
 */

/**
 * The cart with the line a hold answered with (the server answers a hold with its line only):
 * the lines that have expired by `now` left out as the server leaves them out, the new line
 * last, the total and the first expiry counted again. Null when the line belongs to another
 * cart than the one known (then the cart must be read again).
 */
export function withHeldLine(cart: TCart | undefined, held: THeldLine, now: Date): TCart | null {
  if (!cart || cart.id !== held.cart) return null;
  const { cart: _cartId, ...line } = held;
  const at = now.toISOString();
  const lines = [...cart.lines.filter((l) => l.id !== line.id && l.expires_at > at), line];
  const expiries = lines.map((l) => l.expires_at).sort();
  return { ...cart, lines, total: lines.reduce((sum, l) => sum + l.total, 0), expires_at: expiries[0] ?? null };
}

/**
 * What a line will cost, shown while it is chosen: each category's quantity times its price on
 * that date, plus each extra's quantity times the item's price (all in minor units). Once the
 * line is held, the cart's figure is the one that counts.
 */
export function estimateTotal(
  quantities: Record<string, number>,
  categoryPrice: (categoryId: string) => number | undefined,
  extras: Record<string, number>,
  itemPrice: (itemId: string) => number | undefined,
): number {
  let total = 0;
  for (const [category, n] of Object.entries(quantities)) total += n * (categoryPrice(category) ?? 0);
  for (const [item, n] of Object.entries(extras)) total += n * (itemPrice(item) ?? 0);
  return total;
}

/** Only the entries with a positive count: what a hold sends. */
export const positiveCounts = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));

type Question = Pick<TBookingQuestion, 'question' | 'answer_type' | 'choices' | 'required'>;

/**
 * The server's checks on one answer, run before checkout so the form can say what is missing
 * next to the field. `true` when the answer is fine, else the server's own message.
 */
export function validateAnswer(q: Question, value: string | undefined): true | string {
  const answer = (value ?? '').trim();
  if (!answer) return q.required ? `Please answer: ${q.question}` : true;
  if (q.answer_type === 'number' && !/^-?\d+(\.\d+)?$/.test(answer)) return `Answer with a number: ${q.question}`;
  if (q.answer_type === 'yes_no' && answer !== 'yes' && answer !== 'no') return `Answer yes or no: ${q.question}`;
  if (q.answer_type === 'choice' && !q.choices.includes(answer)) return `Choose one of the options: ${q.question}`;
  return true;
}

/** How an answer reads on a booking (the contracts' one rule): yes/no answers capitalised, others as given. */
export const displayAnswer = (q: Pick<TBookingQuestion, 'answer_type'> | undefined, answer: string) => readAnswer(q?.answer_type, answer);

/** A question as the label before its answer: "Any allergies?" stays, "Shoe size" becomes "Shoe size:". */
export const questionLabel = (question: string) => (/[?:.!]$/.test(question.trim()) ? question.trim() : `${question.trim()}:`);

/** The colour of seats left, the same for a day of the month and for one slot. */
export function seatColor(remaining: number, capacity: number, closed = false): string {
  if (closed) return 'gray';
  if (remaining <= 0) return 'red';
  return remaining <= capacity * 0.2 ? 'orange' : 'green';
}

/** The seven dates (YYYY-MM-DD) of the week, Monday first, that holds `date`. */
export function weekOf(date: string): string[] {
  const d = dayjs(date);
  const monday = d.subtract((d.day() + 6) % 7, 'day');
  return Array.from({ length: 7 }, (_, i) => monday.add(i, 'day').format('YYYY-MM-DD'));
}

/**
 * The cart lines a checkout refused, by line id, with the reason (the server names each one as
 * `lines.<id>`; `lines` alone means every hold ran out).
 */
export function lineErrors(error: ApiError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [attr, detail] of Object.entries(fieldErrors(error))) {
    if (attr.startsWith('lines.')) out[attr.slice('lines.'.length)] = detail;
  }
  return out;
}
