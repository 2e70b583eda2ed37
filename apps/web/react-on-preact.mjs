/**
 * What the back office gets for `import … from 'react'` (vite.config.ts aliases it here, in the
 * build and in the component tests): Preact 11's React compatibility layer, about 55 kB gzip lighter
 * than React DOM, plus the one React 19.2 API Mantine imports that it lacks, <Activity>. React hides
 * an Activity's children with `display: none` and keeps their state; a wrapper that is
 * `display: contents` while visible (it adds no box, so layout is unchanged) and `display: none`
 * while hidden does the same.
 */
import { createElement } from 'preact';

export * from 'preact/compat';
export { default } from 'preact/compat';

/** @param {{ mode?: 'visible' | 'hidden', children?: import('preact').ComponentChildren }} props */
export function Activity({ mode = 'visible', children }) {
  return createElement('div', { style: { display: mode === 'hidden' ? 'none' : 'contents' } }, children);
}
