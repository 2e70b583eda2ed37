import { describe, expect, it } from 'vitest';
import { keyFor, unanswered } from './idempotency';

describe('payment idempotency keys', () => {
  let n = 0;
  const make = () => `key-${++n}`;

  it('gives a new submission a new key', () => {
    const first = keyFor(null, '{"amount":100}', make);
    const second = keyFor(null, '{"amount":100}', make);
    expect(first.key).not.toBe(second.key);
  });

  it('keeps the key when the same submission is retried, and not when it changed', () => {
    const sent = keyFor(null, '{"amount":100}', make);
    expect(keyFor(sent, '{"amount":100}', make).key).toBe(sent.key);
    expect(keyFor(sent, '{"amount":200}', make).key).not.toBe(sent.key);
  });

  it('counts only failures without a definitive answer as retryable', () => {
    expect(unanswered({ status: 'FETCH_ERROR', error: 'offline' })).toBe(true);
    expect(unanswered({ status: 'TIMEOUT_ERROR', error: 'timeout' })).toBe(true);
    expect(unanswered({ status: 503, data: {} })).toBe(true);
    expect(unanswered({ status: 400, data: {} })).toBe(false);
    expect(unanswered({ status: 409, data: {} })).toBe(false);
    expect(unanswered(undefined)).toBe(false);
  });
});
