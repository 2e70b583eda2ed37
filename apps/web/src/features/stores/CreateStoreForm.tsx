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
import { slugify, STORE_CREATED, storeEditorPath } from './constants';

const ZNew = ZStoreInput.pick({ name: true, slug: true });
type NewStore = z.input<typeof ZNew>;

/** The "Create store" dialog: a name, and an address suggested from it until the user edits the address. */
export function CreateStoreForm({ onClose }: { onClose: () => void }) {
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
    notifySuccess(STORE_CREATED);
    navigate(storeEditorPath(res.data.id, 'settings'));
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create store">
      <Stack>
        <TextInput
          label="Name"
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
          label="Address"
          withAsterisk
          description={`Customers find the store at ${window.location.origin}/s/${slug || '…'}/`}
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
            Cancel
          </Button>
          <Button type="submit" loading={isLoading}>
            Create store
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
