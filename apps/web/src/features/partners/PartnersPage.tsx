import { Anchor, Button, Group, Modal, Select, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { PARTNER_TYPES, PARTNERSHIP_STATUSES, type TPartnership, type TPartnerType } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyRow, ListFooter } from '../../shared/components/ListParts';
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
    <Stack gap="md">
      <Group justify="space-between">
        <div>
          <Title order={2}>Partners</Title>
          <Text c="dimmed" size="sm">
            {TAB_HINT[tab]}
          </Text>
        </div>
        <Group gap="xs">
          <HelpVideos topic="partners" />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setInviting(true)}>
            Invite partner
          </Button>
        </Group>
      </Group>
      <Tabs value={tab} onChange={(v) => filters.setFilter('partner_type', v === 'Resellers' ? null : v)}>
        <Tabs.List>
          {PARTNER_TYPES.map((t) => (
            <Tabs.Tab key={t} value={t}>
              {t}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Group>
        <TextInput
          aria-label="Search partners"
          placeholder="Name, subdomain or e-mail"
          leftSection={<IconSearch size={16} />}
          value={filters.searchInput}
          onChange={(e) => filters.setSearch(e.currentTarget.value)}
          w={{ base: '100%', xs: 280 }}
        />
        <Select aria-label="Status filter" data={STATUS_FILTER} value={filters.filters.status ?? 'All'} onChange={(v) => filters.setFilter('status', v)} w={160} allowDeselect={false} />
        <Button variant="subtle" onClick={filters.reset}>
          Reset filters
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" highlightOnHover aria-label={tab} style={{ opacity: isFetching ? 0.6 : 1 }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Partner</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Contract</Table.Th>
              <Table.Th ta="right">Offers</Table.Th>
              <Table.Th>Since</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.results.length === 0 && (
              <EmptyRow colSpan={5}>{filtered ? 'No partner matches these filters.' : tab === 'Resellers' ? 'No reseller yet: invite one to sell your offers.' : 'No supplier yet: invitations from suppliers appear here.'}</EmptyRow>
            )}
            {data?.results.map((p) => <Row key={p.id} p={p} zone={zone} />)}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListFooter count={data?.count} noun="partner" totalPages={data?.total_pages} filters={filters} />
      <Modal opened={inviting} onClose={() => setInviting(false)} title="Invite partner" size="lg">
        {inviting && <InviteDialog partnerType={tab} onClose={() => setInviting(false)} />}
      </Modal>
    </Stack>
  );
}
