import { Anchor, Badge, Button, Card, Divider, Grid, Group, NumberInput, Select, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { IconPencil, IconX } from '@tabler/icons-react';
import type { TBooking, TOrder } from '@tourdesk/contracts';
import { isLanguage, LANGUAGE_NAMES, type Language } from '@tourdesk/contracts/i18n';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../shared/hooks/store';
import { useCan } from '../../shared/hooks/use-can';
import { formatDateTime, formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney, vatRate } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import {
  useCancelOrderLineMutation,
  useOrderBookingOptionsQuery,
  useOrderPricingCategoriesQuery,
  useUpdateOrderLanguageMutation,
  useUpdateOrderLineMutation,
  useUpdateOrderNotesMutation,
} from './api';
import { ConfirmButton } from '../../shared/components/ConfirmButton';
import { LineItems } from '../../shared/components/LineItems';
import { bookingPath, customerPath, fullName, LINE_STATUS_COLOR, PAYMENT_STATUS_COLOR } from './constants';
import { useOrdersT } from './texts';

/** Names by id, for pricing categories, extras and questions; an unknown id shows as itself. */
function useNames() {
  const t = useOrdersT();
  const { data: categories } = useOrderPricingCategoriesQuery();
  const { data: options } = useOrderBookingOptionsQuery();
  const category = (id: string) => categories?.results.find((c) => c.id === id)?.label ?? t('line.category');
  const item = (id: string) => options?.extras.find((i) => i.id === id)?.name ?? t('line.extra');
  const question = (id: string) => options?.questions.find((q) => q.id === id)?.question ?? t('line.question');
  return { category, item, question };
}

function Line({ order, line, zone }: { order: TOrder; line: TBooking; zone?: string }) {
  const t = useOrdersT();
  const names = useNames();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Record<string, number>>(line.quantities);
  const [save, saving] = useUpdateOrderLineMutation();
  const [cancel] = useCancelOrderLineMutation();
  const canceled = line.status === 'Canceled';
  const categoryIds = Object.keys(line.quantities);
  const changed = categoryIds.some((id) => (draft[id] ?? 0) !== line.quantities[id]);
  const answers = Object.entries(line.answers).filter(([, a]) => a !== '');

  return (
    <Card withBorder padding="lg" data-testid="order-line" aria-label={t('line.label', { title: line.experience_title })}>
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Anchor component={Link} to={bookingPath(order.id, line.id)} fw={600}>
            {line.experience_title}
          </Anchor>
          <Text size="sm" c="dimmed">
            {formatDateTime(line.starts_at, zone)} · {t('line.ticket')} <span style={{ fontFamily: 'monospace' }}>{line.ticket_code}</span>
          </Text>
        </div>
        <Group gap="xs">
          <Badge color={LINE_STATUS_COLOR[line.status] ?? 'gray'} variant="light" data-testid="line-status">
            {t(`line.status.${line.status as 'Created' | 'Confirmed' | 'Canceled'}`)}
          </Badge>
          {!canceled && (
            <Badge color="gray" variant="outline">
              {t(`line.attendance.${line.attendance}`)}
            </Badge>
          )}
        </Group>
      </Group>
      {editing ? (
        <Table verticalSpacing={6} aria-label={t('line.quantities')}>
          <Table.Tbody>
            {categoryIds.map((id) => (
              <Table.Tr key={id}>
                <Table.Td>{names.category(id)}</Table.Td>
                <Table.Td ta="right" w={140}>
                  <NumberInput
                    aria-label={t('line.quantityOf', { name: names.category(id) })}
                    min={0}
                    max={1000}
                    allowDecimal={false}
                    allowNegative={false}
                    size="xs"
                    value={draft[id] ?? 0}
                    onChange={(v) => setDraft((d) => ({ ...d, [id]: typeof v === 'number' ? v : Number(v) || 0 }))}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <LineItems line={line} />
      )}
      {answers.length > 0 && (
        <Stack gap={2} mt="sm">
          {answers.map(([id, a]) => (
            <Text key={id} size="sm">
              <Text span c="dimmed">
                {names.question(id)}:
              </Text>{' '}
              {a === 'yes' ? t('answer.yes') : a === 'no' ? t('answer.no') : a}
            </Text>
          ))}
        </Stack>
      )}
      {!canceled && (
        <Group justify="flex-end" mt="md">
          {editing ? (
            <>
              <Button
                variant="default"
                size="xs"
                onClick={() => {
                  setDraft(line.quantities);
                  setEditing(false);
                }}
              >
                {t('line.discard')}
              </Button>
              <Button
                size="xs"
                disabled={!changed}
                loading={saving.isLoading}
                onClick={async () => {
                  const res = await save({ order: order.id, line: line.id, quantities: draft });
                  if ('error' in res) return; // toasted: sold out, no price, …
                  notifySuccess(t('line.saved'));
                  setEditing(false);
                }}
              >
                {t('line.save')}
              </Button>
            </>
          ) : (
            <>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconPencil size={14} />}
                onClick={() => {
                  setDraft(line.quantities);
                  setEditing(true);
                }}
              >
                {t('line.change')}
              </Button>
              <ConfirmButton
                variant="subtle"
                color="red"
                size="xs"
                leftSection={<IconX size={14} />}
                title={t('line.cancelTitle')}
                message={t('line.cancelMessage', { title: line.experience_title, when: formatDateTime(line.starts_at, zone), seats: line.seats })}
                confirmLabel={t('line.cancel')}
                onConfirm={async () => {
                  const res = await cancel({ order: order.id, line: line.id });
                  if ('error' in res) return false;
                  notifySuccess(t('line.canceled'));
                  return true;
                }}
              >
                {t('line.cancel')}
              </ConfirmButton>
            </>
          )}
        </Group>
      )}
    </Card>
  );
}

const languageName = (code: string) => (isLanguage(code) ? LANGUAGE_NAMES[code] : code);

/**
 * The customer's language (their e-mails, tickets and invoices): shown to all, changed by those who
 * may edit the order, among the organisation's languages (and the order's own if no longer one of
 * them). Saved at once; what is sent from then on is in it, issued invoices keep theirs.
 */
export function CustomerLanguage({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const canEdit = useCan(['Manage orders']);
  const orgLanguages = useAppSelector((s) => s.auth.user?.base_account?.languages);
  const [save, saving] = useUpdateOrderLanguageMutation();
  // The language chosen, shown until the order read again has it (or the server refused it).
  const [choice, setChoice] = useState<string | null>(null);
  if (choice !== null && choice === order.language) setChoice(null);
  const options = [...(orgLanguages ?? [])];
  if (!options.includes(order.language as Language)) options.push(order.language as Language);
  if (!canEdit) {
    return (
      <Text size="sm" mt="sm" data-testid="order-language">
        {t('details.language')}: {languageName(order.language)}
      </Text>
    );
  }
  return (
    <Select
      mt="sm"
      size="xs"
      label={t('details.language')}
      description={t('details.languageHelp')}
      data={options.map((code) => ({ value: code, label: languageName(code) }))}
      value={choice ?? order.language}
      allowDeselect={false}
      disabled={saving.isLoading}
      data-testid="order-language"
      onChange={async (value) => {
        if (!value || value === order.language || !isLanguage(value)) return;
        setChoice(value);
        const res = await save({ id: order.id, language: value });
        if ('error' in res) setChoice(null); // toasted as the app shows the server's errors
        else notifySuccess(t('details.languageSaved', { language: LANGUAGE_NAMES[value] }));
      }}
    />
  );
}

function Notes({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const [text, setText] = useState(order.notes);
  const [last, setLast] = useState(order.notes);
  const [save, saving] = useUpdateOrderNotesMutation();
  if (order.notes !== last) {
    setLast(order.notes);
    setText(order.notes);
  }
  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="sm">
        {t('notes.title')}
      </Title>
      <Textarea aria-label={t('notes.title')} placeholder={t('notes.placeholder')} autosize minRows={3} maxLength={2000} value={text} onChange={(e) => setText(e.currentTarget.value)} />
      <Group justify="flex-end" mt="sm">
        <Button
          size="xs"
          disabled={text.trim() === order.notes}
          loading={saving.isLoading}
          onClick={async () => {
            const res = await save({ id: order.id, notes: text.trim() });
            if (!('error' in res)) notifySuccess(t('notes.saved'));
          }}
        >
          {t('notes.save')}
        </Button>
      </Group>
    </Card>
  );
}

/** Total (with the cancellation fee a cancelled order keeps), VAT, paid, refunded, balance and payment status, as the server computed them. */
export function Totals({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const money = (n: number) => formatMoney(n, order.currency);
  const row = (label: string, value: string, testId: string, strong = false) => (
    <Group justify="space-between">
      <Text size="sm" c={strong ? undefined : 'dimmed'} fw={strong ? 600 : undefined}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 600 : 500} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Card withBorder padding="lg" aria-label={t('totals.title')}>
      <Title order={4} mb="sm">
        {t('totals.title')}
      </Title>
      <Stack gap={6}>
        {order.sold_total !== order.total && row(order.status === 'Canceled' ? t('totals.soldBefore') : t('totals.sold'), money(order.sold_total), 'order-sold-total')}
        {order.sold_total !== order.total && row(t('totals.cancelled'), money(order.total - order.cancellation_fee - order.sold_total), 'order-cancelled-total')}
        {order.cancellation_fee > 0 && row(t('totals.fee'), money(order.cancellation_fee), 'order-cancellation-fee')}
        {order.discount && order.discount.amount > 0 && (
          <>
            {row(t('totals.discount', { code: order.discount.code }), `−${money(order.discount.amount)}`, 'order-discount')}
            {order.discount.taxes.map((x) => (
              <Text key={x.vat_rate_bp} size="xs" c="dimmed" ta="right" data-testid="order-discount-vat">
                {t('totals.discountVat', { rate: vatRate(x.vat_rate_bp), tax: money(x.tax) })}
              </Text>
            ))}
          </>
        )}
        {row(t('totals.total'), money(order.total), 'order-total', true)}
        {row(t('totals.vat'), money(order.tax_total), 'order-tax')}
        <Divider my={4} />
        {row(t('totals.paid'), money(order.paid), 'order-paid')}
        {order.refunded !== 0 && row(t('totals.refunded'), money(order.refunded), 'order-refunded')}
        {row(order.balance < 0 ? t('totals.balanceRefund') : t('totals.balance'), money(order.balance), 'order-balance', true)}
        {order.balance > 0 && order.status !== 'Canceled' && order.balance_due_on && row(t('totals.balanceDueOn'), formatDisplayDate(order.balance_due_on), 'order-balance-due-on')}
        <Group justify="space-between" mt={4}>
          <Text size="sm" c="dimmed">
            {t('totals.paymentStatus')}
          </Text>
          <Badge color={PAYMENT_STATUS_COLOR[order.payment_status]} variant="light" data-testid="payment-status">
            {t(`payment.${order.payment_status}`)}
          </Badge>
        </Group>
      </Stack>
    </Card>
  );
}

export function OrderDetailsTab({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
        <Stack>
          <Title order={4}>{t('details.lines')}</Title>
          {order.bookings.length === 0 && <Text c="dimmed">{t('details.noLines')}</Text>}
          {order.bookings.map((b) => (
            <Line key={b.id} order={order} line={b} zone={zone} />
          ))}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
        <Stack>
          <Card withBorder padding="lg" aria-label={t('details.customer')}>
            <Title order={4} mb="sm">
              {t('details.customer')}
            </Title>
            <Anchor component={Link} to={customerPath(order.customer.id)} fw={500}>
              {fullName(order.customer)}
            </Anchor>
            <Text size="sm" c="dimmed">
              {order.customer.email}
            </Text>
            <CustomerLanguage order={order} />
            {(order.seller || order.store) && (
              <Text size="sm" mt="sm">
                {order.seller && t('details.soldBy', { name: order.seller.name })}
                {order.seller && order.store && ' · '}
                {order.store && t('details.store', { name: order.store.name })}
              </Text>
            )}
            {order.qr_code && (
              <Text size="sm" data-testid="order-qr-code">
                {t('details.qr', { name: order.qr_code.name })}
              </Text>
            )}
          </Card>
          <Totals order={order} />
          <Notes order={order} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
