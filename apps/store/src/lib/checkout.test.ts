import type { TWebCart } from '@tourdesk/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { errorsOf, mergeLines, NO_ONE, orderInput, paymentOptions, restoreDraft, validateCheckout, type Line, type Question } from './checkout';
import { testT } from './test-i18n';

const t = testT();

const line = (id: string, expires_at: string) => ({ id, expires_at }) as Line;
const question = (id: string, required: boolean) => ({ id, question: id, answer_type: 'text', required, options: [] }) as Question;
const customer = { first_name: ' Ada ', last_name: 'Lovelace', email: 'ada@example.com ', phone: '', country: '' };

describe('the checkout’s rules', () => {
  it('keeps a line run out on screen, drops one removed while still held', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    const past = '2026-12-01T09:00:00Z';
    const future = '2026-12-01T11:00:00Z';
    const cart = { lines: [line('b', future)] } as TWebCart;
    expect(mergeLines([line('a', past), line('c', future)], cart, now).map((l) => l.id)).toEqual(['b', 'a']);
    expect(mergeLines([line('a', past)], null, now).map((l) => l.id)).toEqual(['a']);
  });

  it('offers online payment only where the cart’s seller takes it', () => {
    const store = { payment_options: ['pay_on_site' as const, 'online' as const] };
    expect(paymentOptions(store, null)).toEqual(['pay_on_site', 'online']);
    expect(paymentOptions(store, { payable_online: false })).toEqual(['pay_on_site']);
    expect(paymentOptions({ payment_options: ['pay_on_site'] }, { payable_online: true })).toEqual(['pay_on_site', 'online']);
  });

  it('names every missing field by the server’s attr, and nothing when all is there', () => {
    const qs = [question('q1', true), question('q2', false)];
    expect(Object.keys(validateCheckout(t, { customer: NO_ONE, answers: {}, questions: qs, accept: false }))).toEqual([
      'customer.first_name',
      'customer.last_name',
      'customer.email',
      'answers.q1',
      'accept_terms',
    ]);
    expect(validateCheckout(t, { customer: { ...customer, email: 'not an address' }, answers: { q1: 'x' }, questions: qs, accept: true })).toEqual({ 'customer.email': 'Enter a valid e-mail address.' });
    expect(validateCheckout(t, { customer, answers: { q1: 'x' }, questions: qs, accept: true })).toEqual({});
  });

  it('sends exactly the lines shown, the customer trimmed, answers to this cart’s questions only', () => {
    const input = orderInput([line('a', ''), line('b', '')], customer, { q1: ' yes ', q2: '  ', gone: 'x' }, [question('q1', true), question('q2', false)]);
    expect(input).toEqual({
      lines: ['a', 'b'],
      customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '', country: null },
      answers: { q1: ' yes ' },
      accept_terms: true,
    });
  });

  it('splits the server’s refusal into lines and fields', () => {
    const err = new ApiError(409, [
      { code: 'sold_out', detail: 'Sold out.', attr: 'lines.l1' },
      { code: 'invalid', detail: 'Bad e-mail.', attr: 'customer.email' },
      { code: 'error', detail: 'Generic.', attr: null },
    ]);
    expect(errorsOf(t, err)).toEqual({ byLine: { l1: t('errorSoldOut') }, byField: { 'customer.email': 'Enter a valid e-mail address.' } });
    expect(errorsOf(testT('de'), err).byField).toEqual({ 'customer.email': 'Geben Sie eine gültige E-Mail-Adresse ein.' });
  });

  it('reads back only strings from a draft kept in storage', () => {
    const back = restoreDraft({ customer: { first_name: 'Ada', last_name: 7 } as never, answers: { q1: 'yes', q2: 3 } as never, payment: 'online' });
    expect(back).toEqual({ customer: { ...NO_ONE, first_name: 'Ada' }, answers: { q1: 'yes' }, payment: 'online' });
    expect(restoreDraft(null)).toEqual({ customer: NO_ONE, answers: {}, payment: null });
  });
});
