import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZErrorEnvelope, isErrorEnvelope } from './errors';
import { paginated, ZPaginationQuery } from './pagination';

describe('ZPaginationQuery', () => {
  it('defaults to page 1 of 25', () => {
    expect(ZPaginationQuery.parse({})).toEqual({ page: 1, page_size: 25 });
  });

  it('coerces query-string values and accepts only 5, 10, 25, 50', () => {
    expect(ZPaginationQuery.parse({ page: '3', page_size: '50' })).toEqual({ page: 3, page_size: 50 });
    for (const bad of ['7', '0', '100', 'x']) {
      expect(ZPaginationQuery.safeParse({ page_size: bad }).success, bad).toBe(false);
    }
    for (const bad of ['0', '-1', '2.5']) {
      expect(ZPaginationQuery.safeParse({ page: bad }).success, bad).toBe(false);
    }
  });
});

describe('paginated', () => {
  it('describes the spec page envelope', () => {
    const schema = paginated(z.object({ id: z.number() }));
    const page = { count: 1, total_pages: 1, current_page_number: 1, next: null, previous: null, results: [{ id: 1 }] };
    expect(schema.parse(page)).toEqual(page);
    expect(schema.safeParse({ ...page, results: [{ id: 'x' }] }).success).toBe(false);
  });
});

describe('error envelope', () => {
  it('recognises only the { type, errors } shape', () => {
    const ok = { type: 'client_error', errors: [{ code: 'not_found', detail: 'Not found.', attr: null }] };
    expect(ZErrorEnvelope.parse(ok)).toEqual(ok);
    expect(isErrorEnvelope(ok)).toBe(true);
    expect(isErrorEnvelope({ detail: 'Not found.' })).toBe(false);
    expect(isErrorEnvelope({ type: 'client_error', errors: [] })).toBe(false);
  });
});
