import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useState, type ComponentType } from 'react';
import type * as Dialogs from '../InlineCreateDialogs';

/** A "+ New …" button beside a picker, opening its dialog. */
export function NewButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button variant="subtle" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={onClick}>
      {label}
    </Button>
  );
}

/**
 * One of the dialogs of ../InlineCreateDialogs.tsx, whose code (the dialogs and their inputs,
 * Mantine's Modal and its scroll lock) is fetched when a dialog is first opened rather than with the
 * step: it kept the Basic info and Settings steps within the editor's 120 kB budget. Once opened it
 * stays mounted, so it closes with its transition and keeps what was typed, as a dialog drawn from
 * the start does. Offline before it was ever fetched, nothing opens rather than the step failing.
 */
function onDemand<P extends { opened: boolean }>(pick: (dialogs: typeof Dialogs) => ComponentType<P>) {
  const Dialog = lazy(
    (): Promise<{ default: ComponentType<P> }> =>
      import('../InlineCreateDialogs').then(
        (dialogs) => ({ default: pick(dialogs) }),
        () => ({ default: () => null }),
      ),
  );
  return function OnDemandDialog(props: P) {
    const [wanted, setWanted] = useState(props.opened);
    if (props.opened && !wanted) setWanted(true);
    return wanted ? (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    ) : null;
  };
}

export const NewCategoryDialog = onDemand((d) => d.NewCategoryDialog);
export const NewMeetingPointDialog = onDemand((d) => d.NewMeetingPointDialog);
export const NewPolicyDialog = onDemand((d) => d.NewPolicyDialog);
export const NewQuestionDialog = onDemand((d) => d.NewQuestionDialog);
