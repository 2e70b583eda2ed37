import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useStore } from '../context';

/** The page's h1; after a navigation it takes the focus, so screen readers hear the new page. */
export function Heading({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { takeFocus, store } = useStore();
  useEffect(() => {
    document.title = title === store.name ? store.name : `${title} · ${store.name}`;
    if (takeFocus()) ref.current?.focus({ preventScroll: true });
  }, [title]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <h1 ref={ref} tabIndex={-1} class="td-h1">
      {children}
    </h1>
  );
}
