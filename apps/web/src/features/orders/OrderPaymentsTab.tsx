import { Badge, Button, Card, Grid, Group, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { PAYMENT_METHODS, type TOrder, type TPayment, type TPaymentInput } from '@tourdesk/contracts';
import { IconLock } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { errorMessages, fieldErrors } from '../../shared/api/errors';
import { EmptyRow } from '../../shared/components/ListParts';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime } from '../../shared/lib/dates';
import { formatMoney, toMajorText, toMinorUnits } from '../../shared/lib/money';
import { notifyError, notifyInfo, notifySuccess } from '../../shared/lib/toast';
import { useOrderPaymentsQuery, useOrderRefundProposalQuery, useRecordPaymentMutation, useSendPaymentLinkMutation } from './api';
import { keyFor, unanswered, type Submission } from '../../shared/lib/idempotency';
import { Totals } from './OrderDetailsTab';
import { useOrdersT } from './texts';

type Method = TPaymentInput['method'];
/** The methods staff choose from: an online payment is recorded by the payment provider, never by hand; a gift voucher with its code. */
type CounterMethod = (typeof PAYMENT_METHODS)[number] | 'voucher';
const COUNTER_METHODS: CounterMethod[] = [...PAYMENT_METHODS, 'voucher'];
const isCounter = (m: Method): m is CounterMethod => m !== 'online';
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
/** Descriptions under their fields, so fields side by side stay level. */
const BELOW = ['label', 'input', 'description', 'error'] as const;

/** The order's payments, each followed by the refunds that give money back from it. */
export function withRefundsUnder(payments: TPayment[]): TPayment[] {
  const refundsOf = new Map<string, TPayment[]>();
  for (const p of payments) if (p.refund_of) refundsOf.set(p.refund_of, [...(refundsOf.get(p.refund_of) ?? []), p]);
  const linked = new Set(payments.filter((p) => p.refund_of && payments.some((x) => x.id === p.refund_of)).map((p) => p.id));
  return payments.filter((p) => !linked.has(p.id)).flatMap((p) => [p, ...(refundsOf.get(p.id) ?? [])]);
}

