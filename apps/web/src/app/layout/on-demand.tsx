import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';

/**
 * A header control whose popup is loaded the first time it is pressed: the trigger is drawn at once,
 * and the component that opens the popup (Mantine's Menu or Popover with their focus traps,
 * transitions and inputs: about 15 kB gzip) is fetched when the pointer or the keyboard's focus
 * reaches the trigger, and takes the trigger's place, open, when it is pressed.
 */
export function useOnDemand<P extends { defaultOpened?: boolean }>(load: () => Promise<{ default: ComponentType<P> }>) {
  const [pressed, setPressed] = useState(false);
  // Offline before it was ever fetched, the trigger stays as it is rather than the page failing.
  const [failed, setFailed] = useState(false);
  const [Full] = useState(() =>
    lazy(() =>
      load().catch(() => {
        setFailed(true);
        return { default: (() => null) as ComponentType<P> };
      }),
    ),
  );
  const prefetch = () => void load().catch(() => undefined);
  return {
    /** The trigger's handlers while the popup's code is not in use. */
    triggerProps: { onPointerEnter: prefetch, onFocus: prefetch, onClick: () => setPressed(true) },
    /** The trigger until it is pressed; then the full control, opened, in its place. */
    render: (trigger: ReactElement, props: Omit<P, 'defaultOpened'>) =>
      pressed && !failed ? (
        <Suspense fallback={trigger}>
          <Full {...(props as P)} defaultOpened />
        </Suspense>
      ) : (
        trigger
      ),
  };
}
