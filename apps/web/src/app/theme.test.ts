import { darken, DEFAULT_THEME, toRgba } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { ACCESSIBLE_COLORS, cssVariablesResolver, TEXT_TOKENS, theme } from './theme';

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(color: string) {
  const { r, g, b } = toRgba(color);
  const [R, G, B] = [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
}
function contrast(a: string, b: string) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** OKLCH hue in degrees, and chroma. */
function hue(color: string) {
  const { r, g, b } = toRgba(color);
  const [R, G, B] = [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const l = Math.cbrt(0.4122214708 * R + 0.5363325363 * G + 0.0514459929 * B);
  const m = Math.cbrt(0.2119034982 * R + 0.6806995451 * G + 0.1073969566 * B);
  const s = Math.cbrt(0.0883024619 * R + 0.2817188376 * G + 0.6299787005 * B);
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const Bb = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  return { h: (Math.atan2(Bb, A) * 180) / Math.PI, c: Math.hypot(A, Bb) };
}

const WHITE = '#ffffff';
const DARK = DEFAULT_THEME.colors.dark;
const names = Object.keys(ACCESSIBLE_COLORS) as (keyof typeof ACCESSIBLE_COLORS)[];

describe('theme colours meet WCAG 2 AA for text', () => {
  it.each(names)('%s: filled, hover, dark filled and light-variant text', (name) => {
    const s = ACCESSIBLE_COLORS[name];
    expect(contrast(WHITE, s[6])).toBeGreaterThanOrEqual(4.9);
    expect(contrast(WHITE, s[7])).toBeGreaterThanOrEqual(5.5);
    expect(contrast(WHITE, s[8])).toBeGreaterThanOrEqual(6.2);
    expect(contrast(s[9], s[1])).toBeGreaterThanOrEqual(4.8);
    expect(contrast(s[9], s[2])).toBeGreaterThanOrEqual(4.5);
    // Dark scheme: light variant (shade 0 on Mantine's darkened shade 9), outline and `-text` (shade 4) on the body.
    expect(contrast(s[0], darken(s[9], 0.5))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(s[4], DARK[7])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(names)('%s keeps Mantine’s light shades and its hues', (name) => {
    const mine = ACCESSIBLE_COLORS[name];
    const mantine = DEFAULT_THEME.colors[name]!;
    expect(mine.slice(0, 6)).toEqual([...mantine.slice(0, 6)]);
    for (let i = 6; i < 10; i++) {
      const [a, b] = [hue(mine[i]!), hue(mantine[i]!)];
      if (a.c < 0.04) continue; // a grey's hue means nothing
      const diff = Math.abs(((a.h - b.h + 540) % 360) - 180);
      expect(diff, `${name}.${i}`).toBeLessThan(8);
      // Darker or the same, never lighter.
      expect(luminance(mine[i]!)).toBeLessThanOrEqual(luminance(mantine[i]!) + 1e-9);
    }
  });

  it('secondary (dimmed) text reads on every surface it is put on', () => {
    const { dimmed } = TEXT_TOKENS.light;
    for (const bg of [WHITE, ACCESSIBLE_COLORS.gray[0], ACCESSIBLE_COLORS.gray[1], ...names.map((n) => ACCESSIBLE_COLORS[n][1]).filter((c) => luminance(c) > 0.78)]) {
      expect(contrast(dimmed, bg), `light dimmed on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    const dark = TEXT_TOKENS.dark.dimmed;
    for (const bg of [DARK[7], DARK[6], DARK[5], darken(ACCESSIBLE_COLORS.green[9], 0.5), darken(ACCESSIBLE_COLORS.orange[9], 0.5), darken(ACCESSIBLE_COLORS.red[9], 0.5)]) {
      expect(contrast(dark, bg), `dark dimmed on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    // Still secondary: lighter than the body text in light, darker in dark.
    expect(contrast(dimmed, WHITE)).toBeLessThan(contrast('#000000', WHITE));
    expect(contrast(dark, DARK[7])).toBeLessThan(contrast(DARK[0], DARK[7]));
  });

  it('links read on white and on the light alerts and badges they sit in', () => {
    const { anchor } = TEXT_TOKENS.light;
    for (const bg of [WHITE, ACCESSIBLE_COLORS.gray[0], ...names.map((n) => ACCESSIBLE_COLORS[n][1]).filter((c) => luminance(c) > 0.78)]) {
      expect(contrast(anchor, bg), `link on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    // Links in dark are blue.4: on the body, on a card and in a blue light alert.
    for (const bg of [DARK[7], DARK[6], darken(ACCESSIBLE_COLORS.blue[9], 0.5)]) {
      expect(contrast(ACCESSIBLE_COLORS.blue[4], bg), `dark link on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('placeholder, error and success text', () => {
    expect(contrast(TEXT_TOKENS.light.placeholder, WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(TEXT_TOKENS.light.error, WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(TEXT_TOKENS.dark.placeholder, DARK[6])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(TEXT_TOKENS.dark.error, DARK[6])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(TEXT_TOKENS.dark.success, DARK[7])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(ACCESSIBLE_COLORS.teal[8], WHITE)).toBeGreaterThanOrEqual(4.5); // success in light
  });

  it('the theme and the CSS variables use them', () => {
    expect(theme.colors?.blue).toBe(ACCESSIBLE_COLORS.blue);
    const vars = cssVariablesResolver({ ...DEFAULT_THEME, colors: { ...DEFAULT_THEME.colors, ...ACCESSIBLE_COLORS } });
    expect(vars.light['--mantine-color-dimmed']).toBe(TEXT_TOKENS.light.dimmed);
    expect(vars.dark['--mantine-color-dimmed']).toBe(TEXT_TOKENS.dark.dimmed);
    expect(vars.light['--mantine-color-anchor']).toBe(TEXT_TOKENS.light.anchor);
  });
});
