/**
 * The store's primary colour is its accent. Text must stay readable (WCAG AA, 4.5:1) whatever
 * colour an operator picks: buttons get white or near-black text, whichever reads, after the
 * colour is darkened as little as needed; links use the colour shifted until it reads on the
 * light and on the dark background.
 */
type RGB = [number, number, number];

export function parseHex(hex: string): RGB | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const n = parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = (c: RGB) => `#${c.map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: RGB) {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: RGB, b: RGB) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

const mix = (c: RGB, towards: RGB, amount: number): RGB => c.map((v, i) => v + (towards[i]! - v) * amount) as RGB;

/** `c` moved towards `towards` in small steps until it reaches `ratio` against `against`. */
function until(c: RGB, towards: RGB, against: RGB, ratio: number): RGB {
  for (let step = 0; step <= 20; step += 1) {
    const candidate = mix(c, towards, step / 20);
    if (contrast(candidate, against) >= ratio) return candidate;
  }
  return towards;
}

const WHITE: RGB = [255, 255, 255];
const INK: RGB = [17, 24, 39];
/** The darkest light background a link sits on (the footer's surface), and the lightest dark one (a raised card). */
export const LIGHT_BG: RGB = [245, 246, 248];
export const DARK_BG: RGB = [32, 36, 45];

export interface Accent {
  /** Button background. */
  accent: string;
  /** Text on the button. */
  onAccent: string;
  /** Links and outlines on the light background. */
  linkLight: string;
  /** Links and outlines on the dark background. */
  linkDark: string;
}

export function accentPalette(hex: string, fallback = '#1c7ed6'): Accent {
  const base = parseHex(hex) ?? parseHex(fallback)!;
  let accent = base;
  let onAccent = WHITE;
  if (contrast(base, WHITE) < 4.5) {
    // White text on the colour darkened a little (an orange stays orange); a light colour (a
    // yellow) keeps its shade and gets dark text.
    const darker = until(base, [0, 0, 0], WHITE, 4.5);
    const shift = Math.max(...base.map((v, i) => Math.abs(v - darker[i]!)));
    if (shift <= 48 || contrast(base, INK) < 4.5) accent = darker;
    else onAccent = INK;
  }
  return {
    accent: toHex(accent),
    onAccent: toHex(onAccent),
    linkLight: toHex(until(base, [0, 0, 0], LIGHT_BG, 4.5)),
    linkDark: toHex(until(base, WHITE, DARK_BG, 4.5)),
  };
}
