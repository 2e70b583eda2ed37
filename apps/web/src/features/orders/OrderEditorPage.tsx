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
  const live = order.bookings.filter((b) => b.status !== 'Canceled').length;
  const [choice, setChoice] = useState<'free' | 'keep'>('free');
  useEffect(() => {
    keepFeeRef.current = choice === 'keep';
  }, [choice, keepFeeRef]);
  const paid = order.paid > 0;
  const { data: proposal, isFetching } = useOrderRefundProposalQuery(order.id, { skip: !paid, refetchOnMountOrArgChange: true });
  const fee = isFetching ? undefined : proposal?.cancellation_fee;
  const money = (n: number) => formatMoney(n, order.currency);
  const keepLabel = typeof fee === 'number' && fee > 0 ? `Keep the cancellation fee under the policy (${money(fee)})` : 'Keep the cancellation fee under the policy';
  const keepHelp =
    fee === undefined ? 'Reading the cancellation policy…' : fee === null ? 'The cancellation policy does not allow cancelling now.' : fee > 0 ? `${money(order.paid - fee)} of what was paid is then to be refunded.` : 'The policy keeps nothing now: everything paid is to be refunded.';
  return (
    <Stack gap="sm">
      <Text size="sm">
        Every line is canceled and {live === 1 ? 'its seats are' : `the seats of its ${live} lines are`} released at once. Payments stay recorded: refund them on the Payments tab.
      </Text>
      {paid && (
        <Radio.Group label="What was paid" value={choice} onChange={(v) => setChoice(v === 'keep' ? 'keep' : 'free')}>
          <Stack gap={8} mt={6}>
            <Radio value="free" label="Cancel free of charge" description={`All ${money(order.paid)} paid is to be refunded.`} />
            <Radio value="keep" label={keepLabel} description={keepHelp} disabled={!fee} data-testid="keep-cancellation-fee" />
          </Stack>
        </Radio.Group>
      )}
    </Stack>
  );
}

function Actions({ order }: { order: TOrder }) {
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
            if (!('error' in res)) notifySuccess(`Order ${order.reference} confirmed.`);
          }}
        >
          Confirm order
        </Button>
      )}
      {order.status !== 'Canceled' && (
        <ConfirmButton
          variant="outline"
          color="red"
          leftSection={<IconBan size={16} />}
          title={`Cancel order ${order.reference}?`}
          message={<CancelChoice order={order} keepFeeRef={keepFeeRef} />}
          confirmLabel="Cancel order"
          onConfirm={async () => {
            const res = await cancel({ id: order.id, keep_cancellation_fee: keepFeeRef.current });
            if ('error' in res) return false;
            const kept = res.data.cancellation_fee;
            notifySuccess(`Order ${order.reference} canceled: its seats are free again.${kept > 0 ? ` ${formatMoney(kept, order.currency)} is kept as the cancellation fee.` : ''}`);
            return true;
          }}
        >
          Cancel order
        </ConfirmButton>
      )}
      {deletable(order) && (
        <ConfirmButton
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={16} />}
          title={`Delete order ${order.reference}?`}
          message="The order and its lines are removed for good. This cannot be undone."
          confirmLabel="Delete order"
          onConfirm={async () => {
            const res = await remove(order.id);
            if ('error' in res) return false;
            notifySuccess(`Order ${order.reference} deleted.`);
            navigate(ORDERS_LIST, { replace: true });
            return true;
          }}
        >
          Delete order
        </ConfirmButton>
      )}
    </Group>
  );
}

/** /orders/editor/{orderID}/{tab}: one order — its lines, invoice and payments. */
export default function OrderEditorPage() {
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
          <IconArrowLeft size={14} /> All orders
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" className="no-print">
        <div>
          <Group gap="sm">
            <Title order={2}>Order {order.reference}</Title>
            <Badge color={ORDER_STATUS_COLOR[order.status]} variant="light" data-testid="order-status">
              {order.status}
            </Badge>
            <Badge color={PAYMENT_STATUS_COLOR[order.payment_status]} variant="light" data-testid="order-payment-status">
              {order.payment_status}
            </Badge>
          </Group>
          <Text c="dimmed" size="sm">
            {fullName(order.customer)} · created {formatDateTime(order.created_at, zone)}
          </Text>
        </div>
        <Stack gap="xs" align="flex-end">
          <Actions order={order} />
          <TicketActions order={order} hasTickets={order.bookings.some((b) => b.status !== 'Canceled')} />
        </Stack>
      </Group>
      <Tabs value={tab} onChange={(v) => v && navigate(orderPath(order.id, v as OrderTab))} keepMounted={false} className="no-print">
        <Tabs.List>
          {ORDER_TABS.map((t) => (
            <Tabs.Tab key={t.tab} value={t.tab}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Tab key={tab} order={order} />
    </Stack>
  );
}
