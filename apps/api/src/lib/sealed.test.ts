import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSealer } from './sealed';

describe('createSealer', () => {
  const old = { kid: 'old', key: randomBytes(32) };
  const current = { kid: 'new', key: randomBytes(32) };
  const ring = new Map([old, current].map((k) => [k.kid, k]));
  const sealer = createSealer(current, (kid) => ring.get(kid));

  it('seals so that the value is not readable, and opens it again', () => {
    const sealed = sealer.seal('https://x.test/auth/invite/u/secret-token');
    expect(sealed).not.toContain('secret-token');
    expect(sealed).not.toBe(sealer.seal('https://x.test/auth/invite/u/secret-token'));
    expect(sealer.open(sealed)).toBe('https://x.test/auth/invite/u/secret-token');
  });

  it('opens what an older key of the ring sealed; refuses a changed text or a key no longer in the ring', () => {
    const before = createSealer(old, (kid) => ring.get(kid)).seal('v');
    expect(sealer.open(before)).toBe('v');
    const parts = sealer.seal('value').split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => sealer.open(parts.join('.'))).toThrow();
    const gone = createSealer({ kid: 'gone', key: randomBytes(32) }, () => undefined).seal('v');
    expect(() => sealer.open(gone)).toThrow(/no longer/);
  });
});
