import { useEffect, useRef, type ReactNode } from 'react';
import { useStore } from '../context';

/** The page's h1; after a navigation it takes the focus, so screen readers hear the new page. */
export function Heading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { takeFocus } = useStore();
  useEffect(() => {
    if (takeFocus()) ref.current?.focus({ preventScroll: true });
  }, [children]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <h1 ref={ref} tabIndex={-1} className="td-h1">
      {children}
    </h1>
  );
}
