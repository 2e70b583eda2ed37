import {
  createTheme,
  localStorageColorSchemeManager,
  type ColorInputProps,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type PaginationProps,
  type SegmentedControlProps,
} from '@mantine/core';
import { BREAKPOINTS, LAYOUT_WIDTHS } from '@tourdesk/contracts';

const em = (px: number) => `${px / 16}em`;

/**
 * Mantine's palettes with shades 6–9 made dark enough to carry text (WCAG 2 AA), the same hue
 * (OKLCH) at a lower lightness; shades 0–5 are Mantine's own. Mantine's defaults put white on
 * blue.6 at 3.6:1, green.9 on green.1 (a light badge) at 3.8:1 and orange.9 on orange.1 at 3.6:1.
 * What each shade carries, and the least contrast it now has:
 *   6  filled buttons and badges (white text), outline and subtle text, `c="red"`: 4.9:1 on white
 *   7  filled hover: 5.5:1 on white
 *   8  filled in dark (white text), links in light (see `TEXT_TOKENS`): 6.2:1
 *   9  light-variant text (badges, light buttons, the active navigation link) on shade 1: 4.8:1, on shade 2: 4.5:1
 * `theme.test.ts` checks these figures; change a value only with it.
 */
export const ACCESSIBLE_COLORS = {
  gray: ['#f8f9fa', '#f1f3f5', '#e9ecef', '#dee2e6', '#ced4da', '#adb5bd', '#6a7178', '#495057', '#343a40', '#212529'],
  red: ['#fff5f5', '#ffe3e3', '#ffc9c9', '#ffa8a8', '#ff8787', '#ff6b6b', '#cf383b', '#ca252a', '#bf1a20', '#b41c1f'],
  pink: ['#fff0f6', '#ffdeeb', '#fcc2d7', '#faa2c1', '#f783ac', '#f06595', '#ca376d', '#c42760', '#b81e56', '#a61e4d'],
  grape: ['#f8f0fc', '#f3d9fa', '#eebefa', '#e599f7', '#da77f2', '#cc5de8', '#ac3ec8', '#a236bc', '#9632af', '#862e9c'],
  violet: ['#f3f0ff', '#e5dbff', '#d0bfff', '#b197fc', '#9775fa', '#845ef7', '#7950f2', '#7048e8', '#6741d9', '#5b3abe'],
  indigo: ['#edf2ff', '#dbe4ff', '#bac8ff', '#91a7ff', '#748ffc', '#5c7cfa', '#4565e8', '#3d5ce1', '#3655d1', '#3249be'],
  blue: ['#e7f5ff', '#d0ebff', '#a5d8ff', '#74c0fc', '#4dabf7', '#339af0', '#0873c6', '#066abb', '#0962ae', '#115ca1'],
  cyan: ['#e3fafc', '#c5f6fa', '#99e9f2', '#66d9e8', '#3bc9db', '#22b8cf', '#027c8d', '#047384', '#036a7b', '#026476'],
  teal: ['#e6fcf5', '#c3fae8', '#96f2d7', '#63e6be', '#38d9a9', '#20c997', '#02805c', '#007755', '#006f4e', '#00694a'],
  green: ['#ebfbee', '#d3f9d8', '#b2f2bb', '#8ce99a', '#69db7c', '#51cf66', '#05822b', '#027a26', '#037024', '#0f6927'],
  lime: ['#f4fce3', '#e9fac8', '#d8f5a2', '#c0eb75', '#a9e34b', '#94d82d', '#4e7d00', '#477502', '#3f6c01', '#3d6601'],
  yellow: ['#fff9db', '#fff3bf', '#ffec99', '#ffe066', '#ffd43b', '#fcc419', '#966802', '#935d01', '#8f5100', '#8f4800'],
  orange: ['#fff4e6', '#ffe8cc', '#ffd8a8', '#ffc078', '#ffa94d', '#ff922b', '#b45601', '#b24701', '#aa3d00', '#a83200'],
} satisfies Record<string, MantineColorsTuple>;

