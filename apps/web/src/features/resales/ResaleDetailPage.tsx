import { Anchor, Badge, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime, formatDisplayDate, formatTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { useResaleQuery } from './api';
import { Figure, Figures, itemsText, LINE_STATUS_COLOR, RESALES_PATH, settlementPath } from './parts';
import { useResalesT } from './texts';

/** /resales/overview/{resaleId}: one resale order (by its id) — its lines and what each earns the partner. */
export default function ResaleDetailPage() {
  const t = useResalesT();
  const statusText = (s: string) => (s === 'Created' || s === 'Confirmed' || s === 'Canceled' ? t(`detail.status.${s}`) : s);
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
          <IconArrowLeft size={14} /> {t('detail.all')}
        </Group>
      </Anchor>
      <div>
        <Group gap="sm">
          <Title order={2}>{t('detail.title', { reference: r.reference })}</Title>
          <Badge variant="light">{t(`side.${r.side}`)}</Badge>
          <Badge variant="light" color={r.status === 'Canceled' ? 'gray' : 'green'}>
            {statusText(r.status)}
          </Badge>
        </Group>
        <Text c="dimmed" size="sm">
          {t(r.side === 'supplier' ? 'detail.soldBy' : 'detail.suppliedBy', { name: partner.name })} · {formatDateTime(r.created_at, zone)}
          {r.reseller_reference && ` · ${t('detail.partnerRef', { reference: r.reseller_reference })}`}
        </Text>
      </div>
      <Figures>
        <Figure label={t('col.gross')} value={formatMoney(r.gross, r.currency)} />
        <Figure label={t('commission')} value={formatMoney(r.commission, r.currency)} hint={t('detail.earnedBy', { name: r.reseller.name })} />
        <Figure label={t('supplierNet')} value={formatMoney(r.supplier_net, r.currency)} hint={t('detail.for', { name: r.supplier.name })} />
        <Figure label={t('detail.customer')} value={r.customer.name || '—'} hint={[r.customer.email, r.customer.phone].filter(Boolean).join(' · ') || undefined} />
      </Figures>
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" aria-label={t('detail.lines')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('col.offerStart')}</Table.Th>
                <Table.Th>{t('detail.quantities')}</Table.Th>
                <Table.Th ta="right">{t('col.gross')}</Table.Th>
                <Table.Th ta="right">{t('col.commission')}</Table.Th>
                <Table.Th ta="right">{t('col.net')}</Table.Th>
                <Table.Th>{t('col.status')}</Table.Th>
                <Table.Th>{t('detail.statement')}</Table.Th>
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
                      {t(`detail.status.${l.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {l.settlement ? (
                      <Anchor component={Link} to={settlementPath(l.settlement.id)} size="sm" ff="monospace">
                        {l.settlement.number}
                      </Anchor>
                    ) : (
                      <Text size="xs" c="dimmed">
                        {t('notSettled')}
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
