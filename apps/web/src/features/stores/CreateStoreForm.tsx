import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { ZStoreInput } from '@tourdesk/contracts';
import { useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateStoreMutation } from './api';
import { slugify, storeEditorPath } from './constants';
import { useStoresT } from './texts';

const ZNew = ZStoreInput.pick({ name: true, slug: true });
type NewStore = z.input<typeof ZNew>;

/** The "Create store" dialog: a name, and an address suggested from it until the user edits the address. */
export function CreateStoreForm({ onClose }: { onClose: () => void }) {
  const t = useStoresT();
  const navigate = useNavigate();
  const [create, { isLoading }] = useCreateStoreMutation();
  const form = useForm<NewStore, unknown, z.output<typeof ZNew>>({ resolver: zodResolver(ZNew), defaultValues: { name: '', slug: '' } });
  const slugEdited = useRef(false);
  const { errors } = form.formState;
  const slug = useWatch({ control: form.control, name: 'slug' });
  const name = form.register('name');
  const slugField = form.register('slug');

  const onSubmit = form.handleSubmit(async (values) => {
    const res = await create(values);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['name', 'slug']);
    notifySuccess(t('created'));
    navigate(storeEditorPath(res.data.id, 'settings'));
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('create')}>
      <Stack>
        <TextInput
          label={t('name')}
          withAsterisk
          data-autofocus
          {...name}
          onChange={(e) => {
            void name.onChange(e);
            if (!slugEdited.current) form.setValue('slug', slugify(e.currentTarget.value), { shouldValidate: form.formState.isSubmitted });
          }}
          error={errors.name?.message}
        />
        <TextInput
          label={t('address')}
          withAsterisk
          description={t('addressHint', { url: `${window.location.origin}/s/${slug || '…'}/` })}
          {...slugField}
          onChange={(e) => {
            slugEdited.current = e.currentTarget.value !== '';
            void slugField.onChange(e);
          }}
          error={errors.slug?.message}
          styles={{ description: { wordBreak: 'break-all' } }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={isLoading}>
            {t('create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
