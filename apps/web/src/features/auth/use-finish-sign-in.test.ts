import { describe, expect, it } from 'vitest';
import { safeNextPath } from './use-finish-sign-in';

describe('safeNextPath', () => {
  it('keeps a path on this host', () => {
    expect(safeNextPath('/sales/partners/invitation/abc')).toBe('/sales/partners/invitation/abc');
  });
  it('refuses another host, however it is written', () => {
    for (const next of ['//evil.test/x', '/\\evil.test', 'https://evil.test', 'evil', '', null, undefined]) expect(safeNextPath(next)).toBeNull();
  });
});
