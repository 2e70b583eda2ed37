import { Box } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';

/**
 * The header's controls open popovers, menus and tooltips, and the code that places those
 * (Floating UI, focus traps, transitions: about 30 kB gzip) is not needed to draw the first page.
 * They load in a chunk of their own, fetched as soon as the header renders; until then an empty box
 * of their height holds their place.
 */
const HeaderActionsChunk = lazy(() => import('./HeaderActions'));
const ThemeToggleChunk = lazy(async () => ({ default: (await import('./ThemeToggle')).ThemeToggle }));

const Placeholder = ({ children }: { children: ReactNode }) => <Suspense fallback={<Box h={34} miw={34} />}>{children}</Suspense>;

export const LazyHeaderActions = () => (
  <Placeholder>
    <HeaderActionsChunk />
  </Placeholder>
);

export const LazyThemeToggle = () => (
  <Placeholder>
    <ThemeToggleChunk />
  </Placeholder>
);
