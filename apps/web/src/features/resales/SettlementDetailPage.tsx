import { Alert, Anchor, Badge, Button, Group, Loader, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconCheck, IconDownload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { clock, formatDateTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useSettlementDownloadMutation, useSettlementQuery, useSettleSettlementMutation } from './api';
import { Figure, Figures, itemsText, owedText, resalePath, SETTLEMENTS_PATH, settlementPath, SettlementStatus } from './parts';
import { useResalesT } from './texts';

/** /resales/settlements/{settlementId}: one statement — its figures, lines, downloads, and settling it. */
export default function SettlementDetailPage() {
  const t = useResalesT();
  const { settlementId = '' } = useParams();
  const navigate = useNavigate();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: s, isError } = useSettlementQuery(settlementId, { skip: !settlementId });
  const [download, downloading] = useSettlementDownloadMutation();
  const [settle, settling] = useSettleSettlementMutation();
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (isError) navigate(SETTLEMENTS_PATH, { replace: true });
  }, [isError, navigate]);
  if (!s) return <Loader />;
  const receiver = s.payer === 'supplier' ? s.reseller.name : s.supplier.name;

  return (
    <Stack gap="md">
      <Anchor component={Link} to={SETTLEMENTS_PATH} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> {t('statement.all')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>{t('statement.title', { number: s.number })}</Title>
            <SettlementStatus status={s.status} />
          </Group>
          <Text c="dimmed" size="sm">
            {t('statement.parties', { supplier: s.supplier.name, reseller: s.reseller.name, from: s.period_from, to: s.period_to })}
          </Text>
        </div>
        <Group>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={downloading.isLoading && downloading.originalArgs?.url.endsWith('.csv')}
            onClick={() => void download({ url: `settlements/${s.id}/export.csv`, fallbackName: `statement-${s.number}.csv` })}
          >
            CSV
          </Button>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={downloading.isLoading && downloading.originalArgs?.url.endsWith('.pdf')}
            onClick={() => void download({ url: `settlements/${s.id}/statement.pdf`, fallbackName: `statement-${s.number}.pdf` })}
          >
            PDF
          </Button>
          {s.can_settle && (
            <Button leftSection={<IconCheck size={16} />} onClick={() => setConfirming(true)}>
              {t('statement.markSettled')}
            </Button>
          )}
        </Group>
      </Group>
      <Alert variant="light" color={s.status === 'Settled' ? 'green' : 'blue'} data-testid="owed">
        <Text fw={600}>{owedText(s, t)}</Text>
        <Text size="sm">
          {s.status === 'Settled'
            ? s.settled_by
              ? t('statement.settledOnBy', { when: s.settled_at ? formatDateTime(s.settled_at, zone) : '', who: s.settled_by })
              : t('statement.settledOn', { when: s.settled_at ? formatDateTime(s.settled_at, zone) : '' })
            : s.payer
              ? t('statement.receiverMarks', { name: receiver })
              : t('statement.supplierMarks', { name: s.supplier.name })}
        </Text>
      </Alert>
      <Figures>
        <Figure label={t('lines')} value={String(s.bookings)} />
        <Figure label={t('grossSales')} value={formatMoney(s.gross, s.currency)} />
        <Figure label={t('commission')} value={formatMoney(s.commission, s.currency)} hint={t('statement.for', { name: s.reseller.name })} />
        <Figure label={t('supplierNet')} value={formatMoney(s.supplier_net, s.currency)} hint={t('statement.for', { name: s.supplier.name })} />
      </Figures>
      <Text size="sm" c="dimmed">
        {t('statement.note')}
      </Text>
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" aria-label={t('statement.lines')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('col.order')}</Table.Th>
                <Table.Th>{t('statement.col.offerDate')}</Table.Th>
                <Table.Th>{t('detail.quantities')}</Table.Th>
                <Table.Th ta="right">{t('col.gross')}</Table.Th>
                <Table.Th ta="right">{t('col.commission')}</Table.Th>
                <Table.Th ta="right">{t('col.net')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {s.lines.map((l) => (
                <Table.Tr key={l.line_id} data-testid="statement-line" data-kind={l.kind}>
                  <Table.Td>
                    <Anchor component={Link} to={resalePath(l.order_id)} ff="monospace" size="sm">
                      {l.order_reference}
                    </Anchor>
                    {l.kind === 'reversal' && (
                      <Badge color="orange" variant="light" size="sm" ml="xs">
                        {t('statement.reversal')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{l.offer.name}</Text>
                    <Text size="xs" c="dimmed">
                      {l.local_date} {clock(l.local_time)}
                      {l.kind === 'sale' && l.status === 'Canceled' && ` · ${t('statement.cancelledFeeKept')}`}
                    </Text>
                    {l.reverses && (
                      <Text size="xs" c="orange.8">
                        {t('statement.credits')}{' '}
                        <Anchor component={Link} to={settlementPath(l.reverses.settlement_id)} size="xs">
                          {l.reverses.number}
                        </Anchor>
                        : {l.status === 'Canceled' ? t('statement.cancelledAfter') : t('statement.changedAfter')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{itemsText(l.items)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(l.gross, l.currency)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(l.commission, l.currency)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(l.supplier_net, l.currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Modal opened={confirming} onClose={() => !settling.isLoading && setConfirming(false)} title={t('statement.confirmTitle')} centered>
        <Stack>
          <Text size="sm">
            {t('statement.confirmText', { owed: owedText(s, t) })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={settling.isLoading}>
              {t('statement.notYet')}
            </Button>
            <Button
              loading={settling.isLoading}
              onClick={async () => {
                const res = await settle(s.id);
                if ('error' in res) return;
                setConfirming(false);
                notifySuccess(t('statement.settled', { number: s.number }));
              }}
            >
              {t('statement.markSettled')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
