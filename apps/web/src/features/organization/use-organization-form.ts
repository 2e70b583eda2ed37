import { zodResolver } from '@hookform/resolvers/zod';
import type { TOrganization, TOrganizationPatch } from '@tourdesk/contracts';
import { useMemo } from 'react';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { setUser } from '../../shared/auth/auth-slice';
import { useAppDispatch, useAppSelector } from '../../shared/hooks/store';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useUpdateOrganizationMutation } from './api';
import { useOrganizationT } from './texts';

type Field = keyof TOrganizationPatch;

const pick = (from: TOrganization, fields: readonly Field[]) => Object.fromEntries(fields.map((f) => [f, from[f]]));

/**
 * One tab's form: the fields of `schema` (ZOrganizationPatch picked to the tab's fields), filled
 * from the organisation. Saving sends only the changed fields; the server's field errors land on
 * their fields; the session's copy of the organisation (name, time zone) follows what was saved.
 */
export function useOrganizationForm<S extends z.ZodObject>(organization: TOrganization, schema: S) {
  type Values = z.input<S> & FieldValues;
  const tr = useOrganizationT();
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.auth.user);
  const [update, { isLoading }] = useUpdateOrganizationMutation();
  const fields = useMemo(() => Object.keys(schema.shape) as Field[], [schema]);
  const values = useMemo(() => pick(organization, fields) as Values, [organization, fields]);

  const form = useForm<Values, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as never,
    values,
    defaultValues: values as DefaultValues<Values>,
  });

  const onSubmit = form.handleSubmit(async (data) => {
    const dirty = form.formState.dirtyFields as Partial<Record<Field, boolean>>;
    const changed = Object.fromEntries(Object.entries(data as object).filter(([f]) => dirty[f as Field])) as TOrganizationPatch;
    if (Object.keys(changed).length === 0) return;
    const res = await update(changed);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, fields);
    form.reset(pick(res.data, fields) as Values);
    if (user?.base_account && (changed.name !== undefined || changed.time_zone !== undefined || changed.currency !== undefined)) {
      dispatch(setUser({ ...user, base_account: { ...user.base_account, name: res.data.name, time_zone: res.data.time_zone, currency: res.data.currency } }));
    }
    notifySuccess(tr('saved'));
  });

  return { form, onSubmit, saving: isLoading };
}
