import { Table } from '@mantine/core';
import { formatBp, type TBooking } from '@tourdesk/contracts';
import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/orders/en';
import { currentLanguage, currentLocale } from '../i18n/language';
import { texts } from '../i18n/texts';
import { formatMoney } from '../lib/money';

/** Its words are the orders domain's (an order's page and a booking's show it). */
const useOrdersT = texts('orders', en);

/** A VAT rate as people read it in the user's language: "8.1 %", "8,1 %". */
const vatRate = (bp: number) => formatBp(bp, currentLanguage() === 'en' ? 'en' : currentLocale());

/**
 * A line as sold, item by item (2 × Adult at 89.00), each with its VAT rate, and the line's seats and
 * total: the figures stored when it was sold, whatever the prices and rates are today.
 */
export function LineItems({ line }: { line: Pick<TBooking, 'items' | 'seats' | 'tax' | 'total' | 'currency'> & { tax_rate_pending?: boolean } }) {
  const t = useOrdersT();
  const money = (n: number) => formatMoney(n, line.currency);
  return (
    <Table verticalSpacing={6} aria-label={t('items.label')}>
      <Table.Tbody>
        {line.items.map((item, i) => (
          <Table.Tr key={`${item.id}-${i}`} data-testid="line-item">
            <Table.Td c={item.kind === 'extra' ? 'dimmed' : undefined}>{item.label}</Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="line-quantity">
              {item.quantity} × {money(item.unit_price)}
            </Table.Td>
            <Table.Td ta="right" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {line.tax_rate_pending ? t('items.vatWhenInvoiced') : t('items.vat', { rate: vatRate(item.tax_rate_bp) })}
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {money(item.total)}
            </Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td fw={500}>
            {t('items.seats', { seats: line.seats })}
          </Table.Td>
          <Table.Td colSpan={2} ta="right" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {line.tax_rate_pending ? t('items.vatSetWhenInvoiced') : t('items.ofWhichVat', { amount: money(line.tax) })}
          </Table.Td>
          <Table.Td ta="right" fw={600}>
            {money(line.total)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

