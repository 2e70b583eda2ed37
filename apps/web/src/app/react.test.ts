import { version as reactVersion } from 'react';
import { version } from 'react-dom';
import { describe, expect, it } from 'vitest';

/** The back office runs on React and React DOM themselves (vite.config.ts aliases neither). */
describe('the renderer', () => {
  it('is React DOM 19, with the React of the same version', () => {
    expect(version).toMatch(/^19\./);
    expect(reactVersion).toBe(version);
  });
});
