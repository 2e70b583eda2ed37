import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { WEBHOOK_EVENT_TYPES, ZWebhookEndpointInput, type TWebhookEndpointWithSecret } from '@tourdesk/contracts';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateWebhookEndpointMutation } from './api';
import { useWebhooksT } from './texts';

type Values = z.input<typeof ZWebhookEndpointInput>;
const FIELDS = ['url', 'description', 'event_types'] as const;

/** Adds an endpoint: its address, a description and the events it is sent; answers it with its secret. */
export function EndpointForm({ onClose }: { onClose: (created?: TWebhookEndpointWithSecret) => void }) {
  const t = useWebhooksT();
  const [create, creating] = useCreateWebhookEndpointMutation();
  const form = useForm<Values, unknown, z.output<typeof ZWebhookEndpointInput>>({
    resolver: zodResolver(ZWebhookEndpointInput),
    defaultValues: { url: '', description: '', event_types: [...WEBHOOK_EVENT_TYPES], enabled: true },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    const res = await create(values);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, FIELDS);
    notifySuccess(t('created'));
    onClose(res.data);
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('form.title')}>
      <Stack>
        <TextInput label={t('form.url')} description={t('form.urlHint')} withAsterisk data-autofocus placeholder="https://" {...form.register('url')} error={errors.url?.message} />
        <TextInput label={t('form.description')} placeholder={t('form.descriptionPlaceholder')} {...form.register('description')} error={errors.description?.message} />
        <Controller
          control={form.control}
          name="event_types"
          render={({ field }) => (
            <Stack gap={6}>
              <Checkbox.Group label={t('form.events')} withAsterisk value={field.value} onChange={field.onChange} error={errors.event_types ? t('form.noEvents') : undefined}>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} mt="xs">
                  {WEBHOOK_EVENT_TYPES.map((type) => (
                    <Checkbox key={type} value={type} label={type} styles={{ label: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
              {/* Outside the group: it is no event of its own, it sets them all. */}
              <Checkbox
                label={t('form.allEvents')}
                checked={field.value.length === WEBHOOK_EVENT_TYPES.length}
                indeterminate={field.value.length > 0 && field.value.length < WEBHOOK_EVENT_TYPES.length}
                onChange={(e) => field.onChange(e.currentTarget.checked ? [...WEBHOOK_EVENT_TYPES] : [])}
              />
            </Stack>
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose()}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={creating.isLoading}>
            {t('form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
