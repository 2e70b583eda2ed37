import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Badge, Button, Group, Image, Menu, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconCopy, IconDots, IconPencil, IconPlayerPause, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { EXPERIENCE_STATUSES, EXPERIENCE_TYPES, ITEM_LABEL, ZExperienceFields, type TExperienceSummary } from '@tourdesk/contracts';
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
        <TextInput label="Title" data-autofocus {...form.register('title')} error={form.formState.errors.title?.message} />
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => <Select label="Type" data={[...EXPERIENCE_TYPES]} value={field.value} onChange={(v) => v && field.onChange(v)} allowDeselect={false} />}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={isLoading}>
            Create {ITEM_LABEL.singular.toLowerCase()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Row({ exp }: { exp: TExperienceSummary }) {
  const navigate = useNavigate();
  const [update] = useUpdateExperienceMutation();
  const [duplicate] = useDuplicateExperienceMutation();
  const [remove] = useDeleteExperienceMutation();
  const setStatus = async (status: 'Active' | 'Inactive') => {
    const res = await update({ id: exp.id, status });
    if (!('error' in res)) notifySuccess(status === 'Active' ? `${exp.title} is on sale.` : `${exp.title} is no longer on sale.`);
  };
  return (
    <Table.Tr>
      <Table.Td w={72}>
        {exp.cover_url ? (
          <Image src={exp.cover_url} w={56} h={40} radius="sm" fit="cover" alt="" />
        ) : (
          <Text c="dimmed" size="xs">
            no image
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
      <Table.Td>{exp.type}</Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLOR[exp.status]} variant="light">
          {exp.status}
        </Badge>
      </Table.Td>
      <Table.Td ta="right">{exp.from_price === null ? '—' : `from ${formatMoney(exp.from_price, exp.currency)}`}</Table.Td>
      <Table.Td>{formatDisplayDate(exp.updated_at)}</Table.Td>
      <Table.Td w={60}>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`Actions for ${exp.title}`}>
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => navigate(editorPath(exp.id))}>
              Edit
            </Menu.Item>
            <Menu.Item
              leftSection={<IconCopy size={16} />}
              onClick={async () => {
                const res = await duplicate(exp.id);
                if (!('error' in res)) notifySuccess(OFFER_COPIED);
              }}
            >
              Duplicate
            </Menu.Item>
            {exp.status !== 'Active' ? (
              <Menu.Item leftSection={<IconPlayerPlay size={16} />} onClick={() => setStatus('Active')}>
                Activate
              </Menu.Item>
            ) : (
              <Menu.Item leftSection={<IconPlayerPause size={16} />} onClick={() => setStatus('Inactive')}>
                Deactivate
              </Menu.Item>
            )}
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={async () => {
                if (!window.confirm(`Delete “${exp.title}”? This cannot be undone.`)) return;
                const res = await remove(exp.id);
                if (!('error' in res)) notifySuccess(`${exp.title} was deleted.`);
              }}
            >
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}

export default function OverviewPage() {
  const filters = useListFilters();
  const ordering = filters.filters.ordering ?? '-updated_at';
  const { data, isFetching } = useExperiencesQuery({ ...filters.apiParams, ordering });
  const [creating, setCreating] = useState(false);

  return (
    <ListPage
      title={ITEM_LABEL.plural}
      csv={{ url: 'experiences/export.csv', params: { ...filters.apiParams, ordering }, fallbackName: 'offers.csv' }}
      actions={
        <>
          <HelpVideos topic="offers" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New {ITEM_LABEL.singular.toLowerCase()}
          </Button>
        </>
      }
      tabs={<ExperiencesTabs />}
      search={{ label: 'Search offers', placeholder: 'Search title or description' }}
      filters={
        <>
          <Select aria-label="Status filter" data={[{ value: 'All', label: 'Any status' }, ...EXPERIENCE_STATUSES]} value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={140} allowDeselect={false} />
          <Select aria-label="Type filter" data={[{ value: 'All', label: 'All types' }, ...EXPERIENCE_TYPES]} value={filters.filters.type ?? 'All'} onChange={(v) => filters.setFilter('type', v)} w={170} allowDeselect={false} />
          <Select aria-label="Order" data={ORDERINGS} value={ordering} onChange={(v) => filters.setFilter('ordering', v === '-updated_at' ? null : v)} w={190} allowDeselect={false} />
        </>
      }
      list={filters}
      count={data?.count}
      noun="offer"
      totalPages={data?.total_pages}
    >
      <ListTable
        label={ITEM_LABEL.plural}
        minWidth={860}
        fetching={isFetching}
        columns={[{}, { label: 'Title' }, { label: 'Type' }, { label: 'Status' }, { label: 'Price', align: 'right' }, { label: 'Updated' }, {}]}
        rowCount={data?.results.length}
        empty={
          Object.keys(filters.filters).some((k) => k !== 'ordering' && k !== 'pageSize' && k !== 'page')
            ? 'No offer matches these filters.'
            : `No offers yet. Create your first with “New ${ITEM_LABEL.singular.toLowerCase()}”: a title first, then its description, schedule, prices and photos, step by step; it goes on sale once you activate it.`
        }
      >
        {data?.results.map((exp) => <Row key={exp.id} exp={exp} />)}
      </ListTable>
      <Modal opened={creating} onClose={() => setCreating(false)} title={`New ${ITEM_LABEL.singular.toLowerCase()}`}>
        {creating && <CreateOffer onClose={() => setCreating(false)} />}
      </Modal>
    </ListPage>
  );
}
