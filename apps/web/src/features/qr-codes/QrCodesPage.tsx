import { ActionIcon, Anchor, Badge, Button, CopyButton, Group, Image, Modal, Select, SimpleGrid, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload, IconPencil, IconPlus, IconQrcode } from '@tabler/icons-react';
import type { TQrCode } from '@tourdesk/contracts';
import { useState } from 'react';
import { ConfirmButton } from '../../shared/components/ConfirmButton';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useDeleteQrCodeMutation, useQrCodeDownloadMutation, useQrCodePreviewQuery, useQrCodesQuery } from './api';
import { QrCodeForm } from './QrCodeForm';
import { useQrCodesT } from './texts';

/** Where a code leads, in words. */
const targetOf = (c: TQrCode, t: ReturnType<typeof useQrCodesT>) =>
  c.target === 'experience'
    ? t('offerIn', { offer: c.experience_title ?? t('offer'), store: c.store_name ?? t('aStore') })
    : c.target === 'partner_store'
      ? c.store_name
        ? t('partnerStore', { store: c.store_name, partner: c.partner_name ?? '' })
        : t('partnerGone')
      : (c.store_name ?? t('storeFallback'));

/** One code: its image, its files, its link, and editing or deleting it. */
function QrCodeDetail({ code, onEdit, onDeleted }: { code: TQrCode; onEdit: () => void; onDeleted: () => void }) {
  const t = useQrCodesT();
  const preview = useQrCodePreviewQuery(code.id);
  const [download, downloading] = useQrCodeDownloadMutation();
  const [remove] = useDeleteQrCodeMutation();
  const file = (ext: 'png' | 'svg', label: string) => (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      loading={downloading.isLoading && downloading.originalArgs?.url.endsWith(ext)}
      onClick={() => void download({ url: `qr-codes/${code.id}/qr.${ext}`, fallbackName: `qr-${code.code}.${ext}` })}
    >
      {label}
    </Button>
  );
  return (
    <Stack>
      <Group align="flex-start" wrap="wrap" gap="lg">
        <div style={{ background: 'white', borderRadius: 8, padding: 4, lineHeight: 0 }}>
          {preview.data ? <Image src={preview.data} alt={t('imageOf', { name: code.name })} w={180} h={180} /> : <div style={{ width: 180, height: 180 }} aria-busy="true" />}
        </div>
        <Stack gap={6} style={{ flex: '1 1 220px', minWidth: 0 }}>
          <Text size="sm">
            {t('leadsTo', { target: targetOf(code, t) })}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Anchor href={code.url} target="_blank" rel="noopener noreferrer" size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="qr-url">
              {code.url}
            </Anchor>
            <CopyButton value={code.url}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t('copied') : t('copyLink')}>
                  <ActionIcon variant="subtle" onClick={copy} aria-label={t('copyLink')}>
                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
          <Text size="sm" c="dimmed">
            {t('scanNote')}
          </Text>
        </Stack>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        {file('png', 'PNG')}
        {file('svg', 'SVG')}
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={downloading.isLoading && downloading.originalArgs?.url.endsWith('pdf')}
          onClick={() => void download({ url: `qr-codes/${code.id}/flyer.pdf`, fallbackName: `qr-${code.code}.pdf` })}
        >
          {t('flyer')}
        </Button>
      </SimpleGrid>
      <Group justify="space-between">
        <ConfirmButton
          variant="subtle"
          color="red"
          title={t('deleteTitle')}
          message={t('deleteMessage')}
          confirmLabel={t('deleteConfirm')}
          onConfirm={async () => {
            const res = await remove(code.id);
            if ('error' in res) return false;
            notifySuccess(t('deleted'));
            onDeleted();
            return true;
          }}
        >
          {t('delete')}
        </ConfirmButton>
        <Button leftSection={<IconPencil size={16} />} onClick={onEdit}>
          {t('editButton')}
        </Button>
      </Group>
    </Stack>
  );
}

/** /sales/qr-codes: printed codes leading to a store or an offer, with what each brought. */
export default function QrCodesPage() {
  const t = useQrCodesT();
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useQrCodesQuery(filters.apiParams);
  const [editing, setEditing] = useState<TQrCode | 'new' | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const open = data?.results.find((c) => c.id === openId) ?? null;
  const filtered = Boolean(filters.search || filters.filters.ownership);
  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      csv={{ url: 'qr-codes/export.csv', params: filters.apiParams, fallbackName: 'qr-codes.csv' }}
      actions={
        <>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('create')}
          </Button>
        </>
      }
      search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
      filters={
        <Select
          aria-label={t('ownershipFilter')}
          data={[
            { value: 'All', label: t('allOwners') },
            { value: 'Internal', label: t('ownership.Internal') },
            { value: 'External', label: t('ownership.External') },
          ]}
          value={filters.filters.ownership ?? 'All'} onChange={(v) => filters.setFilter('ownership', v)} w={150} allowDeselect={false} />
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('title')}
        minWidth={820}
        fetching={isFetching}
        columns={[{ label: t('col.name') }, { label: t('col.campaign') }, { label: t('col.ownership') }, { label: t('col.leadsTo') }, { label: t('col.scans'), align: 'right' }, { label: t('col.orders'), align: 'right' }, { label: t('col.revenue'), align: 'right' }]}
        rowCount={data?.results.length}
        empty={filtered ? t('emptyFiltered') : t('empty')}
      >
        {data?.results.map((c) => (
          <Table.Tr key={c.id} data-testid="qr-row" data-code={c.code}>
            <Table.Td>
              <Anchor component="button" type="button" fw={500} ta="left" onClick={() => setOpenId(c.id)}>
                <Group gap={6} wrap="nowrap" component="span">
                  <IconQrcode size={16} style={{ flexShrink: 0 }} />
                  {c.name}
                </Group>
              </Anchor>
              <Text size="xs" c="dimmed">
                {t('createdOn', { date: formatDisplayDate(c.created_at, zone) })}
              </Text>
            </Table.Td>
            <Table.Td>{c.campaign || <Text c="dimmed">—</Text>}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={c.ownership === 'Internal' ? 'blue' : 'grape'}>
                {t(`ownership.${c.ownership}`)}
              </Badge>
            </Table.Td>
            <Table.Td>{targetOf(c, t)}</Table.Td>
            <Table.Td ta="right" data-testid="qr-scans">
              {c.scans}
            </Table.Td>
            <Table.Td ta="right" data-testid="qr-orders">
              {c.orders}
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="qr-revenue">
              {formatMoney(c.revenue, c.currency)}
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <Modal opened={Boolean(open) && !editing} onClose={() => setOpenId(null)} title={open?.name ?? t('qrCode')} size="lg">
        {open && <QrCodeDetail code={open} onEdit={() => setEditing(open)} onDeleted={() => setOpenId(null)} />}
      </Modal>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? t('create') : t('edit')}>
        {editing !== null && (
          <QrCodeForm
            code={editing === 'new' ? undefined : editing}
            onClose={(saved) => {
              setEditing(null);
              if (saved) setOpenId(saved.id);
            }}
          />
        )}
      </Modal>
    </ListPage>
  );
}
