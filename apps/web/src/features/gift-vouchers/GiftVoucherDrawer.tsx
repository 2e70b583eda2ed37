import { Badge, Button, Drawer, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { TGiftVoucherDetail } from '@tourdesk/contracts';
import { todayIn } from '@tourdesk/contracts/local-date';
import { useState } from 'react';
import { fieldErrors } from '../../shared/api/errors';
import { DateField } from '../../shared/components/DateField';
import { useOrganisationZone } from '../../shared/hooks/use-today';
import { formatDateTime, formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useCancelGiftVoucherMutation, useExtendGiftVoucherMutation, useGiftVoucherQuery } from './api';
import { useGiftVouchersT } from './texts';

/** The last day a voucher is good for: the local day, in the organisation's zone, of the second before it expires (the contracts' todayIn()). */
const localDay = (iso: string, zone: string) => todayIn(zone, new Date(new Date(iso).getTime() - 1000));

/** A voucher: its figures, whom it is for, its ledger; cancel it or change its expiry, each with a reason. */
export function GiftVoucherDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const t = useGiftVouchersT();
  const { data: v } = useGiftVoucherQuery(id ?? '', { skip: !id });
  return (
    <Drawer opened={Boolean(id)} onClose={onClose} position="right" size="lg" title={v ? t('detail.title', { code: v.code }) : t('title')} closeButtonProps={{ 'aria-label': t('close') }}>
      {v && v.id === id && <VoucherBody v={v} />}
    </Drawer>
  );
}

function VoucherBody({ v }: { v: TGiftVoucherDetail }) {
  const t = useGiftVouchersT();
  const zone = useOrganisationZone();
  const [mode, setMode] = useState<'cancel' | 'extend' | null>(null);
  const [reason, setReason] = useState('');
  const [expires, setExpires] = useState(localDay(v.expires_at, zone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [cancel, cancelling] = useCancelGiftVoucherMutation();
  const [extend, extending] = useExtendGiftVoucherMutation();
  const money = (n: number) => formatMoney(n, v.currency);
  const what = (e: TGiftVoucherDetail['ledger'][number]) =>
    e.kind === 'redemption' ? t('kind.redemption', { reference: e.order_reference ?? '' }) : e.kind === 'extend' ? t('kind.extend', { date: e.expires_at ? formatDisplayDate(localDay(e.expires_at, zone)) : '' }) : t(`kind.${e.kind}`);
  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const res = mode === 'cancel' ? await cancel({ id: v.id, reason }) : await extend({ id: v.id, expires_on: expires, reason });
    if ('error' in res) return setErrors(fieldErrors(res.error));
    notifySuccess(mode === 'cancel' ? t('cancelled') : t('extended'));
    setMode(null);
    setReason('');
    setErrors({});
  };
  return (
    <Stack>
      <Group>
        <Badge variant="light" data-testid="voucher-detail-status">
          {t(`status.${v.status}`)}
        </Badge>
        <Text size="sm" c="dimmed">
          {t(`source.${v.source}`)}
        </Text>
      </Group>
      <SimpleGrid cols={3}>
        <div>
          <Text size="xs" c="dimmed">
            {t('detail.value')}
          </Text>
          <Text fw={500}>{money(v.value)}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('detail.balance')}
          </Text>
          <Text fw={500} data-testid="voucher-detail-balance">
            {money(v.balance)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('detail.expires')}
          </Text>
          <Text fw={500}>{formatDisplayDate(localDay(v.expires_at, zone))}</Text>
        </div>
      </SimpleGrid>
      <SimpleGrid cols={2}>
        <div>
          <Text size="xs" c="dimmed">
            {t('detail.buyer')}
          </Text>
          <Text size="sm">{[v.buyer_name, v.buyer_email].filter(Boolean).join(' · ') || '—'}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('detail.recipient')}
          </Text>
          <Text size="sm">{[v.recipient_name, v.recipient_email].filter(Boolean).join(' · ') || '—'}</Text>
        </div>
      </SimpleGrid>
      {v.message && (
        <Text size="sm">
          {t('detail.message')}: {v.message}
        </Text>
      )}
      <Text size="sm">
        {t('detail.delivery')}: {formatDisplayDate(v.deliver_on)} {v.delivered_at ? '' : `(${t('detail.notDelivered')})`}
      </Text>
      {v.status !== 'cancelled' && mode === null && (
        <Group>
          <Button variant="default" onClick={() => setMode('extend')}>
            {t('extend')}
          </Button>
          <Button variant="light" color="red" onClick={() => setMode('cancel')}>
            {t('cancel')}
          </Button>
        </Group>
      )}
      {mode && (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label={mode === 'cancel' ? t('cancel') : t('extend')}>
          <Stack>
            {mode === 'extend' && <DateField label={t('newExpiry')} required value={expires} onChange={setExpires} error={errors.expires_on} />}
            <TextInput label={t('reason')} description={t('reasonHint')} withAsterisk data-autofocus value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={errors.reason} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setMode(null)}>
                {t('close')}
              </Button>
              <Button type="submit" color={mode === 'cancel' ? 'red' : undefined} loading={cancelling.isLoading || extending.isLoading}>
                {mode === 'cancel' ? t('confirmCancel') : t('confirmExtend')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      <Title order={4}>{t('detail.ledger')}</Title>
      <Table aria-label={t('detail.ledger')} data-testid="voucher-ledger">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('ledger.when')}</Table.Th>
            <Table.Th>{t('ledger.what')}</Table.Th>
            <Table.Th ta="right">{t('ledger.amount')}</Table.Th>
            <Table.Th ta="right">{t('ledger.after')}</Table.Th>
            <Table.Th>{t('ledger.who')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {v.ledger.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.created_at, zone)}</Table.Td>
              <Table.Td>
                {what(e)}
                {e.reason && (
                  <Text size="xs" c="dimmed">
                    {e.reason}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {money(e.amount)}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {money(e.balance_after)}
              </Table.Td>
              <Table.Td>{e.actor ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
