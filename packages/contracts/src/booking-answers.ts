/**
 * The one rule for what a booking still owes of its booking questions: the required questions it
 * asks that have no answer (blank counts as none). Checkout refuses such a booking, except a partner's
 * booking through OCTO without the questions capability, which is confirmed and asks the customer
 * later (octo/service.ts); the manifest, the order and the customer's booking page show the same list.
 */
export function missingAnswers<Q extends { id: string; required: boolean }>(questions: readonly Q[], answers: Readonly<Record<string, string>>): Q[] {
  return questions.filter((q) => q.required && !(answers[q.id] ?? '').trim());
}
