import { Anchor, Badge, Button, Modal, Select, Table, Text } from '@mantine/core';
import { IconGift, IconPlus } from '@tabler/icons-react';
import type { TGiftVoucher } from '@tourdesk/contracts';
import { useState } from 'react';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { useGiftVouchersQuery } from './api';
import { GiftVoucherDrawer } from './GiftVoucherDrawer';
import { IssueVoucherForm } from './IssueVoucherForm';
import { useGiftVouchersT } from './texts';

const STATUS_COLOR: Record<TGiftVoucher['status'], string> = { active: 'green', used: 'gray', expired: 'orange', cancelled: 'red' };

/** The day a voucher is valid until (its expiry is the start of the next day in the organisation's zone). */
export const validUntil = (expiresAt: string, zone?: string) => formatDisplayDate(new Date(new Date(expiresAt).getTime() - 1000).toISOString(), zone);

/** /sales/gift-vouchers: every voucher with its balance, searchable and filtered by status; a voucher's ledger in a drawer. */
export default function GiftVouchersPage() {
  const t = useGiftVouchersT();
  const filters = useListFilters();
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useGiftVouchersQuery(filters.apiParams);
  const [open, setOpen] = useState<string | null>(null);
  const [issuing, setIssuing] = useState(false);
  const filtered = Boolean(filters.search || filters.filters.status);
  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      csv={{ url: 'gift-vouchers/export.csv', params: filters.apiParams, fallbackName: 'gift-vouchers.csv' }}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setIssuing(true)}>
          {t('issue')}
        </Button>
      }
      search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
      filters={
        <Select
          aria-label={t('statusFilter')}
          data={[
            { value: 'All', label: t('all') },
            ...(['active', 'used', 'expired', 'cancelled'] as const).map((s) => ({ value: s, label: t(`status.${s}`) })),
          ]}
          value={filters.filters.status ?? 'All'}
          onChange={(v) => filters.setFilter('status', v)}
          w={160}
          allowDeselect={false}
        />
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
        columns={[{ label: t('col.code') }, { label: t('col.value'), align: 'right' }, { label: t('col.balance'), align: 'right' }, { label: t('col.status') }, { label: t('col.expires') }, { label: t('col.people') }]}
        rowCount={data?.results.length}
        empty={filtered ? t('emptyFiltered') : t('empty')}
      >
        {data?.results.map((v) => (
          <Table.Tr key={v.id} data-testid="voucher-row" data-code={v.code}>
            <Table.Td>
              <Anchor component="button" type="button" fw={500} ta="left" ff="monospace" onClick={() => setOpen(v.id)}>
                <IconGift size={14} style={{ marginRight: 4, verticalAlign: 'middle' }} />
                {v.code}
              </Anchor>
              <Text size="xs" c="dimmed">
                {t(`source.${v.source}`)}
              </Text>
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {formatMoney(v.value, v.currency)}
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="voucher-balance">
              {formatMoney(v.balance, v.currency)}
            </Table.Td>
            <Table.Td>
              <Badge variant="light" color={STATUS_COLOR[v.status]} data-testid="voucher-status">
                {t(`status.${v.status}`)}
              </Badge>
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{validUntil(v.expires_at, zone)}</Table.Td>
            <Table.Td>
              <Text size="sm">{v.buyer_name || v.buyer_email}</Text>
              {(v.recipient_name || v.recipient_email) && (
                <Text size="xs" c="dimmed">
                  → {v.recipient_name || v.recipient_email}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <GiftVoucherDrawer id={open} onClose={() => setOpen(null)} />
      <Modal opened={issuing} onClose={() => setIssuing(false)} title={t('issue')} size="md">
        {issuing && (
          <IssueVoucherForm
            currency={currency}
            onClose={(id) => {
              setIssuing(false);
              if (id) setOpen(id);
            }}
          />
        )}
      </Modal>
    </ListPage>
  );
}