/**
 * The text colours Mantine takes from single variables rather than a palette shade, per scheme.
 * `dimmed` is every piece of secondary text (`c="dimmed"`: the organisation in the header, hints,
 * dates, table notes): Mantine's gray.6 was 3.3:1 on white and dark.2 4.0:1 on the dark body.
 */
export const TEXT_TOKENS = {
  light: {
    // Links: the primary's shade 8, 6.2:1 on white and 5.0:1 on a blue light alert (shade 6 was 4.0:1 there).
    anchor: ACCESSIBLE_COLORS.blue[8],
    // Mantine's gray hue, 5.7:1 on white and at least 4.5:1 on the tinted surfaces it sits on (gray.0, light badges' shade 1).
    dimmed: '#61676e',
    // Hints inside inputs: 4.9:1 on white, still lighter than the value (black).
    placeholder: ACCESSIBLE_COLORS.gray[6],
    error: ACCESSIBLE_COLORS.red[6],
  },
  dark: {
    // Neutral like the dark palette: 6.3:1 on the body (dark.7), 5.5:1 on cards (dark.6), 4.5:1 on hover (dark.5).
    dimmed: '#a5a5a5',
    // 4.6:1 on an input (dark.6).
    placeholder: '#979797',
    // Mantine's red.8 and teal.8 were 3.4:1 and 3.9:1 on the dark body; the light shades read there.
    error: ACCESSIBLE_COLORS.red[5],
    success: ACCESSIBLE_COLORS.teal[4],
  },
} as const;

/** Hands the tokens above to Mantine's CSS variables (MantineProvider's `cssVariablesResolver`). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-anchor': TEXT_TOKENS.light.anchor,
    '--mantine-color-dimmed': TEXT_TOKENS.light.dimmed,
    '--mantine-color-placeholder': TEXT_TOKENS.light.placeholder,
    '--mantine-color-error': TEXT_TOKENS.light.error,
  },
  dark: {
    '--mantine-color-dimmed': TEXT_TOKENS.dark.dimmed,
    '--mantine-color-placeholder': TEXT_TOKENS.dark.placeholder,
    '--mantine-color-error': TEXT_TOKENS.dark.error,
    '--mantine-color-success': TEXT_TOKENS.dark.success,
  },
});

const PAGINATION_CONTROLS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** The spec's breakpoints mapped onto Mantine's five sizes; all ten are in `BREAKPOINTS`. */
export const theme = createTheme({
  primaryColor: 'blue',
  // Users who ask their system for less motion get no transitions (menus, modals, toasts' slide).
  respectReducedMotion: true,
  colors: ACCESSIBLE_COLORS,
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  breakpoints: {
    xs: em(BREAKPOINTS.mobXL),
    sm: em(BREAKPOINTS.tab),
    md: em(BREAKPOINTS.tabL),
    lg: em(BREAKPOINTS.lap),
    xl: em(BREAKPOINTS.desk),
  },
  // Plain objects, typed by the components' props, rather than Component.extend(): extend() is only
  // a typed identity, and importing the components here put them (the colour picker with them)
  // into the first page load of every page.
  components: {
    // Mantine's arrows are icons only: give them names screen readers announce (axe: button-name).
    Pagination: {
      defaultProps: { getControlProps: (control) => ({ 'aria-label': PAGINATION_CONTROLS[control] }) } satisfies Partial<PaginationProps>,
    },
    ColorInput: {
      defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Pick a colour from the screen' } } satisfies Partial<ColorInputProps>,
    },
    // The chosen segment in the theme's colour with white text: Mantine's grey-on-grey default was
    // hard to tell from the others in dark mode.
    SegmentedControl: { defaultProps: { color: 'blue' } satisfies Partial<SegmentedControlProps> },
  },
  other: { layout: LAYOUT_WIDTHS, breakpoints: BREAKPOINTS },
});

/** The theme choice persists in localStorage; until the user picks one, the system preference wins. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'tourdesk-color-scheme' });
