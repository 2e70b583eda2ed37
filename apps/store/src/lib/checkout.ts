import type { TWebCart, TWebOffer, TWebOrderInput, TWebStore } from '@tourdesk/contracts';
import { errorItemText, type T } from '../i18n';
import type { ApiError } from './api';
import { msLeft } from './countdown';

/**
 * The checkout's rules, apart from its page: which lines stay on screen, how the customer may pay,
 * what the form must hold before it is sent, what is sent, and which of the server's errors belong
 * to a line and which to a field. Plain functions (checkout.test.ts).
 */
export type Line = TWebCart['lines'][number];
export type Question = TWebOffer['questions'][number];

export interface Customer {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  country: string;
}
export const NO_ONE: Customer = { first_name: '', last_name: '', email: '', phone: '', country: '' };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form as it was left for Stripe's page (only its strings: it comes from storage). */
export interface Draft {
  customer: Customer;
  answers: Record<string, string>;
  payment: string;
}
const strings = (o: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(o && typeof o === 'object' ? o : {}).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** A draft read back from storage, whatever it holds: the customer's and the answers' strings only. */
export function restoreDraft(draft: Partial<Draft> | null | undefined) {
  const kept = strings(draft?.customer);
  // Built key by key from NO_ONE's keys, so it is a Customer; fromEntries types it as a record.
  const customer = Object.fromEntries(Object.entries(NO_ONE).map(([k, v]) => [k, kept[k] ?? v])) as unknown as Customer;
  return { customer, answers: strings(draft?.answers), payment: typeof draft?.payment === 'string' ? draft.payment : null };
}

/**
 * Lines the customer has seen stay on screen after their hold runs out (the cart no longer lists
 * them): the page says so and offers to choose again. Booking names exactly the lines shown; the
 * server re-holds a run-out line when its seats are still free, else answers 409 for it.
 */
export function mergeLines(previous: Line[], cart: TWebCart | null, now = Date.now()): Line[] {
  const current = cart?.lines ?? [];
  const ids = new Set(current.map((l) => l.id));
  const expired = previous.filter((l) => !ids.has(l.id) && msLeft(l.expires_at, now) === 0);
  return [...current, ...expired];
}

/** How this cart may be paid here: online only where its seller takes it (a partner's offers: when the supplier collects). */
export function paymentOptions(store: Pick<TWebStore, 'payment_options'>, cart: Pick<TWebCart, 'payable_online'> | null) {
  if (!cart) return store.payment_options;
  return cart.payable_online ? [...new Set([...store.payment_options, 'online' as const])] : store.payment_options.filter((o) => o !== 'online');
}

/** What the form lacks, by the server's attr names ("customer.email", "answers.{id}", "accept_terms"). */
export function validateCheckout(t: T, form: { customer: Customer; answers: Record<string, string>; questions: Question[]; accept: boolean }) {
  const found: Record<string, string> = {};
  if (!form.customer.first_name.trim()) found['customer.first_name'] = t('fieldRequired');
  if (!form.customer.last_name.trim()) found['customer.last_name'] = t('fieldRequired');
  if (!EMAIL.test(form.customer.email.trim())) found['customer.email'] = t('invalidEmail');
  for (const q of form.questions) if (q.required && !(form.answers[q.id] ?? '').trim()) found[`answers.${q.id}`] = t('fieldRequired');
  if (!form.accept) found['accept_terms'] = t('termsRequired');
  return found;
}

/** What is sent: exactly the lines shown, the customer trimmed, the answers to this cart's questions. */
export function orderInput(lines: Line[], customer: Customer, answers: Record<string, string>, questions: Question[]): Omit<TWebOrderInput, 'cart' | 'payment_option'> {
  return {
    lines: lines.map((l) => l.id),
    customer: {
      first_name: customer.first_name.trim(),
      last_name: customer.last_name.trim(),
      email: customer.email.trim(),
      phone: customer.phone.trim(),
      country: customer.country || null,
    },
    answers: Object.fromEntries(Object.entries(answers).filter(([id, v]) => v.trim() !== '' && questions.some((q) => q.id === id))),
    accept_terms: true as const,
  };
}

/** The server's refusal split: what it says about a line ("lines.{id}") and about a field, as the customer reads it. */
export function errorsOf(t: T, err: ApiError) {
  const byLine: Record<string, string> = {};
  const byField: Record<string, string> = {};
  for (const item of err.errors) {
    if (item.attr?.startsWith('lines.')) byLine[item.attr.slice(6)] = errorItemText(t, item);
    else if (item.attr) byField[item.attr] = errorItemText(t, item);
  }
  return { byLine, byField };
}
