import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Accessibility checks shared by the specs: axe-core with the WCAG 2 A and AA rules, failing on
 * every serious or critical violation, with a message an engineer can act on (the rule, each
 * element's selector and, for contrast, the colours and the ratio found against the one needed).
 */

export type ColorScheme = 'light' | 'dark';
export const COLOR_SCHEMES: readonly ColorScheme[] = ['light', 'dark'];

const TAGS = ['wcag2a', 'wcag2aa'];
const BLOCKING = new Set(['serious', 'critical']);

export interface A11yOptions {
  /** CSS selectors axe leaves out (e.g. a third party's frame). */
  exclude?: string[];
  /** Record the failure and go on (`expect.soft`), so a walk through many pages lists them all. */
  soft?: boolean;
}

/** What axe's color-contrast check measured on one element (its `any[].data`). */
interface ContrastData {
  fgColor?: string;
  bgColor?: string;
  contrastRatio?: number;
  expectedContrastRatio?: string;
  fontSize?: string;
  fontWeight?: string;
  messageKey?: string;
}

function describeNode(node: { target: unknown[]; html: string; any: { id: string; data: unknown; message: string }[]; all: { message: string }[]; none: { message: string }[] }) {
  const target = node.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' ');
  const contrast = node.any.find((c) => c.id === 'color-contrast' || c.id === 'color-contrast-enhanced');
  if (contrast) {
    const d = (contrast.data ?? {}) as ContrastData;
    if (d.contrastRatio !== undefined && d.fgColor && d.bgColor) {
      return `${target}: ${d.contrastRatio}:1, needs ${d.expectedContrastRatio ?? '4.5:1'} (${d.fgColor} on ${d.bgColor}, ${d.fontSize ?? '?'} ${d.fontWeight ?? ''})`.trim();
    }
    return `${target}: ${contrast.message}`;
  }
  const why = [...node.any, ...node.all, ...node.none].map((c) => c.message).filter(Boolean)[0];
  return `${target}${why ? `: ${why}` : ''} — ${node.html.slice(0, 160)}`;
}

/** axe-core on the page as it is now: one line per element of each serious or critical violation. */
export async function seriousA11yViolations(page: Page, options: A11yOptions = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${describeNode(n)}`));
}

function expectNone(problems: string[], label: string, soft = false) {
  (soft ? expect.soft : expect)(problems, `axe-core found serious or critical violations on ${label}:\n${problems.join('\n')}\n`).toEqual([]);
}

/** Runs axe on the page as it is now; fails listing each serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page, label: string, options: A11yOptions = {}) {
  expectNone(await seriousA11yViolations(page, options), label, options.soft);
}

/**
 * Switches the page to `scheme` the way the app follows the system (Mantine's "auto" scheme) and
 * waits until the document uses it. Once the user has picked a theme with the toggle (kept in
 * localStorage), the system no longer decides and this times out: check that page as it is.
 */
export async function setColorScheme(page: Page, scheme: ColorScheme) {
  await page.emulateMedia({ colorScheme: scheme });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}

/** The same check in light and in dark (both are run before failing), leaving the page in light. */
export async function expectNoSeriousA11yViolationsInBothSchemes(page: Page, label: string, options: A11yOptions = {}) {
  const problems: string[] = [];
  for (const scheme of COLOR_SCHEMES) {
    await setColorScheme(page, scheme);
    problems.push(...(await seriousA11yViolations(page, options)).map((p) => `[${scheme}] ${p}`));
  }
  await setColorScheme(page, 'light');
  expectNone(problems, label, options.soft);
}
