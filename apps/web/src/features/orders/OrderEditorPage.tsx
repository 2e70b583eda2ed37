import { Anchor, Badge, Button, Group, Loader, Radio, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBan, IconCheck, IconTrash } from '@tabler/icons-react';
import type { TOrder } from '@tourdesk/contracts';
import { useEffect, useRef, useState, type ComponentType, type RefObject } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDateTime } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifyError, notifySuccess } from '../../shared/lib/toast';
import { useCancelOrderMutation, useConfirmOrderMutation, useDeleteOrderMutation, useOrderQuery, useOrderRefundProposalQuery } from './api';
import { ConfirmButton } from '../../shared/components/ConfirmButton';
import { TicketActions } from '../../shared/components/TicketActions';
import {
  fullName,
  MISSING_ORDER_ID,
  ORDER_STATUS_COLOR,
  ORDER_TABS,
  ORDERS_LIST,
  orderPath,
  PAYMENT_STATUS_COLOR,
  type OrderTab,
} from './constants';
import { OrderDetailsTab } from './OrderDetailsTab';
import { OrderInvoiceTab } from './OrderInvoiceTab';
import { OrderAuditTab } from './OrderAuditTab';
import { OrderPaymentsTab } from './OrderPaymentsTab';
import { useOrdersT } from './texts';

const TABS: Record<OrderTab, ComponentType<{ order: TOrder }>> = {
  details: OrderDetailsTab,
  invoice: OrderInvoiceTab,
  payments: OrderPaymentsTab,
  audit: OrderAuditTab,
};

/** What the server will refuse to delete: an order with a line not cancelled, a payment or an invoice. It decides. */
const deletable = (o: TOrder) => o.bookings.every((b) => b.status === 'Canceled') && o.paid === 0 && o.refunded === 0 && !o.invoice;

/**
 * The cancel dialog's message and, for a paid order, the operator's choice: free of charge (the
 * default, as before) or keeping the fee the cancellation policy allows now (the server's figure,
 * from the refund proposal). Mounted each time the dialog opens, so it always starts free of charge.
 */
function CancelChoice({ order, keepFeeRef }: { order: TOrder; keepFeeRef: RefObject<boolean> }) {
  const t = useOrdersT();
  const live = order.bookings.filter((b) => b.status !== 'Canceled').length;
  const [choice, setChoice] = useState<'free' | 'keep'>('free');
  useEffect(() => {
    keepFeeRef.current = choice === 'keep';
  }, [choice, keepFeeRef]);
  const paid = order.paid > 0;
  const { data: proposal, isFetching } = useOrderRefundProposalQuery(order.id, { skip: !paid, refetchOnMountOrArgChange: true });
  const fee = isFetching ? undefined : proposal?.cancellation_fee;
  const money = (n: number) => formatMoney(n, order.currency);
  const keepLabel = typeof fee === 'number' && fee > 0 ? t('keepFeeAmount', { amount: money(fee) }) : t('keepFee');
  const keepHelp =
    fee === undefined ? t('readingPolicy') : fee === null ? t('policyRefuses') : fee > 0 ? t('keepFeeHelp', { amount: money(order.paid - fee) }) : t('policyKeepsNothing');
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t('cancelNote', { live })}
      </Text>
      {paid && (
        <Radio.Group label={t('whatWasPaid')} value={choice} onChange={(v) => setChoice(v === 'keep' ? 'keep' : 'free')}>
          <Stack gap={8} mt={6}>
            <Radio value="free" label={t('cancelFree')} description={t('cancelFreeHelp', { amount: money(order.paid) })} />
            <Radio value="keep" label={keepLabel} description={keepHelp} disabled={!fee} data-testid="keep-cancellation-fee" />
          </Stack>
        </Radio.Group>
      )}
    </Stack>
  );
}

