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
          <IconArrowLeft size={14} /> All statements
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>Statement {s.number}</Title>
            <SettlementStatus status={s.status} />
          </Group>
          <Text c="dimmed" size="sm">
            {s.supplier.name} (supplier) and {s.reseller.name} (reseller) · activities from {s.period_from} to {s.period_to}
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
              Mark settled
            </Button>
          )}
        </Group>
      </Group>
      <Alert variant="light" color={s.status === 'Settled' ? 'green' : 'blue'} data-testid="owed">
        <Text fw={600}>{owedText(s, t)}</Text>
        <Text size="sm">
          {s.status === 'Settled'
            ? `Settled ${s.settled_at ? formatDateTime(s.settled_at, zone) : ''}${s.settled_by ? ` by ${s.settled_by}` : ''}.`
            : s.payer
              ? `${receiver} marks it settled once the money has arrived.`
              : `${s.supplier.name} marks it settled.`}
        </Text>
      </Alert>
      <Figures>
        <Figure label="Lines" value={String(s.bookings)} />
        <Figure label="Gross sales" value={formatMoney(s.gross, s.currency)} />
        <Figure label="Commission" value={formatMoney(s.commission, s.currency)} hint={`for ${s.reseller.name}`} />
        <Figure label="Supplier net" value={formatMoney(s.supplier_net, s.currency)} hint={`for ${s.supplier.name}`} />
      </Figures>
      <Text size="sm" c="dimmed">
        Each line shows the figures it was settled at, and the statement never changes. A line cancelled or changed afterwards is credited on the partner’s next statement as a reversal.
      </Text>
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" aria-label="Statement lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Order</Table.Th>
                <Table.Th>Offer and date</Table.Th>
                <Table.Th>Quantities</Table.Th>
                <Table.Th ta="right">Gross</Table.Th>
                <Table.Th ta="right">Commission</Table.Th>
                <Table.Th ta="right">Supplier net</Table.Th>
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
                        Reversal
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{l.offer.name}</Text>
                    <Text size="xs" c="dimmed">
                      {l.local_date} {clock(l.local_time)}
                      {l.kind === 'sale' && l.status === 'Canceled' && ' · cancelled, fee kept'}
                    </Text>
                    {l.reverses && (
                      <Text size="xs" c="orange.8">
                        Credits its line on{' '}
                        <Anchor component={Link} to={settlementPath(l.reverses.settlement_id)} size="xs">
                          {l.reverses.number}
                        </Anchor>
                        : {l.status === 'Canceled' ? 'cancelled' : 'changed'} after it
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
      <Modal opened={confirming} onClose={() => !settling.isLoading && setConfirming(false)} title="Mark the statement settled?" centered>
        <Stack>
          <Text size="sm">
            {owedText(s, t)}. Mark it settled only once the money has arrived: both sides will see it settled, and it cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={settling.isLoading}>
              Not yet
            </Button>
            <Button
              loading={settling.isLoading}
              onClick={async () => {
                const res = await settle(s.id);
                if ('error' in res) return;
                setConfirming(false);
                notifySuccess(`Statement ${s.number} settled.`);
              }}
            >
              Mark settled
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
