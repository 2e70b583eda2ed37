import { describe, expect, it } from 'vitest';

describe('zod without eval', () => {
  it('is what zod reads as its setting, so its parsers never compile with new Function', async () => {
    await import('./zod-no-eval');
    const { config } = await import('zod/v4/core');
    const { z } = await import('zod');
    expect(config().jitless).toBe(true);
    const made: unknown[] = [];
    const real = globalThis.Function;
    globalThis.Function = new Proxy(real, { construct: (target, args) => (made.push(args), Reflect.construct(target, args)) });
    try {
      expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    } finally {
      globalThis.Function = real;
    }
    expect(made).toEqual([]);
  });
});