function Actions({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const navigate = useNavigate();
  const [cancel] = useCancelOrderMutation();
  const [confirm, confirming] = useConfirmOrderMutation();
  const [remove] = useDeleteOrderMutation();
  const keepFeeRef = useRef(false);
  return (
    <Group className="no-print">
      {order.status === 'Created' && (
        <Button
          leftSection={<IconCheck size={16} />}
          loading={confirming.isLoading}
          onClick={async () => {
            const res = await confirm(order.id);
            if (!('error' in res)) notifySuccess(t('confirmed', { reference: order.reference }));
          }}
        >
          {t('confirm')}
        </Button>
      )}
      {order.status !== 'Canceled' && (
        <ConfirmButton
          variant="outline"
          color="red"
          leftSection={<IconBan size={16} />}
          title={t('cancelTitle', { reference: order.reference })}
          message={<CancelChoice order={order} keepFeeRef={keepFeeRef} />}
          confirmLabel={t('cancel')}
          onConfirm={async () => {
            const res = await cancel({ id: order.id, keep_cancellation_fee: keepFeeRef.current });
            if ('error' in res) return false;
            const kept = res.data.cancellation_fee;
            notifySuccess(kept > 0 ? t('canceledKept', { reference: order.reference, amount: formatMoney(kept, order.currency) }) : t('canceled', { reference: order.reference }));
            return true;
          }}
        >
          {t('cancel')}
        </ConfirmButton>
      )}
      {deletable(order) && (
        <ConfirmButton
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={16} />}
          title={t('deleteTitle', { reference: order.reference })}
          message={t('deleteMessage')}
          confirmLabel={t('delete')}
          onConfirm={async () => {
            const res = await remove(order.id);
            if ('error' in res) return false;
            notifySuccess(t('deleted', { reference: order.reference }));
            navigate(ORDERS_LIST, { replace: true });
            return true;
          }}
        >
          {t('delete')}
        </ConfirmButton>
      )}
    </Group>
  );
}

/** /orders/editor/{orderID}/{tab}: one order — its lines, invoice and payments. */
export default function OrderEditorPage() {
  const t = useOrdersT();
  const { orderID = '', tab } = useParams();
  const navigate = useNavigate();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: order, isError } = useOrderQuery(orderID, { skip: !orderID });

  // The spec: an order that fails to load sends the user back to the list (the error is toasted).
  useEffect(() => {
    if (!orderID) notifyError(MISSING_ORDER_ID);
    if (isError || !orderID) navigate(ORDERS_LIST, { replace: true });
  }, [isError, orderID, navigate]);

  // /orders/editor/{orderID}/ lands on details; an unknown tab too.
  if (!tab || !(tab in TABS)) return <Navigate to={orderPath(orderID)} replace />;
  if (!order) return <Loader />;
  const Tab = TABS[tab as OrderTab];

  return (
    <Stack gap="md">
      <Anchor component={Link} to={ORDERS_LIST} size="sm" className="no-print">
        <Group gap={4}>
          <IconArrowLeft size={14} /> {t('allOrders')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" className="no-print">
        <div>
          <Group gap="sm">
            <Title order={2}>{t('orderTitle', { reference: order.reference })}</Title>
            <Badge color={ORDER_STATUS_COLOR[order.status]} variant="light" data-testid="order-status">
              {t(`orderStatus.${order.status}`)}
            </Badge>
            <Badge color={PAYMENT_STATUS_COLOR[order.payment_status]} variant="light" data-testid="order-payment-status">
              {t(`payment.${order.payment_status}`)}
            </Badge>
          </Group>
          <Text c="dimmed" size="sm">
            {t('createdLine', { customer: fullName(order.customer), when: formatDateTime(order.created_at, zone) })}
          </Text>
        </div>
        <Stack gap="xs" align="flex-end">
          <Actions order={order} />
          <TicketActions order={order} hasTickets={order.bookings.some((b) => b.status !== 'Canceled')} />
        </Stack>
      </Group>
      <Tabs value={tab} onChange={(v) => v && navigate(orderPath(order.id, v as OrderTab))} keepMounted={false} className="no-print">
        <Tabs.List>
          {ORDER_TABS.map((entry) => (
            <Tabs.Tab key={entry.tab} value={entry.tab}>
              {t(`tab.${entry.tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Tab key={tab} order={order} />
    </Stack>
  );
}
