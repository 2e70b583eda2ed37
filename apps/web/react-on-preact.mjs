/**
 * What the back office gets for `import … from 'react'` (vite.config.ts aliases it here, in the
 * build and in the component tests): Preact 11's React compatibility layer, about 55 kB gzip lighter
 * than React DOM, plus the one React 19.2 API Mantine imports that it lacks, <Activity>. React hides
 * an Activity's children with `display: none`, keeps their state and pauses their effects. This one
 * hides and keeps state but does not pause effects, and it wraps the children in a `div` (its
 * `display: contents` adds no box while visible), so it suits block content only. Mantine reaches it
 * from Collapse (the menu's sections) and from Tabs, Transition and Stepper kept mounted, which the
 * app does not use.
 */
import { createElement } from 'preact';

import compat from 'preact/compat';

export * from 'preact/compat';

/** @param {{ mode?: 'visible' | 'hidden', children?: import('preact').ComponentChildren }} props */
export function Activity({ mode = 'visible', children }) {
  return createElement('div', { style: { display: mode === 'hidden' ? 'none' : 'contents' } }, children);
}

export default { ...compat, Activity };
