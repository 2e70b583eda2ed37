import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Badge, Button, Group, Image, Menu, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconCopy, IconDots, IconPencil, IconPlayerPause, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { EXPERIENCE_STATUSES, EXPERIENCE_TYPES, ZExperienceFields, type TExperienceSummary } from '@tourdesk/contracts';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { applyFieldErrors } from '../../shared/lib/forms';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateExperienceMutation, useDeleteExperienceMutation, useDuplicateExperienceMutation, useExperiencesQuery, useUpdateExperienceMutation } from './api';
import { editorPath, OFFER_COPIED, OFFER_CREATED, STATUS_COLOR } from './constants';
import { ExperiencesTabs } from './ExperiencesTabs';
import { HelpVideos } from '../../shared/components/HelpVideos';
import { useExperiencesT } from './texts';


const ORDERINGS = [
  { value: '-updated_at', label: 'Recently updated' },
  { value: 'title', label: 'Title A–Z' },
  { value: '-title', label: 'Title Z–A' },
  { value: '-created_at', label: 'Newest' },
  { value: 'status', label: 'Status' },
];

/** The contract's title; the type with the dialog's own message. */
const ZNew = ZExperienceFields.pick({ title: true }).extend({ type: z.enum(EXPERIENCE_TYPES, { error: 'Choose a type.' }) });

