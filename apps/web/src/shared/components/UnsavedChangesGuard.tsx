import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { useBlocker, useNavigate, type Location } from 'react-router';

type DialogProps = { opened: boolean; message: string; onStay: () => void; onLeave: () => void };

/** When the dialog's code cannot be fetched (offline, a new deployment), the browser's own confirm asks instead. */
function ConfirmInstead({ message, onStay, onLeave }: DialogProps) {
  useEffect(() => {
    if (window.confirm(message)) onLeave();
    else onStay();
    // Asked once, when the navigation was blocked.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

const UnsavedChangesDialog = lazy(
  (): Promise<{ default: ComponentType<DialogProps> }> => import('./UnsavedChangesDialog').catch(() => ({ default: ConfirmInstead })),
);

/** Marks a navigation that a successful save started (see `useLeaveSaved`). */
const SAVED = { leavingSaved: true } as const;
const leavesSaved = (location: Location) => (location.state as typeof SAVED | null)?.leavingSaved === true;

/**
 * While a form is dirty, leaving for another page asks first: Stay, or Leave without saving.
 * Render it inside the form; `message` says what would be lost. The dialog itself is fetched when
 * first needed (UnsavedChangesDialog.tsx).
 */
export function UnsavedChangesGuard({ dirty, message }: { dirty: boolean; message: string }) {
  // A history entry keeps its state: Back to a page once left after a save is not itself a save.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation, historyAction }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname && !(historyAction !== 'POP' && leavesSaved(nextLocation)),
  );
  const blocked = blocker.state === 'blocked';
  // Fetched at the first blocked navigation, then kept mounted so that it closes with its transition.
  const [wanted, setWanted] = useState(false);
  if (blocked && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <UnsavedChangesDialog opened={blocked} message={message} onStay={() => blocker.reset?.()} onLeave={() => blocker.proceed?.()} />
    </Suspense>
  ) : null;
}

/**
 * Leaves for another page after a save (or a delete) has made the form's changes safe. The guard
 * judges a navigation by the form as it last rendered: one started right after the save, before
 * React has rendered the clean form and run its effects, would still find it dirty. Rather than
 * wait with a timer for that render, the navigation says it follows a save.
 */
export function useLeaveSaved() {
  const navigate = useNavigate();
  return (to: string) => navigate(to, { state: SAVED });
}
