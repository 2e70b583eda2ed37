import { describe, expect, it } from 'vitest';
import { isErrorEnvelope, ZErrorEnvelope } from './errors';

/** The hand-written check agrees with the envelope's schema, on good and bad values alike. */
describe('isErrorEnvelope', () => {
  const samples: unknown[] = [
    { type: 'validation_error', errors: [{ code: 'invalid', detail: 'Bad.', attr: 'name' }] },
    { type: 'client_error', errors: [{ code: 'not_found', detail: 'No.', attr: null }] },
    { type: 'server_error', errors: [{ code: 'error', detail: 'Oops.', attr: null }, { code: 'x', detail: 'y', attr: 'z' }] },
    { type: 'client_error', errors: [] },
    { type: 'other_error', errors: [{ code: 'a', detail: 'b', attr: null }] },
    { type: 'client_error', errors: [{ code: 'a', detail: 'b' }] },
    { type: 'client_error', errors: [{ code: 1, detail: 'b', attr: null }] },
    { type: 'client_error', errors: [null] },
    { type: 'client_error' },
    { errors: [{ code: 'a', detail: 'b', attr: null }] },
    'client_error',
    null,
    undefined,
    42,
  ];
  it.each(samples.map((s, i) => [i, s] as const))('sample %i', (_i, sample) => {
    expect(isErrorEnvelope(sample)).toBe(ZErrorEnvelope.safeParse(sample).success);
  });
});
