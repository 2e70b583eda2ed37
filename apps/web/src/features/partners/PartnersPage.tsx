import { Anchor, Button, Modal, Select, Table, Tabs, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { PARTNER_TYPES, PARTNERSHIP_STATUSES, type TPartnership, type TPartnerType } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { usePartnershipsQuery } from './api';
import { InviteDialog } from './InviteDialog';
import { partnerPath, percent, StatusBadge } from './parts';
import { HelpVideos } from '../../shared/components/HelpVideos';
import { usePartnersT } from './texts';


function Row({ p, zone }: { p: TPartnership; zone?: string }) {
  const t = usePartnersT();
  return (
    <Table.Tr data-testid="partner-row">
      <Table.Td>
        <Anchor component={Link} to={partnerPath(p.id)} fw={500}>
          {p.partner.name ?? p.partner.email ?? '—'}
        </Anchor>
        <Text size="xs" c="dimmed">
          {p.partner.subdomain ?? (p.partner.email ? t('invitedByEmail') : '')}
        </Text>
      </Table.Td>
      <Table.Td>
        <StatusBadge status={p.status} />
        {p.can_respond && (
          <Text size="xs" c="dimmed">
            {t('awaitsAnswer')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{p.pricing === 'commission' ? t('commission', { percent: percent(p.commission_bp) }) : t('netRates')}</Table.Td>
      <Table.Td ta="right">{p.offers.length}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDisplayDate(p.created_at, zone)}</Table.Td>
    </Table.Tr>
  );
}

/** /sales/partners: the organisation's partners, in the spec's two partner types (tabs), with search, status and pages. */
export default function PartnersPage() {
  const t = usePartnersT();
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const tab = (PARTNER_TYPES as readonly string[]).includes(filters.filters.partner_type ?? '') ? (filters.filters.partner_type as TPartnerType) : 'Resellers';
  const { data, isFetching } = usePartnershipsQuery({ ...filters.apiParams, partner_type: tab });
  const [inviting, setInviting] = useState(false);
  const filtered = Boolean(filters.search || filters.filters.status);
  return (
    <ListPage
      title={t('title')}
      description={t(`hint.${tab}`)}
      csv={{ url: 'partners/export.csv', params: { ...filters.apiParams, partner_type: tab }, fallbackName: 'partners.csv' }}
      actions={
        <>
          <HelpVideos topic="partners" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setInviting(true)}>
            {t('invite')}
          </Button>
        </>
      }
      tabs={
        <Tabs value={tab} onChange={(v) => filters.setFilter('partner_type', v === 'Resellers' ? null : v)}>
          <Tabs.List>
            {PARTNER_TYPES.map((type) => (
              <Tabs.Tab key={type} value={type}>
                {t(`type.${type}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      }
      search={{ label: t('searchLabel'), placeholder: t('searchPlaceholder') }}
      filters={
        <Select
          aria-label={t('statusFilter')}
          data={[{ value: 'All', label: t('allStatuses') }, ...PARTNERSHIP_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))]}
          value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={160} allowDeselect={false} />
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t(`type.${tab}`)}
        minWidth={640}
        fetching={isFetching}
        columns={[{ label: t('col.partner') }, { label: t('col.status') }, { label: t('col.contract') }, { label: t('col.offers'), align: 'right' }, { label: t('col.since') }]}
        rowCount={data?.results.length}
        empty={filtered ? t('emptyFiltered') : tab === 'Resellers' ? t('emptyResellers') : t('emptySuppliers')}
      >
        {data?.results.map((p) => <Row key={p.id} p={p} zone={zone} />)}
      </ListTable>
      <Modal opened={inviting} onClose={() => setInviting(false)} title={t('invite')} size="lg">
        {inviting && <InviteDialog partnerType={tab} onClose={() => setInviting(false)} />}
      </Modal>
    </ListPage>
  );
}
