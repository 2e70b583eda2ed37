import { createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { BREAKPOINTS, LAYOUT_WIDTHS } from '@tourdesk/contracts';

const em = (px: number) => `${px / 16}em`;

/** The spec's breakpoints mapped onto Mantine's five sizes; all ten are in `BREAKPOINTS`. */
export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  breakpoints: {
    xs: em(BREAKPOINTS.mobXL),
    sm: em(BREAKPOINTS.tab),
    md: em(BREAKPOINTS.tabL),
    lg: em(BREAKPOINTS.lap),
    xl: em(BREAKPOINTS.desk),
  },
  other: { layout: LAYOUT_WIDTHS, breakpoints: BREAKPOINTS },
});

/** The theme choice persists in localStorage; until the user picks one, the system preference wins. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'tourdesk-color-scheme' });
