import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Badge, Button, Checkbox, Group, Modal, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { ZRoleInput, type TRole } from '@tourdesk/contracts';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useAppSelector } from '../../shared/hooks/store';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateRoleMutation, useDeleteRoleMutation, useRolesQuery, useUpdateRoleMutation } from './api';
import { ExportCsvButton } from '../../shared/components/ExportCsvButton';
import { useTeamT } from './texts';

type RoleForm = z.infer<typeof ZRoleInput>;

function RoleEditor({ role, onClose }: { role: TRole | null; onClose: () => void }) {
  const t = useTeamT();
  const sets = useAppSelector((s) => s.auth.appInfo?.permission_sets ?? []);
  const [create, creating] = useCreateRoleMutation();
  const [update, updating] = useUpdateRoleMutation();
  const form = useForm<RoleForm>({
    resolver: zodResolver(ZRoleInput),
    defaultValues: { name: role?.name ?? '', permission_sets: role?.permission_sets.map((s) => s.id) ?? [] },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const res = role ? await update({ id: role.id, ...values }) : await create(values);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['name', 'permission_sets']);
    notifySuccess(role ? t('roles.updated') : t('roles.created'));
    onClose();
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label={t('roles.name')} data-autofocus {...form.register('name')} error={form.formState.errors.name?.message} />
        <Controller
          control={form.control}
          name="permission_sets"
          render={({ field, fieldState }) => (
            <Checkbox.Group label={t('roles.sets')} value={field.value} onChange={field.onChange} error={fieldState.error?.message}>
              <Stack gap="xs" mt="xs">
                {sets.map((set) => (
                  <Checkbox
                    key={set.title}
                    value={set.id ?? set.title}
                    label={set.title}
                    description={t('roles.permissions', { count: set.codenames.length })}
                    disabled={role?.is_owner}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
        />
        {role?.is_owner && (
          <Text size="sm" c="dimmed">
            {t('roles.ownerNote')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={creating.isLoading || updating.isLoading}>
            {role ? t('roles.save') : t('roles.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function RolesPage() {
  const t = useTeamT();
  const { data, isLoading } = useRolesQuery();
  const [editing, setEditing] = useState<TRole | 'new' | null>(null);
  // The dialog keeps its title while it fades out after closing.
  const [editorTitle, setEditorTitle] = useState<'new' | 'edit'>('new');
  const openEditor = (target: TRole | 'new') => {
    setEditorTitle(target === 'new' ? 'new' : 'edit');
    setEditing(target);
  };
  const [deleting, setDeleting] = useState<TRole | null>(null);
  const [remove, removal] = useDeleteRoleMutation();

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <div>
          <Title order={2}>{t('roles.title')}</Title>
          <Text c="dimmed">{t('roles.description')}</Text>
        </div>
        <Group gap="xs">
          <ExportCsvButton url="roles/export.csv" params={{}} fallbackName="roles.csv" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => openEditor('new')}>
            {t('roles.new')}
          </Button>
        </Group>
      </Group>

      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" highlightOnHover aria-label={t('roles.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('col.role')}</Table.Th>
              <Table.Th>{t('roles.sets')}</Table.Th>
              <Table.Th ta="right">{t('col.members')}</Table.Th>
              <Table.Th w={100} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {isLoading && (
              <Table.Tr>
                <Table.Td colSpan={4}>{t('loading')}</Table.Td>
              </Table.Tr>
            )}
            {data?.results.map((role) => (
              <Table.Tr key={role.id}>
                <Table.Td>
                  <Group gap="xs">
                    <Text fw={500}>{role.name}</Text>
                    {role.is_owner && <Badge size="xs">{t('owner')}</Badge>}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {role.permission_sets.length === 0 && <Text c="dimmed" size="sm">{t('none')}</Text>}
                    {role.permission_sets.map((s) => (
                      <Badge key={s.id} variant="light" color="gray" size="sm">
                        {s.title}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td ta="right">{role.member_count}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label={t('edit')}>
                      <ActionIcon variant="subtle" aria-label={t('editNamed', { name: role.name })} onClick={() => openEditor(role)}>
                        <IconPencil size={16} />
                      </ActionIcon>
                    </Tooltip>
                    {!role.is_owner && (
                      <Tooltip label={t('delete')}>
                        <ActionIcon variant="subtle" color="red" aria-label={t('deleteNamed', { name: role.name })} onClick={() => setDeleting(role)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editorTitle === 'new' ? t('roles.new') : t('roles.edit')}>
        {editing !== null && <RoleEditor role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>

      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('roles.deleteTitle')}>
        <Stack>
          <Text>{t('roles.deleteQuestion', { name: deleting?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('cancel')}
            </Button>
            <Button
              color="red"
              loading={removal.isLoading}
              onClick={async () => {
                const res = await remove(deleting!.id);
                setDeleting(null);
                if (!('error' in res)) notifySuccess(t('roles.deleted'));
              }}
            >
              {t('delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
