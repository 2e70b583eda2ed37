import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { ZStoreInput } from '@tourdesk/contracts';
import { useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useAddStoreOffersMutation, useCreateStoreMutation } from './api';
import { slugify, storeEditorPath } from './constants';
import { useStoresT } from './texts';

const ZNew = ZStoreInput.pick({ name: true, slug: true });
type NewStore = z.input<typeof ZNew>;

/**
 * The "Create store" dialog: a name, and an address suggested from it until the user edits the
 * address. Opened from an offer's "Where it is sold" (`offer`), the new store shows that offer at
 * once and opens on its products.
 */
export function CreateStoreForm({ onClose, offer }: { onClose: () => void; offer?: string }) {
  const t = useStoresT();
  const navigate = useNavigate();
  const [create, { isLoading }] = useCreateStoreMutation();
  const [addOffers, adding] = useAddStoreOffersMutation();
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
    // The store exists either way; an offer that could not be added is toasted and can be added from the catalog.
    if (offer && !('error' in (await addOffers({ id: res.data.id, experiences: [offer] })))) return navigate(storeEditorPath(res.data.id, 'store-products'));
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
          <Button type="submit" loading={isLoading || adding.isLoading}>
            {t('create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
