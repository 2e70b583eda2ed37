import { Anchor, Badge, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime, formatDisplayDate, formatTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { useResaleQuery } from './api';
import { Figure, Figures, itemsText, LINE_STATUS_COLOR, RESALES_PATH, settlementPath, SIDE_LABEL } from './parts';

/** /resales/overview/{resaleId}: one resale order (by its id) — its lines and what each earns the partner. */
export default function ResaleDetailPage() {
  const { resaleId = '' } = useParams();
  const navigate = useNavigate();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: r, isError } = useResaleQuery(resaleId, { skip: !resaleId });
  // One that fails to load sends the user back to the list (the error is toasted).
  useEffect(() => {
    if (isError) navigate(RESALES_PATH, { replace: true });
  }, [isError, navigate]);
  if (!r) return <Loader />;
  const partner = r.side === 'supplier' ? r.reseller : r.supplier;

  return (
    <Stack gap="md">
      <Anchor component={Link} to={RESALES_PATH} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> All resales
        </Group>
      </Anchor>
      <div>
        <Group gap="sm">
          <Title order={2}>Resale {r.reference}</Title>
          <Badge variant="light">{SIDE_LABEL[r.side]}</Badge>
          <Badge variant="light" color={r.status === 'Canceled' ? 'gray' : 'green'}>
            {r.status}
          </Badge>
        </Group>
        <Text c="dimmed" size="sm">
          {r.side === 'supplier' ? 'Sold by' : 'Supplied by'} {partner.name} · {formatDateTime(r.created_at, zone)}
          {r.reseller_reference && ` · partner’s reference ${r.reseller_reference}`}
        </Text>
      </div>
      <Figures>
        <Figure label="Gross" value={formatMoney(r.gross, r.currency)} />
        <Figure label="Commission" value={formatMoney(r.commission, r.currency)} hint={`earned by ${r.reseller.name}`} />
        <Figure label="Supplier net" value={formatMoney(r.supplier_net, r.currency)} hint={`for ${r.supplier.name}`} />
        <Figure label="Customer" value={r.customer.name || '—'} hint={[r.customer.email, r.customer.phone].filter(Boolean).join(' · ') || undefined} />
      </Figures>
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" aria-label="Lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Offer and start</Table.Th>
                <Table.Th>Quantities</Table.Th>
                <Table.Th ta="right">Gross</Table.Th>
                <Table.Th ta="right">Commission</Table.Th>
                <Table.Th ta="right">Supplier net</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Statement</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.lines.map((l) => (
                <Table.Tr key={l.id} data-testid="resale-line">
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {l.offer.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDisplayDate(l.starts_at, l.time_zone)} {formatTime(l.starts_at, l.time_zone)} ({l.time_zone})
                    </Text>
                  </Table.Td>
                  <Table.Td>{itemsText(l.items)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(l.gross, l.currency)}</Table.Td>
                  <Table.Td ta="right" data-testid="line-commission">
                    {formatMoney(l.commission, l.currency)}
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(l.supplier_net, l.currency)}</Table.Td>
                  <Table.Td>
                    <Badge color={LINE_STATUS_COLOR[l.status]} variant="light" size="sm">
                      {l.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {l.settlement ? (
                      <Anchor component={Link} to={settlementPath(l.settlement.id)} size="sm" ff="monospace">
                        {l.settlement.number}
                      </Anchor>
                    ) : (
                      <Text size="xs" c="dimmed">
                        Not settled
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}
