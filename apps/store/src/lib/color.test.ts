import { describe, expect, it } from 'vitest';
import { accentPalette, contrast, DARK_BG, LIGHT_BG, parseHex } from './color';

const rgb = (hex: string) => parseHex(hex)!;

describe('the store’s colour as an accent that stays readable', () => {
  for (const colour of ['#1c7ed6', '#ffd43b', '#ffffff', '#000000', '#e64980', '#40c057', '#868e96']) {
    it(`keeps AA contrast for ${colour}`, () => {
      const p = accentPalette(colour);
      expect(contrast(rgb(p.accent), rgb(p.onAccent))).toBeGreaterThanOrEqual(4.5);
      expect(contrast(rgb(p.linkLight), LIGHT_BG)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(rgb(p.linkDark), DARK_BG)).toBeGreaterThanOrEqual(4.5);
    });
  }
  it('keeps a dark colour as it is, with white text', () => {
    expect(accentPalette('#0b5394')).toMatchObject({ accent: '#0b5394', onAccent: '#ffffff', linkLight: '#0b5394' });
  });
  it('falls back for a bad colour', () => {
    expect(accentPalette('blue').accent).toMatch(/^#[0-9a-f]{6}$/);
  });
});
