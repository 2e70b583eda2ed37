import { Badge, Button, Card, Group, Loader, Modal, Paper, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconDownload, IconFileInvoice, IconPrinter } from '@tabler/icons-react';
import { bpToPercent, formatBp, moneyText, percentToBp, type TInvoice, type TOrder, type TOrganization } from '@tourdesk/contracts';
import { useState } from 'react';
import { fieldErrors } from '../../shared/api/errors';
import { useAppSelector } from '../../shared/hooks/store';
import { hasPermissions } from '../../shared/lib/permissions';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useInvoiceSellerQuery, useIssueInvoiceMutation, useOrderDocumentQuery, useOrderDownloadMutation, useUpdateInvoiceSellerMutation } from './api';
import { documentDate, useInvoiceT } from './invoice-texts';
import { useOrdersT } from './texts';

// On paper only the invoice shows: no navigation, header, tabs or buttons.
const PRINT_CSS = `@media print {
  nav, header, .no-print, .Toastify { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; }
  .invoice-sheet { border: none !important; box-shadow: none !important; background: #fff !important; color: #000 !important; }
  .invoice-sheet * { color: #000 !important; }
}`;

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** A VAT rate as on screen ("8.1 %"), its decimal mark the document's ("8,1 %"). */
const rateIn = (locale: string, bp: number) => formatBp(bp, locale);

/** A line of the totals: its label and its amount. */
function Row({ label, value, id, strong }: { label: string; value: string; id: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" fw={strong ? 700 : undefined}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : undefined} style={NOWRAP} data-testid={id}>
        {value}
      </Text>
    </Group>
  );
}

/**
 * The issued document as its PDF reads (OrderInvoiceTab's sheet): its words, dates and money in the
 * language it was issued in (invoice.language), from the customer catalogs the PDF is drawn from —
 * not the user's. Only what the user alone meets (the labels for assistive technology) is theirs.
 */
function Sheet({ invoice }: { invoice: TInvoice }) {
  const tr = useOrdersT();
  const t = useInvoiceT(invoice.language);
  if (!t) return <Loader />;
  const money = (n: number) => moneyText(n, invoice.currency, t.locale);
  const rate = (bp: number) => rateIn(t.locale, bp);
  const date = (day: string) => documentDate(t, day);
  const { seller, customer } = invoice;
  // The title as the PDF writes it ("Rechnung INV-2026-00042"), its number marked for the tests.
  const [before, after = ''] = t('invoice.title', { kind: invoice.kind, number: '\u0001' }).split('\u0001');
  return (
    <Paper withBorder shadow="xs" p="xl" maw={850} className="invoice-sheet" lang={t.locale} aria-label={invoice.kind === 'credit_note' ? tr('invoice.sheet.creditNote') : tr('invoice.sheet.invoice')} data-testid="invoice">
      <Group justify="space-between" align="flex-start" mb="xl">
        <div>
          <Title order={3}>{seller.legal_name || seller.name}</Title>
          {seller.address.split('\n').map((l, i) => (
            <Text key={i} size="sm">
              {l}
            </Text>
          ))}
          {seller.email && <Text size="sm">{seller.email}</Text>}
          {seller.vat_number && <Text size="sm">{t('invoice.vatNumber', { number: seller.vat_number })}</Text>}
        </div>
        <div style={{ textAlign: 'right' }}>
          <Title order={2}>
            {before}
            <span data-testid="invoice-number">{invoice.number}</span>
            {after}
          </Title>
          <Text size="sm">{t('invoice.date', { date: date(invoice.issued_on) })}</Text>
          <Text size="sm">{t('invoice.order', { reference: invoice.order_reference })}</Text>
          {invoice.credits && (
            <Text size="sm" data-testid="credits">
              {t('invoice.cancels', { number: invoice.credits.number })} {t('invoice.cancelsOf', { date: date(invoice.credits.issued_on) })}
            </Text>
          )}
        </div>
      </Group>
      <Stack gap={0} mb="xl">
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          {t('invoice.billTo')}
        </Text>
        <Text fw={500}>{customer.name}</Text>
        {customer.address.split('\n').filter(Boolean).map((l, i) => (
          <Text key={i} size="sm">
            {l}
          </Text>
        ))}
        {customer.country && <Text size="sm">{customer.country}</Text>}
        {customer.vat_number && <Text size="sm">{t('invoice.vatNumber', { number: customer.vat_number })}</Text>}
        <Text size="sm">{customer.email}</Text>
      </Stack>
      <Table verticalSpacing="xs" aria-label={tr('invoice.sheet.lines')} mb="lg">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('invoice.description')}</Table.Th>
            <Table.Th ta="right">{t('invoice.quantity')}</Table.Th>
            <Table.Th ta="right">{t('invoice.unitPrice')}</Table.Th>
            <Table.Th ta="right">{t('invoice.vat')}</Table.Th>
            <Table.Th ta="right">{t('invoice.amount')}</Table.Th>
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
                {rate(l.vat_rate_bp)}
              </Table.Td>
              <Table.Td ta="right" style={NOWRAP}>
                {money(l.total)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Stack gap={4} ml="auto" w="100%" maw={420}>
        <Row label={t('invoice.net')} value={money(invoice.net_total)} id="invoice-net" />
        <Table aria-label={tr('invoice.sheet.vatBreakdown')} fz="sm" withRowBorders={false} horizontalSpacing={0} verticalSpacing={0}>
          <Table.Tbody>
            {invoice.taxes.map((x) => (
              <Table.Tr key={x.vat_rate_bp}>
                <Table.Td>{t('invoice.vatOn', { rate: rate(x.vat_rate_bp), net: money(x.net) })}</Table.Td>
                <Table.Td ta="right" style={NOWRAP}>
                  {money(x.tax)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Row label={t('invoice.total')} value={money(invoice.total)} id="invoice-total" strong />
        {invoice.kind === 'invoice' && (
          <>
            <Row label={t('invoice.paid')} value={money(invoice.paid)} id="invoice-paid" />
            <Row label={t('invoice.balanceDue')} value={money(invoice.balance)} id="invoice-balance" strong />
          </>
        )}
      </Stack>
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
