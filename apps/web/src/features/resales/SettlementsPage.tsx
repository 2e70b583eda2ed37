import { Anchor, Button, Group, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { SETTLEMENT_STATUSES, type TSettlement } from '@tourdesk/contracts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { fieldErrors } from '../../shared/api/errors';
import { ListPage, ListTable } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { useListFilters } from '../../shared/hooks/use-list-filters';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useCreateSettlementMutation, useResaleFilterOptionsQuery, useSettlementsQuery } from './api';
import { owedText, ResalesHeader, settlementPath, SettlementStatus } from './parts';
import { DateField } from '../../shared/components/DateField';
import { ExportCsvButton } from '../../shared/components/ExportCsvButton';
import { useResalesT } from './texts';

/** Last month, as the default period of a new statement (YYYY-MM-DD, the browser's calendar). */
function lastMonth() {
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  const last = new Date(now.getFullYear(), now.getMonth(), 0);
  const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return { from: iso(first), to: iso(last) };
}

/** The supplier's "New statement" dialog: a partner and a period of activity dates. */
function NewStatement({ partners, onClose }: { partners: { id: string; name: string }[]; onClose: () => void }) {
  const t = useResalesT();
  const navigate = useNavigate();
  const [create, { isLoading }] = useCreateSettlementMutation();
  const [partner, setPartner] = useState<string | null>(partners.length === 1 ? partners[0]!.id : null);
  const [period, setPeriod] = useState(lastMonth);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async () => {
    if (!partner) return setErrors({ partnership_id: t('settlement.choosePartner') });
    const res = await create({ partnership_id: partner, period_from: period.from, period_to: period.to });
    if ('error' in res) return setErrors(fieldErrors(res.error));
    notifySuccess(t('settlement.made', { number: res.data.number, lines: res.data.bookings }));
    navigate(settlementPath(res.data.id));
  };

  return (
    <form
      aria-label={t('settlement.new')}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {t('settlement.explain')}
        </Text>
        <Select label={t('partner')} withAsterisk data={partners.map((p) => ({ value: p.id, label: p.name }))} value={partner} onChange={setPartner} error={errors.partnership_id} data-autofocus />
        <Group grow>
          <DateField label={t('settlement.from')} withAsterisk clearable={false} value={period.from} onChange={(v) => setPeriod({ ...period, from: v })} error={errors.period_from} />
          <DateField label={t('settlement.to')} withAsterisk clearable={false} value={period.to} onChange={(v) => setPeriod({ ...period, to: v })} error={errors.period_to} />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('settlement.cancel')}
          </Button>
          <Button type="submit" loading={isLoading}>
            {t('settlement.make')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Row({ s, zone }: { s: TSettlement; zone?: string }) {
  const t = useResalesT();
  const navigate = useNavigate();
  const to = settlementPath(s.id);
  return (
    <Table.Tr onClick={() => navigate(to)} style={{ cursor: 'pointer' }} data-testid="settlement-row">
      <Table.Td>
        <Anchor component={Link} to={to} ff="monospace" fw={500} style={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
          {s.number}
        </Anchor>
        <Text size="xs" c="dimmed">
          {t('settlement.madeOn', { date: formatDisplayDate(s.created_at, zone) })}
        </Text>
      </Table.Td>
      <Table.Td>{s.partner_name}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {s.period_from} – {s.period_to}
      </Table.Td>
      <Table.Td ta="right">{s.bookings}</Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {formatMoney(s.gross, s.currency)}
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {formatMoney(s.commission, s.currency)}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{owedText(s, t)}</Text>
      </Table.Td>
      <Table.Td>
        <SettlementStatus status={s.status} />
      </Table.Td>
    </Table.Tr>
  );
}

/** /resales/settlements: the statements of either side's partnerships; a supplier makes new ones. */
export default function SettlementsPage() {
  const t = useResalesT();
  const filters = useListFilters();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data, isFetching } = useSettlementsQuery(filters.apiParams);
  const { data: options } = useResaleFilterOptionsQuery();
  const [creating, setCreating] = useState(false);
  const myResellers = (options?.partners ?? []).filter((p) => p.side === 'supplier');

  return (
    <ListPage
      afterFilters={<ExportCsvButton url="settlements/export.csv" params={filters.apiParams} fallbackName="statements.csv" />}
      header={
        <ResalesHeader
          tab="settlements"
          actions={
            myResellers.length > 0 && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                {t('settlement.new')}
              </Button>
            )
          }
        />
      }
      filters={
        <>
          <Select
            aria-label={t('partner')}
            data={[{ value: 'All', label: t('allPartners') }, ...(options?.partners ?? []).map((p) => ({ value: p.id, label: p.name }))]}
            value={filters.filters.partner ?? 'All'}
            onChange={(v) => filters.setFilter('partner', v)}
            w={200}
            allowDeselect={false}
          />
          <Select
            aria-label={t('status')}
            data={[{ value: 'All', label: t('anyStatus') }, ...SETTLEMENT_STATUSES.map((s) => ({ value: s, label: t(`settlement.status.${s}`) }))]}
            value={filters.filters.status ?? 'All'}
            onChange={(v) => filters.setFilter('status', v)}
            w={150}
            allowDeselect={false}
          />
        </>
      }
      list={filters}
      count={data?.count}
      countLabel={(count) => t('settlement.count', { count })}
      totalPages={data?.total_pages}
    >
      <ListTable
        label={t('settlement.label')}
        minWidth={900}
        fetching={isFetching}
        horizontalSpacing="xs"
        columns={[{ label: t('settlement.col.statement') }, { label: t('col.partner') }, { label: t('settlement.col.period') }, { label: t('settlement.col.lines'), align: 'right' }, { label: t('col.gross'), align: 'right' }, { label: t('col.commission'), align: 'right' }, { label: t('settlement.col.owed') }, { label: t('col.status') }]}
        rowCount={data?.results.length}
        empty={t('settlement.empty')}
      >
        {data?.results.map((s) => <Row key={s.id} s={s} zone={zone} />)}
      </ListTable>
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('settlement.new')} centered>
        <NewStatement partners={myResellers} onClose={() => setCreating(false)} />
      </Modal>
    </ListPage>
  );
}