function CreateOffer({ onClose }: { onClose: () => void }) {
  const tr = useExperiencesT();
  const navigate = useNavigate();
  const [create, { isLoading }] = useCreateExperienceMutation();
  const form = useForm<z.infer<typeof ZNew>>({ resolver: zodResolver(ZNew), defaultValues: { title: '', type: 'Ticket & Passes' } });
  const onSubmit = form.handleSubmit(async (values) => {
    const res = await create(values);
    if ('error' in res) return applyFieldErrors(res.error, form.setError, ['title', 'type']);
    notifySuccess(OFFER_CREATED);
    navigate(editorPath(res.data.id, 'basic-info'));
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label={tr('titleLabel')} data-autofocus {...form.register('title')} error={form.formState.errors.title?.message} />
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => <Select label={tr('type')} data={EXPERIENCE_TYPES.map((type) => ({ value: type, label: tr(`type.${type}`) }))} value={field.value} onChange={(v) => v && field.onChange(v)} allowDeselect={false} />}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {tr('cancel')}
          </Button>
          <Button type="submit" loading={isLoading}>
            {tr('create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Row({ exp }: { exp: TExperienceSummary }) {
  const tr = useExperiencesT();
  const navigate = useNavigate();
  const [update] = useUpdateExperienceMutation();
  const [duplicate] = useDuplicateExperienceMutation();
  const [remove] = useDeleteExperienceMutation();
  const setStatus = async (status: 'Active' | 'Inactive') => {
    const res = await update({ id: exp.id, status });
    if (!('error' in res)) notifySuccess(status === 'Active' ? tr('onSale', { title: exp.title }) : tr('offSale', { title: exp.title }));
  };
  return (
    <Table.Tr>
      <Table.Td w={72}>
        {exp.cover_url ? (
          <Image src={exp.cover_url} w={56} h={40} radius="sm" fit="cover" alt="" />
        ) : (
          <Text c="dimmed" size="xs">
            {tr('noImage')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text fw={500} component="a" href={editorPath(exp.id)} onClick={(e) => (e.preventDefault(), navigate(editorPath(exp.id)))} style={{ cursor: 'pointer' }}>
          {exp.title}
        </Text>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {exp.short_description}
        </Text>
      </Table.Td>
      <Table.Td>{tr(`type.${exp.type}`)}</Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLOR[exp.status]} variant="light">
          {tr(`status.${exp.status}`)}
        </Badge>
      </Table.Td>
      <Table.Td ta="right">{exp.from_price === null ? '—' : tr('fromPrice', { price: formatMoney(exp.from_price, exp.currency) })}</Table.Td>
      <Table.Td>{formatDisplayDate(exp.updated_at)}</Table.Td>
      <Table.Td w={60}>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={tr('actionsFor', { title: exp.title })}>
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => navigate(editorPath(exp.id))}>
              {tr('edit')}
            </Menu.Item>
            <Menu.Item
              leftSection={<IconCopy size={16} />}
              onClick={async () => {
                const res = await duplicate(exp.id);
                if (!('error' in res)) notifySuccess(OFFER_COPIED);
              }}
            >
              {tr('duplicate')}
            </Menu.Item>
            {exp.status !== 'Active' ? (
              <Menu.Item leftSection={<IconPlayerPlay size={16} />} onClick={() => setStatus('Active')}>
                {tr('activate')}
              </Menu.Item>
            ) : (
              <Menu.Item leftSection={<IconPlayerPause size={16} />} onClick={() => setStatus('Inactive')}>
                {tr('deactivate')}
              </Menu.Item>
            )}
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={async () => {
                if (!window.confirm(tr('deleteConfirm', { title: exp.title }))) return;
                const res = await remove(exp.id);
                if (!('error' in res)) notifySuccess(tr('deleted', { title: exp.title }));
              }}
            >
              {tr('delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}

export default function OverviewPage() {
  const tr = useExperiencesT();
  const filters = useListFilters();
  const ordering = filters.filters.ordering ?? '-updated_at';
  const { data, isFetching } = useExperiencesQuery({ ...filters.apiParams, ordering });
  const [creating, setCreating] = useState(false);

  return (
    <ListPage
      title={tr('title')}
      csv={{ url: 'experiences/export.csv', params: { ...filters.apiParams, ordering }, fallbackName: 'offers.csv' }}
      actions={
        <>
          <HelpVideos topic="offers" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {tr('newOffer')}
          </Button>
        </>
      }
      tabs={<ExperiencesTabs />}
      search={{ label: tr('searchLabel'), placeholder: tr('searchPlaceholder') }}
      filters={
        <>
          <Select
            aria-label={tr('statusFilter')}
            data={[{ value: 'All', label: tr('anyStatus') }, ...EXPERIENCE_STATUSES.map((s) => ({ value: s, label: tr(`status.${s}`) }))]} value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={140} allowDeselect={false} />
          <Select
            aria-label={tr('typeFilter')}
            data={[{ value: 'All', label: tr('allTypes') }, ...EXPERIENCE_TYPES.map((type) => ({ value: type, label: tr(`type.${type}`) }))]} value={filters.filters.type ?? 'All'} onChange={(v) => filters.setFilter('type', v)} w={170} allowDeselect={false} />
          <Select
            aria-label={tr('order')}
            data={ORDERINGS.map((o) => ({ value: o.value, label: tr(`ordering.${o.value}` as Parameters<typeof tr>[0]) }))} value={ordering} onChange={(v) => filters.setFilter('ordering', v === '-updated_at' ? null : v)} w={190} allowDeselect={false} />
        </>
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => tr('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={tr('title')}
        minWidth={860}
        fetching={isFetching}
        columns={[{}, { label: tr('col.title') }, { label: tr('col.type') }, { label: tr('col.status') }, { label: tr('col.price'), align: 'right' }, { label: tr('col.updated') }, {}]}
        rowCount={data?.results.length}
        empty={
          Object.keys(filters.filters).some((k) => k !== 'ordering' && k !== 'pageSize' && k !== 'page')
            ? tr('emptyFiltered')
            : tr('empty')
        }
      >
        {data?.results.map((exp) => <Row key={exp.id} exp={exp} />)}
      </ListTable>
      <Modal opened={creating} onClose={() => setCreating(false)} title={tr('newOffer')}>
        {creating && <CreateOffer onClose={() => setCreating(false)} />}
      </Modal>
    </ListPage>
  );
}
