import { Button, Card, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconFileInvoice, IconPrinter } from '@tabler/icons-react';
import type { TInvoice, TOrder } from '@tourdesk/contracts';
import type { MouseEvent } from 'react';
import { useAppSelector } from '../../shared/hooks/store';
import { formatDisplayDate } from '../../shared/lib/dates';
import { formatMoney } from '../../shared/lib/money';
import { notifySuccess } from '../../shared/lib/toast';
import { useIssueInvoiceMutation, useOrderDownloadMutation, useOrderInvoiceQuery } from './api';
import { vatRate } from './constants';

// On paper only the invoice shows: no navigation, header, tabs or buttons.
const PRINT_CSS = `@media print {
  nav, header, .no-print, .Toastify { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; }
  .invoice-sheet { border: none !important; box-shadow: none !important; background: #fff !important; color: #000 !important; }
  .invoice-sheet * { color: #000 !important; }
}`;

const NOWRAP = { whiteSpace: 'nowrap' } as const;

function Sheet({ invoice, zone }: { invoice: TInvoice; zone?: string }) {
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
          <Title order={2}>Invoice</Title>
          <Text size="sm">
            No. <span data-testid="invoice-number">{invoice.number}</span>
          </Text>
          <Text size="sm">Issued {formatDisplayDate(invoice.issued_at, zone)}</Text>
        </div>
      </Group>
      <Stack gap={0} mb="xl">
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          Bill to
        </Text>
        <Text fw={500}>{customer.name}</Text>
        <Text size="sm">{customer.email}</Text>
        {customer.country && <Text size="sm">{customer.country}</Text>}
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
            ['Paid', money(invoice.paid), 'invoice-paid'],
            ['Balance due', money(invoice.balance), 'invoice-balance'],
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

function Issued({ order }: { order: TOrder }) {
  const zone = useAppSelector((s) => s.auth.user?.base_account?.time_zone);
  const { data: invoice } = useOrderInvoiceQuery(order.id);
  const [download, downloading] = useOrderDownloadMutation();
  const pdf = `orders/${order.id}/invoice.pdf`;
  if (!invoice) return <Loader />;
  return (
    <Stack>
      <Group className="no-print">
        <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          Print
        </Button>
        <Button
          component="a"
          href={`/api/${pdf}`}
          variant="light"
          leftSection={<IconDownload size={16} />}
          loading={downloading.isLoading}
          onClick={(e: MouseEvent) => {
            e.preventDefault();
            void download({ url: pdf, fallbackName: `invoice-${invoice.number}.pdf` });
          }}
        >
          Download PDF
        </Button>
      </Group>
      <Sheet invoice={invoice} zone={zone} />
      <style>{PRINT_CSS}</style>
    </Stack>
  );
}

export function OrderInvoiceTab({ order }: { order: TOrder }) {
  const [issue, issuing] = useIssueInvoiceMutation();
  if (order.invoice) return <Issued order={order} />;
  return (
    <Card withBorder padding="xl" maw={640}>
      <Stack align="flex-start">
        <Group gap="sm">
          <IconFileInvoice size={28} stroke={1.5} />
          <Title order={4}>No invoice yet</Title>
        </Group>
        <Text size="sm" c="dimmed">
          Issuing gives the invoice the next number of your sequence and fixes what it shows. It cannot be withdrawn.
        </Text>
        <Button
          loading={issuing.isLoading}
          onClick={async () => {
            const res = await issue(order.id);
            if (!('error' in res)) notifySuccess(`Invoice ${res.data.number} issued.`);
          }}
        >
          Issue invoice
        </Button>
      </Stack>
    </Card>
  );
}
