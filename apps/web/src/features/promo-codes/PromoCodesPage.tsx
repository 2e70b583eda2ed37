import { Anchor, Badge, Button, Modal, Select, Table, Text } from '@mantine/core';
import { IconPlus, IconTicket } from '@tabler/icons-react';
import { formatBp, type TPromoCode } from '@tourdesk/contracts';
import { currentLocale } from '../../shared/i18n/language';
import { useState } from 'react';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { usePromoCodesQuery, useUpdatePromoCodeMutation } from './api';
import { PromoCodeForm } from './PromoCodeForm';
import { usePromoCodesT } from './texts';

/** /sales/promo-codes: codes for a percentage or an amount off, with their uses and revenue. */
export default function PromoCodesPage() {
  const t = usePromoCodesT();
  const filters = useListFilters();
  const currency = useAppSelector((s) => s.auth.user?.base_account?.currency) ?? 'EUR';
  const { data, isFetching } = usePromoCodesQuery(filters.apiParams);
  const [update] = useUpdatePromoCodeMutation();
  const [editing, setEditing] = useState<TPromoCode | 'new' | null>(null);
  const filtered = Boolean(filters.search || filters.filters.active);
  const discountOf = (c: TPromoCode) => (c.kind === 'percent' ? t('percentOff', { percent: formatBp(c.percent_bp, currentLocale()) }) : t('amountOff', { amount: formatMoney(c.amount, c.currency) }));
  const windowOf = (c: TPromoCode) =>
    [c.valid_from && t('from', { date: formatDisplayDate(c.valid_from) }), c.valid_until && t('until', { date: formatDisplayDate(c.valid_until) })].filter(Boolean).join(' ') || t('always');
  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      csv={{ url: 'promo-codes/export.csv', params: filters.apiParams, fallbackName: 'promo-codes.csv' }}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('create')}
        </Button>
      }
      search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
      filters={
        <Select
          aria-label={t('activeFilter')}
          data={[
            { value: 'All', label: t('all') },
            { value: 'true', label: t('active') },
            { value: 'false', label: t('inactive') },
          ]}
          value={filters.filters.active ?? 'All'}
          onChange={(v) => filters.setFilter('active', v)}
          w={150}
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
        minWidth={760}
        fetching={isFetching}
        columns={[{ label: t('col.code') }, { label: t('col.discount') }, { label: t('col.valid') }, { label: t('col.status') }, { label: t('col.uses'), align: 'right' }, { label: t('col.revenue'), align: 'right' }, { label: '' }]}
        rowCount={data?.results.length}
        empty={filtered ? t('emptyFiltered') : t('empty')}
      >
        {data?.results.map((c) => (
          <Table.Tr key={c.id} data-testid="promo-row" data-code={c.code}>
            <Table.Td>
              <Anchor component="button" type="button" fw={500} ta="left" ff="monospace" onClick={() => setEditing(c)}>
                <IconTicket size={14} style={{ marginRight: 4, verticalAlign: 'middle' }} />
                {c.code}
              </Anchor>
              {c.description && (
                <Text size="xs" c="dimmed">
                  {c.description}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{discountOf(c)}</Table.Td>
            <Table.Td>{windowOf(c)}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={c.active ? 'green' : 'gray'}>
                {c.active ? t('active') : t('inactive')}
              </Badge>
            </Table.Td>
            <Table.Td ta="right" data-testid="promo-uses">
              {c.max_uses === null ? c.uses : t('usesOf', { uses: c.uses, max: c.max_uses })}
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="promo-revenue">
              {formatMoney(c.revenue, c.currency)}
            </Table.Td>
            <Table.Td ta="right">
              <Button
                size="xs"
                variant="subtle"
                onClick={async () => {
                  const res = await update({ id: c.id, active: !c.active });
                  if (!('error' in res)) notifySuccess(c.active ? t('deactivated') : t('activated'));
                }}
              >
                {c.active ? t('deactivate') : t('activate')}
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? t('create') : t('edit')} size="lg">
        {editing !== null && <PromoCodeForm code={editing === 'new' ? undefined : editing} currency={currency} onClose={() => setEditing(null)} />}
      </Modal>
    </ListPage>
  );
}