function PaymentForm({ order, payments }: { order: TOrder; payments: TPayment[] }) {
  const t = useOrdersT();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const canceled = order.status === 'Canceled'; // a canceled order takes refunds only
  const [kind, setKind] = useState<'payment' | 'refund'>(canceled ? 'refund' : 'payment');
  // null until typed in: a refund of an online payment then shows the proposed amount.
  const [amountInput, setAmount] = useState<string | null>(null);
  const [method, setMethod] = useState<CounterMethod>('cash');
  const [reference, setReference] = useState('');
  const [voucherCode, setVoucherCode] = useState('');
  const [reason, setReason] = useState('');
  // A refund gives money back from one payment, never more than is left of it.
  const refundable = payments.filter((p) => p.kind === 'payment' && p.amount - p.refunded > 0);
  const [refundOfPicked, setRefundOf] = useState<string | null>(null);
  const refundOf = refundable.find((p) => p.id === refundOfPicked) ?? refundable.at(-1) ?? null;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [record, { isLoading }] = useRecordPaymentMutation();
  // One Idempotency-Key per submission; a retry of the very same submission reuses it.
  const pending = useRef<Submission | null>(null);
  const leftOf = (p: TPayment) => p.amount - p.refunded;
  // A refund of an online payment goes back to the card through the payment provider: its method is
  // fixed, and the amount proposed (by the cancellation policy, or what was overpaid) is filled in.
  const onlineRefund = kind === 'refund' && refundOf?.method === 'online';
  const { data: proposal } = useOrderRefundProposalQuery(order.id, { skip: !onlineRefund });
  const proposed = onlineRefund && proposal && refundOf ? Math.min(Math.max(proposal.amount, 0), leftOf(refundOf)) : 0;
  const amount = amountInput ?? (proposed > 0 ? toMajorText(proposed, order.currency) : '');
  // A refund of a gift voucher payment goes back on the voucher, never in cash: its method is fixed too.
  const voucherRefund = kind === 'refund' && refundOf?.method === 'voucher';
  const sentMethod: Method = onlineRefund ? 'online' : voucherRefund ? 'voucher' : kind === 'refund' && method === 'voucher' ? 'cash' : method;
  const voucherPayment = kind === 'payment' && method === 'voucher';
  // A refund suggests what was overpaid (after a cancellation), else what is left of the payment.
  const suggested =
    kind === 'payment' ? Math.max(order.balance, 0) : refundOf ? Math.min(leftOf(refundOf), order.balance < 0 ? -order.balance : leftOf(refundOf)) : 0;
  const amountHint =
    kind === 'payment'
      ? t('pay.hint.balanceDue', { amount: formatMoney(order.balance, order.currency) })
      : onlineRefund
        ? !proposal
          ? t('pay.hint.working')
          : proposed > 0
            ? proposal.amount > proposed
              ? t('pay.hint.proposedCapped', { amount: formatMoney(proposed, order.currency), reason: lowerFirst(proposal.reason), full: formatMoney(proposal.amount, order.currency) })
              : t('pay.hint.proposed', { amount: formatMoney(proposed, order.currency), reason: lowerFirst(proposal.reason) })
            : t('pay.hint.noProposal', { reason: lowerFirst(proposal.reason) })
        : order.balance < 0
          ? t('pay.hint.toRefund', { amount: formatMoney(-order.balance, order.currency) })
          : t('pay.hint.paidSoFar', { amount: formatMoney(order.paid, order.currency) });

  const submit = async () => {
    const minor = toMinorUnits(amount, order.currency);
    if (minor === null || minor === 0) {
      setErrors({ amount: t('pay.error.amount', { example: toMajorText(suggested || 4990, order.currency) }) });
      return;
    }
    if (kind === 'refund' && refundOf && minor > leftOf(refundOf)) {
      setErrors({ amount: t('pay.error.tooLarge', { amount: formatMoney(leftOf(refundOf), order.currency) }) });
      return;
    }
    if (kind === 'refund' && !reason.trim()) {
      setErrors({ reason: t('pay.error.reason') });
      return;
    }
    setErrors({});
    const input: TPaymentInput =
      kind === 'refund'
        ? { amount: -minor, currency: order.currency, method: sentMethod, reference: reference.trim(), refund_of: refundOf?.id, reason: reason.trim() }
        : { amount: minor, currency: order.currency, method, reference: reference.trim(), ...(voucherPayment ? { voucher_code: voucherCode.trim() } : {}) };
    const body = JSON.stringify(input);
    pending.current = keyFor(pending.current, body);
    const res = await record({ order: order.id, idempotencyKey: pending.current.key, ...input });
    if ('error' in res) {
      if (!unanswered(res.error)) pending.current = null;
      setErrors(fieldErrors(res.error));
      return;
    }
    pending.current = null;
    if (sentMethod === 'online' && res.data.status === 'pending') notifyInfo(t('pay.refundPending', { amount: formatMoney(minor, order.currency) }));
    else if (sentMethod === 'online') notifySuccess(t('pay.refundOnline', { amount: formatMoney(minor, order.currency) }));
    else notifySuccess(t(kind === 'refund' ? 'pay.refundRecorded' : 'pay.paymentRecorded', { amount: formatMoney(minor, order.currency) }));
    setAmount(null);
    setReference('');
    setVoucherCode('');
    setReason('');
  };

  return (
    <Card withBorder padding="lg" aria-label={t('pay.record')}>
      <Title order={4} mb="sm">
        {kind === 'refund' ? t('pay.recordRefund') : t('pay.recordPayment')}
      </Title>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <SegmentedControl
            aria-label={t('pay.kind')}
            value={kind}
            onChange={(v) => {
              setKind(v as 'payment' | 'refund');
              if (v === 'refund' && refundOf && isCounter(refundOf.method)) setMethod(refundOf.method);
            }}
            data={[
              { value: 'payment', label: t('pay.payment'), disabled: canceled },
              { value: 'refund', label: t('pay.refund') },
            ]}
          />
          {kind === 'refund' && (
            <Select
              label={t('pay.refundOf')}
              description={refundable.length === 0 ? t('pay.nothingLeft') : t('pay.refundOfHint')}
              data={refundable.map((p) => ({
                value: p.id,
                label: `${formatDateTime(p.created_at, zone)} · ${t(`method.${p.method}`)} · ${formatMoney(p.amount, p.currency)} (${t('pay.left', { amount: formatMoney(leftOf(p), p.currency) })})`,
              }))}
              value={refundOf?.id ?? null}
              onChange={(v) => {
                setRefundOf(v);
                const p = refundable.find((x) => x.id === v);
                if (p && isCounter(p.method)) setMethod(p.method);
              }}
              allowDeselect={false}
              error={errors.refund_of}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('pay.amount')}
            description={amountHint}
            inputWrapperOrder={[...BELOW]}
            placeholder={toMajorText(suggested, order.currency)}
            leftSection={<Text size="xs">{order.currency}</Text>}
            leftSectionWidth={44}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={errors.amount ?? errors.currency}
          />
          {onlineRefund || voucherRefund ? (
            <TextInput
              label={t('pay.method')}
              value={t(onlineRefund ? 'method.online' : 'method.voucher')}
              readOnly
              variant="filled"
              rightSection={<IconLock size={14} aria-hidden />}
              description={t(onlineRefund ? 'pay.onlineHint' : 'pay.voucherRefundHint')}
              inputWrapperOrder={[...BELOW]}
              error={errors.method}
            />
          ) : (
            <Select
              label={t('pay.method')}
              data={(kind === 'payment' ? COUNTER_METHODS : PAYMENT_METHODS).map((m) => ({ value: m, label: t(`method.${m}`) }))}
              value={method}
              onChange={(v) => v && setMethod(v as CounterMethod)}
              allowDeselect={false}
              inputWrapperOrder={[...BELOW]}
              error={errors.method}
            />
          )}
          </SimpleGrid>
          {voucherPayment && (
            <TextInput label={t('pay.voucherCode')} required placeholder="ABCD-EFGH-JKLM-NPQR" maxLength={40} value={voucherCode} onChange={(e) => setVoucherCode(e.currentTarget.value)} error={errors.voucher_code ?? errors.voucher_amount} />
          )}
          {kind === 'refund' && (
            <TextInput label={t('pay.reason')} required placeholder={t('pay.reasonPlaceholder')} maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={errors.reason} />
          )}
          <TextInput
            label={t('pay.reference')}
            placeholder={t('pay.referencePlaceholder')}
            maxLength={200}
            value={reference}
            onChange={(e) => setReference(e.currentTarget.value)}
            error={errors.reference}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={isLoading} color={kind === 'refund' ? 'orange' : undefined}>
              {kind === 'refund' ? t('pay.recordRefundButton') : t('pay.recordPaymentButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** A balance due: staff e-mail the customer a link to pay it by card (Stripe Checkout; the amount is the balance when they open it). */
function PaymentLinkCard({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const [send, { isLoading }] = useSendPaymentLinkMutation();
  const email = order.customer.email;
  const submit = async () => {
    const res = await send(order.id);
    if ('error' in res) {
      errorMessages(res.error).forEach((m) => notifyError(m));
      return;
    }
    notifySuccess(t('link.sent', { amount: formatMoney(res.data.amount, res.data.currency), email: res.data.email }));
  };
  return (
    <Card withBorder padding="lg" aria-label={t('link.title')} mt="lg">
      <Title order={4} mb="xs">
        {t('link.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {email ? t('link.hint', { email, amount: formatMoney(order.balance, order.currency) }) : t('link.noEmail')}
      </Text>
      <Group justify="flex-end">
        <Button variant="light" onClick={() => void submit()} loading={isLoading} disabled={!email}>
          {t('link.send')}
        </Button>
      </Group>
    </Card>
  );
}

export function OrderPaymentsTab({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: payments } = useOrderPaymentsQuery(order.id);
  return (
    <Stack gap="lg">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Totals order={order} />
          {order.balance > 0 && order.status !== 'Canceled' && <PaymentLinkCard order={order} />}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <PaymentForm order={order} payments={payments ?? []} />
        </Grid.Col>
      </Grid>
      <Title order={4}>{t('pay.history')}</Title>
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" aria-label={t('pay.label')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('pay.col.date')}</Table.Th>
              <Table.Th>{t('pay.col.kind')}</Table.Th>
              <Table.Th>{t('pay.col.method')}</Table.Th>
              <Table.Th>{t('pay.col.reference')}</Table.Th>
              <Table.Th>{t('pay.col.reason')}</Table.Th>
              <Table.Th>{t('pay.col.recordedBy')}</Table.Th>
              <Table.Th ta="right">{t('pay.col.amount')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {payments?.length === 0 && <EmptyRow colSpan={7}>{t('pay.none')}</EmptyRow>}
            {withRefundsUnder(payments ?? []).map((p) => (
              <Table.Tr key={p.id} data-testid="payment-row" data-refund-of={p.refund_of ?? undefined}>
                <Table.Td style={{ whiteSpace: 'nowrap', paddingLeft: p.refund_of ? 28 : undefined }}>{formatDateTime(p.created_at, zone)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Badge color={p.kind === 'refund' ? 'orange' : 'green'} variant="light">
                      {p.kind === 'refund' ? t('pay.refund') : t('pay.payment')}
                    </Badge>
                    {p.status === 'pending' && (
                      <Badge color="yellow" variant="outline" title={t('pay.pendingHint')}>
                        {t('pay.pending')}
                      </Badge>
                    )}
                    {p.status === 'failed' && (
                      <Badge color="red" variant="outline">
                        {t('pay.failed')}
                      </Badge>
                    )}
                  </Group>
                  {p.status === 'failed' && (
                    <Text size="xs" c="dimmed">
                      {t('pay.failedHint')}
                    </Text>
                  )}
                  {p.kind === 'payment' && p.refunded > 0 && (
                    <Text size="xs" c="dimmed">
                      {t('pay.refunded', { amount: formatMoney(p.refunded, p.currency) })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{t(`method.${p.method}`)}</Table.Td>
                <Table.Td>{p.reference || <Text c="dimmed">—</Text>}</Table.Td>
                <Table.Td>{p.reason || <Text c="dimmed">—</Text>}</Table.Td>
                <Table.Td>{p.recorded_by?.name ?? <Text c="dimmed">—</Text>}</Table.Td>
                <Table.Td ta="right" fw={500} c={p.status === 'failed' ? 'dimmed' : p.amount < 0 ? 'orange' : undefined} td={p.status === 'failed' ? 'line-through' : undefined} style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(p.amount, p.currency)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
