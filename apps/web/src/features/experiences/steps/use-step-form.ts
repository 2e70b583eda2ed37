import { zodResolver } from '@hookform/resolvers/zod';
import type { TExperience } from '@tourdesk/contracts';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { useLeaveSaved } from '../../../shared/components/UnsavedChangesGuard';
import { applyFieldErrors } from '../../../shared/lib/forms';
import { notifySuccess } from '../../../shared/lib/toast';
import { useUpdateExperienceMutation } from '../api';
import { EDITOR_STEPS, editorPath, type EditorStep } from '../constants';

export const OFFER_UPDATED = 'Offer updated!';

/** One editor step's form: its schema, its values from the experience, and saving as a PATCH. */
export function useStepForm<S extends z.ZodType<FieldValues, FieldValues>>(
  experience: TExperience,
  step: EditorStep,
  schema: S,
  values: z.input<S>,
) {
  const [update, { isLoading }] = useUpdateExperienceMutation();
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as never,
    values: values as z.input<S>,
    defaultValues: values as DefaultValues<z.input<S>>,
    // A newer copy of the experience (a refetch) updates the fields the user has not touched and
    // never overwrites what they typed (one arriving just after "Offer created!" did), nor clears
    // the reasons a save was just refused.
    resetOptions: { keepDirtyValues: true, keepErrors: true },
  });
  const leave = useLeaveSaved();
  const index = EDITOR_STEPS.findIndex((s) => s.step === step);
  const next = EDITOR_STEPS[index + 1];

  const save = (goNext: boolean) =>
    form.handleSubmit(async (data) => {
      if (form.formState.isDirty) {
        const res = await update({ id: experience.id, ...(data as object) });
        if ('error' in res) return applyFieldErrors(res.error, form.setError, Object.keys(values as object));
        form.reset(data as never);
        notifySuccess(OFFER_UPDATED);
      }
      if (goNext && next) leave(editorPath(experience.id, next.step));
    })();

  return { form, save, saving: isLoading, hasNext: Boolean(next) };
}
