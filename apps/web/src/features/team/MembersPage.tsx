import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Badge, Button, Group, Menu, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconCalendarOff, IconDots, IconMailForward, IconPlus, IconTrash, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { ZTeamMemberInvite, type TTeamMember } from '@tourdesk/contracts';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDisplayDate } from '../../shared/lib/dates';
import { applyFieldErrors } from '../../shared/lib/forms';
import { notifySuccess } from '../../shared/lib/toast';
import { useInviteMemberMutation, useMembersQuery, useRemoveMemberFeedMutation, useRemoveMemberMutation, useResendInvitationMutation, useRolesQuery, useUpdateMemberMutation } from './api';
import { useTeamT } from './texts';

const STATUS_COLOR: Record<TTeamMember['status'], string> = { active: 'green', invited: 'blue', deactivated: 'gray' };
type InviteForm = z.input<typeof ZTeamMemberInvite>;

function InviteMember({ onClose }: { onClose: () => void }) {
  const t = useTeamT();
  const { data: roles } = useRolesQuery();
  const [invite, { isLoading }] = useInviteMemberMutation();
  const form = useForm<InviteForm>({
    resolver: zodResolver(ZTeamMemberInvite),
    defaultValues: { email: '', first_name: '', last_name: '', role: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const res = await invite(ZTeamMemberInvite.parse(values));
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['email', 'role', 'first_name', 'last_name']);
    notifySuccess(t('invitationSent', { email: res.data.email }));
    onClose();
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label={t('email')} type="email" data-autofocus {...form.register('email')} error={form.formState.errors.email?.message} />
        <Group grow>
          <TextInput label={t('firstName')} {...form.register('first_name')} />
          <TextInput label={t('lastName')} {...form.register('last_name')} />
        </Group>
        <Controller
          control={form.control}
          name="role"
          render={({ field, fieldState }) => (
            <Select
              label={t('role')}
              placeholder={t('chooseRole')}
              data={(roles?.results ?? []).map((r) => ({ value: r.id, label: r.name }))}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              error={fieldState.error?.message}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={isLoading}>
            {t('sendInvitation')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function MemberRow({ member, roleOptions, isMe }: { member: TTeamMember; roleOptions: { value: string; label: string }[]; isMe: boolean }) {
  const t = useTeamT();
  const [update] = useUpdateMemberMutation();
  const [remove] = useRemoveMemberMutation();
  const [resend] = useResendInvitationMutation();
  const [removeFeed] = useRemoveMemberFeedMutation();
  const name = [member.first_name, member.last_name].filter(Boolean).join(' ');
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500}>{name || member.email}</Text>
        {name && (
          <Text size="sm" c="dimmed">
            {member.email}
          </Text>
        )}
      </Table.Td>
      <Table.Td w={220}>
        <Select
          aria-label={t('roleOf', { email: member.email })}
          data={roleOptions}
          value={member.role?.id ?? null}
          allowDeselect={false}
          onChange={async (role) => {
            if (!role || role === member.role?.id) return;
            const res = await update({ id: member.id, role });
            if (!('error' in res)) notifySuccess(t('nowRole', { email: member.email, role: res.data.role?.name ?? '' }));
          }}
          comboboxProps={{ withinPortal: true }}
        />
      </Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLOR[member.status]} variant="light">
          {t(`status.${member.status}`)}
        </Badge>
        {isMe && (
          <Badge ml={4} variant="outline" size="sm">
            {t('you')}
          </Badge>
        )}
      </Table.Td>
      <Table.Td>{member.last_login ? formatDisplayDate(member.last_login) : '—'}</Table.Td>
      <Table.Td w={60}>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={t('actionsFor', { email: member.email })}>
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {member.status === 'invited' && (
              <Menu.Item
                leftSection={<IconMailForward size={16} />}
                onClick={async () => {
                  const res = await resend(member.id);
                  if ('data' in res && res.data) notifySuccess(res.data.detail);
                }}
              >
                {t('sendAgain')}
              </Menu.Item>
            )}
            {member.status === 'active' && (
              <Menu.Item
                leftSection={<IconUserOff size={16} />}
                onClick={async () => {
                  const res = await update({ id: member.id, is_active: false });
                  if (!('error' in res)) notifySuccess(t('deactivated', { email: member.email }));
                }}
              >
                {t('deactivate')}
              </Menu.Item>
            )}
            {member.status === 'deactivated' && (
              <Menu.Item
                leftSection={<IconUserCheck size={16} />}
                onClick={async () => {
                  const res = await update({ id: member.id, is_active: true });
                  if (!('error' in res)) notifySuccess(t('reactivated', { email: member.email }));
                }}
              >
                {t('reactivate')}
              </Menu.Item>
            )}
            {member.status !== 'invited' && (
              <Menu.Item
                leftSection={<IconCalendarOff size={16} />}
                onClick={async () => {
                  if (!window.confirm(t('feedOffConfirm', { email: member.email }))) return;
                  const res = await removeFeed(member.id);
                  if (!('error' in res)) notifySuccess(t('feedOffDone', { email: member.email }));
                }}
              >
                {t('feedOff')}
              </Menu.Item>
            )}
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={async () => {
                if (!window.confirm(t('removeConfirm', { email: member.email }))) return;
                const res = await remove(member.id);
                if (!('error' in res)) notifySuccess(t('removed', { email: member.email }));
              }}
            >
              {t('remove')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}

export default function MembersPage() {
  const t = useTeamT();
  const filters = useListFilters();
  const { data, isFetching } = useMembersQuery(filters.apiParams);
  const { data: roles } = useRolesQuery();
  const myId = useAppSelector((s) => s.auth.user?.id);
  const [inviting, setInviting] = useState(false);
  const roleOptions = (roles?.results ?? []).map((r) => ({ value: r.id, label: r.name }));

  return (
    <ListPage
      title={t('members.title')}
      description={t('members.description')}
      csv={{ url: 'team-members/export.csv', params: filters.apiParams, fallbackName: 'team-members.csv' }}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setInviting(true)}>
          {t('members.invite')}
        </Button>
      }
      search={{ label: t('members.searchLabel'), placeholder: t('members.searchPlaceholder') }}
      filters={
        <>
          <Select
            aria-label={t('status')}
            data={[{ value: 'All', label: t('anyStatus') }, ...(['active', 'invited', 'deactivated'] as const).map((s) => ({ value: s, label: t(`status.${s}`) }))]} value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={160} allowDeselect={false} />
          <Select aria-label={t('roleFilter')} data={[{ value: 'All', label: t('allRoles') }, ...roleOptions]} value={filters.filters.role ?? 'All'} onChange={(v) => filters.setFilter('role', v)} w={180} allowDeselect={false} />
        </>
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('members.count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('members.title')}
        minWidth={760}
        fetching={isFetching}
        highlightOnHover={false}
        columns={[{ label: t('col.member') }, { label: t('col.role') }, { label: t('col.status') }, { label: t('col.lastSignIn') }, {}]}
        rowCount={data?.results.length}
        empty={t('members.empty')}
      >
        {data?.results.map((m) => (
          <MemberRow key={m.id} member={m} roleOptions={roleOptions} isMe={m.id === myId} />
        ))}
      </ListTable>
      <Modal opened={inviting} onClose={() => setInviting(false)} title={t('members.inviteTitle')}>
        {inviting && <InviteMember onClose={() => setInviting(false)} />}
      </Modal>
    </ListPage>
  );
}
