import { Badge, Button, Card, Group, Loader, Modal, Paper, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconDownload, IconFileInvoice, IconPrinter } from '@tabler/icons-react';
import { bpToPercent, percentToBp, type TInvoice, type TOrder, type TOrganization } from '@tourdesk/contracts';
import { useState } from 'react';
import { fieldErrors } from '../../shared/api/errors';
import { useAppSelector } from '../../shared/hooks/store';
import { hasPermissions } from '../../shared/lib/permissions';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useInvoiceSellerQuery, useIssueInvoiceMutation, useOrderDocumentQuery, useOrderDownloadMutation, useUpdateInvoiceSellerMutation } from './api';
import { vatRate } from './constants';
import { useOrdersT } from './texts';

// On paper only the invoice shows: no navigation, header, tabs or buttons.
const PRINT_CSS = `@media print {
  nav, header, .no-print, .Toastify { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; }
  .invoice-sheet { border: none !important; box-shadow: none !important; background: #fff !important; color: #000 !important; }
  .invoice-sheet * { color: #000 !important; }
}`;

const NOWRAP = { whiteSpace: 'nowrap' } as const;

function Sheet({ invoice }: { invoice: TInvoice }) {
  const money = (n: number) => formatMoney(n, invoice.currency);
  const { seller, customer } = invoice;
  return (
    <Paper withBorder shadow="xs" p="xl" maw={850} className="invoice-sheet" aria-label="Invoice" data-testid="invoice">
      <Group justify="space-between" align="flex-start" mb="xl">
        <div>
          <Title order={3}>{seller.legal_name || seller.name}</Title>
          {seller.address.split('\n').map((l, i) => (
            <Text key={i} size="sm">
              {l}
            </Text>
          ))}
          {seller.vat_number && <Text size="sm">VAT {seller.vat_number}</Text>}
          {seller.email && <Text size="sm">{seller.email}</Text>}
        </div>
        <div style={{ textAlign: 'right' }}>
          <Title order={2}>{invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice'}</Title>
          <Text size="sm">
            No. <span data-testid="invoice-number">{invoice.number}</span>
          </Text>
          <Text size="sm">Date {formatDisplayDate(invoice.issued_on)}</Text>
          <Text size="sm">Order {invoice.order_reference}</Text>
          {invoice.credits && (
            <Text size="sm" data-testid="credits">
              Cancels invoice {invoice.credits.number} of {formatDisplayDate(invoice.credits.issued_on)}
            </Text>
          )}
        </div>
      </Group>
      <Stack gap={0} mb="xl">
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          Bill to
        </Text>
        <Text fw={500}>{customer.name}</Text>
        {customer.address.split('\n').filter(Boolean).map((l, i) => (
          <Text key={i} size="sm">
            {l}
          </Text>
        ))}
        {customer.country && <Text size="sm">{customer.country}</Text>}
        {customer.vat_number && <Text size="sm">VAT {customer.vat_number}</Text>}
        <Text size="sm">{customer.email}</Text>
      </Stack>
      <Table verticalSpacing="xs" aria-label="Invoice lines" mb="lg">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Description</Table.Th>
            <Table.Th ta="right">Qty</Table.Th>
            <Table.Th ta="right">Unit price</Table.Th>
            <Table.Th ta="right">VAT</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoice.lines.map((l, i) => (
            <Table.Tr key={i}>
              <Table.Td>{l.description}</Table.Td>
              <Table.Td ta="right">{l.quantity}</Table.Td>
              <Table.Td ta="right" style={NOWRAP}>
                {money(l.unit_price)}
              </Table.Td>
              <Table.Td ta="right" style={NOWRAP}>
                {vatRate(l.vat_rate_bp)}
              </Table.Td>
              <Table.Td ta="right" style={NOWRAP}>
                {money(l.total)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        <Table verticalSpacing={4} aria-label="VAT breakdown" fz="sm" style={{ alignSelf: 'start' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th style={NOWRAP}>VAT rate</Table.Th>
              <Table.Th ta="right">Net</Table.Th>
              <Table.Th ta="right">VAT</Table.Th>
              <Table.Th ta="right">Gross</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.taxes.map((t) => (
              <Table.Tr key={t.vat_rate_bp}>
                <Table.Td style={NOWRAP}>{vatRate(t.vat_rate_bp)}</Table.Td>
                <Table.Td ta="right" style={NOWRAP}>
                  {money(t.net)}
                </Table.Td>
                <Table.Td ta="right" style={NOWRAP}>
                  {money(t.tax)}
                </Table.Td>
                <Table.Td ta="right" style={NOWRAP}>
                  {money(t.gross)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Stack gap={4}>
          {[
            ['Net', money(invoice.net_total), 'invoice-net'],
            ['VAT', money(invoice.tax_total), 'invoice-tax'],
            ['Total', money(invoice.total), 'invoice-total'],
            ...(invoice.kind === 'invoice'
              ? [
                  ['Paid', money(invoice.paid), 'invoice-paid'],
                  ['Balance due', money(invoice.balance), 'invoice-balance'],
                ]
              : []),
          ].map(([label, value, id]) => (
            <Group key={id} justify="space-between">
              <Text size="sm" fw={label === 'Total' || label === 'Balance due' ? 700 : undefined}>
                {label}
              </Text>
              <Text size="sm" fw={label === 'Total' || label === 'Balance due' ? 700 : undefined} data-testid={id}>
                {value}
              </Text>
            </Group>
          ))}
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}

/** The order's invoices and credit notes, oldest first; one is shown below. */
function Documents({ order, selected, onSelect }: { order: TOrder; selected: string; onSelect: (id: string) => void }) {
  const t = useOrdersT();
  const [download, downloading] = useOrderDownloadMutation();
  return (
    <Table verticalSpacing="xs" aria-label={t('invoice.documents')} className="no-print" maw={850}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('invoice.col.number')}</Table.Th>
          <Table.Th>{t('invoice.col.date')}</Table.Th>
          <Table.Th ta="right">{t('invoice.col.total')}</Table.Th>
          <Table.Th>{t('invoice.col.state')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {order.invoices.map((d) => (
          <Table.Tr key={d.id} data-testid="invoice-document" bg={d.id === selected ? 'var(--mantine-color-default-hover)' : undefined}>
            <Table.Td>
              <Button variant="subtle" size="compact-sm" onClick={() => onSelect(d.id)} aria-pressed={d.id === selected}>
                {d.kind === 'credit_note' ? t('invoice.creditNote', { number: d.number }) : t('invoice.invoice', { number: d.number })}
              </Button>
            </Table.Td>
            <Table.Td style={NOWRAP}>{formatDisplayDate(d.issued_on)}</Table.Td>
            <Table.Td ta="right" style={NOWRAP}>
              {formatMoney(d.total, d.currency)}
            </Table.Td>
            <Table.Td>
              {d.credits ? (
                <Badge variant="light" color="grape">
                  {t('invoice.cancels', { number: d.credits })}
                </Badge>
              ) : d.credited_by ? (
                <Badge variant="light" color="gray">
                  {t('invoice.cancelledBy', { number: d.credited_by })}
                </Badge>
              ) : (
                <Badge variant="light" color="green">
                  {t('invoice.current')}
                </Badge>
              )}
            </Table.Td>
            <Table.Td ta="right">
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconDownload size={14} />}
                loading={downloading.isLoading && downloading.originalArgs?.url.includes(d.id)}
                aria-label={t('invoice.downloadPdf', { number: d.number })}
                onClick={() => void download({ url: `orders/${order.id}/invoices/${d.id}/pdf/`, fallbackName: `${d.number}.pdf` })}
              >
                PDF
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Shown({ order, id }: { order: TOrder; id: string }) {
  const t = useOrdersT();
  const { data: invoice } = useOrderDocumentQuery({ order: order.id, id });
  if (!invoice || invoice.id !== id) return <Loader />;
  return (
    <>
      <Group className="no-print">
        <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          {t('invoice.print')}
        </Button>
      </Group>
      <Sheet invoice={invoice} />
      <style>{PRINT_CSS}</style>
    </>
  );
}

type SellerField = 'billing_address' | 'vat_number' | 'vat_rate_bp';
const SELLER_FIELDS: SellerField[] = ['billing_address', 'vat_number', 'vat_rate_bp'];

/** What the seller's invoices cannot be issued without, and is still missing. */
export function missingSellerDetails(org: Pick<TOrganization, SellerField>): SellerField[] {
  return SELLER_FIELDS.filter((f) => (f === 'vat_rate_bp' ? org.vat_rate_bp <= 0 : !org[f].trim()));
}

/**
 * "Issue invoice": first the seller's details an invoice cannot be issued without (asked here when
 * missing, for those who may change them), then a confirmation naming the number it will take.
 */
function IssueInvoice({ order }: { order: TOrder }) {
  const t = useOrdersT();
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  const canManageAccount = hasPermissions(user, appInfo, ['Manage account']);
  const { data: seller } = useInvoiceSellerQuery(undefined, { skip: !canManageAccount });
  const [issue, issuing] = useIssueInvoiceMutation();
  const [saveSeller, saving] = useUpdateInvoiceSellerMutation();
  const [step, setStep] = useState<'idle' | 'details' | 'confirm'>('idle');
  const [details, setDetails] = useState({ billing_address: '', vat_number: '', vat_rate: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const missing = seller ? missingSellerDetails(seller) : [];
  const begin = () => {
    if (missing.length) {
      setDetails({ billing_address: seller!.billing_address, vat_number: seller!.vat_number, vat_rate: seller!.vat_rate_bp ? String(bpToPercent(seller!.vat_rate_bp)) : '' });
      setErrors({});
      setStep('details');
    } else setStep('confirm');
  };
  const saveDetails = async () => {
    const rate = Number(details.vat_rate.replace(',', '.'));
    const local: Record<string, string> = {};
    if (missing.includes('billing_address') && !details.billing_address.trim()) local.billing_address = t('invoice.needAddress');
    if (missing.includes('vat_number') && !details.vat_number.trim()) local.vat_number = t('invoice.needVatNumber');
    if (missing.includes('vat_rate_bp') && !(rate > 0 && rate <= 100)) local.vat_rate_bp = t('invoice.needVatRate');
    setErrors(local);
    if (Object.keys(local).length) return;
    const body = {
      ...(missing.includes('billing_address') ? { billing_address: details.billing_address.trim() } : {}),
      ...(missing.includes('vat_number') ? { vat_number: details.vat_number.trim() } : {}),
      ...(missing.includes('vat_rate_bp') ? { vat_rate_bp: percentToBp(rate) } : {}),
    };
    const res = await saveSeller(body);
    if ('error' in res) return setErrors(fieldErrors(res.error));
    setStep('confirm');
  };
  const confirm = async () => {
    const res = await issue(order.id);
    if ('error' in res) return setStep('idle');
    setStep('idle');
    notifySuccess(t('invoice.issued', { number: res.data.number }));
  };
  return (
    <Card withBorder padding="xl" maw={640}>
      <Stack align="flex-start">
        <Group gap="sm">
          <IconFileInvoice size={28} stroke={1.5} />
          <Title order={4}>{order.invoices.length ? t('invoice.noCurrent') : t('invoice.noneYet')}</Title>
        </Group>
        <Text size="sm" c="dimmed">
          {t('invoice.issuingHint')}
        </Text>
        <Button onClick={begin} disabled={order.total === 0 || (canManageAccount && !seller)}>
          {t('invoice.issue')}
        </Button>
      </Stack>
      <Modal opened={step === 'details'} onClose={() => setStep('idle')} title={t('invoice.beforeFirst')} centered>
        <Stack>
          <Text size="sm">{t('invoice.detailsNeeded')}</Text>
          {missing.includes('billing_address') && (
            <Textarea label={t('invoice.billingAddress')} autosize minRows={3} value={details.billing_address} error={errors.billing_address} onChange={(e) => setDetails({ ...details, billing_address: e.currentTarget.value })} required />
          )}
          {missing.includes('vat_number') && (
            <TextInput label={t('invoice.vatNumber')} value={details.vat_number} error={errors.vat_number} onChange={(e) => setDetails({ ...details, vat_number: e.currentTarget.value })} required />
          )}
          {missing.includes('vat_rate_bp') && (
            <TextInput
              label={t('invoice.vatRate')}
              description={t('invoice.vatRateHint')}
              inputMode="decimal"
              value={details.vat_rate}
              error={errors.vat_rate_bp}
              onChange={(e) => setDetails({ ...details, vat_rate: e.currentTarget.value })}
              required
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep('idle')}>
              {t('invoice.cancel')}
            </Button>
            <Button loading={saving.isLoading} onClick={saveDetails}>
              {t('invoice.saveContinue')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={step === 'confirm'} onClose={() => !issuing.isLoading && setStep('idle')} title={t('invoice.confirmTitle')} centered>
        <Stack>
          <Text size="sm" data-testid="issue-confirmation">
            {(() => {
              const values = { amount: formatMoney(order.total, order.currency), customer: `${order.customer.first_name} ${order.customer.last_name}` };
              return seller ? t('invoice.confirmNumbered', { ...values, number: seller.next_invoice_number }) : t('invoice.confirm', values);
            })()}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep('idle')} disabled={issuing.isLoading}>
              {t('invoice.notYet')}
            </Button>
            <Button loading={issuing.isLoading} onClick={confirm}>
              {t('invoice.issue')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

export function OrderInvoiceTab({ order }: { order: TOrder }) {
  const newest = order.invoice?.id ?? order.invoices.at(-1)?.id;
  const [picked, setPicked] = useState<string | null>(null);
  const selected = picked && order.invoices.some((d) => d.id === picked) ? picked : newest;
  return (
    <Stack>
      {!order.invoice && order.status !== 'Canceled' && order.total > 0 && <IssueInvoice order={order} />}
      {order.invoices.length > 0 && <Documents order={order} selected={selected!} onSelect={setPicked} />}
      {selected && <Shown order={order} id={selected} />}
    </Stack>
  );
}
