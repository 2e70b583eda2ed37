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

const STATUS_FILTER = [{ value: 'All', label: 'All statuses' }, ...PARTNERSHIP_STATUSES.map((s) => ({ value: s, label: s }))];
const TAB_HINT: Record<TPartnerType, string> = {
  Resellers: 'Organisations that resell your offers.',
  Suppliers: 'Organisations whose offers you resell.',
};

function Row({ p, zone }: { p: TPartnership; zone?: string }) {
  return (
    <Table.Tr data-testid="partner-row">
      <Table.Td>
        <Anchor component={Link} to={partnerPath(p.id)} fw={500}>
          {p.partner.name ?? p.partner.email ?? '—'}
        </Anchor>
        <Text size="xs" c="dimmed">
          {p.partner.subdomain ?? (p.partner.email ? 'Invited by e-mail' : '')}
        </Text>
      </Table.Td>
      <Table.Td>
        <StatusBadge status={p.status} />
        {p.can_respond && (
          <Text size="xs" c="dimmed">
            Awaits your answer
          </Text>
        )}
      </Table.Td>
      <Table.Td>{p.pricing === 'commission' ? `${percent(p.commission_bp)} commission` : 'Net rates'}</Table.Td>
      <Table.Td ta="right">{p.offers.length}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDisplayDate(p.created_at, zone)}</Table.Td>
    </Table.Tr>
  );
}

/** /sales/partners: the organisation's partners, in the spec's two partner types (tabs), with search, status and pages. */
export default function PartnersPage() {
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const tab = (PARTNER_TYPES as readonly string[]).includes(filters.filters.partner_type ?? '') ? (filters.filters.partner_type as TPartnerType) : 'Resellers';
  const { data, isFetching } = usePartnershipsQuery({ ...filters.apiParams, partner_type: tab });
  const [inviting, setInviting] = useState(false);
  const filtered = Boolean(filters.search || filters.filters.status);
  return (
    <ListPage
      title="Partners"
      description={TAB_HINT[tab]}
      csv={{ url: 'partners/export.csv', params: { ...filters.apiParams, partner_type: tab }, fallbackName: 'partners.csv' }}
      actions={
        <>
          <HelpVideos topic="partners" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setInviting(true)}>
            Invite partner
          </Button>
        </>
      }
      tabs={
        <Tabs value={tab} onChange={(v) => filters.setFilter('partner_type', v === 'Resellers' ? null : v)}>
          <Tabs.List>
            {PARTNER_TYPES.map((t) => (
              <Tabs.Tab key={t} value={t}>
                {t}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      }
      search={{ label: 'Search partners', placeholder: 'Name, subdomain or e-mail' }}
      filters={<Select aria-label="Status filter" data={STATUS_FILTER} value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={160} allowDeselect={false} />}
      list={filters}
      count={data?.count}
      noun="partner"
      totalPages={data?.total_pages}
    >
      <ListTable
        label={tab}
        minWidth={640}
        fetching={isFetching}
        columns={[{ label: 'Partner' }, { label: 'Status' }, { label: 'Contract' }, { label: 'Offers', align: 'right' }, { label: 'Since' }]}
        rowCount={data?.results.length}
        empty={filtered ? 'No partner matches these filters.' : tab === 'Resellers' ? 'No reseller yet: invite one to sell your offers.' : 'No supplier yet: invitations from suppliers appear here.'}
      >
        {data?.results.map((p) => <Row key={p.id} p={p} zone={zone} />)}
      </ListTable>
      <Modal opened={inviting} onClose={() => setInviting(false)} title="Invite partner" size="lg">
        {inviting && <InviteDialog partnerType={tab} onClose={() => setInviting(false)} />}
      </Modal>
    </ListPage>
  );
}
