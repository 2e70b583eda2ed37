import { Table } from '@mantine/core';
import type { TBooking } from '@tourdesk/contracts';
import { formatMoney, vatRate } from '../lib/money';

/**
 * A line as sold, item by item (2 × Adult at 89.00), each with its VAT rate, and the line's seats and
 * total: the figures stored when it was sold, whatever the prices and rates are today.
 */
export function LineItems({ line }: { line: Pick<TBooking, 'items' | 'seats' | 'tax' | 'total' | 'currency'> & { tax_rate_pending?: boolean } }) {
  const money = (n: number) => formatMoney(n, line.currency);
  return (
    <Table verticalSpacing={6} aria-label="Items">
      <Table.Tbody>
        {line.items.map((item, i) => (
          <Table.Tr key={`${item.id}-${i}`} data-testid="line-item">
            <Table.Td c={item.kind === 'extra' ? 'dimmed' : undefined}>{item.label}</Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="line-quantity">
              {item.quantity} × {money(item.unit_price)}
            </Table.Td>
            <Table.Td ta="right" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {line.tax_rate_pending ? 'VAT when invoiced' : `VAT ${vatRate(item.tax_rate_bp)}`}
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {money(item.total)}
            </Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td fw={500}>
            {line.seats} seat{line.seats === 1 ? '' : 's'}
          </Table.Td>
          <Table.Td colSpan={2} ta="right" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {line.tax_rate_pending ? 'VAT set when invoiced' : `of which VAT ${money(line.tax)}`}
          </Table.Td>
          <Table.Td ta="right" fw={600}>
            {money(line.total)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

